"""Tables as a service: creating, joining, starting, moving; the move log reproduces the state."""

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.core import narrate
from tables import history, services
from tables.models import Move, Seat, Table

pytestmark = pytest.mark.django_db(transaction=False)


def first_move(table):
    engine = table.engine
    state = engine.load(table.state)
    seat = table.to_act[0]
    return seat, engine.legal_moves(state, seat)[0]


def test_it_creates_a_table_with_the_creator_in_seat_zero(alice):
    table = services.create_table(alice, "cosmic_crowns", 4, {"mode": "hard", "reverse": True})
    assert table.status == Table.OPEN
    seats = list(table.seats.all())
    assert [s.index for s in seats] == [0, 1, 2, 3]
    assert seats[0].user == alice and all(s.user is None for s in seats[1:])


@pytest.mark.parametrize(
    "players, options, message",
    [
        (1, {}, "2 to 6"),
        (7, {}, "2 to 6"),
        ("4", {}, "whole number"),
        (2, {"mode": "insane"}, "mode"),
        (2, {"colour": "red"}, "Unknown option"),
        (2, {"reverse": "yes"}, "reverse"),
    ],
)
def test_it_refuses_bad_tables(alice, players, options, message):
    with pytest.raises(services.BadRequest, match=message):
        services.create_table(alice, "cosmic_crowns", players, options)
    assert Table.objects.count() == 0


def test_it_refuses_an_unknown_game(alice):
    with pytest.raises(services.BadRequest, match="Unknown game"):
        services.create_table(alice, "chess", 2)


def test_join_takes_the_lowest_free_seat_and_refuses_twice(alice, bob, charlie):
    table = services.create_table(alice, "cosmic_crowns", 3)
    assert services.join_table(table.pk, charlie) == 1
    assert services.join_table(table.pk, bob) == 2
    with pytest.raises(services.Conflict, match="already"):
        services.join_table(table.pk, bob)


def test_join_refuses_a_full_table(alice, bob, charlie):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    with pytest.raises(services.Conflict, match="full"):
        services.join_table(table.pk, charlie)


def test_leave_frees_the_seat_and_the_creator_leaving_cancels(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 3)
    services.join_table(table.pk, bob)
    services.leave_table(table.pk, bob)
    assert Seat.objects.get(table=table, index=1).user is None
    services.leave_table(table.pk, alice)
    assert Table.objects.get(pk=table.pk).status == Table.ABORTED


