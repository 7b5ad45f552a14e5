"""Chat lines live: a small frame of their own (no board), to every viewer but a seat that muted the chat."""

import pytest
from asgiref.sync import sync_to_async

from tables import rendering, services
from tests.tables.test_consumers import connect, session_cookie, setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def opened(table_id, cookie):
    comm, ok = await connect(table_id, cookie)
    assert ok
    first = await comm.receive_from(timeout=20)
    return comm, first


async def test_a_line_reaches_players_and_spectators_without_a_board(alice, bob):
    table = await setup_game(alice, bob)
    alice_sock, first = await opened(table.pk, await session_cookie(alice))
    assert f'id="table-{table.pk}-chat"' in first  # the first frame carries the chat panel
    bob_sock, _ = await opened(table.pk, await session_cookie(bob))
    watcher, _ = await opened(table.pk, None)
    renders = rendering.render_count
    await sync_to_async(services.post_chat)(table.pk, alice, text="<b>hi</b> & bye")
    for sock in (alice_sock, bob_sock, watcher):
        frame = await sock.receive_from(timeout=20)
        assert f'id="table-{table.pk}-chat-log" hx-swap-oob="beforeend"' in frame
        assert "&lt;b&gt;hi&lt;/b&gt; &amp; bye" in frame and "<b>" not in frame
        assert "-board" not in frame and "-status" not in frame
    assert rendering.render_count == renders  # no table frame was rendered for a chat line
    for sock in (alice_sock, bob_sock, watcher):
        await sock.disconnect()


async def test_a_seat_that_muted_the_chat_gets_no_line(alice, bob):
    table = await setup_game(alice, bob)
    await sync_to_async(services.mute_chat)(table.pk, bob, True)
    bob_sock, first = await opened(table.pk, await session_cookie(bob))
    assert "Show the chat" in first
    alice_sock, _ = await opened(table.pk, await session_cookie(alice))
    await sync_to_async(services.post_chat)(table.pk, alice, text="anyone?")
    assert "anyone?" in await alice_sock.receive_from(timeout=20)
    assert await bob_sock.receive_nothing(timeout=0.3)
    await bob_sock.disconnect()
    await alice_sock.disconnect()


async def test_a_seat_change_is_told_live_in_the_log(alice, bob):
    table = await setup_game(alice, bob)
    alice_sock, _ = await opened(table.pk, await session_cookie(alice))
    await sync_to_async(services.concede)(table.pk, bob)
    frame = await alice_sock.receive_from(timeout=20)
    assert "bob conceded" in frame and 'class="log-event"' in frame
    await alice_sock.disconnect()
