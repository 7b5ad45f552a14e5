"""Which person a bearer token names, remembered by the process from one API call to the next.

Looking a token up costs a query joining its person on every call (a bot or a load client makes one or two
a move). The process keeps {token hash: the person} instead, for at most ``settings.API_TOKEN_CACHE_SECONDS``
and only while that person's *stamp* is the one it was kept under (``stamps``). Each person has a stamp of
their own in Django's default cache (Redis when REDIS_URL is set, so shared by every process; the process's
own memory otherwise, where there is one process), renewed when one of their tokens is deleted (revoked, a
password changed), or they, their chosen language, their verified address, their notification choice or
one of their push devices are saved or deleted (deactivated, say): every process then looks that person's
tokens up again on its next call, and nobody else's. A log-in saves only ``last_login`` (Django's
``update_last_login``) and renews nothing. ``tables.rooms`` keeps a table's seats (with their people) under
the same stamps, and ``accounts.preferences.telling`` how each person is told of their turn. A change made
by a bulk ``update()``, which sends no signal, is seen within the expiry.

While Redis is out of reach (``config.cache``), every token is read from the database.

Each call gets its own copy of the person, so nothing one request caches on it reaches another.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from accounts.models import (
    ApiToken,
    NotificationChoice,
    Preference,
    PushSubscription,
    VerifiedEmail,
    hash_token,
)

STAMP_PREFIX = "accounts:person-stamp:"
KEPT_TOKENS = 4096
TOUCH_EVERY = 60  # seconds: a token's last_used_at is written at most this often


@dataclass
class _Kept:
    stamp: str
    expires: float  # time.monotonic()
    user: object
    token_id: int
    last_used_at: datetime | None


_kept: dict[str, _Kept] = {}
_owners: dict[str, int] = {}  # {token hash: its person's id}, learned from a first look-up
_lock = threading.Lock()


def user_for(raw: str):
    """The active person the raw token belongs to, or None (no such token, or an inactive person)."""
    key = hash_token(raw)
    now = time.monotonic()
    # While the cache is out of reach (config.cache: Redis down), a revocation made on another process
    # cannot reach this one: every token is read from the database until it is back.
    degraded = getattr(cache, "degraded", False)
    kept = None if degraded else _kept.get(key)
    if kept is not None and (kept.expires <= now or kept.stamp != stamp_of(kept.user.pk)):
        kept = None
    if kept is None:
        # The person's stamp is read before the token (a change after this read renews it, and the entry
        # is not used again), so only once the token's person is known: a token seen for the first time in
        # this process is looked up again on its next call, and kept from then on.
        owner = _owners.get(key)
        stamp = stamp_of(owner) if owner is not None and not degraded else None
        token = ApiToken.objects.live().select_related("user").filter(key_hash=key).first()
        if token is None or not token.user.is_active:
            _kept.pop(key, None)
            return None
        kept = _Kept(
            stamp or "", now + settings.API_TOKEN_CACHE_SECONDS, token.user, token.pk, token.last_used_at
        )
        if settings.API_TOKEN_CACHE_SECONDS > 0 and not degraded:
            with _lock:
                _owners[key] = token.user_id  # (a token's person never changes)
                if stamp is not None and owner == token.user_id:
                    _kept[key] = kept
                for bounded in (_kept, _owners):
                    while len(bounded) > KEPT_TOKENS:
                        bounded.pop(next(iter(bounded)))
    moment = timezone.now()
    if kept.last_used_at is None or (moment - kept.last_used_at).total_seconds() > TOUCH_EVERY:
        ApiToken.objects.filter(pk=kept.token_id).update(last_used_at=moment)
        kept.last_used_at = moment
    return copy.copy(kept.user)  # (a copy of its state and cached relations too: Model.__getstate__)


def stamp_of(user_id: int) -> str:
    return stamps([user_id])[user_id]


def stamps(user_ids) -> dict[int, str]:
    """{person id: the stamp their data is at now}, in one read of the cache: what was kept under another
    stamp of theirs is not used again. A person without one (never changed, or evicted) gets a new one."""
    keys = {f"{STAMP_PREFIX}{pk}": pk for pk in user_ids}
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        for key in missing:
            cache.add(key, secrets.token_hex(8), None)
        found.update(cache.get_many(missing))
    return {pk: found.get(key, "") for key, pk in keys.items()}


def forget(user_id: int) -> None:
    """Every process reads this person's tokens, the seats they hold and how they are told of their turn
    again (now, and once the change that called this commits)."""
    _renew(user_id)
    transaction.on_commit(lambda: _renew(user_id))


def _renew(user_id: int) -> None:
    cache.set(f"{STAMP_PREFIX}{user_id}", secrets.token_hex(8), None)
    with _lock:
        for key in [key for key, kept in _kept.items() if kept.user.pk == user_id]:
            del _kept[key]


def _person_changed(sender, instance, update_fields=None, **kwargs) -> None:
    if update_fields is not None and set(update_fields) == {"last_login"}:
        return  # a log-in: nothing a token or a seat shows changed
    forget(instance.pk)


def _theirs_changed(sender, instance, **kwargs) -> None:
    forget(instance.user_id)


post_delete.connect(_theirs_changed, sender=ApiToken, dispatch_uid="api-tokens-revoked")
post_save.connect(_person_changed, sender=get_user_model(), dispatch_uid="api-tokens-person-saved")
post_delete.connect(_person_changed, sender=get_user_model(), dispatch_uid="api-tokens-person-deleted")
# (a notification choice or a push device: how their turn is told, ``accounts.preferences.telling``)
for _model in (Preference, VerifiedEmail, NotificationChoice, PushSubscription):
    post_save.connect(_theirs_changed, sender=_model, dispatch_uid=f"api-tokens-{_model.__name__}-saved")
    post_delete.connect(_theirs_changed, sender=_model, dispatch_uid=f"api-tokens-{_model.__name__}-deleted")
