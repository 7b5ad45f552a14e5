"""The JSON API, exactly as CONTRACTS §2 describes it."""

import json
import random

import pytest

from accounts.models import ApiToken
from rules import IllegalMove, registry
from tables.models import Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client):
    class Api:
        def __init__(self):
            self.token = None

        def call(self, method, path, body=None, token=None):
            token = token if token is not None else self.token
            headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
            if method == "GET":
                r = client.get(path, **headers)
            else:
                data = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
                r = client.post(path, data=data, content_type="application/json", **headers)
            return r.status_code, (r.json() if r.content else None)

    return Api


def token_for(user):
    return ApiToken.issue(user)[1]


def test_post_token_gives_a_working_token(api, alice):
    a = api()
    status, body = a.call("POST", "/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 201 and body["token"]
    a.token = body["token"]
    status, _ = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2})
    assert status == 201


def test_post_token_refuses_a_wrong_password_and_throttles(api, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    a = api()
    for _ in range(3):
        assert a.call("POST", "/api/token", {"username": "alice", "password": "nope"})[0] == 400
    status, body = a.call("POST", "/api/token", {"username": "alice", "password": PASSWORD})
    assert status == 429 and "Too many" in body["error"]


def test_games_lists_every_game_without_a_token(api):
    status, body = api().call("GET", "/api/games")
    assert status == 200
    cc = next(g for g in body if g["slug"] == "cosmic_crowns")
    assert cc["title"] == "Cosmic Crowns" and (cc["min_players"], cc["max_players"]) == (2, 6)
    assert cc["options"]["mode"]["choices"] == ["easy", "hard"]


@pytest.mark.parametrize("path", ["/api/tables/1", "/api/history", "/api/tables/1/moves"])
def test_it_needs_a_token(api, path):
    status, body = api().call("GET", path)
    assert status == 401 and "error" in body
    status, _ = api().call("GET", path, token="bad-token")
    assert status == 401


def test_a_whole_game_through_the_api(api, alice, bob, charlie):
    a, b, c = api(), api(), api()
    a.token, b.token, c.token = token_for(alice), token_for(bob), token_for(charlie)
    status, table = a.call(
        "POST", "/api/tables", {"game": "cosmic_crowns", "players": 2, "options": {"mode": "hard"}}
    )
    assert status == 201
    assert (
        table["status"] == "open"
        and table["view"] is None
        and table["to_act"] == []
        and table["legal_moves"] == []
    )
    assert table["seats"] == [
        {"seat": 0, "user": "alice", "bot": None},
        {"seat": 1, "user": None, "bot": None},
    ]
    tid = table["id"]
    assert b.call("POST", f"/api/tables/{tid}/start")[0] == 403
    assert a.call("POST", f"/api/tables/{tid}/start")[0] == 409
    assert b.call("POST", f"/api/tables/{tid}/join", {}) == (200, {"seat": 1})
    assert b.call("POST", f"/api/tables/{tid}/join", {})[0] == 409
    assert c.call("POST", f"/api/tables/{tid}/join", {})[0] == 409
    status, table = a.call("POST", f"/api/tables/{tid}/start")
    assert status == 200 and table["status"] == "playing" and table["seq"] == 0
    players = {0: a, 1: b}
    rnd = random.Random(1)
    for _ in range(3000):
        _, t = a.call("GET", f"/api/tables/{tid}")
        if t["status"] != "playing":
            break
        seat = t["to_act"][0]
        _, mine = players[seat].call("GET", f"/api/tables/{tid}")
        assert mine["view"]["hand"] is not None
        move = rnd.choice(mine["legal_moves"])
        status, body = players[seat].call(
            "POST", f"/api/tables/{tid}/moves", {"move": move, "seq": mine["seq"]}
        )
        assert status == 200 and body == {"seq": mine["seq"] + 1}
    _, t = c.call("GET", f"/api/tables/{tid}")
    assert t["status"] == "finished" and "hand" not in t["view"]
    status, history = a.call("GET", "/api/history")
    assert status == 200 and history[0]["id"] == tid
    assert history[0]["players"] == ["alice", "bob"] and history[0]["game"] == "cosmic_crowns"
    assert set(history[0]) == {"id", "game", "players", "scores", "winners", "finished_at"}
    assert c.call("GET", "/api/history?user=bob&game=cosmic_crowns")[1][0]["id"] == tid
    assert c.call("GET", "/api/history?user=bob&game=five_crowns")[1] == []
    status, moves = c.call("GET", f"/api/tables/{tid}/moves")
    assert status == 200 and [m["seq"] for m in moves] == list(range(len(moves)))
    assert set(moves[0]) == {"seq", "seat", "move", "at"}


def test_move_refusals_follow_the_contract_order(api, alice, bob, charlie):
    a, b, c = api(), api(), api()
    a.token, b.token, c.token = token_for(alice), token_for(bob), token_for(charlie)
    _, table = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2})
    tid = table["id"]
    b.call("POST", f"/api/tables/{tid}/join")
    assert (
        a.call("POST", f"/api/tables/{tid}/moves", {"move": {"type": "bid"}, "seq": 0})[0] == 409
    )  # not playing
    a.call("POST", f"/api/tables/{tid}/start")
    _, t = a.call("GET", f"/api/tables/{tid}")
    mover, other = (a, b) if t["to_act"] == [0] else (b, a)
    _, mine = mover.call("GET", f"/api/tables/{tid}")
    move = mine["legal_moves"][0]
    assert a.call("POST", "/api/tables/999999/moves", {"move": move, "seq": 0})[0] == 404
    assert c.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": 0})[0] == 403
    assert mover.call("POST", f"/api/tables/{tid}/moves", "not json")[0] == 400
    assert mover.call("POST", f"/api/tables/{tid}/moves", [1, 2])[0] == 400
    assert mover.call("POST", f"/api/tables/{tid}/moves", {"move": move})[0] == 400
    assert mover.call("POST", f"/api/tables/{tid}/moves", {"move": "x", "seq": 0})[0] == 400
    assert mover.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": 3})[0] == 409
    assert other.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": 0})[0] == 403
    status, body = mover.call(
        "POST", f"/api/tables/{tid}/moves", {"move": {"type": "play", "card": "zz"}, "seq": 0}
    )
    assert status == 400 and body["error"]
    assert mover.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": 0}) == (200, {"seq": 1})
    assert mover.call("POST", f"/api/tables/{tid}/moves", {"move": move, "seq": 0})[0] == 409


