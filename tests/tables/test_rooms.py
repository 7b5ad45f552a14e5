"""One live room per table (tables.rooms): a move takes the seats, state and log its table's last change
drew instead of reading them, the API and a connecting socket answer from it, and a room behind the table's
revision in the database (another process moved) reloads. A person's change is seen at once; anybody's
log-in changes nothing."""

import random
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import api_tokens, preferences
from accounts.models import ApiToken
from accounts.preferences import set_language
from tables import live, rendering, rooms, selectors, services, social
from tables.api import table_json
from tables.consumers import current_frame
from tables.models import Table
from tests.conftest import PASSWORD
from tests.tables.positions import listening

pytestmark = pytest.mark.django_db


def reads(queries, table: str) -> int:
    return sum(f'FROM "{table}"' in q["sql"] for q in queries.captured_queries)


@pytest.fixture
def game(make_user, started_table, django_capture_on_commit_callbacks):
    users = [make_user(f"p{i}") for i in range(3)]
    table = started_table("cosmic_crowns", users, {"mode": "hard"})
    rnd = random.Random(5)

    def play():
        """One move, its frames drawn (every seat listens in English): (the queries it made, its result)."""
        table = Table.objects.get(pk=table_id)
        seat = table.to_act[0]
        move = rnd.choice(table.engine.legal_moves(table.engine.load(table.state), seat))
        with CaptureQueriesContext(connection) as queries:
            with django_capture_on_commit_callbacks(execute=True):
                result = services.play_move(table_id, users[seat], move, table.seq)
        return queries, result

    table_id = table.pk
    with listening(table_id, (0, 1, 2)):
        yield users, play


def same_log(log, other) -> bool:
    def rows(log):
        moves, events = log
        return (
            [(m.pk, m.seq, m.seat, m.events, m.at, m.undoable, m.cancels) for m in moves],
            [(e.pk, e.kind, e.position, e.actor_id) for e in events],
        )

    return rows(log) == rows(other)


def fresh_log(table):
    moves = selectors.log_moves(table)
    return moves, social.events_since(table, moves[0].seq if moves else None)


def test_a_move_after_a_move_reads_no_seats_no_log_and_loads_no_state(game):
    users, play = game
    play()
    for _ in range(6):
        queries, result = play()
        assert reads(queries, "tables_seat") == 0 and reads(queries, "tables_move") == 0
        table = Table.objects.get(pk=result.table.pk)
        fresh = [(s.index, s.user_id, s.bot, s.awaited) for s in table.seats.order_by("index")]
        assert [(s.index, s.user_id, s.bot, s.awaited) for s in result.publication.seats] == fresh
        assert same_log(result.publication.log, fresh_log(table))
        held = rooms.room(table.pk)
        assert held.moment == rooms.moment(table)
        assert table.engine.dump(held.state) == table.state


def test_the_rooms_log_is_the_log_read_afresh_through_seat_events(game):
    users, play = game
    for n in range(30):
        if n == 10:
            services.vote_abort(Table.objects.get().pk, users[0])  # (a change that is not a move)
        _queries, result = play()
        table = Table.objects.get(pk=result.table.pk)
        assert same_log(
            (result.publication.snapshot().moves, result.publication.snapshot().events), fresh_log(table)
        )
        viewer = users[n % 3]
        fresh = rendering.Snapshot.read(table).frame(viewer, "fr")
        assert result.publication.snapshot().frame(viewer, "fr") == fresh


@contextmanager
def another_process():
    """What this process keeps (rooms, tokens, how people are told of their turn) set aside, as if another
    process served in between; the database and the shared cache are the same."""
    kept = rooms._rooms, api_tokens._kept, api_tokens._owners, preferences._told
    rooms._rooms, api_tokens._kept, api_tokens._owners = type(rooms._rooms)(), {}, {}
    preferences._told = {}
    try:
        yield
    finally:
        rooms._rooms, api_tokens._kept, api_tokens._owners, preferences._told = kept


def test_a_room_behind_the_tables_revision_reloads(game):
    users, play = game
    play()
    play()
    before = rooms.room(Table.objects.get().pk).moment
    with another_process():
        play()  # (another process's move: its revision is in the database, not in this process's room)
        play()
    table = Table.objects.get()
    assert rooms.room(table.pk).moment == before != rooms.moment(table)
    for user in [*users, None]:
        seats, position = rooms.position(table, lambda seats, user=user: selectors.seat_of(seats, user))
        viewer = selectors.seat_of(seats, user)
        assert position == selectors.position(table, viewer)  # (from the database: the room reloaded)
    assert rooms.room(table.pk).moment == rooms.moment(table)
    rooms.forget(table.pk)
    with another_process():
        play()
    queries, result = play()  # this process's next move: its room is behind, so it reads the table again
    assert reads(queries, "tables_seat") >= 1
    table = Table.objects.get()
    assert result.publication.snapshot().frame(users[0], "en") == rendering.Snapshot.read(table).frame(
        users[0], "en"
    )


