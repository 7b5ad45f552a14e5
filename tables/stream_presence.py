"""Whether any API stream is open for a table or a person, in any process: so that a change skips the stream
work (drawing, encoding and sending one message per viewer) when nobody streams, on the Redis path too.

On the in-memory channel layer the layer's own groups say it exactly (``tables.live.has_listeners``). On
Redis a stream may sit in another process, so each stream counts itself in the cache (Redis) under its
scope, ``table-<id>`` for a table stream and ``user-<id>`` for an event stream: ``cache.incr`` as it opens,
``cache.decr`` as it ends, both atomic in Redis. A count is believed only while a living process holds it:
the key expires after ``socket_guard.COUNT_TTL`` seconds unless a process with a stream in that scope
refreshes it (every ``socket_guard.HEARTBEAT`` seconds, writing its own count back if the key is gone), so
the streams of a process that died stop counting within that time (until then a change does the work for
nobody, as before). A change reads one cache key for its table (one ``get_many`` for the people it tells).
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import sync_to_async
from django.core.cache import cache

from accounts.socket_guard import COUNT_TTL, HEARTBEAT

logger = logging.getLogger(__name__)

_open: dict[str, int] = {}  # scope -> streams open in this process
_lock = threading.Lock()
_beating: set[asyncio.AbstractEventLoop] = set()


def table_scope(table_id: int) -> str:
    return f"table-{table_id}"


def user_scope(user_id: int) -> str:
    return f"user-{user_id}"


def count_key(scope: str) -> str:
    return f"streams:{scope}"


def opened(scope: str) -> None:
    with _lock:
        _open[scope] = _open.get(scope, 0) + 1
    cache.add(count_key(scope), 0, COUNT_TTL)
    try:
        cache.incr(count_key(scope))
    except ValueError:  # (expired in between)
        cache.add(count_key(scope), 1, COUNT_TTL)
    cache.touch(count_key(scope), COUNT_TTL)


def closed(scope: str) -> None:
    with _lock:
        left = _open.get(scope, 0) - 1
        if left > 0:
            _open[scope] = left
        else:
            _open.pop(scope, None)
    try:
        if cache.decr(count_key(scope)) <= 0:
            cache.delete(count_key(scope))
    except ValueError:  # (expired: nothing counts it any more)
        pass


def open_scopes(scopes: list[str]) -> set[str]:
    """Those of ``scopes`` with a stream open in some living process."""
    if not scopes:
        return set()
    counts = cache.get_many([count_key(s) for s in scopes])
    return {s for s in scopes if (counts.get(count_key(s)) or 0) > 0}


def _refresh_all() -> None:
    with _lock:
        mine = dict(_open)
    for scope, count in mine.items():
        if not cache.touch(count_key(scope), COUNT_TTL):
            cache.add(count_key(scope), count, COUNT_TTL)  # (expired meanwhile: at least this process's own)


async def _heartbeat() -> None:
    loop = asyncio.get_running_loop()
    try:
        while True:
            await asyncio.sleep(HEARTBEAT)
            with _lock:
                if not _open:
                    return
            try:
                await sync_to_async(_refresh_all, thread_sensitive=False)()
            except Exception:
                logger.exception("Refreshing the stream counts failed")
    finally:
        _beating.discard(loop)


def counted(layer) -> bool:
    """Whether streams on ``layer`` count themselves: not on the in-memory layer, whose groups say it."""
    from channels.layers import InMemoryChannelLayer

    return not isinstance(layer, InMemoryChannelLayer)


async def aopened(scope: str, layer) -> None:
    if not counted(layer):
        return
    await sync_to_async(opened, thread_sensitive=False)(scope)
    loop = asyncio.get_running_loop()
    if loop not in _beating:
        _beating.add(loop)
        loop.create_task(_heartbeat())


async def aclosed(scope: str, layer) -> None:
    if not counted(layer):
        return
    await sync_to_async(closed, thread_sensitive=False)(scope)
