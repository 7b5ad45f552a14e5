"""Who is online: a person is online while any page of the site has a socket of theirs open (the table
sockets and the badge socket), and for PRESENCE_GRACE seconds after the last one closes (a page that
navigates closes its socket and opens the next); then "last seen" that long ago.

Kept in the default cache (Redis when several processes serve, so every process sees the same counts; the
in-memory cache of one process otherwise), never in the database: a socket that opens or closes makes no
query. Per person, a count of open sockets and the time the last one closed; per table, a count of the
spectators' sockets (the "Live now" page shows it). A person's count is believed only while the socket
guard (accounts.socket_guard) also sees a socket of theirs in some living process, so a process that died
with sockets open does not keep anyone online; a count also lives at most PRESENCE_TTL seconds from its
person's latest socket.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache

from accounts import socket_guard

PRESENCE_TTL = 12 * 3600
SEEN_TTL = 90 * 24 * 3600


def _count_key(user_id: int) -> str:
    return f"presence:n:{user_id}"


def _seen_key(user_id: int) -> str:
    return f"presence:seen:{user_id}"


def _watch_key(table_id: int) -> str:
    return f"presence:watch:{table_id}"


async def _up(key: str) -> None:
    await cache.aadd(key, 0, PRESENCE_TTL)
    try:
        await cache.aincr(key)
    except ValueError:  # (expired between the two)
        await cache.aset(key, 1, PRESENCE_TTL)
    await cache.atouch(key, PRESENCE_TTL)


async def _down(key: str) -> int:
    try:
        left = await cache.adecr(key)
    except ValueError:
        return 0
    if left < 0:
        await cache.aset(key, 0, PRESENCE_TTL)
        return 0
    return left


async def arrived(user_id: int) -> None:
    await _up(_count_key(user_id))


async def left(user_id: int) -> None:
    if await _down(_count_key(user_id)) == 0:
        await cache.aset(_seen_key(user_id), time.time(), SEEN_TTL)


async def watching(table_id: int) -> None:
    await _up(_watch_key(table_id))


async def stopped_watching(table_id: int) -> None:
    await _down(_watch_key(table_id))


def spectators(table_ids) -> dict[int, int]:
    """{table id: spectators' sockets open now}, in one read of the cache."""
    keys = {_watch_key(pk): pk for pk in table_ids}
    found = cache.get_many(list(keys))
    return {pk: max(int(found.get(key) or 0), 0) for key, pk in keys.items()}


class Presence:
    """One person's presence: ``online``, and when not, ``last_seen`` (a datetime, or None if unknown)."""

    __slots__ = ("online", "last_seen")

    def __init__(self, online: bool, last_seen: datetime | None):
        self.online, self.last_seen = online, last_seen

    def __bool__(self) -> bool:
        return self.online

    def __repr__(self) -> str:
        return f"Presence(online={self.online}, last_seen={self.last_seen})"


def of_many(users) -> dict[int, Presence]:
    """{user id: Presence} for users (or ids), in one read of the cache. A person never seen by a socket
    since the cache started is "last seen" at their last log-in, where the user object carries it."""
    users = list(users)
    ids = [getattr(u, "pk", u) for u in users]
    keys = [_count_key(i) for i in ids] + [_seen_key(i) for i in ids]
    found = cache.get_many(keys)
    counted = [i for i in ids if int(found.get(_count_key(i)) or 0) > 0]
    # A process that died with a person's sockets open leaves a count that outlived them.
    alive = socket_guard.with_sockets(counted) if counted else set()
    now = time.time()
    out = {}
    for user, user_id in zip(users, ids, strict=True):
        count = int(found.get(_count_key(user_id)) or 0)
        if user_id not in alive:
            count = 0
        seen = found.get(_seen_key(user_id))
        online = count > 0 or (seen is not None and now - seen < settings.PRESENCE_GRACE)
        if seen is not None:
            last = datetime.fromtimestamp(seen, UTC)
        else:
            last = getattr(user, "last_login", None)
        out[user_id] = Presence(online, None if online else last)
    return out


def of(user) -> Presence:
    return of_many([user])[getattr(user, "pk", user)]


class PresentSocket:
    """Mixin for an AsyncWebsocketConsumer: a signed-in person's accepted socket counts them online until
    it closes. List it before the consumer's base."""

    present_as: int | None = None

    async def accept(self, *args, **kwargs):
        await super().accept(*args, **kwargs)
        user = self.scope.get("user")
        if self.present_as is None and user is not None and user.is_authenticated:
            self.present_as = user.pk
            await arrived(user.pk)

    async def websocket_disconnect(self, message):
        if self.present_as is not None:
            user_id, self.present_as = self.present_as, None
            await left(user_id)
        await super().websocket_disconnect(message)