def test_a_room_behind_reads_only_the_moves_made_since_and_keeps_the_rows_it_held(game):
    """A table whose moves alternate between processes (sockets spread over two daphnes), or whose bots move
    in the worker: the room behind catches its log up with the moves made elsewhere, one row, not twelve."""
    users, play = game
    for _ in range(14):  # (a log as long as a game being played shows: selectors.RECENT_MOVES)
        play()
    for elsewhere in ("move", "vote", "move", "move"):
        held = rooms.room(Table.objects.get().pk).log[0]
        with another_process():  # (a change made elsewhere: this process's room is one change behind)
            if elsewhere == "move":
                play()
            else:  # (a seat event, no move: the log's events are read again)
                services.vote_abort(Table.objects.get().pk, users[0])
        queries, result = play()
        moves_read = [q["sql"] for q in queries.captured_queries if 'FROM "tables_move"' in q["sql"]]
        assert len(moves_read) == 1 and '"seq" >' in moves_read[0], moves_read  # (the new row alone)
        table = Table.objects.get()
        log = result.publication.snapshot().moves, result.publication.snapshot().events
        assert same_log(log, fresh_log(table))
        kept = {m.seq: m for m in held}
        gone = 2 if elsewhere == "move" else 1
        assert [m.seq for m in log[0] if kept.get(m.seq) is m] == [m.seq for m in held][
            gone:
        ]  # (the same rows)
        if elsewhere == "vote":
            assert [e.kind for e in log[1]][-1:] == ["abort_offer"], log[1]
        for user in [*users, None]:
            assert result.publication.frame_for(user, "en") == rendering.Snapshot.read(table).frame(
                user, "en"
            )


def test_a_room_takes_a_change_made_elsewhere_from_its_frames_and_reads_nothing_again(
    game, monkeypatch, django_capture_on_commit_callbacks
):
    """On Redis a change's frames carry the change (the seats, state and log after it) to the other processes:
    a socket there gives it to its room (``rooms.heard_change``, as ``tables.consumers`` does), so a table whose
    moves alternate between processes reads no seats and no log; the room is what a fresh read gives, the frames
    drawn from it too, and the frames drawn here before stay as heard."""
    users, play = game
    sent = []
    monkeypatch.setattr(live, "between_processes", lambda layer: True)
    monkeypatch.setattr(live, "send", lambda layer, messages: sent.extend(messages))
    for _ in range(3):
        play()
    for elsewhere in ("move", "vote", "move", "move"):
        sent.clear()
        drawn_before = dict(rooms.room(Table.objects.get().pk).frames)
        with another_process():
            if elsewhere == "move":
                play()
            else:  # (a seat event, no move)
                with django_capture_on_commit_callbacks(execute=True):
                    services.vote_abort(Table.objects.get().pk, users[0])
        frames = [m for _group, m in sent if m["type"] == "table.frame"]
        table = Table.objects.get()
        assert frames and all(m["change"] is frames[0]["change"] for m in frames)  # (pickled once)
        assert all(m["revision"] == table.revision for m in frames)
        here = rooms.room(table.pk)
        rooms.heard_change(table.pk, table.revision, frames[0]["change"])
        assert here.moment == rooms.moment(table)
        assert {k: h.frame for k, h in here.heard.items() if k in drawn_before} == drawn_before
        queries, result = play()
        assert reads(queries, "tables_seat") == 0 and reads(queries, "tables_move") == 0
        assert reads(queries, "tables_tableevent") == 0
        table = Table.objects.get()
        assert same_log(result.publication.log, fresh_log(table))
        for user in [*users, None]:
            assert result.publication.frame_for(user, "en") == rendering.Snapshot.read(table).frame(
                user, "en"
            )
        rooms.heard_change(table.pk, table.revision - 1, frames[0]["change"])  # (late: an older one)
        assert rooms.room(table.pk).moment == rooms.moment(table)


