"""Django's Redis cache, falling back to the process's own memory while Redis cannot be reached.

What the site keeps in the cache is a convenience or a count, never the only copy of anything: the stamp
under which processes keep which person a token names (``accounts.api_tokens``), the log-in and sign-up
throttles' counts (``accounts.throttle``), the sockets per account (``accounts.socket_guard``), "your turn"
mail windows. So when Redis fails, a call is answered by a ``LocMemCache`` of this process instead of
raising (every page and API call would answer 500), the failure is logged (once per outage), and for
``RETRY_AFTER`` seconds Redis is not tried again; then the next call tries it. While it is out of reach
``degraded`` is true: ``accounts.api_tokens`` then reads every token from the database instead of
trusting what the process kept, as a revocation made meanwhile on another process cannot reach it.
Counts kept meanwhile are this process's alone (a throttle counts per process until Redis is back).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_AFTER = 1.0  # seconds during which a failed Redis is not tried again
FAILURES = (RedisError, OSError)


class _Outage:
    """Whether Redis at one location is out of reach, shared by the process's instances of the cache (Django
    makes one per thread): one outage is logged once, and all of them stop trying it together."""

    def __init__(self):
        self.down = False
        self.until = 0.0  # time.monotonic() before which Redis is not tried again
        self.lock = threading.Lock()
        self.hooks: list = []  # called once Redis is reachable again (when_reachable_again)


_outages: dict[str, _Outage] = {}


class KeptClients(RedisCacheClient):
    """Django's Redis cache client, keeping one redis-py client per connection pool instead of making one for
    every call: making one (its table of reply handlers) costs about as much CPU as the call itself, and a
    move makes a few cache calls (people's stamps, who listens: ``tables.stream_presence``). A redis-py
    client over a pool is safe to share between threads."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients
        location = server if isinstance(server, str) else ",".join(server)
        # (LocMemCache instances of one name share their storage: every thread reads the same fallback)
        self._fallback = LocMemCache(f"resilient:{location}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._outage = _outages.setdefault(location, _Outage())

    @property
    def degraded(self) -> bool:
        """Whether Redis was found out of reach (and the process's memory answers) and is not back yet."""
        return self._outage.down

    def _call(self, name: str, *args, **kwargs):
        outage = self._outage
        if outage.down and time.monotonic() < outage.until:
            return getattr(self._fallback, name)(*args, **kwargs)
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except FAILURES as exc:
            with outage.lock:
                if not outage.down:
                    logger.warning("Redis cache unreachable (%s): answering from this process's memory", exc)
                outage.down, outage.until = True, time.monotonic() + RETRY_AFTER
            return getattr(self._fallback, name)(*args, **kwargs)
        if outage.down:
            hooks = []
            with outage.lock:
                if outage.down:
                    logger.warning("Redis cache reachable again")
                    outage.down = False
                    hooks = list(outage.hooks)
            for hook in hooks:
                try:
                    hook()
                except Exception:
                    logger.exception("A hook for Redis being back failed")
        return result

    def when_reachable_again(self, hook) -> None:
        """Call ``hook()`` (no arguments) each time Redis is found reachable after an outage, from the thread
        that found it: what a process wrote meanwhile went to its own memory (``tables.stream_presence``
        publishes the counts it could not)."""
        with self._outage.lock:
            if hook not in self._outage.hooks:
                self._outage.hooks.append(hook)

    def add(self, *args, **kwargs):
        return self._call("add", *args, **kwargs)

    def get(self, *args, **kwargs):
        return self._call("get", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._call("set", *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._call("touch", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._call("delete", *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._call("get_many", *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._call("has_key", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._call("incr", *args, **kwargs)

    def set_many(self, *args, **kwargs):
        return self._call("set_many", *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._call("delete_many", *args, **kwargs)

    def clear(self, *args, **kwargs):
        return self._call("clear", *args, **kwargs)
