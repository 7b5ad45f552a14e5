"""How a person is told their turn began, kept per process under their stamp (issue #31: a move path as lean
as a game server's): a turn that comes back reads neither their notification choice nor their push devices,
and a choice saved on the settings page or a device subscribed or removed through its endpoint is honoured
at the very next move, in this process or in another one (what this process keeps set aside: the database
and the shared cache the same)."""

from __future__ import annotations

import base64
import json
import os
from contextlib import nullcontext

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import push
from accounts.models import NotificationChoice, OutgoingMail, OutgoingPush, PushSubscription
from tables import notifications, services
from tables.models import Table
from tests.tables.test_rooms import another_process

pytestmark = pytest.mark.django_db

FCM = "https://fcm.googleapis.com/fcm/send/"
TOLD = ('"accounts_notificationchoice"', '"accounts_pushsubscription"')


def browser_subscription(endpoint: str) -> dict:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))}}


def reads_of_telling(queries) -> int:
    """The SELECTs of a notification choice or of push devices (not the push outbox's INSERT … SELECT)."""
    return sum(
        q["sql"].startswith("SELECT") and any(name in q["sql"] for name in TOLD)
        for q in queries.captured_queries
    )


@pytest.fixture
def game(alice, bob, started_table, django_capture_on_commit_callbacks, monkeypatch):
    """bob and alice at a started table (nobody has it in view). ``play()``: one move by whoever is to act
    -> (the queries it made, the people whose turn it began); ``until(user)``: moves until ``user``'s turn
    begins -> the queries of that move."""
    told = []
    turns_changed = notifications.turns_changed

    def watched(table, newly, others, stamps=None, publication=None):
        told.append([user.pk for user in newly])
        return turns_changed(table, newly, others, stamps, publication=publication)

    monkeypatch.setattr(notifications, "turns_changed", watched)
    users = {u.pk: u for u in (bob, alice)}
    table_id = started_table("cosmic_crowns", [bob, alice]).pk

    def play():
        table = Table.objects.get(pk=table_id)
        seat = table.to_act[0]
        mover = table.seats.get(index=seat).user
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        told.clear()
        with CaptureQueriesContext(connection) as queries:
            with django_capture_on_commit_callbacks(execute=True):
                services.play_move(table_id, users[mover.pk], move, table.seq)
        return queries, [pk for newly in told for pk in newly]

    def until(user):
        for _ in range(40):
            queries, newly = play()
            if user.pk in newly:
                return queries
        raise AssertionError(f"{user}'s turn never came")

    return table_id, play, until


def test_a_turn_that_comes_back_reads_neither_the_choice_nor_the_devices(game, alice, bob):
    table_id, play, until = game
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    told_before = {bob.pk}  # (the table's start told bob, its first player, and kept how)
    moves = []
    for _ in range(12):
        queries, newly = play()
        moves.append((reads_of_telling(queries), newly))
        if newly:
            # Someone told for the first time: their choice and devices, one query each for all of them.
            expected = 0 if set(newly) <= told_before else 2
            assert reads_of_telling(queries) == expected, (len(moves), newly)
        told_before |= set(newly)
    assert moves[1] == (0, [bob.pk])  # the game's second move: bob's turn again, told as kept
    assert sum(1 for reads, newly in moves if newly and not reads) >= 4
    # Each of alice's turns was still pushed to her phone, none read again.
    alice_turns = sum(alice.pk in newly for _, newly in moves)
    assert OutgoingPush.objects.filter(user=alice, table_id=table_id).count() == alice_turns >= 2


@pytest.mark.parametrize("elsewhere", [False, True], ids=["this process", "another process"])
def test_a_choice_saved_on_the_settings_page_is_honoured_at_the_next_move(game, alice, client_for, elsewhere):
    _table_id, _play, until = game
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 1
    assert reads_of_telling(until(alice)) == 0  # (kept)
    assert OutgoingPush.objects.filter(user=alice).count() == 2
    page = client_for(alice)
    where = another_process if elsewhere else nullcontext
    with where():
        assert page.post("/accounts/notifications/", {"email": "on", "time_zone": "UTC"}).status_code == 302
    assert NotificationChoice.objects.get(user=alice).push is False
    assert reads_of_telling(until(alice)) == 2  # (read again: her stamp changed)
    assert OutgoingPush.objects.filter(user=alice).count() == 2  # nothing pushed
    assert reads_of_telling(until(alice)) == 0
    assert OutgoingPush.objects.filter(user=alice).count() == 2
    with where():
        page.post("/accounts/notifications/", {"email": "on", "push": "on", "time_zone": "UTC"})
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 3  # pushed again


@pytest.mark.parametrize("elsewhere", [False, True], ids=["this process", "another process"])
def test_a_device_subscribed_or_removed_through_its_endpoint_is_honoured_at_the_next_move(
    game, alice, bob, client_for, elsewhere
):
    _table_id, _play, until = game
    until(alice)
    assert reads_of_telling(until(alice)) == 0  # (kept: no device)
    assert not OutgoingPush.objects.exists()
    page = client_for(alice)
    where = another_process if elsewhere else nullcontext
    data = browser_subscription(FCM + "tablet")
    with where():
        answer = page.post("/accounts/push/subscriptions/", json.dumps(data), content_type="application/json")
    assert answer.status_code == 201
    device = answer.json()["id"]
    until(alice)
    assert list(OutgoingPush.objects.values_list("user", "subscription")) == [(alice.pk, device)]
    # The same browser subscribed by bob (a shared tablet): alice is not pushed to it any more.
    with where():
        client_for(bob).post(
            "/accounts/push/subscriptions/", json.dumps(data), content_type="application/json"
        )
    assert PushSubscription.objects.get().user == bob
    assert reads_of_telling(until(alice)) == 2  # (her stamp renewed too: she has one device fewer)
    assert OutgoingPush.objects.filter(user=alice).count() == 1
    with where():
        page.post("/accounts/push/subscriptions/", json.dumps(data), content_type="application/json")
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 2
    with where():
        assert page.delete(f"/accounts/push/subscriptions/{device}/").status_code == 204
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 2  # no device: nothing queued
    assert reads_of_telling(until(alice)) == 0


def test_nothing_is_sent_to_someone_who_turned_notifications_off_in_another_process(game, alice, client_for):
    table_id, _play, until = game
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    until(alice)
    until(alice)  # (kept: mail and push on)
    assert OutgoingPush.objects.filter(user=alice).count() == 2
    assert OutgoingMail.objects.filter(to=alice.email).count() == 1  # (one per table and window)
    with another_process():
        client_for(alice).post("/accounts/notifications/", {"time_zone": "UTC"})  # mail and push off
    cache.delete(f"turn-mail:{table_id}:{alice.pk}")  # (the mail window over)
    until(alice)
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 2
    assert OutgoingMail.objects.filter(to=alice.email).count() == 1
    with another_process():
        client_for(alice).post("/accounts/notifications/", {"email": "on", "push": "on", "time_zone": "UTC"})
    until(alice)
    assert OutgoingPush.objects.filter(user=alice).count() == 3
    assert OutgoingMail.objects.filter(to=alice.email).count() == 2


def test_while_the_cache_is_out_of_reach_every_turn_is_read_afresh(game, alice, monkeypatch):
    _table_id, _play, until = game
    until(alice)
    assert reads_of_telling(until(alice)) == 0
    monkeypatch.setattr(type(cache), "degraded", True, raising=False)
    assert reads_of_telling(until(alice)) == 2
    assert reads_of_telling(until(alice)) == 2
