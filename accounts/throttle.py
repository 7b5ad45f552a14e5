"""Log-in and sign-up throttles, counted in the cache (Redis in production).

A log-in try is charged to its (account, client address) pair *before* the password is checked, with the
cache's atomic add/incr: parallel tries cannot race past the limit, an attacker hammering one account
locks only that account from their own address, and a success clears the pair's count. Sign-ups are
counted per client address. The client address honours ``settings.TRUSTED_PROXY_COUNT``.

(django-axes was weighed: it checks the count before the password and records the failure after it,
and its cache handler counts with get-then-set, so parallel tries all get checked.)
"""

from __future__ import annotations

import hashlib
import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or with N trusted proxies in front, the address the outermost
    of them put in X-Forwarded-For (read right to left: the N-th entry from the end)."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    hops = settings.TRUSTED_PROXY_COUNT
    if hops <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if not forwarded:
        return remote
    # Fewer entries than proxies: every entry was written by a trusted proxy, the first is the client's.
    candidate = forwarded[-hops] if len(forwarded) >= hops else forwarded[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def charge(key: str, window: int) -> int:
    """Count one more under ``key`` for ``window`` seconds from the first; the new count (atomic)."""
    if cache.add(key, 1, window):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # it expired between add and incr: a new window starts
        cache.add(key, 1, window)
        return 1


class LoginThrottle:
    """Tries for one account from one client address."""

    def __init__(self, username: str, request):
        who = f"{(username or '').strip().casefold()}\n{client_address(request)}"
        self.key = f"login-tries:{_digest(who)}"

    def attempt(self) -> bool:
        """Charge one try; False when the tries are spent (then check no password)."""
        return charge(self.key, settings.LOGIN_FAILURE_WINDOW) <= settings.LOGIN_FAILURE_LIMIT

    def succeeded(self) -> None:
        cache.delete(self.key)


class SignupThrottle:
    """New accounts from one client address."""

    def __init__(self, request):
        self.key = f"signups:{_digest(client_address(request))}"

    def attempt(self) -> bool:
        return charge(self.key, settings.SIGNUP_WINDOW) <= settings.SIGNUP_LIMIT

    @staticmethod
    def message() -> str:
        minutes = max(1, settings.SIGNUP_WINDOW // 60)
        return _(
            "Too many new accounts from your address (at most %(limit)d in %(minutes)d minutes). "
            "Try again later."
        ) % {"limit": settings.SIGNUP_LIMIT, "minutes": minutes}
