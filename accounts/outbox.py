"""What the two outboxes share (e-mail in accounts.mail, Web Push in accounts.push): rows with a status, an
attempt count and the time of their next attempt, claimed by a worker when due and retried with backoff."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta


def backoff(attempts: int, first: timedelta, last: timedelta) -> timedelta:
    """Wait after the n-th failed attempt: first, twice that, four times … at most last."""
    return min(first * 2 ** max(attempts - 1, 0), last)


def claim_due(
    model, now: datetime, limit: int, retry_delay: Callable[[int], timedelta]
) -> Iterator[tuple[int, int]]:
    """The due rows of that outbox this worker claimed, oldest first, as (pk, attempt number). Safe in several
    workers at once: a row is claimed by bumping its attempt count from the value read, so only one worker
    sends it, and its next attempt is set before sending, so a worker that dies mid-send leaves it to be
    retried after the backoff."""
    due = model.objects.filter(status=model.PENDING, next_attempt_at__lte=now).order_by(
        "next_attempt_at", "pk"
    )
    for pk, attempts in due.values_list("pk", "attempts")[:limit]:
        attempt = attempts + 1
        claimed = model.objects.filter(pk=pk, status=model.PENDING, attempts=attempts).update(
            attempts=attempt, next_attempt_at=now + retry_delay(attempt)
        )
        if claimed:  # else another worker has it
            yield pk, attempt
