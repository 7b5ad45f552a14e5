"""The daily digest lists the tables waiting for a person in the Your turn page's order (most urgent first:
the least time left, then the longest waiting), never a seat a bot plays for them, and the worker reads
what it needs for everyone in a constant number of queries a tick."""

import json
import os
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


RACE = """
import json, threading
from datetime import UTC, datetime
from django.contrib.auth.models import User
from django.db import connection
from accounts.models import NotificationChoice, OutgoingMail, VerifiedEmail
from tables import notifications, services, your_turn

def started(first, second):
    table = services.create_table(first, "cosmic_crowns", 2)
    services.join_table(table.pk, second)
    return services.start_table(table.pk, first, seed=20261122)

house = User.objects.create_user("house", email="house@example.com")
people = []
for i in range(PEOPLE):
    person = User.objects.create_user(f"p{i}", email=f"p{i}@example.com")
    VerifiedEmail.objects.create(user=person, email=person.email)
    NotificationChoice.objects.create(user=person, email_digest=True, time_zone="UTC")
    if started(person, house).to_act != [0]:
        started(house, person)
    people.append(person)
both_read = threading.Barrier(2, timeout=20)
ordered = your_turn.most_urgent_first

def after_both_read(seats):
    both_read.wait()  # each worker has read who is due before either claims anyone
    return ordered(seats)

your_turn.most_urgent_first = after_both_read
sent = []

def tick():
    try:
        sent.append(notifications.send_digests(datetime(2026, 11, 26, 9, 0, tzinfo=UTC)))
    except Exception as exc:
        sent.append(repr(exc))
    finally:
        connection.close()

workers = [threading.Thread(target=tick) for _ in range(2)]
[t.start() for t in workers]
[t.join() for t in workers]
mails = sorted(OutgoingMail.objects.values_list("to", flat=True))
print("DIGESTS", json.dumps({"sent": sent, "mails": mails}))
"""


def two_ticks_at_once(env) -> dict:
    """Two workers (threads) tick at the same moment, both having read the same people due."""
    from tests.processes import migrate, shell

    migrate(env)
    out = shell(env, "PEOPLE = 3\n" + RACE)
    return json.loads(out.split("DIGESTS", 1)[1])


def each_digest_went_once(outcome: dict) -> None:
    assert sorted(outcome["sent"], key=str) == [0, 3], outcome[
        "sent"
    ]  # one worker claimed them, neither failed
    assert outcome["mails"] == [f"p{i}@example.com" for i in range(3)]


@pytest.mark.slow
def test_two_workers_ticking_at_once_on_sqlite_send_each_digest_once(tmp_path):
    from tests.processes import sqlite_env

    each_digest_went_once(
        two_ticks_at_once(sqlite_env(tmp_path / "digest.sqlite3", WORKER_IN_PROCESS="false"))
    )


@pytest.mark.services
def test_two_workers_ticking_at_once_on_postgresql_send_each_digest_once():
    from tests.processes import PG, fresh_database

    with fresh_database("digest") as name:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": PG.format(name)}
        env.pop("REDIS_URL", None)
        each_digest_went_once(two_ticks_at_once({**env, "WORKER_IN_PROCESS": "false"}))
