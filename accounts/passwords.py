"""Getting back into an account, and what a new password ends.

A reset link (Django's ``default_token_generator``: signed over the password hash and the last log-in, so
single use, and valid ``PASSWORD_RESET_TIMEOUT`` seconds) goes only to an account's *verified* address,
through the outbox, in the account's language. Whether or not the address belongs to anyone, the asker
gets the same answer; links are limited per address and per account (``PASSWORD_RESET_LIMIT`` per
``PASSWORD_RESET_WINDOW``), silently, so the limit tells nothing either.

A new password (changed or reset) revokes the account's API tokens and closes the sockets of its other
sessions; Django's session verification already refuses those sessions' next request.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from accounts import mail
from accounts.models import ApiToken
from accounts.preferences import language_of
from accounts.sockets import close_account_sockets
from accounts.throttle import charge


def reset_url(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("accounts:password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return settings.SITE_URL.rstrip("/") + path


def _address_key(email: str) -> str:
    return "reset-address:" + hashlib.sha256(email.casefold().encode()).hexdigest()[:40]


def _within_limit(key: str) -> bool:
    return charge(key, settings.PASSWORD_RESET_WINDOW) <= settings.PASSWORD_RESET_LIMIT


def accounts_for(email: str):
    """The active accounts whose current address is ``email`` and verified (one in practice)."""
    return [
        user
        for user in get_user_model()
        .objects.select_related("verified_email", "preference")
        .filter(email__iexact=email, verified_email__email__iexact=email, is_active=True)
        if mail.is_verified(user) and user.has_usable_password()
    ]


def request_reset(email: str) -> int:
    """Queue a reset link to each account whose verified address is ``email``; how many were queued (for
    tests and logs only: the asker is told the same thing whatever it is)."""
    email = (email or "").strip()
    if not email or not _within_limit(_address_key(email)):
        return 0
    queued = 0
    for user in accounts_for(email):
        if not _within_limit(f"reset-account:{user.pk}"):
            continue
        minutes = max(1, settings.PASSWORD_RESET_TIMEOUT // 60)
        with translation.override(language_of(user)):
            mail.enqueue(
                user.email,
                _("Reset your Card Club password"),
                _(
                    "Hello %(username)s,\n\nSomeone (we hope you) asked to reset the password of your Card Club "
                    "account. Open this link to choose a new one; it works once, for %(minutes)d minutes:\n"
                    "%(url)s\n\nChoosing a new password signs your account out everywhere and revokes its API "
                    "tokens. If you did not ask for this, ignore this message: your password stays as it is.\n"
                )
                % {"username": user.username, "url": reset_url(user), "minutes": minutes},
            )
        queued += 1
    return queued


@transaction.atomic
def revoke_access(user, keep_session_key: str | None = None) -> int:
    """With a new password (in its transaction): the account's API tokens are deleted and, once that
    commits, every socket of its sessions but ``keep_session_key``'s closes (a socket closed before would
    reconnect while the old password still stood; a change rolled back ends nothing). Returns how many
    tokens were revoked."""
    revoked, _by_model = ApiToken.objects.filter(user=user).delete()
    user_id = user.pk
    transaction.on_commit(lambda: close_account_sockets(user_id, keep_session_key), robust=True)
    return revoked
