"""A fifth game registered only here (tests/toy/) is served like the four: the lobby lists it, a table of it
is created from its form, played to the end through its board page and the API, its frames reach a socket,
and its replay and history show it. Nothing of the platform names it: it asks the two registrations."""

from __future__ import annotations

import html
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import ApiToken
from config.asgi import application
from rules import registry
from tables import games, services, worker
from tables.models import Move, Table
from tests.html import cards_on
from tests.toy import GAME, registered


@pytest.fixture
def toy(settings):
    with registered(settings) as plugin:
        yield plugin
    assert "toy" not in registry.games()
    with pytest.raises(KeyError):
        games.plugin("toy")


def api(user):
    token = ApiToken.issue(user)[1]
    client = Client()

    def call(method, path, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        if method == "GET":
            r = client.get(path, **headers)
        else:
            r = client.post(path, data=json.dumps(body or {}), content_type="application/json", **headers)
        return r.status_code, r.json() if r.content else None

    return call


def board_moves(page: str) -> list[tuple[dict, dict]]:
    """The (move, form values) of every move button of a board page: the button's move, at the seq the page
    shows (what static/js/site.js posts when it is clicked)."""
    seq = int(re.search(r'id="table-\d+-board"[^>]*data-seq="(\d+)"', page).group(1))
    found = re.findall(r'hx-post="[^"]*/move/"[^>]*data-move="([^"]*)"', page)
    return [(json.loads(html.unescape(move)), {"move": html.unescape(move), "seq": seq}) for move in found]


@pytest.mark.django_db
def test_the_toy_registration_is_complete_and_every_list_of_games_holds_it(toy):
    assert games.problems() == []
    assert [p.slug for p in games.plugins()] == list(registry.games())
    assert toy.engine is GAME and toy.bots.casual


@pytest.mark.django_db
def test_a_registration_naming_a_missing_part_is_reported(toy):
    games.unregister("toy")
    games.register(
        games.GamePlugin(**{**toy.__dict__, "board": "toy/missing.html", "css": "toy/missing.css"})
    )
    assert games.problems() == [
        "The game 'toy' names the template 'toy/missing.html', which does not exist.",
        "The game 'toy' names the static file 'toy/missing.css', which does not exist.",
    ]


@pytest.mark.django_db
def test_the_platform_serves_the_toy_game_from_the_lobby_to_the_history(toy, alice, bob, client_for):
    web = client_for(alice)
    lobby = web.get("/").content.decode()
    assert (
        "Toy High Card" in lobby and 'href="/games/toy/new/"' in lobby and 'href="/games/toy/rules/"' in lobby
    )
    assert "The higher card takes the trick." in web.get("/games/toy/rules/").content.decode()
    alice_api, bob_api = api(alice), api(bob)
    assert any(g["slug"] == "toy" for g in alice_api("GET", "/api/games")[1])

    form = web.get("/games/toy/new/").content.decode()
    assert 'name="players"' in form and "Toy High Card" in form
    created = web.post("/games/toy/new/", {"players": "2"})
    assert created.status_code == 302
    pk = int(re.search(r"/tables/(\d+)/", created["Location"]).group(1))
    assert bob_api("POST", f"/api/tables/{pk}/join")[0] == 200
    status, table = alice_api("POST", f"/api/tables/{pk}/start")
    assert status == 200 and table["status"] == "playing"

    page = web.get(f"/tables/{pk}/").content.decode()
    assert '<link rel="stylesheet" href="/static/toy/toy.css">' in page
    moves_on_board = 0
    while True:
        _, seen = alice_api("GET", f"/api/tables/{pk}")
        if seen["status"] == "finished":
            break
        state = GAME.load(Table.objects.get(pk=pk).state)
        if seen["to_act"] == [0]:
            # Alice plays from her board page: it shows her hand and none of Bob's cards, and offers her moves.
            page = web.get(f"/tables/{pk}/").content.decode()
            assert set(state["hands"][0]) <= cards_on(page)
            assert not set(state["hands"][1]) & cards_on(page)
            offered = board_moves(page)
            assert [m for m, _ in offered] == seen["legal_moves"]
            move, vals = offered[-1]
            answer = web.post(f"/tables/{pk}/move/", vals, HTTP_HX_REQUEST="true")
            frame = (
                answer.content.decode()
            )  # her own frame: the board after the move, and its line of the log
            assert answer.status_code == 200 and f'data-seq="{vals["seq"] + 1}"' in frame
            assert f"alice played {move['card'][1:]}" in frame and 'class="toy-board"' in frame
            moves_on_board += 1
        else:
            _, bobs = bob_api("GET", f"/api/tables/{pk}")
            assert (
                bobs["view"]["hand"] == state["hands"][1]
                and "hand" not in seen["view"]
                or seen["view"]["hand"] == state["hands"][0]
            )
            status, _ = bob_api(
                "POST", f"/api/tables/{pk}/moves", {"move": bobs["legal_moves"][0], "seq": bobs["seq"]}
            )
            assert status == 200
    assert moves_on_board >= 1
    assert seen["seq"] == 6 and seen["view"]["result"]["scores"] in ([2, 1], [1, 2], [3, 0], [0, 3])

    # The replay walks the game; the history and the API's list the table; its export replays to its result.
    assert web.get(f"/tables/{pk}/replay/?step=6&seat=0").status_code == 200
    first = web.get(f"/tables/{pk}/replay/?step=1&seat=0").content.decode()
    assert cards_on(first) and "Toy High Card" in first
    assert f"/tables/{pk}/" in web.get("/history/?game=toy").content.decode()
    _, rows = alice_api("GET", "/api/history?user=alice&game=toy")
    assert [r["id"] for r in rows] == [pk]
    _, export = alice_api("GET", f"/api/tables/{pk}/export")
    replayed = GAME.setup(players=2, seed=export["seed"], options=export["options"])
    for m in export["moves"]:
        replayed = GAME.apply(replayed, m["seat"], m["move"])
    assert GAME.result(replayed) == export["result"]


@pytest.mark.django_db
def test_a_table_of_the_toy_game_against_its_bot_is_played_by_the_worker(toy, alice, settings):
    settings.BOT_DELAY = 0
    table = services.start_if_full(services.create_table(alice, "toy", 2, bots=[{"level": "casual"}]), alice)
    bot_moves = 0
    while (table := Table.objects.get(pk=table.pk)).status == Table.PLAYING:
        state = GAME.load(table.state)
        if table.to_act == [0]:
            services.play_move(table.pk, alice, GAME.legal_moves(state, 0)[-1], table.seq)
        else:  # the toy's own casual bot (its BOTS) plays its lowest card
            lowest = min(state["hands"][1], key=lambda c: int(c[1:]))
            assert worker.play_bot_move(table.pk)
            assert Move.objects.get(table=table, seq=table.seq).move == {"type": "play", "card": lowest}
            bot_moves += 1
    assert table.status == Table.FINISHED and bot_moves == 3


@sync_to_async
def _started(alice, bob):
    table = services.create_table(alice, "toy", 2)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice, seed=7)


