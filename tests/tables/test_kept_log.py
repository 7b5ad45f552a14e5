"""The log a move's frames show is extended from the previous move's (tables.rendering.log_after), not read
again: it must be the very log a fresh read gives, through seat events, a finished game and a cold start."""

import random
from contextlib import contextmanager

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import live, rendering, selectors, services, social
from tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)  # (the kept log is kept once a move commits)


@contextmanager
def watched(table):
    """A socket of the spectators (as the in-memory layer knows it): the table's changes are rendered."""
    layer, group = get_channel_layer(), live.table_group(table.pk, live.WATCH, "en")
    async_to_sync(layer.group_add)(group, "test.watcher!1")
    try:
        yield
    finally:
        async_to_sync(layer.group_discard)(group, "test.watcher!1")
        layer.channels.pop("test.watcher!1", None)


def fresh_log(table):
    moves = selectors.log_moves(table)
    return moves, social.events_since(table, moves[0].seq if moves else None)


def same(log, other) -> bool:
    def rows(log):
        moves, events = log
        return (
            [(m.pk, m.seq, m.seat, m.events, m.at, m.undoable, m.cancels) for m in moves],
            [(e.pk, e.kind, e.position, e.actor_id) for e in events],
        )

    return rows(log) == rows(other)


def test_the_kept_log_is_the_log_read_afresh_move_after_move(make_user, started_table):
    users = [make_user(f"p{i}") for i in range(3)]
    table = started_table("cosmic_crowns", users, {"mode": "hard"})
    with watched(table):
        play_to_the_end_comparing_logs(table, users, random.Random(11))


def play_to_the_end_comparing_logs(table, users, rnd):
    extended = 0
    for n in range(400):
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.PLAYING:
            break
        if n == 15:  # a seat event between two moves (its frames read the log anew)
            services.vote_abort(table.pk, users[0])
            continue
        seat = table.to_act[0]
        state = table.engine.load(table.state)
        result = services.play_move(
            table.pk, users[seat], rnd.choice(table.engine.legal_moves(state, seat)), table.seq
        )
        after = Table.objects.get(pk=table.pk)
        if after.status == Table.PLAYING and n > 0:  # (the first move reads the log after its commit)
            assert result.publication.log is not None
            assert same(result.publication.log, fresh_log(after)), n
            kept = rendering._kept_logs[table.pk]
            assert kept[0] == rendering.moment(after) and same(kept[1:], fresh_log(after))
            extended += 1
            viewer = users[(seat + 1) % 3]
            fresh = rendering.Snapshot.read(after)
            assert result.publication.snapshot().frame(viewer, "fr") == fresh.frame(viewer, "fr")
        elif after.status != Table.PLAYING:
            assert result.publication.log is None  # a finished game's log shows every move: read then
    assert table.status == Table.FINISHED and extended > 100
    assert any(e.kind == "abort_offer" for e in social.events_since(table, None))


def test_a_move_reads_the_log_only_when_it_has_not_kept_it(make_user, started_table):
    users = [make_user(f"p{i}") for i in range(2)]
    table = started_table("cosmic_crowns", users)
    with watched(table):
        assert log_reads(table, users, 4) == [2, 0, 0, 0]  # read and checked once, then extended
        with CaptureQueriesContext(connection) as ctx:
            services.vote_abort(table.pk, users[0])  # a change that is not a move: its frames read the log
        assert sum(('FROM "tables_move"' in q["sql"]) + checks(q) for q in ctx.captured_queries) == 2
        assert log_reads(table, users, 2) == [0, 0]  # and the next moves extend what they read
    assert log_reads(table, users, 2) == [0, 0]  # nobody watching: nothing rendered, nothing read


def log_reads(table, users, moves):
    counts = []
    for _ in range(moves):
        table = Table.objects.get(pk=table.pk)
        seat = table.to_act[0]
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        with CaptureQueriesContext(connection) as ctx:
            services.play_move(table.pk, users[seat], move, table.seq)
        counts.append(sum(('FROM "tables_move"' in q["sql"]) + checks(q) for q in ctx.captured_queries))
    return counts


def checks(query) -> int:
    """1 for the check that a log read after commit is still the table's (Snapshot.keep_log)."""
    return query["sql"].startswith('SELECT 1 AS "a" FROM "tables_table"')


def test_a_log_read_after_a_later_change_committed_is_not_kept(make_user, started_table):
    """A change's frames read the log after its commit; if another change committed in between, what they
    read is not the log at the change's revision, and keeping it would put it in every later frame."""
    users = [make_user(f"p{i}") for i in range(2)]
    table = started_table("cosmic_crowns", users)
    snapshot = rendering.Snapshot.read(table)  # a change at revision r, not yet drawn
    services.vote_abort(table.pk, users[0])  # revision r + 1 commits first
    snapshot.frame(None, "en")  # reads the log as it is now, at r + 1
    snapshot.keep_log()
    assert rendering.log_now(table) is None
    later = Table.objects.get(pk=table.pk)
    fresh = rendering.Snapshot.read(later)
    fresh.frame(None, "en")
    fresh.keep_log()
    assert rendering.log_now(later) is not None  # the same read, at the table's revision, is kept
