"""The daily digest lists the tables waiting for a person in the Your turn page's order (most urgent first:
the least time left, then the longest waiting), never a seat a bot plays for them, and the worker reads
what it needs for everyone in a constant number of queries a tick."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import NotificationChoice, OutgoingMail
from tables import notifications, your_turn
from tables.models import Seat

pytestmark = pytest.mark.django_db

MORNING = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def two_player(started_table, alice, bob, **fields):
    from tests.tables.test_your_turn import two_player

    return two_player(started_table, alice, bob, **fields)


def test_the_digest_lists_tables_in_the_your_turn_order(alice, bob, started_table):
    NotificationChoice.objects.create(user=alice, email_digest=True, time_zone="UTC")
    calm = two_player(started_table, alice, bob)
    Seat.objects.filter(table=calm, user=alice).update(awaited_since=MORNING - timedelta(days=2))
    recent = two_player(started_table, alice, bob)
    Seat.objects.filter(table=recent, user=alice).update(awaited_since=MORNING - timedelta(hours=1))
    soon = two_player(started_table, alice, bob, deadline=MORNING + timedelta(minutes=5), move_time=600)
    later = two_player(started_table, alice, bob, deadline=MORNING + timedelta(hours=5), move_time=86400)
    taken = two_player(started_table, alice, bob)
    Seat.objects.filter(table=taken, user=alice).update(bot="casual", replaced=True)  # a bot plays it
    assert notifications.send_digests(MORNING) == 1
    body = OutgoingMail.objects.get(to=alice.email).body
    listed = [int(line.split("/tables/")[1].strip("/")) for line in body.splitlines() if "/tables/" in line]
    assert listed == [soon.pk, later.pk, calm.pk, recent.pk]
    assert listed == [w.table.pk for w in your_turn.waiting_tables(alice)]


def digest_tick_queries(people) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert notifications.send_digests(MORNING) == len(people)
    return len(queries)


def test_the_digest_tick_takes_as_many_queries_for_many_people_as_for_one(make_user, started_table):
    house = make_user("house", email="house@example.com")
    people = [make_user(f"p{i}", email=f"p{i}@example.com") for i in range(4)]
    for person in people:
        NotificationChoice.objects.create(user=person, email_digest=True, time_zone="UTC")
        for _ in range(2):
            two_player(started_table, person, house)
    NotificationChoice.objects.filter(user__in=people[1:]).update(email_digest=False)
    one = digest_tick_queries(people[:1])
    NotificationChoice.objects.update(email_digest=True, digest_sent_on=None)
    OutgoingMail.objects.all().delete()
    assert digest_tick_queries(people) == one
    assert OutgoingMail.objects.count() == len(people)
