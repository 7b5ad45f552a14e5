"""A table's home (tables.homes): with several processes, the moves sent over a table's sockets are played by
one process, the one whose socket first sent a move; a move sent over another process's socket is handed to
it, and a refusal goes back to the sender alone (issue 31, points 1 and 5).

Each socket stands for a process of its own here (``process_of`` is the channel's whole name), and the
in-memory layer carries the messages between them as Redis would.
"""

import json

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache

from tables import homes, live, services
from tests.tables.test_consumers import setup_game
from tests.tables.test_socket_moves import close, legal, moves_made, refusal, seated_sockets, table_now

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def apart(monkeypatch):
    """Every socket in a process of its own, the layer between processes; records who played each move."""
    monkeypatch.setattr(live, "between_processes", lambda layer: True)
    monkeypatch.setattr(homes, "process_of", lambda channel_name: channel_name)
    played = []
    play_here = homes.TableHome.play_here

    async def recorded(self, user, text_data, lang, reply):
        played.append((self.channel_name, user.pk, reply))
        await play_here(self, user, text_data, lang, reply)

    monkeypatch.setattr(homes.TableHome, "play_here", recorded)
    yield played
    cache.clear()


async def move_over(comm, table_id):
    table = await table_now(table_id)
    await comm.send_to(text_data=json.dumps({"move": legal(table), "seq": table.seq}))


async def frames_to(sockets, seq):
    for comm in sockets:
        frame = await comm.receive_from(timeout=20)
        assert f'data-seq="{seq}"' in frame and "data-refused" not in frame


async def first_move_then_the_others_turn(sockets, table_id) -> tuple[int, int]:
    """The first mover's moves (the first one claims the table) until the other seat is to act:
    (first seat, other seat)."""
    first = (await table_now(table_id)).to_act[0]
    while (table := await table_now(table_id)).to_act[0] == first:
        await move_over(sockets[first], table_id)
        await frames_to(sockets, table.seq + 1)
    return first, 1 - first


async def claimed(alice, bob, apart):
    """A game of alice and bob, a socket each, the first mover's moves made (its socket claimed the table):
    (table, sockets, (first seat, other seat), moves played)."""
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    seats = await first_move_then_the_others_turn(sockets, table.pk)
    return table, sockets, seats, len(apart)


async def test_a_move_sent_over_another_process_is_played_by_the_tables_home(alice, bob, apart):
    table, sockets, (_first, second), made = await claimed(alice, bob, apart)
    users = [alice, bob]
    home = await sync_to_async(cache.get)(homes.key(table.pk))
    assert home == apart[0][0] and all(where == reply == home for where, _, reply in apart)
    await move_over(sockets[second], table.pk)
    await frames_to(sockets, made + 1)  # every socket gets its frame, the sender's too
    assert apart[made][0] == home  # played by the home's socket ...
    assert apart[made][1] == users[second].pk  # ... for the person who sent it ...
    assert apart[made][2] != home  # ... answering the socket that sent it
    assert await moves_made(table.pk) == made + 1
    for comm in sockets:
        assert await comm.receive_nothing(timeout=0.1)
    await close(*sockets)


async def test_a_move_the_home_refuses_is_told_to_its_sender_alone(alice, bob, apart):
    table, sockets, (first, second), made = await claimed(alice, bob, apart)
    stale = {"move": legal(await table_now(table.pk)), "seq": 0}
    await sockets[second].send_to(text_data=json.dumps(stale))
    status, message = refusal(await sockets[second].receive_from(timeout=20), table.pk)
    assert status == 409 and message
    assert apart[made][0] != apart[made][2]  # judged by the home, for the sender
    assert await sockets[first].receive_nothing(timeout=0.2)  # the home's own page is told nothing
    assert (await table_now(table.pk)).seq == made
    await close(*sockets)


async def test_a_home_that_closes_gives_the_table_up_and_the_next_mover_claims_it(alice, bob, apart):
    table, sockets, (first, second), made = await claimed(alice, bob, apart)
    old = await sync_to_async(cache.get)(homes.key(table.pk))
    await sockets[first].disconnect()
    assert await sync_to_async(cache.get)(homes.key(table.pk)) is None
    await move_over(sockets[second], table.pk)
    await frames_to([sockets[second]], made + 1)
    now = await sync_to_async(cache.get)(homes.key(table.pk))
    assert now not in (None, old) and apart[made][0] == apart[made][2] == now
    await close(sockets[second])


async def test_a_move_handed_to_a_home_that_died_is_played_where_it_was_sent(alice, bob, apart, monkeypatch):
    """A home's process killed leaves its claim, and messages to its channel go unread: the move waits
    WAIT_FOR_HOME seconds for its frame, then is played where it was sent."""
    monkeypatch.setattr(homes, "WAIT_FOR_HOME", 0.5)
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    dead = "specific.dead!nobody-reads-this"
    await sync_to_async(cache.set)(homes.key(table.pk), dead, homes.CLAIM_FOR)
    mover = table.to_act[0]
    await move_over(sockets[mover], table.pk)
    await frames_to(sockets, 1)
    assert len(apart) == 1 and apart[0][0] == apart[0][2] != dead  # played by the sender, after the wait
    assert await moves_made(table.pk) == 1
    # The sender took the table over: its next moves are played at once, where they are sent.
    assert await sync_to_async(cache.get)(homes.key(table.pk)) == apart[0][0]
    monkeypatch.setattr(homes, "WAIT_FOR_HOME", 30.0)
    while (now := await table_now(table.pk)).to_act[0] == mover:
        await move_over(sockets[mover], table.pk)
        await frames_to(sockets, now.seq + 1)
    await move_over(sockets[1 - mover], table.pk)  # (another process's socket: handed to the new home)
    await frames_to(sockets, now.seq + 1)
    assert apart[-1][0] == apart[0][0] != apart[-1][2]
    await close(*sockets)


