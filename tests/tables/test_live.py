"""One render per viewer per change, not per socket: the frames of tables.live."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from accounts.preferences import set_language
from tables import consumers, live, rendering, services
from tables.models import Table
from tests.html import cards_on
from tests.tables import frame_pages
from tests.tables.test_consumers import connect, session_cookie, setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True, params=[False, True], ids=["full-frames", "partial-frames"])
def partial_frames(request, settings):
    """Every test here runs with whole frames and with partial frames (settings.PARTIAL_FRAMES, the default)."""
    settings.PARTIAL_FRAMES = request.param
    return request.param


def first_legal(table_id):
    table = Table.objects.get(pk=table_id)
    seat = table.to_act[0]
    state = table.engine.load(table.state)
    return table, seat, table.engine.legal_moves(state, seat)[0], state


async def open_sockets(table_id, cookies, language=None):
    sockets = []
    for cookie in cookies:
        comm, ok = await connect(table_id, cookie, language=language)
        assert ok
        comm.first = await comm.receive_from(timeout=20)  # the first frame: the table as it is
        sockets.append(comm)
    return sockets


@sync_to_async
def htmx_move(table_id, user, move, language=None):
    """The move as the page posts it (seq 0), in a browser asking for ``language``: the htmx answer."""
    client = Client(headers={"accept-language": language} if language else {})
    client.force_login(user)
    return client.post(
        f"/tables/{table_id}/move/", {"move": json.dumps(move), "seq": "0"}, headers={"HX-Request": "true"}
    )


def no_database_in_sockets(monkeypatch):
    """After this, a socket that reads the database to forward a frame fails the test."""

    def refuse(*args):
        raise AssertionError("a socket read the database to forward a frame")

    monkeypatch.setattr(consumers, "current_frame", refuse)
    monkeypatch.setattr(consumers, "seat_key", refuse)
    monkeypatch.setattr(consumers, "socket_language", refuse)


@pytest.mark.slow
async def test_three_tabs_and_200_spectators_cost_one_render_each(alice, bob, monkeypatch):
    table = await setup_game(alice, bob)
    alice_cookie, bob_cookie = await session_cookie(alice), await session_cookie(bob)
    alice_tabs = await open_sockets(table.pk, [alice_cookie] * 3)
    bob_tab = await open_sockets(table.pk, [bob_cookie])
    spectators = await open_sockets(table.pk, [None] * 200)
    no_database_in_sockets(monkeypatch)

    _, seat, move, state = await sync_to_async(first_legal)(table.pk)
    before = rendering.render_count
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 0)
    assert rendering.render_count - before == 3  # alice's seat, bob's seat, the spectators

    frames, pages = {}, {}
    for name, socks in (("alice", alice_tabs), ("bob", bob_tab), ("watch", spectators)):
        received = {await s.receive_from(timeout=20) for s in socks}
        assert len(received) == 1, name  # every socket of one viewer got the very same frame
        frames[name] = received.pop()
        assert 'data-seq="1"' in frames[name]
        # (a partial frame: what changed since the socket's first frame; the page it leaves is checked)
        pages[name] = frame_pages.apply(frame_pages.page_of(socks[0].first), frames[name])
        for s in socks:
            assert await s.receive_nothing(timeout=0.05)
    hands = state["hands"]
    assert set(hands[0]) - {move["card"]} <= cards_on(pages["alice"])
    for shown in (frames["alice"], pages["alice"]):
        assert not (set(hands[1]) - {move["card"]}) & cards_on(shown)
    for shown in (frames["watch"], pages["watch"]):
        assert not (set(hands[0]) | set(hands[1])) - {move["card"]} & cards_on(shown)
    assert "(you)" in pages["alice"] and "(you)" not in pages["watch"]
    for s in alice_tabs + bob_tab + spectators:
        await s.disconnect()


async def test_a_viewer_with_no_socket_is_not_rendered(alice, bob):
    table = await setup_game(alice, bob)
    (bob_tab,) = await open_sockets(table.pk, [await session_cookie(bob)])
    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    before = rendering.render_count
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 0)
    assert rendering.render_count - before == 1  # bob's seat only: nobody else is listening
    assert 'data-seq="1"' in await bob_tab.receive_from(timeout=20)
    await bob_tab.disconnect()


async def test_the_movers_answer_is_the_frame_its_sockets_get(alice, bob):
    table = await setup_game(alice, bob)
    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    mover = [alice, bob][seat]
    (tab,) = await open_sockets(table.pk, [await session_cookie(mover)])
    before = rendering.render_count
    answer = await htmx_move(table.pk, mover, move)
    assert answer.status_code == 200
    assert rendering.render_count - before == 1  # rendered once, for the socket and the answer alike
    # The socket gets what changed since its first frame: the page it leaves is the answer's.
    frame = await tab.receive_from(timeout=20)
    page = frame_pages.live(frame_pages.apply(frame_pages.page_of(tab.first), frame))
    assert page == frame_pages.page_of(answer.content.decode())
    await tab.disconnect()


async def test_an_older_frame_never_replaces_a_newer_one(alice, bob):
    table = await setup_game(alice, bob)
    (tab,) = await open_sockets(table.pk, [None])
    layer = get_channel_layer()
    group = live.table_group(table.pk, live.WATCH, "en")
    stale = {"type": "table.frame", "key": live.WATCH, "revision": 0, "seats": {}, "html": "stale"}
    await layer.group_send(group, stale)
    assert await tab.receive_nothing(timeout=0.2)
    revision = (await sync_to_async(Table.objects.get)(pk=table.pk)).revision
    await layer.group_send(group, {**stale, "revision": revision + 1, "html": "newer"})
    assert await tab.receive_from(timeout=5) == "newer"
    await tab.disconnect()


async def test_a_socket_that_missed_frames_reads_the_table_anew(alice, bob):
    """Every change sends a frame: a revision further on than the next says frames were lost (Redis was
    down, say), and the socket sends the table as it is now, chat included, instead of that frame."""
    table = await setup_game(alice, bob)
    (tab,) = await open_sockets(table.pk, [None])
    layer = get_channel_layer()
    group = live.table_group(table.pk, live.WATCH, "en")
    revision = (await sync_to_async(Table.objects.get)(pk=table.pk)).revision
    await layer.group_send(
        group,
        {"type": "table.frame", "key": live.WATCH, "revision": revision + 3, "seats": {}, "html": "ahead"},
    )
    frame = await tab.receive_from(timeout=10)
    assert frame != "ahead" and f'id="table-{table.pk}-status"' in frame and "chat" in frame
    await tab.disconnect()


async def test_a_spectator_who_takes_a_seat_gets_that_seats_frames(alice, bob, charlie):
    table = await sync_to_async(services.create_table)(alice, "cosmic_crowns", 3)
    charlie_cookie = await session_cookie(charlie)
    (tab,) = await open_sockets(table.pk, [charlie_cookie])
    (other,) = await open_sockets(table.pk, [None])

    await sync_to_async(services.join_table)(table.pk, charlie)
    frame = await tab.receive_from(timeout=20)
    assert 'title="charlie">charlie</span><span class="you">(you)' in frame  # the seat chip of the viewer
    assert "(you)" not in await other.receive_from(timeout=20)
    await sync_to_async(services.join_table)(table.pk, bob)
    await sync_to_async(services.start_table)(table.pk, alice)
    frames = [await tab.receive_from(timeout=20) for _ in range(2)]
    state = (await sync_to_async(Table.objects.get)(pk=table.pk)).state
    assert set(state["hands"][1]) <= cards_on(frames[-1])  # charlie's own hand, in seat 1
    await tab.disconnect()
    await other.disconnect()


async def test_the_spectators_frame_of_an_open_table_loads_the_join_area_per_person(alice, bob):
    table = await sync_to_async(services.create_table)(alice, "cosmic_crowns", 2)
    (tab,) = await open_sockets(table.pk, [None])
    await sync_to_async(services.join_table)(table.pk, bob)
    await sync_to_async(services.leave_table)(table.pk, bob)
    frame = await tab.receive_from(timeout=20)
    frame = await tab.receive_from(timeout=20)
    assert f'hx-get="/tables/{table.pk}/join-area/"' in frame
    assert "Join this table" not in frame and "Log in" not in frame

    anonymous = await sync_to_async(Client().get)(f"/tables/{table.pk}/join-area/")
    assert "Log in" in anonymous.content.decode() and "Join this table" not in anonymous.content.decode()
    member = Client()
    await sync_to_async(member.force_login)(bob)
    joinable = await sync_to_async(member.get)(f"/tables/{table.pk}/join-area/")
    assert "Join this table" in joinable.content.decode() and "Log in" not in joinable.content.decode()
    await tab.disconnect()


def says_who_played(monkeypatch, engine):
    """The engine's events for a move become one event its messages put in words per language."""
    cls = type(engine)
    monkeypatch.setattr(
        cls, "events", lambda self, before, seat, move, after: [{"kind": "moved", "seat": seat}]
    )
    said = {"en": "{seat} moved", "fr": "{seat} a joué"}
    monkeypatch.setattr(cls, "messages", {lang: {**cls.messages[lang], "moved": said[lang]} for lang in said})


