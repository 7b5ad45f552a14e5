"""Web Push: the site's VAPID keys, devices' subscriptions, and the push outbox the worker sends.

A change (a move, a reminder, an invitation) only writes `OutgoingPush` rows, in its own transaction, one
per device of the person told; `drain()`, run by the worker in a thread of its own (`run_push`), encrypts
each payload to its device (RFC 8291, aes128gcm) and signs a VAPID header (RFC 8292) with `pywebpush`,
sends it with a timeout, retries a failure with backoff up to ``PUSH_MAX_ATTEMPTS`` attempts and records
every outcome on the row. A push service answering 404 or 410 has forgotten the device: its
subscription is deleted. Requests go only to endpoints under ``PUSH_ENDPOINT_PREFIXES``.

Nothing is pushed to a person who switched push off, during their quiet hours (held until they end), or
about a table they have open and in view (the page says so: `mark_viewing`).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import threading
import time
from datetime import timedelta
from email.utils import parseaddr

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import api_tokens
from accounts.limits import has_control_characters, room_for
from accounts.models import OutgoingPush, PushSubscription, VapidKeys
from accounts.outbox import backoff, claim_due
from accounts.preferences import not_before, notification_choice

log = logging.getLogger(__name__)

FIRST_RETRY = timedelta(seconds=30)
LAST_RETRY = timedelta(minutes=30)
TTL = 24 * 3600  # seconds a push service keeps a push for a device that is offline
VIEWING_SECONDS = 45  # a page in view says so every 15 s; a closed one stops suppressing pushes after this
GONE_STATUSES = (404, 410)
KEEP_OUTCOMES = timedelta(days=30)  # a row that is done (sent, failed, gone, skipped) is kept this long

wakeup = threading.Event()  # set after a commit that queued pushes: the push thread sends at once


# --- Keys ---------------------------------------------------------------------------------------


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_keys() -> tuple[str, str]:
    """A new P-256 key pair: (raw private value, uncompressed public point), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def keys() -> tuple[str, str]:
    """(private, public): from the settings when both are set, else the pair generated once and kept in
    the database (the first process to need it creates it; the others read it)."""
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY
    row = VapidKeys.objects.filter(pk=1).first()
    if row is None:
        private, public = generate_keys()
        row, _created = VapidKeys.objects.get_or_create(
            pk=1, defaults={"private_key": private, "public_key": public}
        )
    return row.private_key, row.public_key


def public_key() -> str:
    return keys()[1]


def subject() -> str:
    """The VAPID ``sub`` claim: who runs this site (a mailto: or https: address)."""
    return settings.VAPID_SUBJECT or "mailto:" + parseaddr(settings.DEFAULT_FROM_EMAIL)[1]


# --- Subscriptions ------------------------------------------------------------------------------


class BadSubscription(ValueError):
    """The message is for the person (or the script) that sent it."""


def endpoint_allowed(endpoint: str) -> bool:
    """Whether ``endpoint`` is under one of PUSH_ENDPOINT_PREFIXES ("*" in a prefix: one host-name label)."""
    for prefix in settings.PUSH_ENDPOINT_PREFIXES:
        if "*" in prefix:
            pattern = re.escape(prefix).replace(r"\*", "[a-z0-9-]+")
            if re.match(pattern, endpoint, re.IGNORECASE):
                return True
        elif endpoint.startswith(prefix):
            return True
    return False


def _key_bytes(keys: dict, name: str, size: int) -> str:
    value = keys.get(name)
    if not isinstance(value, str) or len(value) > 200 or not re.fullmatch(r"[A-Za-z0-9_-]+=*", value):
        raise BadSubscription(_("keys.%(name)s must be a base64url string.") % {"name": name})
    try:
        raw = b64url_decode(value.rstrip("="))
    except (binascii.Error, ValueError):
        raise BadSubscription(_("keys.%(name)s must be a base64url string.") % {"name": name}) from None
    if len(raw) != size:
        raise BadSubscription(_("keys.%(name)s must hold %(size)d bytes.") % {"name": name, "size": size})
    return value.rstrip("=")


