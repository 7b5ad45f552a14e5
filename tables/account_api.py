"""The API's account calls: getting back into an account, and Web Push devices (CONTRACTS §2).

- ``POST /api/password-reset`` ``{"email"}`` (no token) -> 202 ``{"detail"}``, the same answer whether or not
  the address is an account's verified address (a link goes out only when it is; see accounts.passwords).
- ``GET /api/push/key`` (no token) -> ``{"public_key"}``: the VAPID public key, base64url, uncompressed P-256.
- ``POST /api/push/subscriptions`` with ``PushSubscription.toJSON()`` ``{"endpoint", "keys": {"p256dh", "auth"}}``
  -> 201 ``{"id"}``; the same endpoint again updates that subscription (201, the same id); 400 for an endpoint
  outside ``PUSH_ENDPOINT_PREFIXES`` or malformed keys; 429 past ``PUSH_DEVICE_LIMIT`` devices.
- ``DELETE /api/push/subscriptions/<id>`` -> 204; 404 when it is not one of the caller's.
- ``GET /api/tokens`` -> the caller's API tokens, newest first: ``[{"id", "name", "prefix", "created_at",
  "last_used_at" (null: never used; written at most once a minute), "expires_at" (null: no expiry)}]``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.http import JsonResponse
from django.utils.translation import gettext as _

from accounts import passwords, push
from accounts.push_views import subscribe_answer, unsubscribe_answer
from tables import bot_accounts
from tables.api import api_view, body_object, error


@api_view(("POST",), auth=False)
def password_reset(request):
    email = body_object(request).get("email")
    if not isinstance(email, str) or not email.strip():
        return error(_("Give the e-mail address of your account."), 400)
    try:
        validate_email(email.strip())
    except ValidationError:
        return error(_("Enter a valid email address."), 400)
    passwords.request_reset(email)
    return JsonResponse({"detail": reset_answer()}, status=202)


def reset_answer() -> str:
    return _(
        "If this address is the verified address of an account, a link to choose a new password is on its way. "
        "It works once, for a limited time."
    )


@api_view(("GET",))
def tokens(request):
    return JsonResponse([token_json(t) for t in request.api_user.api_tokens.all()], safe=False)


def token_json(token) -> dict:
    def moment(value):
        return value.isoformat() if value else None

    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": moment(token.created_at),
        "last_used_at": moment(token.last_used_at),
        "expires_at": moment(token.expires_at),
    }


@api_view(("GET",), auth=False)
def push_key(request):
    return JsonResponse({"public_key": push.public_key()})


@api_view(("POST",))
def push_subscriptions(request):
    return subscribe_answer(request.api_user, request.json, request.headers.get("User-Agent", ""))


@api_view(("DELETE",))
def push_subscription(request, pk):
    return unsubscribe_answer(request.api_user, pk)


@api_view(("POST",))
def account_bot(request):
    """Make the caller's account a bot account (tables.bot_accounts); refused once it has rated games."""
    bot_accounts.become_bot(request.api_user)
    return JsonResponse({"username": request.api_user.username, "bot": True})
