"""Moves sent over a table's socket (CONTRACTS §3), judged exactly like POST /api/tables/<id>/moves."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts.models import ApiToken
from tables import services
from tables.models import Move, Table
from tests.tables.test_consumers import connect, open_badge, session_cookie, setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def table_now(table_id) -> Table:
    return Table.objects.get(pk=table_id)


@sync_to_async
def moves_made(table_id) -> int:
    return Move.objects.filter(table_id=table_id).count()


def legal(table: Table, index: int = 0) -> dict:
    state = table.engine.load(table.state)
    return table.engine.legal_moves(state, table.to_act[0])[index]


async def seated_sockets(table, users, language=None):
    sockets = []
    for user in users:
        comm, ok = await connect(table.pk, await session_cookie(user), language=language)
        assert ok
        await comm.receive_from(timeout=20)  # the first, full frame
        sockets.append(comm)
    return sockets


def refusal(frame: str, table_id: int) -> tuple[int, str]:
    found = re.search(rf'<div id="table-{table_id}-error"[^>]*data-refused="(\d+)"[^>]*>([^<]*)</div>', frame)
    assert found, frame
    return int(found.group(1)), found.group(2)


async def close(*sockets):
    for comm in sockets:
        await comm.disconnect()


async def test_a_move_sent_over_the_socket_reaches_every_socket(alice, bob):
    table = await setup_game(alice, bob)
    users = [alice, bob]
    sockets = await seated_sockets(table, users)
    spectator, ok = await connect(table.pk)
    assert ok
    await spectator.receive_from(timeout=20)
    mover = table.to_act[0]
    move = legal(table)

    # htmx's ws extension adds the page's headers under HEADERS: ignored
    message = {"move": move, "seq": 0, "HEADERS": {"HX-Request": "true", "X-CSRFToken": "x"}}
    await sockets[mover].send_to(text_data=json.dumps(message))
    for comm in (*sockets, spectator):
        frame = await comm.receive_from(timeout=20)
        assert f'id="table-{table.pk}-board"' in frame and 'data-seq="1"' in frame
        assert "data-refused" not in frame
    assert (await table_now(table.pk)).seq == 1
    await close(*sockets, spectator)


async def test_it_refuses_a_move_from_a_spectator_socket(alice, bob, charlie):
    table = await setup_game(alice, bob)
    seated = await seated_sockets(table, [alice, bob])
    anonymous, ok = await connect(table.pk)
    assert ok
    await anonymous.receive_from(timeout=20)
    stranger, ok = await connect(table.pk, await session_cookie(charlie))
    assert ok
    await stranger.receive_from(timeout=20)
    message = json.dumps({"move": legal(table), "seq": 0})

    await anonymous.send_to(text_data=message)
    assert refusal(await anonymous.receive_from(timeout=20), table.pk) == (403, "Sign in to play.")
    await stranger.send_to(text_data=message)
    assert refusal(await stranger.receive_from(timeout=20), table.pk) == (
        403,
        "You have no seat at this table.",
    )
    assert await moves_made(table.pk) == 0
    # Nobody else heard of the refusals: the next frame the players get is the next move's.
    await seated[table.to_act[0]].send_to(text_data=message)
    for comm in seated:
        frame = await comm.receive_from(timeout=20)
        assert 'data-seq="1"' in frame and "data-refused" not in frame
    await close(*seated, anonymous, stranger)


async def test_it_refuses_a_move_out_of_turn_and_malformed_messages(alice, bob):
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    mover = table.to_act[0]
    move = legal(table)
    waiting = sockets[1 - mover]
    await waiting.send_to(text_data=json.dumps({"move": move, "seq": 0}))
    assert refusal(await waiting.receive_from(timeout=20), table.pk) == (403, "It is not your turn.")

    mine = sockets[mover]
    for message, expected in [
        ("{not json", (400, "The body is not valid JSON.")),
        ("[1, 2]", (400, "The body must be a JSON object.")),
        (json.dumps({"seq": 0}), (400, "The move must be an object.")),
        (json.dumps({"move": "play", "seq": 0}), (400, "The move must be an object.")),
        (json.dumps({"move": move}), (400, "seq must be a whole number.")),
        (json.dumps({"move": move, "seq": "0"}), (400, "seq must be a whole number.")),
        (json.dumps({"move": move, "seq": True}), (400, "seq must be a whole number.")),
        (json.dumps({"move": {"type": "play", "card": "nope"}, "seq": 0}), 400),
    ]:
        await mine.send_to(text_data=message)
        status, text = refusal(await mine.receive_from(timeout=20), table.pk)
        if isinstance(expected, int):
            assert status == expected and text, message
        else:
            assert (status, text) == expected, message
    await mine.send_to(bytes_data=json.dumps({"move": move, "seq": 0}).encode())
    assert refusal(await mine.receive_from(timeout=20), table.pk)[0] == 400
    assert await moves_made(table.pk) == 0
    assert (await table_now(table.pk)).seq == 0
    await close(*sockets)


async def test_it_refuses_a_stale_seq_with_409_and_plays_once(alice, bob):
    """The seq race: the same move sent twice (two clicks, two tabs) is played once; the second is stale."""
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    mover = table.to_act[0]
    message = json.dumps({"move": legal(table), "seq": 0})
    await sockets[mover].send_to(text_data=message)
    await sockets[mover].send_to(text_data=message)
    # (in either order: the move's frame goes out from the event loop, the refusal straight to this socket)
    answers = [await sockets[mover].receive_from(timeout=20) for _ in range(2)]
    refused = [a for a in answers if "data-refused" in a]
    assert len(refused) == 1 and 'data-seq="1"' in next(a for a in answers if a not in refused)
    status, text = refusal(refused[0], table.pk)
    assert status == 409 and "seq is 1, not 0" in text
    assert await moves_made(table.pk) == 1
    # The other seat got the one move, and nothing about the refusal.
    assert 'data-seq="1"' in await sockets[1 - mover].receive_from(timeout=20)
    assert await sockets[1 - mover].receive_nothing(timeout=0.2)
    await close(*sockets)


async def test_a_socket_move_that_lost_the_race_to_the_api_is_refused_409(alice, bob):
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    mover = table.to_act[0]
    move = legal(table)
    await sync_to_async(services.play_move)(table.pk, [alice, bob][mover], move, 0)
    assert 'data-seq="1"' in await sockets[mover].receive_from(timeout=20)
    await sockets[mover].send_to(text_data=json.dumps({"move": move, "seq": 0}))
    assert refusal(await sockets[mover].receive_from(timeout=20), table.pk)[0] == 409
    await close(*sockets)


async def test_a_refusal_speaks_the_sockets_language(alice, bob):
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob], language="fr")
    waiting = sockets[1 - table.to_act[0]]
    await waiting.send_to(text_data=json.dumps({"move": legal(table), "seq": 0}))
    status, text = refusal(await waiting.receive_from(timeout=20), table.pk)
    assert (status, text) == (403, "Ce n’est pas à vous de jouer.")
    await close(*sockets)


@sync_to_async
def api_answer(user, table_id, body: str) -> int:
    client = Client()
    raw = ApiToken.issue(user)[1]
    response = client.post(
        f"/api/tables/{table_id}/moves",
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    return response.status_code


async def test_the_socket_answers_every_refusal_as_the_api_does(alice, bob, charlie):
    table = await setup_game(alice, bob)
    users = [alice, bob]
    mover = table.to_act[0]
    move = legal(table)
    sockets = await seated_sockets(table, [*users, charlie])
    bodies = {
        "not json": "{",
        "not an object": "[]",
        "no move": json.dumps({"seq": 0}),
        "no seq": json.dumps({"move": move}),
        "stale": json.dumps({"move": move, "seq": 5}),
        "illegal": json.dumps({"move": {"type": "bid", "tricks": -1}, "seq": 0}),
        "out of turn": json.dumps({"move": move, "seq": 0}),
    }
    for name, body in bodies.items():
        for seat, user in ((mover, users[mover]), (1 - mover, users[1 - mover]), (2, charlie)):
            if (name == "out of turn") != (seat == 1 - mover) and seat != 2:
                continue  # (the mover's valid move would be played; the other seat is out of turn anyway)
            expected = await api_answer(user, table.pk, body)
            assert expected in (400, 403, 409), name
            await sockets[seat].send_to(text_data=body)
            assert refusal(await sockets[seat].receive_from(timeout=20), table.pk)[0] == expected, (
                name,
                seat,
            )
    assert await moves_made(table.pk) == 0
    await close(*sockets)


async def test_a_socket_move_hands_its_frames_and_badges_to_the_event_loop(alice, bob, handed):
    """The thread that judged the move does not wait for the group sends: the socket's event loop makes them."""
    from tables.notifications import user_group

    table = await setup_game(alice, bob)
    users = [alice, bob]
    sockets = await seated_sockets(table, users)
    mover = table.to_act[0]
    other = users[1 - mover]
    badges = await open_badge(await session_cookie(other))
    # Moves go on over the socket (a Falling Star may keep the turn) until the other player is awaited.
    for seq in range(10):
        await sockets[mover].send_to(text_data=json.dumps({"move": legal(table), "seq": seq}))
        for comm in sockets:
            assert f'data-seq="{seq + 1}"' in await comm.receive_from(timeout=20)
        table = await table_now(table.pk)
        if table.to_act != [mover]:
            break
    assert table.to_act == [1 - mover]
    assert {f"table-{table.pk}-s0-en", f"table-{table.pk}-s1-en"} <= set(handed)
    assert 'id="your-turn-badge"' in await badges.receive_from(timeout=20)
    assert user_group(other.pk) in handed
    await close(*sockets, badges)