def parse(data) -> dict:
    """The fields of a browser's ``PushSubscription.toJSON()``, checked; BadSubscription otherwise."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise BadSubscription(_('Send the subscription as {"endpoint", "keys": {"p256dh", "auth"}}.'))
    endpoint = data.get("endpoint")
    if (
        not isinstance(endpoint, str)
        or not endpoint
        or len(endpoint) > 1000
        or has_control_characters(endpoint)
        or any(ch.isspace() for ch in endpoint)
    ):
        raise BadSubscription(_("The endpoint must be a URL of at most 1000 characters."))
    if not endpoint_allowed(endpoint):
        raise BadSubscription(_("This endpoint is not a push service this site sends to."))
    p256dh = _key_bytes(data["keys"], "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(p256dh))
    except ValueError:
        raise BadSubscription(_("keys.p256dh is not a P-256 public key.")) from None
    auth = _key_bytes(data["keys"], "auth", 16)
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}


BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    """ "Firefox · Android" from a User-Agent header ("" when it says nothing we know): for the browser and
    the system, the name of the first mark found (in that order: Edge and Opera also say Chrome)."""
    ua = user_agent or ""
    found = (next((name for mark, name in marks if mark in ua), "") for marks in (BROWSERS, SYSTEMS))
    return " · ".join(part for part in found if part)


def subscribe(user, data, user_agent: str = "") -> tuple[PushSubscription, bool]:
    """Keep a device's subscription for ``user`` (created True), or update the one with the same endpoint
    (a browser that subscribes again, or now signed in as someone else). BadSubscription, LimitReached."""
    fields = parse(data)
    values = {
        "user": user,
        "p256dh": fields["p256dh"],
        "auth": fields["auth"],
        "user_agent": device_label(user_agent),
    }
    existing = PushSubscription.objects.filter(endpoint=fields["endpoint"]).first()
    if existing is None:
        message = _(
            "An account may subscribe at most %(limit)d devices: remove one on your profile first."
        ) % {"limit": settings.PUSH_DEVICE_LIMIT}
        try:
            with room_for(
                user, PushSubscription.objects.filter(user=user), settings.PUSH_DEVICE_LIMIT, message
            ):
                return PushSubscription.objects.create(endpoint=fields["endpoint"], **values), True
        except IntegrityError:  # the same device, subscribing twice at once
            existing = PushSubscription.objects.get(endpoint=fields["endpoint"])
    owner = existing.user_id
    for name, value in values.items():
        setattr(existing, name, value)
    existing.save(update_fields=[*values])  # (its new owner's stamp renewed: accounts.api_tokens)
    if owner != existing.user_id:
        api_tokens.forget(owner)  # (and its former owner's: they have one device fewer)
    return existing, False


def unsubscribe(user, subscription_id: int) -> bool:
    """Forget one of ``user``'s devices; False when it is not theirs (or gone already)."""
    deleted, _by_model = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    return bool(deleted)


# --- In view ------------------------------------------------------------------------------------


def _viewing_key(user_id: int, table_id: int) -> str:
    return f"viewing:{user_id}:{table_id}"


def mark_viewing(user_id: int, table_id: int, visible: bool) -> None:
    """A page of the table is (still) in view for this person, or no longer is."""
    try:
        if visible:
            cache.set(_viewing_key(user_id, table_id), 1, VIEWING_SECONDS)
        else:
            cache.delete(_viewing_key(user_id, table_id))
    except Exception:  # the cache is down: pushes simply go out
        log.warning("could not record that user %s views table %s", user_id, table_id)


def is_viewing(user_id: int, table_id: int) -> bool:
    try:
        return bool(cache.get(_viewing_key(user_id, table_id)))
    except Exception:
        return False


# --- Queueing and sending -----------------------------------------------------------------------


def notify(
    user,
    title: str,
    body: str,
    url: str,
    tag,
    table_id: int | None = None,
    now=None,
    choice=None,
    devices: bool | None = None,
) -> int:
    """Queue a push to each of ``user``'s devices (in the caller's transaction; the worker sends them);
    how many. The caller words it in the person's language; it holds nothing they may not read.
    ``choice`` and ``devices`` (whether they have a device): what the caller read of them already
    (``accounts.preferences.telling``); no device, no query."""
    now = now or timezone.now()
    choice = choice or notification_choice(user)
    if devices is False or not choice.push or (table_id is not None and is_viewing(choice.user_id, table_id)):
        return 0
    due = not_before(choice, now)
    payload = {"title": title[:120], "body": body[:300], "url": url, "tag": str(tag)}
    queued = _queue(choice.user_id, payload, table_id, due)
    if queued:
        transaction.on_commit(wakeup.set)
    return queued


def _queue(user_id: int, payload: dict, table_id: int | None, due) -> int:
    """One ``OutgoingPush`` per device ``user_id`` has as the statement runs, in one ``INSERT … SELECT``
    (the devices are not read apart: whatever a move's path knew of them, the rows name only devices that
    are theirs now), newest device first; how many. Each value prepared by its field, as ``save()`` would."""
    meta, quote = OutgoingPush._meta, connection.ops.quote_name
    values = {
        "user": user_id,
        "payload": payload,
        "table_id": table_id,
        "status": OutgoingPush.PENDING,
        "attempts": 0,
        "next_attempt_at": due,
        "last_error": "",
        "created_at": timezone.now(),  # (auto_now_add: when it was queued, whatever ``now`` the caller says)
    }
    fields = [meta.get_field(name) for name in values]
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values.values(), strict=True)
    ]
    devices = PushSubscription._meta
    device_id = quote(devices.pk.column)
    columns = ", ".join(quote(field.column) for field in [*fields, meta.get_field("subscription")])
    statement = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) "
        f"SELECT {', '.join(['%s'] * len(params))}, {device_id} FROM {quote(devices.db_table)} "
        f"WHERE {quote(devices.get_field('user').column)} = %s "
        f"ORDER BY {quote(devices.get_field('created_at').column)} DESC, {device_id} DESC"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, [*params, user_id])
        return max(cursor.rowcount, 0)


