"""The club over sockets: presence without database writes, spectators counted, blocked people's chat left out."""

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db.backends import utils as db_utils

from accounts import presence
from tables import club, services
from tests.tables.test_consumers import connect, open_badge, session_cookie, setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class AllQueries:
    """Every SQL statement any thread runs while it is open (the sockets' reads run on worker threads)."""

    def __init__(self, monkeypatch):
        self.sql: list[str] = []
        lock = threading.Lock()
        original = db_utils.CursorWrapper._execute

        def recording(cursor, sql, params, *ignored):
            with lock:
                self.sql.append(sql)
            return original(cursor, sql, params, *ignored)

        monkeypatch.setattr(db_utils.CursorWrapper, "_execute", recording)

    def writes(self) -> list[str]:
        return [q for q in self.sql if q.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")]


async def test_200_sockets_opening_and_closing_write_nothing_to_the_database(alice, monkeypatch, settings):
    settings.PRESENCE_GRACE = 0
    settings.MAX_SOCKETS_PER_ACCOUNT = 250  # (200 pages of one person, past the usual bound)
    cookie = await session_cookie(alice)
    queries = AllQueries(monkeypatch)
    one = await open_badge(cookie)
    await one.disconnect()
    per_socket = len(queries.sql)
    assert per_socket > 0
    queries.sql.clear()
    assert not (await sync_to_async(presence.of)(alice.pk)).online

    open_now = []
    for _ in range(200):
        open_now.append(await open_badge(cookie))
    assert (await sync_to_async(presence.of)(alice.pk)).online
    for comm in open_now[:-1]:
        await comm.disconnect()
    assert (await sync_to_async(presence.of)(alice.pk)).online  # one page is still open
    await open_now[-1].disconnect()

    assert queries.writes() == []
    assert len(queries.sql) == 200 * per_socket  # what each socket read before presence existed, no more
    after = await sync_to_async(presence.of)(alice.pk)
    assert not after.online and after.last_seen is not None


async def test_a_person_stays_online_for_the_grace_after_the_last_page_closes(alice, settings):
    settings.PRESENCE_GRACE = 180
    comm = await open_badge(await session_cookie(alice))
    await comm.disconnect()
    assert (await sync_to_async(presence.of)(alice.pk)).online  # (a page that navigates reopens its socket)
    settings.PRESENCE_GRACE = 0
    assert not (await sync_to_async(presence.of)(alice.pk)).online


async def test_a_table_socket_counts_its_person_online_and_a_spectator_as_watching(alice, bob, charlie):
    table = await setup_game(alice, bob)
    players, _ = await connect(table.pk, await session_cookie(alice))
    watchers = []
    for cookie in (await session_cookie(charlie), None, None):
        comm, ok = await connect(table.pk, cookie)
        assert ok
        watchers.append(comm)
    assert (await sync_to_async(presence.of)(alice.pk)).online
    assert (await sync_to_async(presence.of)(charlie.pk)).online
    assert await sync_to_async(presence.spectators)([table.pk]) == {table.pk: 3}
    rows = await sync_to_async(club.live_tables)()
    assert rows[0]["spectators"] == 3 and rows[0]["players"][0]["online"] is True
    for comm in watchers:
        await comm.disconnect()
    await players.disconnect()
    assert await sync_to_async(presence.spectators)([table.pk]) == {table.pk: 0}


async def test_a_spectator_who_takes_a_seat_stops_being_counted_as_watching(alice, charlie):
    table = await sync_to_async(services.create_table)(alice, "cosmic_crowns", 2)
    comm, ok = await connect(table.pk, await session_cookie(charlie))
    assert ok
    await comm.receive_from(timeout=20)
    assert await sync_to_async(presence.spectators)([table.pk]) == {table.pk: 1}
    await sync_to_async(services.join_table)(table.pk, charlie)
    await comm.receive_from(timeout=20)  # the socket follows its person to their seat
    assert await sync_to_async(presence.spectators)([table.pk]) == {table.pk: 0}
    await comm.disconnect()
    assert await sync_to_async(presence.spectators)([table.pk]) == {table.pk: 0}


async def test_the_chat_of_a_blocked_person_never_reaches_the_blockers_sockets(
    alice, bob, charlie, make_user
):
    table = await setup_game(alice, bob)
    dave = await sync_to_async(make_user)("dave")
    await sync_to_async(club.block)(alice, "bob")  # a seated blocker
    await sync_to_async(club.block)(charlie, "bob")  # a watching blocker
    sockets = {}
    for name, user in (("alice", alice), ("charlie", charlie), ("dave", dave)):
        comm, ok = await connect(table.pk, await session_cookie(user))
        assert ok
        sockets[name] = comm
        await comm.receive_from(timeout=20)
    await sync_to_async(services.post_chat)(table.pk, bob, text="rude words")
    assert "rude words" in await sockets["dave"].receive_from(timeout=20)
    assert await sockets["alice"].receive_nothing(timeout=0.3)
    assert await sockets["charlie"].receive_nothing(timeout=0.3)
    # Lifted while the socket is open: the next line shows.
    await sync_to_async(club.unblock)(charlie, "bob")
    await sync_to_async(services.post_chat)(table.pk, bob, text="sorry")
    assert "sorry" in await sockets["charlie"].receive_from(timeout=20)
    assert await sockets["alice"].receive_nothing(timeout=0.3)
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_block_made_while_the_socket_is_open_hides_the_next_lines(alice, bob):
    table = await setup_game(alice, bob)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok
    await comm.receive_from(timeout=20)
    await sync_to_async(club.block)(alice, "bob")
    await sync_to_async(services.post_chat)(table.pk, bob, text="still here")
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


async def test_the_chat_panel_a_blocker_opens_leaves_the_blocked_persons_lines_out(alice, bob):
    table = await setup_game(alice, bob)
    await sync_to_async(services.post_chat)(table.pk, bob, text="rude words")
    await sync_to_async(club.block)(alice, "bob")
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok
    assert "rude words" not in await comm.receive_from(timeout=20)
    await comm.disconnect()


async def test_the_challenger_is_told_live_when_the_challenge_is_declined(alice, bob):
    from tables import challenges

    comm = await open_badge(await session_cookie(alice))
    made = await sync_to_async(challenges.create)(alice, "bob", "cosmic_crowns")
    await sync_to_async(challenges.decline)(made.pk, bob)
    frame = await comm.receive_from(timeout=20)
    assert 'id="your-turn-badge"' in frame and 'id="club-news"' in frame
    assert "bob declined your challenge to Cosmic Crowns" in frame
    await comm.disconnect()


async def test_a_count_left_by_a_dead_process_does_not_keep_anyone_online(alice, settings):
    from django.core.cache import cache

    settings.PRESENCE_GRACE = 0
    await sync_to_async(cache.set)(f"presence:n:{alice.pk}", 3)  # its sockets were never closed
    assert not (await sync_to_async(presence.of)(alice.pk)).online
    comm = await open_badge(await session_cookie(alice))
    assert (await sync_to_async(presence.of)(alice.pk)).online
    await comm.disconnect()
