"""Bot seats, the worker, turn clocks, conceding, aborting, reclaiming and rematches."""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.mail import drain as send_queued_mail
from rules import registry
from tables import services, worker
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_pause(settings):
    settings.BOT_DELAY = 0


def run_bots(limit=5000):
    for _ in range(limit):
        if not worker.tick()["bot_moves"]:
            return


def test_bots_fill_seats_from_the_api_shape(alice):
    table = services.create_table(alice, "cosmic_crowns", 4, bots=[{"seat": 3, "level": "strong"}, {}])
    assert [(s.index, s.bot) for s in table.seats.all()] == [(0, ""), (1, "casual"), (2, ""), (3, "strong")]


@pytest.mark.parametrize(
    "bots, message",
    [
        ([{"seat": 0}], "seat is from 1"),
        ([{"seat": 1}, {"seat": 1}], "two bots"),
        ([{"level": "godlike"}], "level"),
        ("two", "list"),
        ([{}, {}, {}], "more bots"),
    ],
)
def test_bad_bot_requests_are_refused(alice, bots, message):
    with pytest.raises(services.BadRequest, match=message):
        services.create_table(alice, "cosmic_crowns", 3, bots=bots)


def test_play_now_seats_me_against_bots_and_starts(alice):
    table = services.play_now(alice, "cosmic_crowns")
    assert table.status == Table.PLAYING
    seats = list(table.seats.all())
    assert seats[0].user == alice and all(s.bot == "casual" for s in seats[1:])


@pytest.mark.parametrize("slug", list(registry.games()))
def test_a_bots_only_game_plays_to_the_end(alice, slug):
    table = services.create_table(alice, slug, 2, bots=[{"level": "casual"}])
    services.start_table(table.pk, alice)
    services.concede(table.pk, alice)
    run_bots(limit=20000)
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    assert table.result["replaced"] == [0]


def test_a_bot_moves_only_from_its_own_view(alice, monkeypatch):
    seen = []
    real = worker.bots.choose

    def spy(slug, view, legal, level, seed, seat=None):
        seen.append((view, legal))
        return real(slug, view, legal, level, seed, seat=seat)

    monkeypatch.setattr(worker.bots, "choose", spy)
    table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}])
    table = services.start_table(table.pk, alice)
    engine = table.engine
    while 1 not in table.to_act:
        move = engine.legal_moves(engine.load(table.state), 0)[0]
        table = services.play_move(table.pk, alice, move, table.seq).table
    state = engine.load(table.state)
    assert worker.play_bot_move(table.pk)
    view, legal = seen[0]
    assert view == engine.view(state, 1)
    assert not set(state["hands"][0]) & set(json.dumps([view, legal]).replace('"', " ").split())


def test_a_timeout_replaces_the_seat_exactly_once_and_the_bot_plays_on(alice, bob, started_table):
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    assert table.deadline is not None
    late = table.deadline + timedelta(seconds=1)
    late_seat = table.to_act[0]
    assert services.time_out(table.pk, now=table.deadline - timedelta(seconds=1)) == []
    assert services.time_out(table.pk, now=late) == [late_seat]
    assert services.time_out(table.pk, now=late) == []
    seat = Seat.objects.get(table=table, index=late_seat)
    assert seat.replaced and seat.bot == "casual" and seat.user is not None
    assert worker.play_bot_move(table.pk)
    table.refresh_from_db()
    assert table.seq >= 1


def test_a_player_reclaims_a_timed_out_seat(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    who = [alice, bob][table.to_act[0]]
    services.time_out(table.pk, now=table.deadline + timedelta(seconds=1))
    with pytest.raises(services.Forbidden, match="reclaim"):
        move = table.engine.legal_moves(table.engine.load(table.state), table.to_act[0])[0]
        services.play_move(table.pk, who, move, table.seq)
    services.reclaim_seat(table.pk, who)
    seat = Seat.objects.get(table=table, user=who)
    assert not seat.replaced and seat.bot == ""
    with pytest.raises(services.Conflict):
        services.reclaim_seat(table.pk, who)


def test_a_conceded_seat_cannot_be_reclaimed(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    services.concede(table.pk, bob)
    with pytest.raises(services.Conflict, match="conceded"):
        services.reclaim_seat(table.pk, bob)


def test_a_reminder_goes_out_once_before_time_runs_out(alice, bob, settings):
    mail.outbox.clear()
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    waiting = [alice, bob][table.to_act[0]]
    assert worker.send_reminders(table.deadline - timedelta(minutes=30)) == 0
    assert worker.send_reminders(table.deadline - timedelta(minutes=10)) == 1
    assert worker.send_reminders(table.deadline - timedelta(minutes=5)) == 0
    send_queued_mail()
    assert [m.to for m in mail.outbox if "Reminder" in m.subject] == [[waiting.email]]


def test_an_abort_needs_everyone(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    assert services.vote_abort(table.pk, alice) is False
    assert Table.objects.get(pk=table.pk).status == Table.PLAYING
    assert services.vote_abort(table.pk, bob) is True
    assert Table.objects.get(pk=table.pk).status == Table.ABORTED


def test_a_rematch_keeps_the_seats(alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob], {"mode": "hard"})
    with pytest.raises(services.Conflict):
        services.offer_rematch(table.pk, alice)
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED)
    new = services.offer_rematch(table.pk, bob)
    assert services.offer_rematch(table.pk, alice) == new
    assert new.options == {"mode": "hard", "reverse": False} or new.options["mode"] == "hard"
    assert [s.user for s in new.seats.all()] == [alice, bob]
    services.start_table(new.pk, bob)


def test_the_clock_shows_on_the_table_and_the_dashboard(client_for, alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=86400)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    waiting = [alice, bob][table.to_act[0]]
    assert "data-deadline" in client_for(waiting).get(f"/tables/{table.pk}/").content.decode()
    assert "data-deadline" in client_for(waiting).get("/your-turn/").content.decode()


def test_the_deadline_moves_with_each_move(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    first = table.deadline
    seat = table.to_act[0]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    table = services.play_move(table.pk, [alice, bob][seat], move, 0).table
    assert table.deadline >= first and table.deadline <= timezone.now() + timedelta(seconds=3601)


def test_a_failing_bot_falls_back_to_a_legal_move(alice, monkeypatch):
    real = worker.bots.choose

    def broken(slug, view, legal, level, seed, seat=None):
        if level != "random":
            raise RuntimeError("bug in a bot")
        return real(slug, view, legal, level, seed, seat=seat)

    monkeypatch.setattr(worker.bots, "choose", broken)
    table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "strong"}])
    services.start_table(table.pk, alice)
    services.concede(table.pk, alice)
    assert worker.play_bot_move(table.pk)


def test_a_rematch_against_bots_starts_at_once(alice, bob):
    table = services.play_now(alice, "five_crowns")
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED)
    new = services.offer_rematch(table.pk, alice)
    assert new.status == Table.PLAYING and new.seats.get(index=0).user == alice
    assert all(s.bot for s in new.seats.exclude(index=0))
    # With a person in another seat, the rematch waits for them to join, as before.
    mixed = services.create_table(alice, "cosmic_crowns", 3, {}, bots=[{"level": "casual"}])
    services.join_table(mixed.pk, bob)
    services.start_table(mixed.pk, alice)
    Table.objects.filter(pk=mixed.pk).update(status=Table.FINISHED)
    assert services.offer_rematch(mixed.pk, alice).status == Table.OPEN
