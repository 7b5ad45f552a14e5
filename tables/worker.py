"""The worker: bots move, clocks run out, reminders, e-mail and pushes go out, even when nobody has a page open.

One `tick()` does whatever is due. It runs in a thread of the web process (the default on one
machine: `WORKER_IN_PROCESS`), or as its own process with `manage.py run_worker` (several daphne
processes behind a proxy, with Redis). Every step is safe to run in several workers at once: a move
is judged under the table lock with its seq, so a racing duplicate gets 409 and is dropped.

E-mail (the outbox of accounts.mail) is sent by a thread of its own (`run_mail`), and pushes (the outbox
of accounts.push) by another (`accounts.push.run_push`), so a mail server or a push service that hangs
holds up neither a request nor a bot.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from accounts import mail, push
from rules import bots
from tables import challenges, notifications, selectors, services, tournaments
from tables.models import Seat, Table

log = logging.getLogger(__name__)

REMINDER_FRACTION = 0.25  # remind when a quarter of the move's time is left
REMINDER_MAX = timedelta(hours=6)
IDLE_SWEEP_EVERY = timedelta(minutes=1)  # tables against bots left for days: looked for once a minute
_last_idle_sweep = None


def bot_seed(table: Table, seat: int) -> int:
    """A bot's randomness: from the table and the move number, never shown to anyone."""
    digest = hashlib.sha256(f"bot:{table.seed}:{table.seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def due_bot_tables(now) -> list[int]:
    ready_before = now - timedelta(seconds=settings.BOT_DELAY)
    return list(
        Seat.objects.filter(awaited=True, table__status=Table.PLAYING)
        .exclude(bot="")
        .filter(table__last_move_at__lte=ready_before)
        .values_list("table_id", flat=True)
        .distinct()
    )


def play_bot_move(table_id: int) -> bool:
    """One move for the first awaited bot of the table. The bot decides from its seat's view alone."""
    table = Table.objects.filter(pk=table_id, status=Table.PLAYING).first()
    if table is None:
        return False
    seats = list(table.seats.order_by("index"))
    awaited_bots = [i for i in table.to_act if seats[i].is_bot]
    if not awaited_bots:
        return False
    seat = awaited_bots[0]
    position = selectors.position(table, seat)  # only what the seat may know
    view, legal = position.view, position.legal_moves
    seed = bot_seed(table, seat)
    try:
        move = bots.choose(table.game, view, legal, seats[seat].bot, seed, seat=seat)
    except Exception:  # a bot's bug must not stall the table: fall back to a random legal move
        log.exception("bot failed at table %s; playing a random legal move", table.pk)
        move = bots.choose(table.game, view, legal, "random", seed, seat=seat)
    try:
        services.play_move(table.pk, None, move, table.seq, bot_seat=seat)
    except services.TableError as exc:  # another worker moved first, or the table changed
        log.info("bot move at table %s dropped: %s", table.pk, exc.message)
        return False
    return True


def send_reminders(now) -> int:
    sent = 0
    for table in Table.objects.filter(status=Table.PLAYING, reminded=False, deadline__isnull=False):
        left = table.deadline - now
        window = min(timedelta(seconds=table.move_time * REMINDER_FRACTION), REMINDER_MAX)
        if left > window:
            continue
        with transaction.atomic():
            if not Table.objects.filter(pk=table.pk, reminded=False, deadline=table.deadline).update(
                reminded=True
            ):
                continue  # another worker sent it
            users = [
                s.user
                for s in table.seats.select_related("user__verified_email", "user__preference")
                if s.awaited and s.user_id and not s.is_bot
            ]
            minutes = max(1, int(left.total_seconds() // 60))
            for user in users:
                sent += notifications.reminded(table, user, minutes)
    return sent


def tick(now=None) -> dict:
    """Do everything that is due now; returns what was done (for tests and logs)."""
    now = now or timezone.now()
    done = {"bot_moves": 0, "timeouts": 0, "reminders": 0, "digests": 0, "closed": 0, "challenges_expired": 0}
    for table_id in Table.objects.filter(status=Table.PLAYING, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        if services.time_out(table_id, now):
            done["timeouts"] += 1
    done["reminders"] = send_reminders(now)
    done["digests"] = notifications.send_digests(now)
    global _last_idle_sweep
    if _last_idle_sweep is None or now - _last_idle_sweep >= IDLE_SWEEP_EVERY or now < _last_idle_sweep:
        _last_idle_sweep = now
        done["closed"] = services.close_idle_bot_tables(now)
    done["challenges_expired"] = challenges.expire_due(now)
    done["tournaments"] = tournaments.tick(now)  # (before the bots: a new round's bots move this tick)
    for table_id in due_bot_tables(now):
        if play_bot_move(table_id):
            done["bot_moves"] += 1
    return done


def run_mail(stop: threading.Event, interval: float = 1.0) -> None:
    """Send the outbox's due mail until `stop` is set (a thread of its own: see the module's docstring)."""
    while not stop.is_set():
        try:
            close_old_connections()
            busy = sum(mail.drain().values()) > 0
        except Exception:
            log.exception("sending mail failed")
            busy = False
        finally:
            close_old_connections()
        if not busy:
            stop.wait(interval)


def run(stop: threading.Event, interval: float = 1.0) -> None:
    """Tick until `stop` is set; a bot's turn wakes the loop at once. Mail and pushes go out from threads
    of their own."""
    threading.Thread(target=run_mail, args=(stop, interval), name="cardclub-mail", daemon=True).start()
    threading.Thread(target=push.run_push, args=(stop, interval), name="cardclub-push", daemon=True).start()
    while not stop.is_set():
        try:
            close_old_connections()
            done = tick()
            busy = done["bot_moves"] > 0
        except Exception:
            log.exception("worker tick failed")
            busy = False
        finally:
            close_old_connections()
        if busy:
            continue  # a bot may be awaited again right away
        services.worker_wakeup.wait(timeout=interval)
        services.worker_wakeup.clear()
        if settings.BOT_DELAY:
            stop.wait(min(settings.BOT_DELAY, interval))


_thread: threading.Thread | None = None


def start_in_process() -> None:
    """Start the worker as a daemon thread of this (web) process, once."""
    global _thread
    if _thread is None or not _thread.is_alive():
        _thread = threading.Thread(target=run, args=(threading.Event(),), name="cardclub-worker", daemon=True)
        _thread.start()
