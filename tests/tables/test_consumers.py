"""Live updates over /ws/tables/<id>/: per-viewer frames of out-of-band swaps."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from tables import services
from tests.html import cards_on as cards_in
from tests.tables import frame_pages

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def setup_game(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice, seed=20261123)


@sync_to_async
def session_cookie(user) -> str:
    c = Client()
    c.force_login(user)
    return f"sessionid={c.cookies['sessionid'].value}"


async def connect(table_id, cookie=None, origin=b"http://127.0.0.1:8000", language=None):
    headers = [(b"origin", origin), (b"host", b"127.0.0.1:8000")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if language:
        headers.append((b"accept-language", language.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


async def badge_socket(cookie):
    """The notification socket of that session: (communicator, whether it connected)."""
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", cookie.encode()),
    ]
    comm = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


async def open_badge(cookie):
    """The notification socket of that session, connected, its first frame (the badge as it is) read."""
    comm, connected = await badge_socket(cookie)
    assert connected
    await comm.receive_from(timeout=20)
    return comm


def play_first_legal_now(table_id, users):
    from tables.models import Table

    table = Table.objects.get(pk=table_id)
    seat = table.to_act[0]
    state = table.engine.load(table.state)
    move = table.engine.legal_moves(state, seat)[0]
    services.play_move(table_id, users[seat], move, table.seq)
    return seat, state["hands"], move


play_first_legal = sync_to_async(play_first_legal_now)


async def test_a_move_reaches_the_other_seat_as_html_without_the_movers_hand(alice, bob):
    table = await setup_game(alice, bob)
    users = [alice, bob]
    sockets, firsts = {}, {}
    for seat, user in enumerate(users):
        comm, ok = await connect(table.pk, await session_cookie(user))
        assert ok
        first = firsts[seat] = await comm.receive_from(timeout=20)
        for part in ("status", "board", "log"):  # the three out-of-band swaps of a full frame
            assert re.search(rf'id="table-{table.pk}-{part}"[^>]*hx-swap-oob="true"', first), part
        sockets[seat] = comm
    spectator, ok = await connect(table.pk)
    assert ok
    firsts[None] = await spectator.receive_from(timeout=20)

    mover, hands, move = await play_first_legal(table.pk, users)
    other = 1 - mover
    frame = await sockets[other].receive_from(timeout=20)
    mover_frame = await sockets[mover].receive_from(timeout=20)
    spectator_frame = await spectator.receive_from(timeout=20)
    # Then only what changed: the page each leaves (checked as the browser applies it).
    page, mover_page, spectator_page = (
        frame_pages.apply(frame_pages.page_of(firsts[who]), sent)
        for who, sent in ((other, frame), (mover, mover_frame), (None, spectator_frame))
    )
    assert 'data-seq="1"' in frame and 'data-seq="1"' in page
    # Of the mover's hand, the other seat and the spectators see only the card just played, face up.
    assert cards_in(frame) & set(hands[mover]) <= {move["card"]}
    assert cards_in(page) & set(hands[mover]) == {move["card"]}
    assert cards_in(spectator_frame) & (set(hands[0]) | set(hands[1])) <= {move["card"]}
    assert cards_in(spectator_page) & (set(hands[0]) | set(hands[1])) == {move["card"]}
    assert set(hands[other]) <= cards_in(page)
    assert set(hands[mover]) <= cards_in(mover_page)
    for comm in (*sockets.values(), spectator):
        await comm.disconnect()


async def test_a_move_made_while_the_first_frame_renders_still_arrives(alice, bob, monkeypatch):
    """The socket joins the table's group before it renders its first frame, so a move committed in
    between reaches it as a second frame: else the page would wait on a stale board until reloaded."""
    from tables import consumers

    table = await setup_game(alice, bob)
    users = [alice, bob]
    render = consumers.current_frame
    moved = []

    def render_then_someone_moves(table_id, user, lang):
        frame = render(table_id, user, lang)
        if not moved:
            moved.append(play_first_legal_now(table_id, users))
        return frame

    monkeypatch.setattr(consumers, "current_frame", render_then_someone_moves)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok
    first = await comm.receive_from(timeout=20)
    assert 'data-seq="0"' in first and 'data-seq="1"' not in first
    second = await comm.receive_from(timeout=20)
    assert moved and 'data-seq="1"' in second
    await comm.disconnect()


async def test_a_socket_whose_last_frame_was_lost_is_sent_the_table_within_two_checks(
    alice, bob, monkeypatch
):
    """On Redis a frame can be lost with no frame after it to show the gap (tables.catch_up): the process's
    check of its sockets' revisions sends a socket still behind the table as it is. A socket that is not
    behind is sent nothing."""
    from tables import catch_up, live

    monkeypatch.setattr(catch_up, "CHECK_EVERY", 0.2)
    monkeypatch.setattr(catch_up, "may_lose_frames", lambda layer: True)  # (as on Redis)
    table = await setup_game(alice, bob)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok
    assert 'data-seq="0"' in await comm.receive_from(timeout=20)
    assert await comm.receive_nothing(timeout=1)  # (up to date: checked five times, sent nothing)
    monkeypatch.setattr(live.Publication, "run", lambda self: None)  # the move's frames are lost
    await play_first_legal(table.pk, [alice, bob])
    frame = await comm.receive_from(timeout=5)
    assert f'id="table-{table.pk}-board"' in frame and 'data-seq="1"' in frame  # the whole table, as it is
    assert await comm.receive_nothing(timeout=1)
    await comm.disconnect()
    assert not any(catch_up.checks.watched.values())


async def test_a_socket_from_another_origin_is_refused(alice, bob):
    table = await setup_game(alice, bob)
    comm, ok = await connect(table.pk, origin=b"http://evil.example.com")
    assert not ok


async def test_a_socket_for_a_missing_table_is_closed(db):
    comm, ok = await connect(987654)
    assert not ok


async def test_the_notification_socket_pushes_the_your_turn_badge(alice, bob):
    table = await setup_game(alice, bob)
    from tables.models import Table

    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    other_seat = 1 - t.to_act[0]
    other = [alice, bob][other_seat]
    comm, connected = await badge_socket(await session_cookie(other))
    assert connected
    first = await comm.receive_from(timeout=20)
    assert 'data-count="0"' in first
    # Moves go on (a Falling Star may keep the turn) until the other player is awaited: then the badge says 1.
    for _ in range(10):
        await play_first_legal(table.pk, [alice, bob])
        t = await sync_to_async(Table.objects.get)(pk=table.pk)
        if other_seat in t.to_act:
            break
    assert other_seat in t.to_act
    badge = await comm.receive_from(timeout=20)
    assert 'id="your-turn-badge"' in badge and 'data-count="1"' in badge
    await comm.disconnect()


async def test_forwarding_a_frame_sends_no_socket_to_a_thread(alice, bob, monkeypatch):
    """Channels would close stale database connections before each message a consumer handles, a trip to a
    worker thread per socket per frame; these consumers reach the database only through
    database_sync_to_async (which does it), so forwarding a frame stays on the event loop."""
    import channels.consumer

    from tables import consumers

    table = await setup_game(alice, bob)
    trips = []

    async def counted():
        trips.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok
    await comm.receive_from(timeout=20)
    badge = await open_badge(await session_cookie(bob))
    await play_first_legal(table.pk, [alice, bob])
    assert 'data-seq="1"' in await comm.receive_from(timeout=20)
    assert trips == []
    assert consumers.TableConsumer.dispatch is consumers.NoConnectionCheckPerMessage.dispatch
    await comm.disconnect()
    await badge.disconnect()
