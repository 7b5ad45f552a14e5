"""Every change of seat is told in the table's log, in order with the moves, naming who did it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import Table, TableEvent
from tables.rendering import Snapshot

pytestmark = pytest.mark.django_db


def log_of(table, user=None):
    return Snapshot.read(Table.objects.get(pk=table.pk)).context(user, "en")["log"]


def kinds(table, seated_already=False):
    """The events' kinds (without the joins of ``started_table``'s players when ``seated_already``)."""
    events = TableEvent.objects.filter(table=table)
    if seated_already:
        events = events.exclude(kind="join")
    return list(events.values_list("kind", flat=True))


def told(table, user=None):
    """The lines of the seat events in the log, without the joins before the start."""
    return [
        e["lines"][0]
        for e in log_of(table, user)
        if e.get("kind") == "event" and "took a seat" not in e["lines"][0]
    ]


def test_joining_and_leaving_an_open_table_are_told(alice, bob, charlie):
    table = services.create_table(alice, "cosmic_crowns", 3)
    services.join_table(table.pk, bob)
    services.leave_table(table.pk, bob)
    services.join_table(table.pk, charlie)
    services.leave_table(table.pk, alice)
    assert kinds(table) == ["join", "leave", "join", "cancel"]
    lines = [entry["lines"][0] for entry in log_of(table)]
    assert lines == [
        "bob took a seat.",
        "bob left the table.",
        "charlie took a seat.",
        "alice cancelled the table.",
    ]


def test_a_concession_is_told_between_the_moves_around_it(started_table, alice, bob):
    table = started_table("cosmic_crowns", [alice, bob])
    users = [alice, bob]
    seat = table.to_act[0]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    services.play_move(table.pk, users[seat], move, 0)
    services.concede(table.pk, bob)
    event = TableEvent.objects.get(table=table, kind="concede")
    assert (event.actor, event.seat, event.position) == (bob, 1, 1)
    log = log_of(table, alice)
    assert [e.get("kind") for e in log] == ["event", None, "event"]  # bob's join, the move, the concession
    assert log[2]["lines"] == ["bob conceded: a bot plays their seat."]


def test_a_timeout_and_a_reclaim_are_told(started_table, alice, bob, settings):
    table = started_table("cosmic_crowns", [alice, bob])
    Table.objects.filter(pk=table.pk).update(move_time=60, deadline=timezone.now() - timedelta(seconds=1))
    awaited = table.to_act[0]
    person = [alice, bob][awaited]
    assert services.time_out(table.pk) == [awaited]
    services.reclaim_seat(table.pk, person)
    assert kinds(table, seated_already=True) == ["timeout", "reclaim"]
    assert told(table) == [
        f"{person.username} ran out of time: a bot plays their seat.",
        f"{person.username} took their seat back from the bot.",
    ]


def test_abort_offers_and_acceptance_are_told(started_table, alice, bob):
    table = started_table("cosmic_crowns", [alice, bob])
    services.vote_abort(table.pk, alice)
    services.vote_abort(table.pk, alice)  # the same offer again tells nothing new
    services.vote_abort(table.pk, bob)
    assert kinds(table, seated_already=True) == ["abort_offer", "aborted"]
    assert told(table) == ["alice offered to abort the game.", "bob agreed to abort: the game is aborted."]


def test_a_rematch_offer_is_told_with_its_table(started_table, alice, bob):
    table = started_table("cosmic_crowns", [alice, bob])
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED)
    new = services.offer_rematch(table.pk, bob)
    services.offer_rematch(table.pk, alice)  # the same rematch: told once
    assert kinds(table, seated_already=True) == ["rematch"]
    assert told(table) == [f"bob offered a rematch (table #{new.pk})."]


def test_the_page_shows_the_events_escaped(started_table, make_user, alice, client):
    mallory = make_user("mal<b>ory")
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, mallory)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "mal&lt;b&gt;ory took a seat." in page and 'class="log-event"' in page


def test_with_three_players_an_acceptance_is_told_before_the_abort(started_table, alice, bob, charlie):
    table = started_table("cosmic_crowns", [alice, bob, charlie])
    services.vote_abort(table.pk, alice)
    services.vote_abort(table.pk, bob)
    services.vote_abort(table.pk, charlie)
    assert kinds(table, seated_already=True) == ["abort_offer", "abort_accept", "aborted"]
    assert told(table)[1] == "bob agreed to abort the game."
