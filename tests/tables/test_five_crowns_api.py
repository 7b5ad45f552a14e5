"""A whole Five Crowns game through the JSON API: token, create, join, start, 11 rounds of moves."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client):
    class Api:
        def __init__(self):
            self.token = None

        def call(self, method, path, body=None):
            headers = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"} if self.token else {}
            if method == "GET":
                r = client.get(path, **headers)
            else:
                r = client.post(path, data=json.dumps(body or {}), content_type="application/json", **headers)
            return r.status_code, (r.json() if r.content else None)

    return Api


def login(api, username):
    a = api()
    status, body = a.call("POST", "/api/token", {"username": username, "password": PASSWORD})
    assert status == 201
    a.token = body["token"]
    return a


def test_five_crowns_is_listed_for_2_to_8_players(api):
    status, games = api().call("GET", "/api/games")
    assert status == 200
    fc = next(g for g in games if g["slug"] == "five_crowns")
    assert fc["title"] == "Five Crowns" and (fc["min_players"], fc["max_players"]) == (2, 8)


@pytest.mark.parametrize("players", [2, 7, 8])
def test_a_table_of_any_size_opens_through_the_api(api, alice, players):
    a = login(api, "alice")
    status, table = a.call("POST", "/api/tables", {"game": "five_crowns", "players": players})
    assert status == 201 and table["players"] == players and len(table["seats"]) == players


@pytest.mark.slow
def test_a_whole_eleven_round_game_through_the_api(api, alice, bob, charlie, make_user, monkeypatch):
    monkeypatch.setattr("tables.services.secrets.randbits", lambda bits: 20261174)  # a reproducible deal
    a, b, c = login(api, "alice"), login(api, "bob"), login(api, "charlie")
    status, table = a.call("POST", "/api/tables", {"game": "five_crowns", "players": 3})
    assert status == 201 and table["status"] == "open"
    tid = table["id"]
    assert b.call("POST", f"/api/tables/{tid}/join")[1] == {"seat": 1}
    assert c.call("POST", f"/api/tables/{tid}/join")[1] == {"seat": 2}
    status, table = a.call("POST", f"/api/tables/{tid}/start")
    assert status == 200 and table["status"] == "playing"
    assert table["view"]["round"] == 1 and table["view"]["wild_label"] == "3"
    players = [a, b, c]
    rnd = random.Random(7)
    went_out = 0
    moves = 0
    me = a
    while True:
        _, t = me.call("GET", f"/api/tables/{tid}")
        if t["status"] != "playing":
            break
        seat = t["to_act"][0]
        if players[seat] is not me:
            me = players[seat]
            _, t = me.call("GET", f"/api/tables/{tid}")
        view = t["view"]
        assert len(view["hand"]) == view["hand_sizes"][seat]
        legal = t["legal_moves"]
        outs = [m for m in legal if m["type"] == "go_out"]
        # The view's go-out hint is there exactly when a go_out move is legal, and is one of them.
        assert (view["go_out"] is not None) == bool(outs)
        if outs:
            assert {"type": "go_out", "card": view["go_out"]["discard"]} in outs
            move = {"type": "go_out", "card": view["go_out"]["discard"]}
            went_out += view["went_out"] is None
        else:
            move = rnd.choice(legal)
        status, body = me.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": t["seq"]})
        assert (status, body) == (200, {"seq": t["seq"] + 1})
        moves += 1
        assert moves < 5000
    _, t = c.call("GET", f"/api/tables/{tid}")
    view = t["view"]
    assert t["status"] == "finished" and view["over"]
    make_user("dave")
    _, watched = login(api, "dave").call("GET", f"/api/tables/{tid}")
    assert "hand" not in watched["view"] and watched["legal_moves"] == []
    assert len(view["sheet"]) == 11 and view["last_round"]["round"] == 11
    totals = [sum(row[s] for row in view["sheet"]) for s in range(3)]
    assert view["scores"] == totals == t["result"]["scores"]
    low = min(totals)
    assert t["result"]["winners"] == view["winners"] == [s for s in range(3) if totals[s] == low]
    assert went_out == 11  # with this deal, someone goes out in every round
    _, history = b.call("GET", "/api/history?game=five_crowns")
    assert history[0]["id"] == tid and history[0]["scores"] == totals
    assert history[0]["winners"] == [s for s in range(3) if totals[s] == low]
