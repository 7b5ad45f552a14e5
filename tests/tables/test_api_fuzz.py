"""Whatever a client sends, the API answers with a clear error, never a 500 (Hypothesis)."""

import json
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import ApiToken
from rules import registry
from tables import services
from tests.tables.fuzzing import any_text, fuzz_settings, json_values, raw_bodies

pytestmark = [pytest.mark.django_db]

POST_ENDPOINTS = ("token", "tables", "join", "start", "moves", "concede", "reclaim", "abort")
move_like = st.fixed_dictionaries(
    {},
    optional={
        "move": json_values
        | st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "bid", "steal", "discard", "x"])},
            optional={"card": json_values, "tricks": json_values, "from": json_values},
        ),
        "seq": json_values | st.integers(-2, 3),
    },
)


@pytest.fixture
def game(alice, bob, monkeypatch):
    # Hundreds of tables are created here on purpose: lift the per-account limits (tested on their own).
    monkeypatch.setattr(services, "CREATE_LIMIT", 10**9)
    monkeypatch.setattr(services, "MAX_UNFINISHED_TABLES", 10**9)
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    return table, ApiToken.issue(alice)[1], ApiToken.issue(bob)[1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=move_like | json_values)
def test_moves_never_500(client, game, body):
    table, a, _ = game
    r = client.post(
        f"/api/tables/{table.pk}/moves",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {a}",
    )
    assert r.status_code in (200, 400, 403, 409), r.content
    assert "error" in r.json() or r.status_code == 200


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(sorted(registry.games())) | json_values,
            "players": st.integers(-1, 9) | json_values,
            "options": json_values,
            "bots": json_values
            | st.lists(
                st.fixed_dictionaries({}, optional={"seat": json_values, "level": json_values}), max_size=3
            ),
            "move_time": json_values,
        },
    )
    | json_values
)
def test_creating_tables_never_500(client, game, body):
    _, a, _ = game
    r = client.post(
        "/api/tables",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {a}",
    )
    assert r.status_code in (201, 400), r.content
    assert "error" in r.json() or r.status_code == 201


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_join_and_token_never_500(client, game, body):
    table, _, b = game
    r = client.post(
        f"/api/tables/{table.pk}/join",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {b}",
    )
    assert r.status_code in (400, 409), r.content
    r = client.post("/api/token", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (400, 429), r.content


def assert_clean(r, allowed):
    assert r.status_code in allowed, (r.status_code, r.content[:300])
    assert r.status_code < 300 or set(r.json()) == {"error"}


@pytest.mark.slow
@fuzz_settings(300)
@given(body=raw_bodies, private=st.booleans(), invite=st.none() | any_text)
def test_every_post_endpoint_answers_any_body_with_json_never_a_500(
    client, game, charlie, body, private, invite
):
    """Random, nested, huge, mistyped, NUL-laden or undecodable bodies on all 8 POST endpoints: 8 inputs each."""
    table, a, _ = game
    if private:  # the table of someone else, reachable or not by the invite the body may carry
        table = services.create_table(charlie, "cosmic_crowns", 2, private=True)
    query = "" if invite is None else "?" + urlencode({"invite": invite.encode("utf-8", "surrogatepass")})
    for endpoint in POST_ENDPOINTS:
        path = "/api/token" if endpoint == "token" else "/api/tables" if endpoint == "tables" else None
        path = path or f"/api/tables/{table.pk}/{endpoint}"
        r = client.post(
            path + query, data=body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {a}"
        )
        assert_clean(r, (200, 201, 400, 403, 404, 409, 429))


@fuzz_settings(150)
@given(
    params=st.dictionaries(
        st.sampled_from(["user", "game", "invite", "page", "x"]),
        st.sampled_from(["alice", "bob", "cosmic_crowns", "", "\x00"]) | any_text,
        max_size=3,
    ),
    private=st.booleans(),
)
def test_reading_endpoints_answer_any_query_never_a_500(client, game, charlie, params, private):
    """?user=, ?game=, ?invite= of any text on the three reading endpoints: 3 inputs each."""
    table, a, _ = game
    if private:
        table = services.create_table(charlie, "cosmic_crowns", 2, private=True)
    query = urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in params.items()})
    for path in (f"/api/tables/{table.pk}", f"/api/tables/{table.pk}/moves", "/api/history"):
        r = client.get(f"{path}?{query}", HTTP_AUTHORIZATION=f"Bearer {a}")
        assert_clean(r, (200, 400, 404))
