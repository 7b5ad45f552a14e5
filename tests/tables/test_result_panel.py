"""A real end of game: the result panel (placings, scores in the game's own unit, ratings before and after,
Rematch / Replay / Next game / Back to lobby) in the page, in the final live frame of every viewer and in the
API's table answer."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import ApiToken
from rules import bots
from tables import ratings, services
from tables.models import Table
from tests.tables.history_games import GAMES, finished_game

pytestmark = pytest.mark.django_db


def one_move_from_the_end(game, users, seed=7):
    """A rated table of ``users`` played (casual bots' choices for every seat) up to its last move; returns the
    table and (user, move, seq) of that last move."""
    table = services.create_table(users[0], game, len(users), {})
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, users[0], seed=seed)
    engine = table.engine
    for _ in range(5000):
        table.refresh_from_db()
        state = engine.load(table.state)
        seat = table.to_act[0]
        move = bots.choose(
            game, engine.view(state, seat), engine.legal_moves(state, seat), "casual", table.seq, seat=seat
        )
        if engine.is_over(engine.apply(state, seat, move)):
            return table, (users[seat], move, table.seq)
        services.play_move(table.pk, users[seat], move, table.seq)
    raise AssertionError("the game did not end")


def panel_of(html: str) -> str:
    match = re.search(
        r'<div id="table-\d+-result" class="result-panel".*?</table></div>\s*<div class="result-actions">.*?</div>',
        html,
        re.S,
    )
    assert match, "no result panel"
    return match.group(0)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ends_with_a_result_panel_in_its_own_units(client_for, alice, bob, game):
    table = finished_game(game, [alice, bob])
    assert table.status == Table.FINISHED
    engine = table.engine
    winners = table.result["winners"]
    me = 0 if 0 in winners else 1
    page = client_for([alice, bob][me]).get(f"/tables/{table.pk}/").content.decode()
    panel = panel_of(page)
    assert engine.score_name["en"] in panel and "Final scores" in panel
    assert ("You won!" if len(winners) == 1 else "You share the win!") in panel
    for seat, score in enumerate(table.result["scores"]):
        assert re.search(rf'data-seat="{seat}">.*?<td class="score">{score}</td>', panel, re.S)
    for words in ("Rematch", "Replay", "Next game", "Back to lobby"):
        assert words in panel
    french = client_for(alice).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert engine.score_name["fr"] in panel_of(french).replace("&#x27;", "'").replace("&rsquo;", "’")
    assert "Revanche" in french and "Retour au salon" in french and "Partie suivante" in french


def test_placings_share_a_place_on_a_tie_and_ratings_show_before_and_after(client_for, alice, bob, charlie):
    from tests.tables.history_games import finished

    table = finished("chronica", [alice, bob, charlie], [0, 1], [7, 7, 3])
    result = services.selectors.final_result(table, list(table.seats.select_related("user")))
    assert [(p["user"], p["place"]) for p in result["placings"]] == [("alice", 1), ("bob", 1), ("charlie", 2)]
    by_user = {r["user"]: r for r in result["ratings"]}
    assert by_user["alice"]["display_before"] == 1500 and by_user["alice"]["display_change"] > 0
    assert by_user["charlie"]["display_change"] < 0
    page = client_for(charlie).get(f"/tables/{table.pk}/").content.decode()
    panel = panel_of(page)
    assert "Game over" in panel and "You won!" not in panel
    change = ratings.signed(by_user["charlie"]["display_change"])
    assert (
        f'<span class="before">1500?</span> → <strong>{by_user["charlie"]["display_after"]}?</strong>'
        in panel
    )
    assert change in panel
    assert panel.count('<td class="place">1 <span class="crown-mark">') == 2


def test_an_unrated_game_has_no_rating_column_and_a_spectator_sees_the_panel_too(client, client_for, alice):
    from tables import worker

    table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}])
    table = services.start_if_full(table, alice)
    services.concede(table.pk, alice)  # a bot finishes the game for her
    for _ in range(500):
        if Table.objects.get(pk=table.pk).status == Table.FINISHED:
            break
        worker.play_bot_move(table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.FINISHED
    mine = panel_of(client_for(alice).get(f"/tables/{table.pk}/").content.decode())
    assert "unrated" in mine and '<th scope="col">Rating</th>' not in mine and "Rematch" in mine
    watched = panel_of(client.get(f"/tables/{table.pk}/").content.decode())
    assert "Game over" in watched and "Replay" in watched and "Back to lobby" in watched
    assert "Rematch" not in watched and "Next game" not in watched  # a visitor has no seat and no turns


def test_the_api_gives_the_result_once_finished_and_null_before(client, alice, bob):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(alice)[1]}"}
    table, (user, move, seq) = one_move_from_the_end("cosmic_crowns", [alice, bob])
    before = client.get(f"/api/tables/{table.pk}", **auth).json()
    assert before["result"] is None and before["status"] == "playing"
    services.play_move(table.pk, user, move, seq)
    after = client.get(f"/api/tables/{table.pk}", **auth).json()
    assert set(before) <= set(after)  # every key kept
    result = after["result"]
    table.refresh_from_db()
    assert result["scores"] == table.result["scores"] and result["winners"] == table.result["winners"]
    assert sorted(p["seat"] for p in result["placings"]) == [0, 1]
    assert {r["user"] for r in result["ratings"]} == {"alice", "bob"}
    for r in result["ratings"]:
        assert r["display_before"] == 1500 and r["display_after"] == ratings.display(r["after"])
        assert r["display_change"] == r["display_after"] - r["display_before"] and r["provisional"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_final_frame_brings_the_result_panel_to_every_viewer(alice, bob):
    table, (user, move, seq) = await sync_to_async(one_move_from_the_end)("cosmic_crowns", [alice, bob])

    @sync_to_async
    def cookie(u):
        c = Client()
        c.force_login(u)
        return f"sessionid={c.cookies['sessionid'].value}"

    async def connect(cookie_value=None, language="en"):
        headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
        headers.append((b"accept-language", language.encode()))
        if cookie_value:
            headers.append((b"cookie", cookie_value.encode()))
        comm = WebsocketCommunicator(
            __import__("config.asgi", fromlist=["application"]).application,
            f"/ws/tables/{table.pk}/",
            headers=headers,
        )
        ok, _ = await comm.connect()
        assert ok
        first = await comm.receive_from(timeout=20)
        assert "result-panel" not in first
        return comm

    sockets = {
        "alice": await connect(await cookie(alice)),
        "bob": await connect(await cookie(bob)),
        "watcher": await connect(),
        "observateur": await connect(language="fr"),
    }
    await sync_to_async(services.play_move)(table.pk, user, move, seq)
    final = await sync_to_async(Table.objects.get)(pk=table.pk)
    winners = final.result["winners"]
    for name, comm in sockets.items():
        frame = await comm.receive_from(timeout=20)
        assert 'data-status="finished"' in frame, name
        panel = panel_of(frame)
        if name in ("alice", "bob"):
            seat = 0 if name == "alice" else 1
            won = seat in winners
            assert ("You won!" in panel or "You share the win!" in panel) == won, name
            assert "Rematch" in panel and "Crowns" in panel and "Rating" in panel
        elif name == "watcher":
            assert "Game over" in panel and "Rematch" not in panel and "Next game" not in panel
        else:
            assert "Partie terminée" in panel and "Couronnes" in panel and "Revanche" not in panel
        await comm.disconnect()
