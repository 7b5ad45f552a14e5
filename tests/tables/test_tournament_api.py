"""The tournaments' JSON API, as the README's API section (and issue 33) describe it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import ApiToken
from tables.models import Table, Tournament

pytestmark = pytest.mark.django_db

SWISS = {"game": "cosmic_crowns", "format": "swiss", "table_size": 2, "rounds": 2, "move_time": 86400}


@pytest.fixture
def call(client):
    def call(method, path, body=None, token=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        if method == "GET":
            r = client.get(path, **headers)
        else:
            data = body if isinstance(body, (str, bytes)) else json.dumps(body if body is not None else {})
            r = client.post(path, data=data, content_type="application/json", **headers)
        return r.status_code, (r.json() if r.content else None)

    return call


def token_for(user):
    return ApiToken.issue(user)[1]


def test_a_swiss_tournament_is_created_joined_and_started_through_the_api(call, alice, bob, charlie):
    a, b, c = token_for(alice), token_for(bob), token_for(charlie)
    status, body = call("POST", "/api/tournaments", {**SWISS, "max_players": 8, "rated": True}, a)
    assert status == 201
    assert {k: body[k] for k in ("game", "format", "status", "round", "players", "standings", "rounds")} == {
        "game": "cosmic_crowns",
        "format": "swiss",
        "status": "open",
        "round": 0,
        "players": [],
        "standings": [],
        "rounds": [],
    }
    pk = body["id"]
    assert call("GET", f"/api/tournaments/{pk}", token=b)[1] == body
    for token in (a, b, c):
        assert call("POST", f"/api/tournaments/{pk}/join", token=token)[0] == 200
    assert call("POST", f"/api/tournaments/{pk}/join", token=b) == (
        409,
        {"error": "You are in this tournament already."},
    )
    assert call("POST", f"/api/tournaments/{pk}/start", token=b)[0] == 403
    status, body = call("POST", f"/api/tournaments/{pk}/start", token=a)
    assert status == 200 and body["status"] == "running" and body["round"] == 1
    assert body["players"] == ["alice", "bob", "charlie"]
    assert [s["username"] for s in body["standings"]] and set(body["standings"][0]) == {
        "rank",
        "username",
        "points",
        "tiebreak",
        "games",
    }
    (first_round,) = body["rounds"]
    assert len(first_round) == 1  # one duel, one bye (scored as a win)
    assert sorted(s["points"] for s in body["standings"]) == [0, 0, 1]
    status, table = call("GET", f"/api/tables/{first_round[0]}", token=a)
    assert status == 200 and table["tournament"] == pk and table["status"] == "playing"
    assert call("POST", f"/api/tournaments/{pk}/start", token=a)[0] == 409
    assert call("POST", f"/api/tournaments/{pk}/join", token=token_for(alice))[0] == 409
    assert call("GET", "/api/tables/" + str(first_round[0]), token=a)[1]["move_time"] == 86400


def test_an_ordinary_table_belongs_to_no_tournament(call, alice):
    token = token_for(alice)
    status, table = call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2}, token)
    assert status == 201 and table["tournament"] is None


def test_the_list_filters_by_status_and_game(call, alice):
    token = token_for(alice)
    swiss = call("POST", "/api/tournaments", SWISS, token)[1]["id"]
    arena = call(
        "POST",
        "/api/tournaments",
        {"game": "five_crowns", "format": "arena", "table_size": 3, "minutes": 60, "move_time": 120},
        token,
    )[1]["id"]
    Tournament.objects.filter(pk=arena).update(status=Tournament.RUNNING)
    assert [t["id"] for t in call("GET", "/api/tournaments", token=token)[1]] == [arena, swiss]
    assert [t["id"] for t in call("GET", "/api/tournaments?status=open", token=token)[1]] == [swiss]
    running = call("GET", "/api/tournaments?status=running&game=five_crowns", token=token)[1]
    assert [t["id"] for t in running] == [arena]
    assert call("GET", "/api/tournaments?game=five_crowns&status=finished", token=token)[1] == []
    assert call("GET", "/api/tournaments?status=later", token=token)[0] == 400
    assert call("GET", "/api/tournaments?game=chess", token=token)[0] == 400
    assert call("GET", "/api/tournaments")[0] == 401
    detail = call("GET", f"/api/tournaments/{arena}", token=token)[1]
    assert detail["tables"] == [] and "rounds" not in detail and "round" not in detail


def test_an_arena_starts_with_its_tables_listed(call, alice, bob):
    a = token_for(alice)
    body = {"game": "cosmic_crowns", "format": "arena", "table_size": 2, "minutes": 30, "move_time": 300}
    pk = call("POST", "/api/tournaments", {**body, "bots": {"count": 1, "level": "strong"}}, a)[1]["id"]
    call("POST", f"/api/tournaments/{pk}/join", token=a)
    status, body = call("POST", f"/api/tournaments/{pk}/start", token=a)
    assert status == 200 and body["status"] == "running" and len(body["tables"]) == 1
    assert body["players"] == ["alice", "Ada (bot)"]
    assert Table.objects.get(pk=body["tables"][0]).seats.get(index=1).bot == "strong"
    assert call("POST", f"/api/tournaments/{pk}/pause", {"paused": True}, a)[0] == 200
    assert call("POST", f"/api/tournaments/{pk}/pause", {"paused": "yes"}, a)[0] == 400
    assert call("POST", f"/api/tournaments/{pk}/leave", token=a)[0] == 200  # a withdrawal
    assert call("POST", f"/api/tournaments/{pk}/leave", token=a)[0] == 409
    assert call("POST", f"/api/tournaments/{pk}/join", token=token_for(bob))[0] == 409


@pytest.mark.parametrize(
    "change, message",
    [
        ({"game": "chess"}, "Unknown game"),
        ({"format": "knockout"}, "format"),
        ({"table_size": 9}, "takes 2 to 6"),
        ({"table_size": "2"}, "table_size"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": None}, "rounds"),
        ({"minutes": 30}, "minutes is for an arena"),
        ({"move_time": None}, "move_time"),
        ({"move_time": 5}, "clock"),
        ({"rated": "yes"}, "rated"),
        ({"max_players": 1}, "max_players"),
        ({"starts_at": "tomorrow"}, "ISO 8601"),
        ({"starts_at": "2001-01-01T00:00:00Z"}, "past"),
        ({"bots": {"count": -1}}, "bots.count"),
        ({"bots": {"count": 1, "level": "godlike"}}, "level"),
        ({"bots": [1]}, "bots"),
        ({"options": []}, "options"),
        ({"description": 5}, "description"),
    ],
)
def test_bad_input_is_refused_with_a_message(call, alice, change, message):
    status, body = call("POST", "/api/tournaments", {**SWISS, **change}, token_for(alice))
    assert status == 400 and message in body["error"]
    assert not Tournament.objects.exists()


def test_changes_need_a_token_and_an_existing_tournament(call, alice):
    assert call("POST", "/api/tournaments", SWISS)[0] == 401
    assert call("POST", "/api/tournaments/1/join")[0] == 401
    token = token_for(alice)
    assert call("POST", "/api/tournaments/999/join", token=token)[0] == 404
    assert call("GET", "/api/tournaments/999", token=token)[0] == 404
    assert call("POST", "/api/tournaments", "[1, 2]", token)[0] == 400
    assert call("POST", "/api/tournaments", "{nope", token)[0] == 400


TOKENS: dict = {}  # (one token per examples' run: an account holds at most 20)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(sorted({*SWISS, "minutes", "bots", "starts_at", "max_players"})), json_values
    )
)
def test_random_fields_never_cause_a_500(call, alice, changes):
    if alice.pk not in TOKENS:
        TOKENS[alice.pk] = token_for(alice)
    token = TOKENS[alice.pk]
    status, body = call("POST", "/api/tournaments", {**SWISS, **changes}, token)
    assert status in (201, 400, 429) and (status == 201 or "error" in body)


def test_a_private_tournament_is_seen_and_joined_only_through_its_invite(call, alice, bob, charlie):
    a, b, c = token_for(alice), token_for(bob), token_for(charlie)
    created = call("POST", "/api/tournaments", {**SWISS, "private": True}, a)[1]
    pk, invite = created["id"], created["invite"]
    assert created["private"] is True
    assert call("GET", f"/api/tournaments/{pk}", token=b)[0] == 404
    assert call("POST", f"/api/tournaments/{pk}/join", token=b)[0] == 404
    assert call("GET", "/api/tournaments", token=b)[1] == []
    assert [t["id"] for t in call("GET", "/api/tournaments", token=a)[1]] == [pk]
    status, body = call("POST", f"/api/tournaments/{pk}/join", {"invite": invite}, b)
    assert status == 200 and body["players"] == ["bob"] and body["invite"] == invite
    assert call("GET", f"/api/tournaments/{pk}", token=b)[0] == 200  # a player now
    assert "invite" not in call("GET", f"/api/tournaments/{pk}?invite={invite}", token=c)[1]
    call("POST", f"/api/tournaments/{pk}/join", token=a)
    started = call("POST", f"/api/tournaments/{pk}/start", token=a)[1]
    assert Table.objects.get(pk=started["rounds"][0][0]).private
    assert call("POST", "/api/tournaments", {**SWISS, "private": "yes"}, a)[0] == 400