def retry_delay(attempts: int) -> timedelta:
    """Wait after the n-th failed attempt: 30 s, 1 min, 2 min … at most LAST_RETRY."""
    return backoff(attempts, FIRST_RETRY, LAST_RETRY)


def send_one(subscription: PushSubscription, payload: dict):
    """One encrypted, signed request to the device's push service (raises pywebpush's WebPushException
    on an answer above 202, requests' exceptions on a timeout or a refused connection)."""
    from pywebpush import webpush

    if not endpoint_allowed(subscription.endpoint):  # the setting changed since it was stored
        raise PermissionError("endpoint outside PUSH_ENDPOINT_PREFIXES")
    return webpush(
        subscription_info={
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        },
        data=json.dumps(payload, ensure_ascii=False),
        vapid_private_key=keys()[0],
        vapid_claims={"sub": subject()},  # (webpush adds aud, from the endpoint, and exp: 12 hours)
        content_encoding="aes128gcm",
        timeout=settings.PUSH_TIMEOUT,
        ttl=TTL,
        headers={"Urgency": "high"},
    )


def _record(pk: int, **fields) -> None:
    OutgoingPush.objects.filter(pk=pk).update(**fields)


def drain(now=None, limit: int = 50) -> dict:
    """Send the pushes that are due. Safe in several workers at once: a row is claimed by bumping its
    attempt count from the value read (and its next attempt set before sending, so a worker that dies
    mid-send leaves it to be retried after the backoff)."""
    from pywebpush import WebPushException

    now = now or timezone.now()
    done = {"sent": 0, "retry": 0, "failed": 0, "gone": 0, "skipped": 0}
    for pk, attempt in claim_due(OutgoingPush, now, limit, retry_delay):
        row = OutgoingPush.objects.select_related("subscription").get(pk=pk)
        device = row.subscription
        if device is None:  # the device was removed since
            _record(pk, status=OutgoingPush.GONE, last_error="device removed")
            done["gone"] += 1
            continue
        if row.table_id is not None and is_viewing(row.user_id, row.table_id):
            _record(pk, status=OutgoingPush.SKIPPED, last_error="table in view")
            done["skipped"] += 1
            continue
        try:
            response = send_one(device, row.payload)
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in GONE_STATUSES:
                _record(pk, status=OutgoingPush.GONE, last_status=status, last_error=str(exc)[:1000])
                PushSubscription.objects.filter(pk=device.pk).delete()
                OutgoingPush.objects.filter(subscription=None, status=OutgoingPush.PENDING).update(
                    status=OutgoingPush.GONE, last_error="device gone"
                )
                done["gone"] += 1
                continue
            # 429 and 5xx are worth another try; any other answer will not change by trying again.
            retry = status is None or status == 429 or status >= 500
            _failed(pk, attempt, retry, str(exc), status, done)
        except Exception as exc:  # a timeout, a refused connection, a setting changed: tried again later
            _failed(pk, attempt, True, f"{type(exc).__name__}: {exc}", None, done)
        else:
            _record(pk, status=OutgoingPush.SENT, sent_at=timezone.now(), last_status=response.status_code)
            PushSubscription.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
            done["sent"] += 1
    return done


def _failed(pk: int, attempt: int, retry: bool, error: str, status, done: dict) -> None:
    gave_up = not retry or attempt >= settings.PUSH_MAX_ATTEMPTS
    log.warning("push %s failed (attempt %s, status %s): %s", pk, attempt, status, error[:200])
    _record(
        pk,
        status=OutgoingPush.FAILED if gave_up else OutgoingPush.PENDING,
        last_status=status,
        last_error=error[:1000],
    )
    done["failed" if gave_up else "retry"] += 1


def prune(now=None) -> int:
    """Forget the outcomes older than KEEP_OUTCOMES (pending rows stay, whatever their age)."""
    now = now or timezone.now()
    old = OutgoingPush.objects.exclude(status=OutgoingPush.PENDING).filter(created_at__lt=now - KEEP_OUTCOMES)
    return old.delete()[0]


def run_push(stop: threading.Event, interval: float = 1.0) -> None:
    """Send the push outbox until ``stop`` is set (a thread of the worker's own, like its mail's); once an
    hour, forget old outcomes."""
    pruned_at = 0.0
    while not stop.is_set():
        try:
            close_old_connections()
            if time.monotonic() - pruned_at > 3600:
                prune()
                pruned_at = time.monotonic()
            busy = sum(drain().values()) > 0
        except Exception:
            log.exception("sending pushes failed")
            busy = False
        finally:
            close_old_connections()
        if not busy:
            wakeup.wait(timeout=interval)
            wakeup.clear()