def test_only_the_creator_starts_and_only_when_full(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    with pytest.raises(services.Conflict, match="Every seat"):
        services.start_table(table.pk, alice)
    services.join_table(table.pk, bob)
    with pytest.raises(services.Forbidden):
        services.start_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    assert table.status == Table.PLAYING and table.seq == 0 and table.seed is not None
    with pytest.raises(services.Conflict):
        services.start_table(table.pk, alice)
    with pytest.raises(services.Conflict, match="no longer open"):
        services.join_table(table.pk, alice)


def test_a_move_is_appended_and_bumps_seq(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    seat, move = first_move(table)
    user = [alice, bob][seat]
    result = services.play_move(table.pk, user, move, 0)
    assert result.seq == 1
    logged = Move.objects.get(table=table)
    assert (logged.seq, logged.seat, logged.move) == (0, seat, move)
    engine = table.engine
    before = engine.load(table.state)
    assert logged.events == engine.events(before, seat, move, engine.apply(before, seat, move))
    for viewer in (None, 0, 1):
        for lang in ("en", "fr"):
            assert narrate(engine, logged.events, ["alice", "bob"], viewer, lang), (
                "every move reads as a line"
            )


def test_the_checks_come_in_the_contract_order(alice, bob, charlie, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    seat, move = first_move(table)
    mover, other = ([alice, bob][seat], [alice, bob][1 - seat])
    with pytest.raises(services.NotFound):
        services.play_move(99999, mover, move, 0)
    with pytest.raises(services.Forbidden, match="no seat"):
        services.play_move(table.pk, charlie, "garbage", "x")
    with pytest.raises(services.BadRequest, match="object"):
        services.play_move(table.pk, mover, "garbage", 0)
    with pytest.raises(services.BadRequest, match="seq"):
        services.play_move(table.pk, mover, move, "0")
    with pytest.raises(services.Conflict, match="moved on"):
        services.play_move(table.pk, mover, move, 5)
    with pytest.raises(services.Forbidden, match="not your turn"):
        services.play_move(table.pk, other, move, 0)
    with pytest.raises(services.BadRequest):
        services.play_move(table.pk, mover, {"type": "play", "card": "not-a-card"}, 0)
    table.refresh_from_db()
    assert table.seq == 0 and not Move.objects.filter(table=table).exists()


def test_a_stale_seq_is_refused_and_nothing_is_applied_twice(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    seat, move = first_move(table)
    user = [alice, bob][seat]
    services.play_move(table.pk, user, move, 0)
    with pytest.raises(services.Conflict):
        services.play_move(table.pk, user, move, 0)
    assert Move.objects.filter(table=table).count() == 1


def play_random(table, users, moves, rnd):
    for _ in range(moves):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            break
        engine = table.engine
        state = engine.load(table.state)
        seat = table.to_act[0]
        services.play_move(table.pk, users[seat], rnd.choice(engine.legal_moves(state, seat)), table.seq)
    table.refresh_from_db()
    return table


def test_seed_and_move_log_reproduce_the_snapshot_exactly(alice, bob, charlie, started_table):
    table = started_table("cosmic_crowns", [alice, bob, charlie], {"mode": "hard"})
    table = play_random(table, [alice, bob, charlie], 60, random.Random(3))
    engine = table.engine
    rebuilt = history.Replay.of(table).state_at(table.seq)  # from the seed and the log, never the snapshot
    assert json.dumps(engine.dump(rebuilt), sort_keys=True) == json.dumps(table.state, sort_keys=True)


def test_a_whole_game_finishes_with_a_result(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    table = play_random(table, [alice, bob], 5000, random.Random(11))
    assert table.status == Table.FINISHED
    assert table.finished_at is not None and table.to_act == []
    assert set(table.result) >= {"scores", "winners"}
    assert not Seat.objects.filter(table=table, awaited=True).exists()


def test_awaited_seats_follow_the_turn(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    awaited = set(Seat.objects.filter(table=table, awaited=True).values_list("index", flat=True))
    assert awaited == set(table.to_act)


def test_queries_per_move_stay_constant_as_the_game_grows(alice, bob, charlie, started_table):
    users = [alice, bob, charlie]
    table = started_table("cosmic_crowns", users, {"mode": "hard"})
    rnd = random.Random(5)
    counts, reads = [], []
    for _ in range(120):
        table.refresh_from_db()
        engine = table.engine
        state = engine.load(table.state)
        seat = table.to_act[0]
        move = rnd.choice(engine.legal_moves(state, seat))
        with CaptureQueriesContext(connection) as ctx:
            services.play_move(table.pk, users[seat], move, table.seq)
        # A move that begins a player's turn may also queue their "your turn" e-mail (one INSERT into the
        # outbox, at most once per table and player per hour): counted apart, at most one per move.
        queued = sum('INSERT INTO "accounts_outgoingmail"' in q["sql"] for q in ctx.captured_queries)
        assert queued <= 1
        # How a person whose turn begins wants to be told, and whether they have push devices
        # (accounts.NotificationChoice, accounts.PushSubscription), is kept by the process under their stamp
        # (accounts.preferences.telling): read once per person (two queries, the first time each of the
        # three is told), never again while nothing of theirs changes. Counted apart.
        told = sum(
            '"accounts_notificationchoice"' in q["sql"] or '"accounts_pushsubscription"' in q["sql"]
            for q in ctx.captured_queries
            if q["sql"].startswith("SELECT")
        )
        reads.append(told)
        counts.append(len(ctx.captured_queries) - queued - told)
    assert sum(reads) <= 2 * len(users) and not any(reads[10:]), reads
    assert max(counts[-20:]) <= max(counts[:20])
    assert max(counts) <= 8, counts
