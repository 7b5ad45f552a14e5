"""Failed log-ins are throttled per username and per address, in the cache (Redis in production)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


class LoginThrottle:
    def __init__(self, username: str, request):
        name = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:32]
        self.keys = [f"login-fail:user:{name}", f"login-fail:addr:{client_address(request)}"]

    def blocked(self) -> bool:
        counts = cache.get_many(self.keys)
        return any(count >= settings.LOGIN_FAILURE_LIMIT for count in counts.values())

    def failed(self) -> None:
        for key in self.keys:
            cache.add(key, 0, settings.LOGIN_FAILURE_WINDOW)
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, settings.LOGIN_FAILURE_WINDOW)

    def succeeded(self) -> None:
        cache.delete(self.keys[0])
