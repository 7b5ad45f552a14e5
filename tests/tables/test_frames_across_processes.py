"""Partial frames when a table's moves come through several processes (PostgreSQL + Redis, two daphnes or
more): each process's room keeps the whole frames its sockets heard, so that a change made in one process
still reaches the sockets of every other as what changed (tables.rooms, issue 31, point 3).

A second process is stood for by a thread whose rooms are its own (``process_b``): its change draws its
frames with none before, as a process that did not make the change before does; the channel layer between
the two is the in-memory one, as Redis would carry the messages.
"""

import threading
from collections import OrderedDict

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import live, rendering, rooms, services
from tables.models import Table
from tests.tables import frame_pages
from tests.tables.test_consumers import session_cookie, setup_game
from tests.tables.test_live import first_legal, open_sockets

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def process_b(monkeypatch, settings):
    """Run a function as another process would: in a thread of its own, with rooms of its own."""
    settings.PARTIAL_FRAMES = True
    here, theirs, lock = threading.local(), OrderedDict(), threading.Lock()
    room = rooms.room

    def either_room(table_id):
        if not getattr(here, "b", False):
            return room(table_id)
        with lock:
            return theirs.setdefault(table_id, rooms.Room(table_id))

    monkeypatch.setattr(rooms, "room", either_room)

    def run(fn, *args):
        here.b = True
        try:
            return fn(*args)
        finally:
            here.b = False

    return lambda fn, *args: sync_to_async(run, thread_sensitive=False)(fn, *args)


def play_first_legal(table_id):
    table, seat, move, _ = first_legal(table_id)
    player = User.objects.get(seats__table=table, seats__index=seat)
    return services.play_move(table_id, player, move, table.seq)


def full_page(table_id, user):
    return frame_pages.page_of(rendering.render_frame(Table.objects.get(pk=table_id), user, "en"))


async def test_a_change_made_in_another_process_reaches_this_ones_sockets_as_what_changed(
    alice, bob, process_b
):
    table = await setup_game(alice, bob)
    tabs = await open_sockets(table.pk, [await session_cookie(alice), await session_cookie(bob)])
    pages = [frame_pages.page_of(tab.first) for tab in tabs]
    sizes = []
    # A move through process B, whose room holds no frame before (so it sends whole frames), then one
    # through this process, whose room heard B's whole frames, then B again, which heard nothing.
    for where in ("b", "here", "b"):
        if where == "b":
            await process_b(play_first_legal, table.pk)
        else:
            await sync_to_async(play_first_legal)(table.pk)
        for n, (tab, user) in enumerate(zip(tabs, (alice, bob), strict=True)):
            frame = await tab.receive_from(timeout=20)
            whole = await sync_to_async(full_page)(table.pk, user)
            assert "data-kept" in frame, (where, user.username)  # what changed, not the whole frame
            sizes.append((len(frame), len(whole)))
            pages[n] = frame_pages.live(frame_pages.apply(pages[n], frame))
            assert pages[n] == frame_pages.live(whole), (where, user.username)
            assert await tab.receive_nothing(timeout=0.05)
    assert all(part < whole / 2 for part, whole in sizes), sizes
    for tab in tabs:
        await tab.disconnect()


async def test_the_room_takes_a_frame_heard_from_another_process_as_the_frame_before(alice, bob):
    """A whole frame a socket here got with another process's change (sent beside its partial frame, across
    processes: ``full``) is the frame before for this process's next change."""
    table = await setup_game(alice, bob)
    key = ("s0", "en")
    frame = await sync_to_async(rendering.render_frame)(table, alice, "en")
    rooms.heard(table.pk, key, table.revision, frame)
    rooms.heard(table.pk, key, table.revision - 1, "an older frame")  # (never replaces a later one)
    table.revision += 1
    before = rooms.frames_before(table)
    assert list(before) == [key] and before[key].html == frame
    table.revision += 1
    assert rooms.frames_before(table) == {}  # (a revision further on: that frame is not the one before)


async def test_a_change_made_in_another_process_reaches_this_ones_room_through_its_sockets(
    alice, bob, process_b, monkeypatch
):
    """Across processes (Redis) a change's frames carry the change itself: a socket here gives it to this
    process's room (``rooms.heard_change``) and sends its page only the frame, so this process's next move reads
    neither the seats nor the log again, and its frames are still what changed, equal to a full render."""
    monkeypatch.setattr(live, "between_processes", lambda layer: True)
    table = await setup_game(alice, bob)
    tabs = await open_sockets(table.pk, [await session_cookie(alice), await session_cookie(bob)])
    pages = [frame_pages.page_of(tab.first) for tab in tabs]
    for where in ("b", "here", "b", "here"):
        if where == "b":
            await process_b(play_first_legal, table.pk)
        else:
            queries = await sync_to_async(played_here)(table.pk)
            read = [
                q["sql"]
                for q in queries
                if 'FROM "tables_seat"' in q["sql"] or 'FROM "tables_move"' in q["sql"]
            ]
            assert not read, read  # (the room took B's change from the frames its sockets heard)
        for n, (tab, user) in enumerate(zip(tabs, (alice, bob), strict=True)):
            frame = await tab.receive_from(timeout=20)
            assert isinstance(frame, str) and "data-kept" in frame, (where, user.username)
            whole = await sync_to_async(full_page)(table.pk, user)
            pages[n] = frame_pages.live(frame_pages.apply(pages[n], frame))
            assert pages[n] == frame_pages.live(whole), (where, user.username)
        if where == "b":
            here = rooms.room(table.pk)
            assert here.moment == rooms.moment(await Table.objects.aget(pk=table.pk))
    for tab in tabs:
        await tab.disconnect()


def played_here(table_id) -> list[dict]:
    with CaptureQueriesContext(connection) as queries:
        play_first_legal(table_id)
    return queries.captured_queries
