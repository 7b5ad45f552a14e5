"""E-mail through the outbox, and proving an address before turn mail goes to it.

A request (or a bot's move) only writes an `OutgoingMail` row, inside its own transaction; `drain()`,
run by the worker in a thread of its own, sends the rows that are due, retrying with backoff. A mail
server that is slow or down therefore never holds up a page, an API call or a bot.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import OutgoingMail, VerifiedEmail
from accounts.outbox import backoff, claim_due
from accounts.preferences import chosen_language

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
FIRST_RETRY = timedelta(minutes=1)
LAST_RETRY = timedelta(hours=6)
VERIFY_SALT = "accounts.verify-email"
VERIFY_MAX_AGE = 7 * 24 * 3600  # a verification link works for a week
RESEND_EVERY = 60  # seconds: at most one verification mail per player per minute


def enqueue(to: str, subject: str, body: str, not_before=None) -> OutgoingMail:
    """Queue one e-mail (in the caller's transaction); the worker sends it, not before ``not_before`` (the
    end of the recipient's quiet hours, say) when given."""
    return OutgoingMail.objects.create(
        to=to, subject=subject[:200], body=body, next_attempt_at=not_before or timezone.now()
    )


def enqueue_many(mails: list[tuple[str, str, str]]) -> None:
    """Queue several e-mails, each (to, subject, body), in one query (the daily digests of a tick)."""
    now = timezone.now()
    OutgoingMail.objects.bulk_create(
        [
            OutgoingMail(to=to, subject=subject[:200], body=body, next_attempt_at=now)
            for to, subject, body in mails
        ]
    )


def retry_delay(attempts: int) -> timedelta:
    """Wait after the n-th failed attempt: 1, 2, 4 … minutes, at most LAST_RETRY."""
    return backoff(attempts, FIRST_RETRY, LAST_RETRY)


def drain(now=None, limit: int = 50) -> dict:
    """Send the mail that is due (rows claimed as accounts.outbox.claim_due says: safe in several workers)."""
    now = now or timezone.now()
    done = {"sent": 0, "retry": 0, "failed": 0}
    for pk, attempt in claim_due(OutgoingMail, now, limit, retry_delay):
        mail = OutgoingMail.objects.get(pk=pk)
        try:
            send_mail(subject=mail.subject, message=mail.body, from_email=None, recipient_list=[mail.to])
        except Exception as exc:
            gave_up = attempt >= MAX_ATTEMPTS
            log.warning("mail %s to %s failed (attempt %s): %s", pk, mail.to, attempt, exc)
            OutgoingMail.objects.filter(pk=pk).update(
                status=OutgoingMail.FAILED if gave_up else OutgoingMail.PENDING, last_error=str(exc)[:1000]
            )
            done["failed" if gave_up else "retry"] += 1
        else:
            OutgoingMail.objects.filter(pk=pk).update(status=OutgoingMail.SENT, sent_at=timezone.now())
            done["sent"] += 1
    return done


# --- Verified addresses -------------------------------------------------------------------


def is_verified(user) -> bool:
    """Whether the user's current address is the one they proved (no query when the caller loaded
    ``user__verified_email`` with select_related, as the table services do)."""
    if not user.email:
        return False
    try:
        return user.verified_email.email == user.email
    except VerifiedEmail.DoesNotExist:
        return False


def verification_url(user) -> str:
    token = signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT)
    return settings.SITE_URL.rstrip("/") + reverse("accounts:verify_email", args=[token])


def send_verification(user) -> bool:
    """Queue a signed link to the player's address; False when there is none or one went out a moment ago."""
    if not user.email or not cache.add(f"verify-mail:{user.pk}", 1, RESEND_EVERY):
        return False
    # The person asked for it on a page: their chosen language, else the one that page was shown in.
    with translation.override(chosen_language(user) or translation.get_language() or settings.LANGUAGE_CODE):
        enqueue(
            user.email,
            _("Confirm your e-mail address for Card Club"),
            _(
                "Hello %(username)s,\n\nOpen this link to confirm that %(email)s is yours; Card Club will then "
                "write to it when it is your turn:\n%(url)s\n\n"
                "If you did not ask for this, ignore this message.\n"
            )
            % {"username": user.username, "email": user.email, "url": verification_url(user)},
        )
    return True


def confirm(token: str):
    """The user whose current address the token proves (and now marked verified), or None."""
    from django.contrib.auth import get_user_model

    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
        user = get_user_model().objects.filter(pk=data["u"], email=data["e"]).first()
    except (signing.BadSignature, KeyError, TypeError):
        return None
    if user is None or not user.email:
        return None
    VerifiedEmail.objects.update_or_create(user=user, defaults={"email": user.email})
    return user