async def test_a_move_answered_in_time_is_not_played_again(alice, bob, apart, monkeypatch):
    """The wait ends with the move's frame: nothing is played again after WAIT_FOR_HOME."""
    monkeypatch.setattr(homes, "WAIT_FOR_HOME", 0.5)
    table, sockets, (_first, second), made = await claimed(alice, bob, apart)
    await move_over(sockets[second], table.pk)
    await frames_to(sockets, made + 1)
    for comm in sockets:
        assert await comm.receive_nothing(timeout=1.0)  # (past the wait: no refusal of a move sent twice)
    assert len(apart) == made + 1 and await moves_made(table.pk) == made + 1
    await close(*sockets)


async def test_on_one_process_nothing_is_claimed(alice, bob):
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    await move_over(sockets[table.to_act[0]], table.pk)
    await frames_to(sockets, 1)
    assert await sync_to_async(cache.get)(homes.key(table.pk)) is None
    await close(*sockets)


async def test_a_change_made_at_the_home_carries_neither_itself_nor_whole_frames(
    alice, bob, apart, monkeypatch
):
    """The other processes' sockets only forward a home's frames (they hand it their moves): the change and the
    whole frames beside the partial ones (for their rooms) are not sent to them; until a socket claims the
    table, a change carries both."""
    sent = []
    send = live.send

    def kept(layer, messages):
        sent.append([message for _group, message in messages if message["type"] == "table.frame"])
        send(layer, messages)

    monkeypatch.setattr(live, "send", kept)
    table = await setup_game(alice, bob)
    sockets = await seated_sockets(table, [alice, bob])
    await sync_to_async(services.play_move)(table.pk, alice if table.to_act[0] == 0 else bob, legal(table), 0)
    await frames_to(sockets, 1)
    assert sent[-1] and all("change" in message and "full" in message for message in sent[-1])
    await first_move_then_the_others_turn(sockets, table.pk)  # (a socket's move: it claims the table)
    assert homes.rooms.home_here(table.pk)
    assert sent[-1] and all("change" not in m and "full" not in m and "base" in m for m in sent[-1])
    await close(*sockets)
    assert not homes.rooms.home_here(table.pk)  # (given up as its socket closed)


async def test_a_move_handed_to_a_home_that_closed_meanwhile_is_played_here_at_the_next_look(
    alice, bob, apart, monkeypatch
):
    """The sender believed the home it read (RENEW_EVERY seconds), but the home's socket closed before the move
    reached it: the move is played where it was sent at the next look at the claim, not after WAIT_FOR_HOME."""
    import time

    monkeypatch.setattr(homes, "RENEW_EVERY", 60.0)
    monkeypatch.setattr(homes, "WAIT_FOR_HOME", 30.0)
    monkeypatch.setattr(homes, "LOOK_EVERY", 0.2)
    table, sockets, (first, second), made = await claimed(alice, bob, apart)
    users = [alice, bob]
    await move_over(sockets[second], table.pk)  # (handed to the home: the sender now believes it)
    await frames_to(sockets, made + 1)
    while (now := await table_now(table.pk)).to_act[0] != second:  # (the home's player's moves, posted)
        await sync_to_async(services.play_move)(table.pk, users[first], legal(now), now.seq)
        await frames_to(sockets, now.seq + 1)
    await sockets[first].disconnect()  # (the home closes: its claim given up)
    started = time.monotonic()
    seq = (await table_now(table.pk)).seq
    await move_over(sockets[second], table.pk)
    await frames_to([sockets[second]], seq + 1)
    assert time.monotonic() - started < 5  # (at the next look, not after 30 s)
    assert apart[-1][0] == apart[-1][2] != apart[0][0]  # played where it was sent
    await close(sockets[second])


async def test_a_move_for_a_home_whose_queue_is_full_is_played_where_it_was_sent(
    alice, bob, apart, monkeypatch
):
    from channels.exceptions import ChannelFull
    from channels.layers import get_channel_layer

    table, sockets, (_first, second), made = await claimed(alice, bob, apart)
    layer = get_channel_layer()
    send = layer.send

    async def full(channel, message):
        if message["type"] == "table.forwarded":
            raise ChannelFull(channel)
        await send(channel, message)

    monkeypatch.setattr(layer, "send", full)
    await move_over(sockets[second], table.pk)
    await frames_to(sockets, made + 1)
    assert apart[-1][0] == apart[-1][2] != apart[0][0]  # played by the sender, at once
    await close(*sockets)