def test_a_language_chosen_between_two_moves_is_the_next_frames(game):
    users, play = game
    play()
    set_language(users[1], "fr")
    with listening(Table.objects.get().pk, (1,), "fr"):  # (their page, reloaded in French)
        queries, result = play()
        assert reads(queries, "tables_seat") == 1  # read again: the person changed
        assert (live.viewer_key(1), "fr") in result.publication.frames  # drawn in French, as chosen
        assert (live.viewer_key(1), "en") not in result.publication.frames
        assert reads(play()[0], "tables_seat") == 0


def test_a_persons_change_in_another_process_is_seen_through_their_shared_stamp(game):
    users, play = game
    play()
    cache.set(f"{api_tokens.STAMP_PREFIX}{users[2].pk}", "renewed by another process", None)
    assert reads(play()[0], "tables_seat") == 1


def test_a_log_in_or_a_change_of_somebody_else_keeps_the_rooms_and_the_tokens(game, make_user):
    users, play = game
    play()
    raw = ApiToken.issue(users[0], "bot")[1]
    for _ in range(2):
        Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raw}")
    outsider = make_user("outsider")
    assert Client().login(username="outsider", password=PASSWORD)  # (Django saves their last_login)
    assert Client().login(
        username="p1", password=PASSWORD
    )  # (even a seated person's log-in shows nothing new)
    set_language(outsider, "fr")
    outsider.first_name = "Out"
    outsider.save()
    assert reads(play()[0], "tables_seat") == 0
    with CaptureQueriesContext(connection) as queries:
        assert Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    assert reads(queries, "accounts_apitoken") == 0


def test_a_revoked_token_or_changed_password_drops_that_persons_token_at_once(game, client_for):
    users, play = game
    play()
    raws = [ApiToken.issue(users[0], "bot")[1], ApiToken.issue(users[1], "bot")[1]]
    for raw in raws:
        for _ in range(2):
            Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raw}")
    ApiToken.objects.filter(user=users[0]).delete()
    assert Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raws[0]}").status_code == 401
    new = "an-entirely-new-passphrase-7"
    client_for(users[1]).post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert Client().get("/api/history", HTTP_AUTHORIZATION=f"Bearer {raws[1]}").status_code == 401


def test_the_api_answers_from_the_room_as_from_the_database(game):
    users, play = game
    play()
    table = Table.objects.get()
    for user in [*users, None]:
        with CaptureQueriesContext(connection) as queries:
            kept = table_json(table, user)
        assert reads(queries, "tables_seat") == 0
        rooms.forget(table.pk)
        assert table_json(table, user) == kept


def test_a_connecting_socket_gets_its_seats_frame_from_the_room_and_only_its_own(game, make_user):
    users, play = game
    play()
    table = Table.objects.get()
    for seat, user in enumerate(users):
        before = rendering.render_count
        key, revision, frame = current_frame(table.pk, user, "en")
        assert rendering.render_count == before  # the frame the move drew for this seat, not drawn again
        assert key == live.viewer_key(seat) and revision == table.revision
        assert frame.startswith(rendering.Snapshot.read(table).frame(user, "en"))
    spectator = make_user("dora")
    before = rendering.render_count
    key, _, frame = current_frame(table.pk, spectator, "en")
    assert key == live.WATCH and rendering.render_count == before + 1  # drawn for them
    assert frame.startswith(rendering.Snapshot.read(table).frame(spectator, "en"))
    with listening(table.pk, (0,), "fr"):
        play()
    table = Table.objects.get()
    before = rendering.render_count
    current_frame(table.pk, users[0], "fr")  # (seat 0 has a socket in French: drawn with the move)
    current_frame(table.pk, users[1], "fr")  # (nobody at seat 1 reads French: drawn now)
    assert rendering.render_count == before + 1


def test_the_rooms_are_bounded(game, monkeypatch):
    _users, play = game
    monkeypatch.setattr(rooms, "ROOMS", 3)
    for table_id in range(10**6, 10**6 + 5):
        rooms.room(table_id)
    assert len(rooms._rooms) == 3 and list(rooms._rooms) == [10**6 + 2, 10**6 + 3, 10**6 + 4]


def test_a_socket_connecting_after_its_player_muted_the_chat_shows_it_muted(game):
    users, play = game
    play()
    table = Table.objects.get()
    assert "muted-chat" not in current_frame(table.pk, users[0], "en")[2]
    services.mute_chat(table.pk, users[0], True)  # (a seat's change without a new revision)
    assert "muted-chat" in current_frame(table.pk, users[0], "en")[2]