@pytest.mark.parametrize(
    "body",
    [
        {"game": "cosmic_crowns"},
        {"game": "cosmic_crowns", "players": "two"},
        {"game": "cosmic_crowns", "players": 2, "options": "hard"},
        {"game": "cosmic_crowns", "players": 2, "options": {"mode": 3}},
        {"game": ["x"], "players": 2},
        {"game": "nope", "players": 2},
        [],
        "garbage",
    ],
)
def test_bad_tables_get_400_not_500(api, alice, body):
    a = api()
    a.token = token_for(alice)
    status, answer = a.call("POST", "/api/tables", body)
    assert status == 400 and answer["error"]


def test_a_spectator_sees_no_hand_and_seated_players_only_their_own(api, alice, bob, charlie):
    a, b, c = api(), api(), api()
    a.token, b.token, c.token = token_for(alice), token_for(bob), token_for(charlie)
    _, table = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2})
    tid = table["id"]
    b.call("POST", f"/api/tables/{tid}/join")
    a.call("POST", f"/api/tables/{tid}/start")
    va = a.call("GET", f"/api/tables/{tid}")[1]["view"]
    vb = b.call("GET", f"/api/tables/{tid}")[1]["view"]
    vc = c.call("GET", f"/api/tables/{tid}")[1]["view"]
    assert "hand" not in vc
    assert not set(va["hand"]) & set(vb["hand"])
    assert not any(card in json.dumps(vb) for card in va["hand"])
    assert not any(card in json.dumps(va) for card in vb["hand"])
    body = json.dumps(a.call("GET", f"/api/tables/{tid}")[1])
    assert "seed" not in body


@pytest.mark.parametrize("path", ["/api/tables/abc", "/api/nothing", "/api/tables/1/nope"])
def test_unknown_api_addresses_answer_json_404(api, alice, path):
    a = api()
    a.token = token_for(alice)
    status, body = a.call("GET", path)
    assert status == 404 and body == {"error": "Not found."}


def test_a_wrong_method_gets_405_json(api, alice):
    a = api()
    a.token = token_for(alice)
    status, body = a.call("POST", "/api/games", {})
    assert status == 405 and "error" in body