async def test_spectators_get_one_frame_per_language_and_read_the_log_in_it(alice, bob, monkeypatch):
    table = await setup_game(alice, bob)
    says_who_played(monkeypatch, table.engine)
    english = await open_sockets(table.pk, [None] * 3, language="en-GB,en;q=0.8")
    french = await open_sockets(table.pk, [None] * 3, language="fr-FR,fr;q=0.9,en;q=0.5")
    no_database_in_sockets(monkeypatch)

    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    mover = ["alice", "bob"][seat]
    before = rendering.render_count
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 0)
    assert rendering.render_count - before == 2  # the spectators in English, the spectators in French

    for socks, lang, line in ((english, "en", f"{mover} moved"), (french, "fr", f"{mover} a joué")):
        frames = {await s.receive_from(timeout=20) for s in socks}
        assert len(frames) == 1
        frame = frames.pop()
        assert f'lang="{lang}"' in frame and line in frame
        assert "moved" not in frame if lang == "fr" else "a joué" not in frame
    for s in english + french:
        await s.disconnect()


async def test_a_seat_reads_in_the_language_its_person_chose_and_the_movers_answer_matches(
    alice, bob, monkeypatch
):
    table = await setup_game(alice, bob)
    says_who_played(monkeypatch, table.engine)
    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    mover = [alice, bob][seat]
    await sync_to_async(set_language)(mover, "fr")
    # The browser asks for English; the account's choice wins, for the socket and the answer alike.
    (tab,) = await open_sockets(table.pk, [await session_cookie(mover)], language="en")
    before = rendering.render_count
    answer = await htmx_move(table.pk, mover, move, language="en")
    assert answer.status_code == 200
    assert rendering.render_count - before == 1
    frame = await tab.receive_from(timeout=20)
    page = frame_pages.live(frame_pages.apply(frame_pages.page_of(tab.first), frame))
    assert page == frame_pages.page_of(answer.content.decode())
    assert f"{mover.username} a joué" in frame and 'lang="fr"' in page
    await tab.disconnect()


