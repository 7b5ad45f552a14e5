"""What every socket of the site is held to, whatever it carries: a bound per account, a clean refusal when
the channel layer fails, a reconnect when Redis is lost, and a bound on what the client may send.

Close codes a client may read (the page's htmx WebSocket extension reconnects, with back-off, on 1012 and
1013 only):

- 4429: the account has ``settings.MAX_SOCKETS_PER_ACCOUNT`` sockets open already (in every process
  together). The socket is accepted and closed at once, so that the code reaches the client.
- 1013 (try again later): the channel layer (Redis) cannot be reached; the socket could not join its groups.
- 1012 (service restart): the channel layer lost Redis while the socket was open (``config.layers``);
  reconnecting joins the groups again and reads the whole frame anew.
- 1009 (message too big): a message from the client over ``settings.SOCKET_MESSAGE_MAX`` (bytes, or
  characters of a text message); past daphne's own bound (``--websocket-max-message-size``, 1 MiB) daphne
  closes the socket with 1009 itself as the message arrives (``config.protocol``).

(Autobahn, under daphne, lets an application send 1000 and 3000-4999 only: ``config.protocol`` lets daphne
send 1009, 1011, 1012 and 1013 too, as RFC 6455 allows a server.)

**Counting sockets per account.** Each process counts its own sockets per account exactly, in memory, and
publishes that count in the cache (Redis when REDIS_URL is set) under a key of its own that expires after
``COUNT_TTL`` seconds unless the process refreshes it (it does, every ``HEARTBEAT`` seconds, while it has
sockets open); a list of the processes holding sockets for the account sits beside it. A new socket is
admitted when this process's count plus the others' published counts is under the bound: a connect costs
a few cache reads and writes, a frame nothing. A process that dies stops refreshing, and its sockets stop
counting within ``COUNT_TTL``. Two processes admitting at the same instant may each let one through
beyond the bound. While Redis is down the cache answers from each process's memory (``config.cache``),
so each process bounds its own sockets.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid

from asgiref.sync import sync_to_async
from channels.exceptions import StopConsumer
from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

TOO_MANY_SOCKETS = 4429
LAYER_UNREACHABLE = 1013
LAYER_LOST = 1012
MESSAGE_TOO_BIG = 1009
LAYER_FAILURES = (RedisError, OSError)

COUNT_TTL = 120  # seconds a process's published count lives without a refresh
HEARTBEAT = 40  # seconds between refreshes
PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

_open: dict[int, int] = {}  # account id -> sockets open in this process
_lock = threading.Lock()
_beating: set[asyncio.AbstractEventLoop] = set()


def _own_key(user_id: int, process: str = PROCESS) -> str:
    return f"sockets:{user_id}:{process}"


def _processes_key(user_id: int) -> str:
    return f"sockets:{user_id}"


def others_open(user_id: int) -> int:
    """The sockets other processes have published for the account (expired entries left out)."""
    now = time.time()
    processes = cache.get(_processes_key(user_id)) or {}
    others = [p for p, until in processes.items() if p != PROCESS and until > now]
    if not others:
        return 0
    return sum(cache.get_many([_own_key(user_id, p) for p in others]).values())


def with_sockets(user_ids) -> set[int]:
    """Those of ``user_ids`` with a socket open in this process or another living one: in two reads of the
    cache at most, however many they are (presence of a page's people)."""
    ids = list(user_ids)
    with _lock:
        found = {i for i in ids if _open.get(i, 0) > 0}
    rest = [i for i in ids if i not in found]
    if not rest:
        return found
    now = time.time()
    published = cache.get_many([_processes_key(i) for i in rest])
    others = [
        (i, p)
        for i in rest
        for p, until in (published.get(_processes_key(i)) or {}).items()
        if p != PROCESS and until > now
    ]
    if others:
        counts = cache.get_many([_own_key(i, p) for i, p in others])
        found |= {i for i, p in others if (counts.get(_own_key(i, p)) or 0) > 0}
    return found


def _publish(user_id: int) -> None:
    with _lock:
        count = _open.get(user_id, 0)
    now = time.time()
    processes = {p: until for p, until in (cache.get(_processes_key(user_id)) or {}).items() if until > now}
    if count:
        cache.set(_own_key(user_id), count, COUNT_TTL)
        processes[PROCESS] = now + COUNT_TTL
    else:
        cache.delete(_own_key(user_id))
        processes.pop(PROCESS, None)
    if processes:
        cache.set(_processes_key(user_id), processes, COUNT_TTL)
    else:
        cache.delete(_processes_key(user_id))


def take(user_id: int) -> bool:
    """Count one more socket for the account, if it has fewer than the bound open; False otherwise."""
    others = others_open(user_id)
    with _lock:
        if _open.get(user_id, 0) + others >= settings.MAX_SOCKETS_PER_ACCOUNT:
            return False
        _open[user_id] = _open.get(user_id, 0) + 1
    _publish(user_id)
    return True


def release(user_id: int) -> None:
    with _lock:
        left = _open.get(user_id, 0) - 1
        if left > 0:
            _open[user_id] = left
        else:
            _open.pop(user_id, None)
    _publish(user_id)


def open_here(user_id: int) -> int:
    with _lock:
        return _open.get(user_id, 0)


def _refresh_all() -> None:
    with _lock:
        users = list(_open)
    for user_id in users:
        _publish(user_id)


async def _heartbeat() -> None:
    """Refresh this process's published counts while it has sockets open (one task per event loop)."""
    loop = asyncio.get_running_loop()
    try:
        while True:
            await asyncio.sleep(HEARTBEAT)
            with _lock:
                if not _open:
                    return
            try:
                await sync_to_async(_refresh_all, thread_sensitive=False)()
            except Exception:  # (the cache answers from memory when Redis fails: this is a bug, logged)
                logger.exception("Refreshing the socket counts failed")
    finally:
        _beating.discard(loop)


def _start_heartbeat() -> None:
    loop = asyncio.get_running_loop()
    if loop not in _beating:
        _beating.add(loop)
        loop.create_task(_heartbeat())


class GuardedSocket:
    """Mixin for an AsyncWebsocketConsumer (listed first): see the module."""

    counted_user: int | None = None
    accepted = False

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.counted_user is not None:
                user_id, self.counted_user = self.counted_user, None
                await sync_to_async(release, thread_sensitive=False)(user_id)

    async def accept(self, *args, **kwargs):
        self.accepted = True
        await super().accept(*args, **kwargs)

    async def refuse(self, code: int) -> None:
        """Close with ``code`` where the client can read it (a close before accepting is a bare 403)."""
        if not self.accepted:
            await self.accept()
        await self.close(code=code)

    async def websocket_connect(self, message):
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            if not await sync_to_async(take, thread_sensitive=False)(user.pk):
                await self.refuse(TOO_MANY_SOCKETS)
                return
            self.counted_user = user.pk
            _start_heartbeat()
        try:
            await super().websocket_connect(message)
        except LAYER_FAILURES as exc:
            logger.warning("A socket could not join its groups (%s): told to try again later", exc)
            await self.refuse(LAYER_UNREACHABLE)

    async def websocket_receive(self, message):
        data = message.get("text") or message.get("bytes") or ""
        if len(data) > settings.SOCKET_MESSAGE_MAX:
            await self.close(code=MESSAGE_TOO_BIG)
            return
        await super().websocket_receive(message)

    async def websocket_disconnect(self, message):
        try:
            await super().websocket_disconnect(message)
        except LAYER_FAILURES:  # leaving the groups failed: they expire on their own (channels' group_expiry)
            raise StopConsumer() from None

    async def layer_lost(self, event):
        """The channel layer lost Redis (config.layers): this socket's groups may be gone; reconnect."""
        await self.close(code=LAYER_LOST)
        raise StopConsumer()
