"""Which person a bearer token names, remembered by the process from one API call to the next.

Looking a token up costs a query joining its person on every call (a bot or a load client makes one or two
a move). The process keeps {token hash: the person} instead, for at most ``settings.API_TOKEN_CACHE_SECONDS``
and only while the *stamp* it was kept under is current (``stamp``). The stamp lives in Django's default
cache (Redis when REDIS_URL is set, so shared by every process; the process's own memory otherwise, where
there is one process) and changes whenever a token is deleted (revoked, a password changed), or a person,
their chosen language or their verified address is saved or deleted (deactivated, say): every process then
looks every token up again on its next call. ``tables.rendering`` keeps a table's seats (with their people)
under the same stamp. A change made by a bulk ``update()``, which sends no signal, is seen within the
expiry.

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

from accounts.models import ApiToken, Preference, VerifiedEmail, hash_token

STAMP_KEY = "accounts:api-token-stamp"
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
_lock = threading.Lock()


def user_for(raw: str):
    """The active person the raw token belongs to, or None (no such token, or an inactive person)."""
    key = hash_token(raw)
    stamp = current_stamp()  # (read before the database: a change after this read leaves the entry stale)
    now = time.monotonic()
    # While the cache is out of reach (config.cache: Redis down), a revocation made on another process
    # cannot reach this one: every token is read from the database until it is back.
    degraded = getattr(cache, "degraded", False)
    kept = None if degraded else _kept.get(key)
    if kept is None or kept.stamp != stamp or kept.expires <= now:
        token = ApiToken.objects.live().select_related("user").filter(key_hash=key).first()  # (not expired)
        if token is None or not token.user.is_active:
            _kept.pop(key, None)
            return None
        kept = _Kept(stamp, now + settings.API_TOKEN_CACHE_SECONDS, token.user, token.pk, token.last_used_at)
        if settings.API_TOKEN_CACHE_SECONDS > 0 and not degraded:
            with _lock:
                _kept[key] = kept
                while len(_kept) > KEPT_TOKENS:
                    _kept.pop(next(iter(_kept)))
    moment = timezone.now()
    if kept.last_used_at is None or (moment - kept.last_used_at).total_seconds() > TOUCH_EVERY:
        ApiToken.objects.filter(pk=kept.token_id).update(last_used_at=moment)
        kept.last_used_at = moment
    return copy.copy(kept.user)  # (a copy of its state and cached relations too: Model.__getstate__)


def current_stamp() -> str:
    """The stamp people's data is at now: what is kept under another one is not used again."""
    stamp = cache.get(STAMP_KEY)
    if stamp is None:  # never set, or evicted: a new one (entries kept under the old one are not used)
        cache.add(STAMP_KEY, secrets.token_hex(8), None)
        stamp = cache.get(STAMP_KEY)
    return stamp


def forget_all() -> None:
    """Every process reads every token and every kept person again (now, and once the change that called
    this commits)."""
    _renew()
    transaction.on_commit(_renew)


def _renew() -> None:
    cache.set(STAMP_KEY, secrets.token_hex(8), None)
    with _lock:
        _kept.clear()


def _changed(sender, **kwargs) -> None:
    forget_all()


post_delete.connect(_changed, sender=ApiToken, dispatch_uid="api-tokens-revoked")
for _model in (get_user_model(), Preference, VerifiedEmail):
    post_save.connect(_changed, sender=_model, dispatch_uid=f"api-tokens-{_model.__name__}-saved")
    post_delete.connect(_changed, sender=_model, dispatch_uid=f"api-tokens-{_model.__name__}-deleted")