async def test_a_page_out_of_sight_gets_no_frame_and_none_is_drawn_for_it(alice, bob):
    """A page out of sight (another tab in front) says so over its socket: no frame is drawn for its viewer
    while it is away unless another socket of that viewer listens, nothing reaches it, and back in sight it is
    sent the table as it is then, once."""
    table = await setup_game(alice, bob)
    alice_cookie, bob_cookie = await session_cookie(alice), await session_cookie(bob)
    (alice_tab,) = await open_sockets(table.pk, [alice_cookie])
    bob_hidden, bob_shown = await open_sockets(table.pk, [bob_cookie, bob_cookie])
    (watcher,) = await open_sockets(table.pk, [None])
    await alice_tab.send_to(text_data='{"visible":false}')
    await watcher.send_to(text_data='{"visible":false}')
    await bob_hidden.send_to(text_data='{"visible":false}')
    await bob_hidden.send_to(text_data='{"visible":false}')  # (said twice: the same)
    for comm in (alice_tab, watcher, bob_hidden):
        assert await comm.receive_nothing(timeout=0.1)  # (no answer, no refusal)

    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    before = rendering.render_count
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 0)
    assert rendering.render_count - before == 1  # bob's seat alone: his other tab is in sight
    assert 'data-seq="1"' in await bob_shown.receive_from(timeout=20)
    for comm in (alice_tab, watcher, bob_hidden):
        assert await comm.receive_nothing(timeout=0.2)

    # Back in sight: the table as it is now, whole, with the chat; then every frame as before.
    for comm in (alice_tab, watcher):
        await comm.send_to(text_data='{"visible":true}')
        back = await comm.receive_from(timeout=20)
        assert 'data-seq="1"' in back and f'id="table-{table.pk}-chat"' in back
        assert await comm.receive_nothing(timeout=0.1)
    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 1)
    for comm in (alice_tab, watcher, bob_shown):
        assert 'data-seq="2"' in await comm.receive_from(timeout=20)
    assert await bob_hidden.receive_nothing(timeout=0.2)
    for comm in (alice_tab, watcher, bob_hidden, bob_shown):
        await comm.disconnect()


async def test_a_message_other_than_the_two_visibility_ones_is_a_move(alice, bob):
    """Only the page's own two messages are taken as its visibility; anything else is judged as a move."""
    table = await setup_game(alice, bob)
    (tab,) = await open_sockets(table.pk, [await session_cookie(alice)])
    await tab.send_to(text_data='{"visible": false}')
    assert 'data-refused="400"' in await tab.receive_from(timeout=20)
    _, seat, move, _ = await sync_to_async(first_legal)(table.pk)
    await sync_to_async(services.play_move)(table.pk, [alice, bob][seat], move, 0)
    assert 'data-seq="1"' in await tab.receive_from(timeout=20)  # (still in sight, still sent frames)
    await tab.disconnect()