async def test_a_move_posted_through_the_handler_hands_its_badges_to_the_event_loop(alice, bob, handed):
    """The request's thread renders the badge and goes on: the group send is made by the event loop."""
    from tables.notifications import user_group
    from tests.test_handlers import call

    table = await setup_game(alice, bob)
    users = [alice, bob]
    mover = table.to_act[0]
    other = users[1 - mover]
    badges = await open_badge(await session_cookie(other))
    token = await sync_to_async(lambda: ApiToken.issue(users[mover])[1])()
    from config.asgi import application

    for seq in range(10):
        body = {"move": legal(table), "seq": seq}
        status, _ = await call(application, "POST", f"/api/tables/{table.pk}/moves", token, body)
        assert status == 200
        table = await table_now(table.pk)
        if table.to_act != [mover]:
            break
    assert table.to_act == [1 - mover]
    assert 'id="your-turn-badge"' in await badges.receive_from(timeout=20)
    assert user_group(other.pk) in handed
    await close(badges)


async def test_a_socket_move_does_not_wait_behind_a_slow_page(alice, bob, monkeypatch, settings):
    """A page that holds the request handler's thread (one on SQLite) does not hold up a move sent over the
    socket: the move is judged, committed and framed to every seat while the page is still being served."""
    import asyncio
    import threading

    from channels.testing import HttpCommunicator

    from config.asgi import application
    from tables import views

    entered, release = threading.Event(), threading.Event()
    games_list = views.games_list

    def slow_games_list():
        entered.set()
        release.wait(60)
        return games_list()

    monkeypatch.setattr(views, "games_list", slow_games_list)
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    page = asyncio.create_task(
        HttpCommunicator(application, "GET", "/", headers=[(b"host", b"127.0.0.1")]).get_response(timeout=90)
    )
    try:
        assert await asyncio.to_thread(entered.wait, 30)  # the lobby page holds its thread
        await sockets[table.to_act[0]].send_to(text_data=json.dumps({"move": legal(table), "seq": 0}))
        for comm in sockets:
            assert 'data-seq="1"' in await comm.receive_from(timeout=20)
        assert not page.done()
    finally:
        release.set()
    assert (await page)["status"] == 200
    await close(*sockets)