@sync_to_async
def _cookie(user):
    c = Client()
    c.force_login(user)
    return f"sessionid={c.cookies['sessionid'].value}"


@sync_to_async
def _play_first(pk, users):
    table = Table.objects.get(pk=pk)
    seat = table.to_act[0]
    state = GAME.load(table.state)
    move = GAME.legal_moves(state, seat)[0]
    services.play_move(pk, users[seat], move, table.seq)
    return seat, state["hands"], move


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_of_the_toy_game_reaches_a_socket_as_a_frame_of_its_board(toy, alice, bob):
    table = await _started(alice, bob)
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    sockets = []
    for user in (alice, bob):
        comm = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[*headers, (b"cookie", (await _cookie(user)).encode())],
        )
        assert (await comm.connect())[0]
        first = await comm.receive_from(timeout=20)
        assert 'class="toy-board"' in first
        sockets.append(comm)
    mover, hands, move = await _play_first(table.pk, [alice, bob])
    other = 1 - mover
    frame = await sockets[other].receive_from(timeout=20)
    await sockets[mover].receive_from(timeout=20)
    assert 'data-seq="1"' in frame
    assert cards_on(frame) & set(hands[mover]) == {move["card"]}  # of the mover's hand, only the card played
    assert set(hands[other]) <= cards_on(frame)
    for comm in sockets:
        await comm.disconnect()
