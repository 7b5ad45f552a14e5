"""E-mail leaves from the worker, never from a request or a bot's move: the outbox (accounts.mail)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

from accounts import mail as outbox
from accounts.models import OutgoingMail
from tables import services, worker

pytestmark = pytest.mark.django_db

HANG_SECONDS = 30.0  # a test that waits this long on the mail server has failed anyway


class HangingBackend(BaseEmailBackend):
    """A mail server that accepts the connection and never answers, until the test lets it time out."""

    calls = 0
    talking = threading.Event()  # set while a sender is stuck on it
    release = threading.Event()

    def send_messages(self, messages):
        type(self).calls += 1
        self.talking.set()
        self.release.wait(HANG_SECONDS)
        raise TimeoutError("timed out")


class RefusingBackend(BaseEmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("connection refused")


def use_backend(settings, backend: type) -> None:
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.{backend.__name__}"}}


@pytest.fixture
def hanging_mail(settings):
    HangingBackend.calls = 0
    HangingBackend.talking.clear()
    HangingBackend.release.clear()
    use_backend(settings, HangingBackend)
    settings.BOT_DELAY = 0
    yield HangingBackend
    HangingBackend.release.set()


def turn_mails_to(user):
    return OutgoingMail.objects.filter(to=user.email, subject__startswith="Your turn")


def test_a_start_and_a_move_only_queue_their_mail_while_the_mail_server_hangs(
    alice, bob, started_table, hanging_mail, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = started_table("cosmic_crowns", [alice, bob])
        seat = table.to_act[0]
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        table = services.play_move(table.pk, [alice, bob][seat], move, table.seq).table
    assert hanging_mail.calls == 0  # (a send would hang here, with the mail server)
    waiting = [alice, bob][table.to_act[0]]
    assert turn_mails_to(waiting).filter(status=OutgoingMail.PENDING).exists()


def test_a_bot_move_only_queues_its_mail(alice, hanging_mail, django_capture_on_commit_callbacks):
    table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}])
    with django_capture_on_commit_callbacks(execute=True):
        table = services.start_table(table.pk, alice, seed=3)
    OutgoingMail.objects.all().delete()
    cache.clear()  # a new turn-mail window
    if table.to_act == [0]:  # alice leads: one move of hers hands the turn to the bot
        move = table.engine.legal_moves(table.engine.load(table.state), 0)[0]
        services.play_move(table.pk, alice, move, table.seq)
    with django_capture_on_commit_callbacks(execute=True):
        assert worker.tick()["bot_moves"] == 1
    assert hanging_mail.calls == 0
    table.refresh_from_db()
    if table.to_act == [0]:
        assert turn_mails_to(alice).exists()


def test_the_worker_sends_the_queued_mail(alice, bob, started_table, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table = started_table("cosmic_crowns", [alice, bob])
    waiting = [alice, bob][table.to_act[0]]
    assert mail.outbox == []
    assert outbox.drain() == {"sent": 1, "retry": 0, "failed": 0}
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    assert f"/tables/{table.pk}/" in mail.outbox[0].body
    row = turn_mails_to(waiting).get()
    assert row.status == OutgoingMail.SENT and row.sent_at is not None and row.attempts == 1
    assert outbox.drain() == {"sent": 0, "retry": 0, "failed": 0}  # sent once


def test_a_failed_send_is_retried_later_with_backoff(settings):
    outbox.enqueue("dana@example.com", "Hello", "Body")
    now = timezone.now()
    use_backend(settings, RefusingBackend)
    assert outbox.drain(now) == {"sent": 0, "retry": 1, "failed": 0}
    row = OutgoingMail.objects.get()
    assert row.status == OutgoingMail.PENDING and row.attempts == 1 and "refused" in row.last_error
    assert row.next_attempt_at >= now + outbox.retry_delay(1)
    assert outbox.drain(now + timedelta(seconds=30)) == {"sent": 0, "retry": 0, "failed": 0}  # not yet due
    assert outbox.drain(now + outbox.retry_delay(1)) == {"sent": 0, "retry": 1, "failed": 0}
    row.refresh_from_db()
    assert row.next_attempt_at >= now + outbox.retry_delay(1) + outbox.retry_delay(2)
    assert outbox.retry_delay(2) == 2 * outbox.retry_delay(1)
    # The server is back (the test's in-memory mailbox).
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    assert outbox.drain(now + timedelta(days=1)) == {"sent": 1, "retry": 0, "failed": 0}
    assert [m.subject for m in mail.outbox] == ["Hello"]
    row.refresh_from_db()
    assert row.status == OutgoingMail.SENT and row.attempts == 3


def test_it_gives_up_after_the_last_attempt(settings):
    outbox.enqueue("dana@example.com", "Hello", "Body")
    use_backend(settings, RefusingBackend)
    when = timezone.now()
    for _ in range(outbox.MAX_ATTEMPTS - 1):
        assert outbox.drain(when)["retry"] == 1
        when += outbox.LAST_RETRY
    assert outbox.drain(when) == {"sent": 0, "retry": 0, "failed": 1}
    assert OutgoingMail.objects.get().status == OutgoingMail.FAILED
    assert outbox.drain(when + timedelta(days=30))["failed"] == 0  # never tried again


@pytest.mark.django_db(transaction=True)  # the mail thread must see the queued row
def test_a_hanging_mail_server_does_not_hold_up_the_bots(alice, hanging_mail, settings):
    """The mail thread may hang on the server; the worker's own loop keeps playing bots meanwhile."""
    outbox.enqueue("dana@example.com", "Hello", "Body")
    stop = threading.Event()
    sender = threading.Thread(target=worker.run_mail, args=(stop, 0.05))
    sender.start()
    try:
        assert hanging_mail.talking.wait(HANG_SECONDS)  # the mail thread is now stuck talking to the server
        table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}])
        table = services.start_table(table.pk, alice, seed=3)
        if table.to_act == [0]:
            move = table.engine.legal_moves(table.engine.load(table.state), 0)[0]
            services.play_move(table.pk, alice, move, table.seq)
        assert worker.tick()["bot_moves"] == 1
        assert sender.is_alive() and hanging_mail.calls == 1  # the bot moved while the mail still hangs
    finally:
        stop.set()
        hanging_mail.release.set()
        sender.join(timeout=HANG_SECONDS)


def test_turn_mail_goes_only_to_a_verified_address(
    django_user_model, bob, started_table, django_capture_on_commit_callbacks
):
    dana = django_user_model.objects.create_user("dana", email="dana@example.com", password="x-pass-1234")
    with django_capture_on_commit_callbacks(execute=True):
        table = started_table("cosmic_crowns", [dana, bob])
        while table.to_act != [0]:
            seat = table.to_act[0]
            move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
            table = services.play_move(table.pk, bob, move, table.seq).table
    assert not turn_mails_to(dana).exists()
    outbox.drain()
    assert all("dana@example.com" not in m.to for m in mail.outbox)