def test_a_table_whose_other_seats_are_all_bots_starts_at_once_as_on_the_web(api, alice):
    a = api()
    a.token = token_for(alice)
    status, table = a.call(
        "POST", "/api/tables", {"game": "cosmic_crowns", "players": 3, "bots": [{"level": "casual"}] * 2}
    )
    assert status == 201 and table["status"] == "playing" and table["view"] is not None
    status, waiting = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 3, "bots": [{}]})
    assert status == 201 and waiting["status"] == "open"  # one seat still free: it waits for a person


def test_rated_is_a_bool_and_never_rates_a_table_with_a_bot(api, alice):
    from tables.models import Table

    a = api()
    a.token = token_for(alice)
    assert a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2, "rated": "yes"})[0] == 400
    _, human = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2, "rated": False})
    _, botted = a.call("POST", "/api/tables", {"game": "cosmic_crowns", "players": 2, "bots": [{}]})
    assert Table.objects.get(pk=human["id"]).rated is False
    assert Table.objects.get(pk=botted["id"]).rated is False


def test_errors_read_in_the_language_the_client_asks_for(client, alice, bob):
    """English by default (bots and scripts); Accept-Language: fr gets every error in French, the rules'
    refusals included."""
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}

    def post(path, body, token=None, **headers):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        r = client.post(path, data=json.dumps(body), content_type="application/json", **auth, **headers)
        return r.status_code, r.json()

    assert post("/api/tables", {}, **french) == (
        401,
        {"error": "Un jeton valide est nécessaire : Authorization: Bearer <jeton>."},
    )
    a, b = token_for(alice), token_for(bob)
    bad = {"game": "cosmic_crowns", "players": 2, "options": {"colour": "red"}}
    assert post("/api/tables", bad, a) == (400, {"error": "Unknown option: colour."})
    assert post("/api/tables", bad, a, **french) == (400, {"error": "Option inconnue : colour."})
    _, table = post("/api/tables", {"game": "cosmic_crowns", "players": 2}, a)
    post(f"/api/tables/{table['id']}/join", {}, b)
    post(f"/api/tables/{table['id']}/start", {}, a)
    seen = json.loads(client.get(f"/api/tables/{table['id']}", HTTP_AUTHORIZATION=f"Bearer {a}").content)
    mover = a if seen["to_act"] == [seen["view"]["seat"]] else b
    move = {"move": {"type": "play", "card": "zz"}, "seq": 0}
    status, english = post(f"/api/tables/{table['id']}/moves", move, mover)
    status_fr, french_error = post(f"/api/tables/{table['id']}/moves", move, mover, **french)
    assert status == status_fr == 400
    assert english["error"] != french_error["error"]
    game = registry.get("cosmic_crowns")
    state = game.load(Table.objects.get(pk=table["id"]).state)
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, game.to_act(state)[0], move["move"])
    assert (english["error"], french_error["error"]) == (str(refused.value), refused.value.words("fr"))


def test_reading_a_table_after_a_move_reuses_what_its_frames_drew(
    api, alice, bob, started_table, django_capture_on_commit_callbacks
):
    """GET /api/tables/<id> after a move whose frames this process drew: the same answer as from the
    database, without reading the seats again (the table's room: tables.rooms); a later change is never hidden."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables import rooms, services
    from tests.tables.positions import listening

    table = started_table("cosmic_crowns", [alice, bob])
    users, tokens = [alice, bob], [token_for(alice), token_for(bob)]

    def play():
        table = Table.objects.get(pk=table_id)
        seat = table.to_act[0]
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.play_move(table_id, users[seat], move, table.seq)
        return table.seq + 1

    table_id = table.pk
    with listening(table_id, (0, 1)):
        for _ in range(3):
            seq = play()
            for token in tokens:
                with CaptureQueriesContext(connection) as queries:
                    kept = api().call("GET", f"/api/tables/{table_id}", token=token)
                assert not any("tables_seat" in q["sql"] for q in queries.captured_queries)
                rooms.forget(table_id)  # (the same answer from a room read afresh from the database)
                with CaptureQueriesContext(connection) as queries:
                    assert api().call("GET", f"/api/tables/{table_id}", token=token) == kept
                assert any("tables_seat" in q["sql"] for q in queries.captured_queries)
                assert kept[1]["seq"] == seq
    # A change that draws no frame (nobody listens) still moves the room on: never a stale answer.
    seq = play()
    assert api().call("GET", f"/api/tables/{table_id}", token=tokens[0])[1]["seq"] == seq
