"""Log-in and sign-up throttles, counted in the cache (Redis in production).

A log-in try is charged *before* the password is checked, with the cache's atomic add/incr, so parallel
tries cannot race past a limit, twice:

- to its (account, client address) pair: ``LOGIN_FAILURE_LIMIT`` tries in ``LOGIN_FAILURE_WINDOW``, then that
  account is refused from that address (an attacker hammering one account locks it only from their own
  address); a success clears the pair's count;
- to its client address, whatever the account: ``LOGIN_ADDRESS_FAILURE_LIMIT`` tries in the window, then
  the address is refused (a new random username on every try, or one password sprayed over many accounts,
  is stopped there, before any password is hashed); a success is not counted (its charge is given back).

A refusal answers 429 with ``Retry-After``: the seconds until the window that refused it ends.

An address others have been hammering (a campus or an office behind one address) does not lock out a
person whose own account is not under attack, if they have logged in before: a try for an account that
has succeeded from this address (remembered ``LOGIN_KNOWN_SECONDS``), or that carries this browser's
*device cookie* for that account (set by a successful log-in, signed, as long), is not charged to the
address and passes its limit; it still counts towards its own pair's. A person who never logged in from
that address or browser waits out the window (OWASP's "device cookies" scheme, with the address as a
second token).

Sign-ups are counted per client address. The client address honours ``settings.TRUSTED_PROXY_COUNT``.

(django-axes was weighed: it checks the count before the password and records the failure after it,
and its cache handler counts with get-then-set, so parallel tries all get checked.)
"""

from __future__ import annotations

import hashlib
import ipaddress
import time

from django.conf import settings
from django.core import signing
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
    """Count one more under ``key`` for ``window`` seconds from the first; the new count (atomic). When the
    window ends is kept beside it (``window_left``)."""
    if cache.add(key, 1, window):
        cache.set(f"{key}:ends", time.time() + window, window)
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # it expired between add and incr: a new window starts
        cache.add(key, 1, window)
        cache.set(f"{key}:ends", time.time() + window, window)
        return 1


def window_left(key: str, window: int) -> int:
    """Whole seconds until the window counted under ``key`` ends (at least 1; ``window`` if unknown)."""
    ends = cache.get(f"{key}:ends")
    return max(1, int(ends - time.time()) + 1) if ends is not None else window


DEVICE_COOKIE = "cardclub_device"
_DEVICE_SALT = "accounts.throttle.device"


def device_cookie(username: str) -> str:
    """The value of the device cookie a successful log-in leaves in the browser (signed: not forgeable)."""
    return signing.dumps(username.strip().casefold(), salt=_DEVICE_SALT, compress=True)


class LoginThrottle:
    """Tries for one account from one client address, and from that address for every account."""

    def __init__(self, username: str, request):
        name, address = (username or "").strip().casefold(), client_address(request)
        self.key = f"login-tries:{_digest(f'{name}\n{address}')}"
        self.address_key = f"login-address:{_digest(address)}"
        self.known_key = f"login-known:{_digest(f'{name}\n{address}')}"
        self.known = self._has_device_cookie(request, name)
        self.retry_after = 0  # seconds, once a try is refused
        self.charged_address = False

    @staticmethod
    def _has_device_cookie(request, name: str) -> bool:
        value = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
        if not value:
            return False
        try:
            signed = signing.loads(value, salt=_DEVICE_SALT, max_age=settings.LOGIN_KNOWN_SECONDS)
        except signing.BadSignature:
            return False
        return signed == name

    def attempt(self) -> bool:
        """Charge one try; False when the tries are spent (then check no password; ``retry_after`` says
        for how long)."""
        window = settings.LOGIN_FAILURE_WINDOW
        if charge(self.key, window) > settings.LOGIN_FAILURE_LIMIT:
            self.retry_after = window_left(self.key, window)
            return False
        if self.known or cache.get(self.known_key):
            return True  # this person has logged in from here before: the address's count is not theirs
        self.charged_address = True
        if charge(self.address_key, window) > settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            self.retry_after = window_left(self.address_key, window)
            return False
        return True

    def succeeded(self) -> None:
        cache.delete(self.key)
        cache.set(self.known_key, 1, settings.LOGIN_KNOWN_SECONDS)
        if self.charged_address:
            try:
                cache.decr(self.address_key)  # a success is not a failure: its charge is given back
            except ValueError:
                pass  # the window ended meanwhile


def hashes_passwords(view):
    """Mark a view that hashes a password (log-in, sign-up, password change, API token): the site's handler
    runs its POSTs on the few threads kept for that (``settings.PASSWORD_THREADS``), apart from the threads
    that serve moves and pages, so a flood of log-ins waits on those and never holds the others up."""
    view.hashes_passwords = True
    return view


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
