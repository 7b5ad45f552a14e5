"""Who listens, in any process: counts in the cache of the API streams open per table or person, and of the
sockets in each channel group of a table's frames or a person's badge. A change reads them (one cache read)
and skips the work (drawing, encoding and sending a message) for a viewer nobody listens to, on Redis too.

On the in-memory channel layer the layer's own groups say it exactly (``tables.live.has_listeners``), and
nothing is counted. On Redis a stream or a socket may sit in another process, so each counts itself in the
cache (Redis) under its scope (``Counts``): ``cache.incr`` as it opens, ``cache.decr`` as it ends, both
atomic in Redis. ``streams`` counts the API streams, under ``table-<id>`` for a table stream and
``user-<id>`` for an event stream; ``sockets`` counts the pages' sockets under the channel group they joined
(``table-<id>-<viewer>-<lang>``, ``user-<id>``: ``tables.consumers``). A count is believed only while a
living process holds it: the key expires after ``socket_guard.COUNT_TTL`` seconds unless a process that
counts in that scope refreshes it (every ``socket_guard.HEARTBEAT`` seconds, writing its own count back if
the key is gone), so the streams and sockets of a process that died stop counting within that time (until
then a change does the work for nobody, as before any count). While Redis is out of reach the cache answers
from the process's memory (``config.cache``): every viewer is drawn then (``tables.live.listened``), and
what the process counted meanwhile is added to Redis's counts as soon as the cache finds it back. A change reads the counts it needs in one
``get_many`` (``open_among``).
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import sync_to_async
from django.core.cache import cache

from accounts.socket_guard import COUNT_TTL, HEARTBEAT

logger = logging.getLogger(__name__)


class Counts:
    """Listeners counted per scope in the cache, by every process together (see the module)."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self._open: dict[str, int] = {}  # scope -> listeners open in this process
        self._unpublished: dict[str, int] = {}  # scope -> those counted while Redis was out of reach
        self._lock = threading.Lock()
        self._beating: set[asyncio.AbstractEventLoop] = set()

    def key(self, scope: str) -> str:
        return f"{self.prefix}:{scope}"

    def opened(self, scope: str) -> None:
        with self._lock:
            self._open[scope] = self._open.get(scope, 0) + 1
        self._add(scope, 1)
        if getattr(
            cache, "degraded", False
        ):  # (written to this process's memory: published once Redis is back)
            with self._lock:
                self._unpublished[scope] = self._unpublished.get(scope, 0) + 1
            self._watch_recovery()

    def _add(self, scope: str, count: int) -> None:
        key = self.key(scope)
        cache.add(key, 0, COUNT_TTL)
        try:
            cache.incr(key, count)
        except ValueError:  # (expired in between)
            cache.add(key, count, COUNT_TTL)
        cache.touch(key, COUNT_TTL)

    def _watch_recovery(self) -> None:
        watch = getattr(cache, "when_reachable_again", None)  # (config.cache: once per hook)
        if watch is not None:
            watch(self.publish_unpublished)

    def publish_unpublished(self) -> None:
        """Add to the counts in Redis what this process counted while Redis was out of reach."""
        with self._lock:
            pending, self._unpublished = self._unpublished, {}
        for scope, count in pending.items():
            self._add(scope, count)
        if getattr(cache, "degraded", False):  # (out of reach again meanwhile: at its next return)
            with self._lock:
                for scope, count in pending.items():
                    self._unpublished[scope] = self._unpublished.get(scope, 0) + count

    def closed(self, scope: str) -> None:
        with self._lock:
            left = self._open.get(scope, 0) - 1
            if left > 0:
                self._open[scope] = left
            else:
                self._open.pop(scope, None)
            unpublished = self._unpublished.get(scope, 0)
            if unpublished:  # (never reached Redis: nothing there to take back)
                if unpublished > 1:
                    self._unpublished[scope] = unpublished - 1
                else:
                    del self._unpublished[scope]
                return
        try:
            if cache.decr(self.key(scope)) <= 0:
                cache.delete(self.key(scope))
        except ValueError:  # (expired: nothing counts it any more)
            pass

    def open_scopes(self, scopes) -> set[str]:
        """Those of ``scopes`` with a listener open in some living process."""
        return open_among((self, scopes))[0]

    def refresh_all(self) -> None:
        with self._lock:
            mine = dict(self._open)
        for scope, count in mine.items():
            if not cache.touch(
                self.key(scope), COUNT_TTL
            ):  # (expired meanwhile: at least this process's own)
                cache.add(self.key(scope), count, COUNT_TTL)

    async def _heartbeat(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await asyncio.sleep(HEARTBEAT)
                with self._lock:
                    if not self._open:
                        return
                try:
                    await sync_to_async(self.refresh_all, thread_sensitive=False)()
                except Exception:
                    logger.exception("Refreshing the listener counts (%s) failed", self.prefix)
        finally:
            self._beating.discard(loop)

    async def aopened(self, scope: str, layer) -> None:
        """From an event loop: count one more listener in ``scope`` (not on the in-memory layer)."""
        if not counted(layer):
            return
        await sync_to_async(self.opened, thread_sensitive=False)(scope)
        loop = asyncio.get_running_loop()
        if loop not in self._beating:
            self._beating.add(loop)
            loop.create_task(self._heartbeat())

    async def aclosed(self, scope: str, layer) -> None:
        if not counted(layer):
            return
        await sync_to_async(self.closed, thread_sensitive=False)(scope)


def open_among(*asks: tuple[Counts, list[str]]) -> list[set[str]]:
    """For each (counts, scopes): those scopes with a listener open in some living process; all of them in
    one read of the cache."""
    asks = [(counts, list(scopes)) for counts, scopes in asks]
    keys = [counts.key(scope) for counts, scopes in asks for scope in scopes]
    found = cache.get_many(keys) if keys else {}
    return [{s for s in scopes if (found.get(counts.key(s)) or 0) > 0} for counts, scopes in asks]


def counted(layer) -> bool:
    """Whether listeners on ``layer`` count themselves: not on the in-memory layer, whose groups say it."""
    from channels.layers import InMemoryChannelLayer

    return not isinstance(layer, InMemoryChannelLayer)


streams = Counts("streams")  # the API's streams (tables.streams), per table and per person
sockets = Counts("listening")  # the pages' sockets (tables.consumers), per channel group they joined


def table_scope(table_id: int) -> str:
    return f"table-{table_id}"


def user_scope(user_id: int) -> str:
    return f"user-{user_id}"


def count_key(scope: str) -> str:
    return streams.key(scope)


def opened(scope: str) -> None:
    streams.opened(scope)


def closed(scope: str) -> None:
    streams.closed(scope)


def open_scopes(scopes: list[str]) -> set[str]:
    """Those of ``scopes`` with a stream open in some living process."""
    return streams.open_scopes(scopes)


def _refresh_all() -> None:
    streams.refresh_all()


async def aopened(scope: str, layer) -> None:
    await streams.aopened(scope, layer)


async def aclosed(scope: str, layer) -> None:
    await streams.aclosed(scope, layer)
