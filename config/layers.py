"""The channel layers: the embedded default's in-memory one, and Redis's made to survive an outage.

The embedded default's channel layer: Channels' in-memory layer, its expiry sweep at most once a second.

Channels' ``InMemoryChannelLayer`` sweeps every channel's queue and every group membership for expired
entries on each ``receive`` and each ``group_send``. Every open socket waits in ``receive``, so a frame
sent to a table's four seats costs four sweeps over all the sockets of the process, and a move a few
more: with a thousand sockets open, thousands of entries scanned per move, for entries that expire after
60 seconds (messages) or a day (memberships). Here the sweep runs at most once a ``SWEEP_INTERVAL``: an
expired entry goes at most that much later, which nobody can tell apart.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time

from channels import layers
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LAYER_FAILURES = (RedisError, OSError)
LAYER_LOST = {"type": "layer.lost"}  # what a socket receives instead of the error when Redis fails

SWEEP_INTERVAL = 1.0  # seconds
RECEIVE_BATCH = 63  # messages a process takes for its sockets in one trip beyond the first it waited for


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    _swept = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept >= SWEEP_INTERVAL:
            self._swept = now
            super()._clean_expired()


class ResilientRedisChannelLayer(RedisChannelLayer):
    """Channels' Redis layer, for a Redis that may go away for a while and come back (empty, maybe), and that
    spares a process's own sockets the trip.

    - A change's messages go in one batch (``group_send_many``); of a group's members, read in Redis, those
      this process added itself are handed theirs in memory, and only the others' go through Redis. What
      comes from other processes is taken from Redis by one task per process (``receive``), in batches.
    - A message that cannot be sent is dropped and logged (once per outage), never raised to the sender:
      a move, a chat line or a log-out has committed, and is answered as such, whatever happens to its
      frames. A socket that missed frames is brought up to date by revision (``tables.consumers``).
    - A socket waiting for its messages when Redis fails is handed ``{"type": "layer.lost"}`` instead of
      the error, and so is every other socket of the process waiting then: a restarted Redis has lost
      their group memberships, so each closes with 1012 (service restart) and its page reconnects (htmx's
      WebSocket extension does, with back-off), joins its groups again and reads its full frame anew.
    - Joining a group raises as before: a socket that cannot join is refused (``accounts.socket_guard``).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outage = False
        self._held: dict[str, collections.deque] = collections.defaultdict(collections.deque)
        self._cleared: set[str] = set()  # channel keys whose back-up queue is known empty
        self._waiting = 0  # this process's sockets waiting for a message
        self._taker: asyncio.Task | None = None  # the task taking their messages from Redis (_take)
        # {group: {this process's channel added to it here: the event loop it receives on}}
        self._joined: dict[str, dict[str, asyncio.AbstractEventLoop]] = collections.defaultdict(dict)

    def _failed(self, what: str, exc: BaseException) -> None:
        if not self.outage:
            logger.warning(
                "Channel layer: Redis unreachable (%s: %s); frames are dropped until it is back", what, exc
            )
        self.outage = True

    def _recovered(self) -> None:
        if self.outage:
            logger.warning("Channel layer: Redis reachable again")
            self.outage = False

    async def send(self, channel, message):
        try:
            await super().send(channel, message)
        except LAYER_FAILURES as exc:
            self._failed("send", exc)
        else:
            self._recovered()

    async def group_add(self, group, channel):
        await super().group_add(group, channel)
        if "!" in channel and self.non_local_name(channel).endswith(self.client_prefix + "!"):
            self._joined[group][channel] = asyncio.get_running_loop()  # (one of this process's sockets)

    async def group_discard(self, group, channel):
        # (first: a socket leaving gets nothing from here any more, even if Redis fails)
        joined = self._joined.get(group)
        if joined is not None:
            joined.pop(channel, None)
            if not joined:
                del self._joined[group]
        await super().group_discard(group, channel)

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Each (group, message) sent, as ``group_send`` sends one, in two trips to Redis for them all instead
        of four per group (a move's frames: one message per viewer), and in one when every member of the
        groups is a socket of this process: a group's members are read in Redis (whichever process added
        them), and a member this process added itself and still holds is handed its message here, in memory,
        as its receive would have got it from Redis (Lichess's rooms send to their own sockets likewise).
        Messages to one process's sockets keep their order. A failure is dropped and logged, as any send's:
        the change has committed; a socket that missed frames is brought up to date by revision."""
        try:
            await self._group_send_many(messages)
        except LAYER_FAILURES as exc:
            self._failed("group_send", exc)
        else:
            self._recovered()

    async def _group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        now = time.time()
        # 1. Each group's channels (its expired members dropped first), in one pipeline per Redis server.
        by_server = collections.defaultdict(list)
        for group, _message in messages:
            assert self.require_valid_group_name(group), "Group name not valid"
            by_server[self.consistent_hash(group)].append(group)
        members: dict[str, list[str]] = {}
        for index, groups in by_server.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for group in groups:
                pipe.zremrangebyscore(self._group_key(group), min=0, max=int(now) - self.group_expiry)
                pipe.zrange(self._group_key(group), 0, -1)
            found = await pipe.execute()
            for group, names in zip(groups, found[1::2], strict=True):
                members[group] = [name.decode("utf8") for name in names]
        # 2. This process's own sockets are handed theirs in memory, on the loop they receive on.
        loop = asyncio.get_running_loop()
        for group, message in messages:
            joined = self._joined.get(group)
            if joined:
                others = []
                for name in members[group]:
                    if joined.get(name) is loop:
                        self.receive_buffer[name].put_nowait(dict(message))  # (each its own, as from Redis)
                    else:
                        others.append(name)
                members[group] = others
        # 3. Every other message onto its channels' keys: one pipeline per Redis server (expired messages
        # dropped, then one script adds them all, each under capacity; scores rising in the order given).
        entries = collections.defaultdict(list)  # server index -> [(channel key, message bytes, capacity)]
        for group, message in messages:
            if not members[group]:
                continue
            servers, serialized, capacities = self._map_channel_keys_to_connection(members[group], message)
            for index, keys in servers.items():
                entries[index] += [(key, serialized[key], capacities[key]) for key in keys]
        for index, batch in entries.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for key in dict.fromkeys(key for key, _, _ in batch):
                pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.expiry))
            keys = [key for key, _, _ in batch]
            args = [body for _, body, _ in batch] + [capacity for _, _, capacity in batch]
            args += [now + i * 1e-6 for i in range(len(batch))] + [int(self.expiry)]
            pipe.eval(_SEND_MANY, len(keys), *keys, *args)
            over = (await pipe.execute())[-1]
            if over:
                logger.info("%s of %s messages over their channel's capacity", over, len(batch))

    async def receive_single(self, channel):
        """The next message of a channel. For this process's sockets (a channel name with "!"), what is queued
        for them is taken in one batch: a move's frames to this process's sockets arrive together, and
        Channels' Redis layer would spend four trips to Redis on each (restore the back-up queue, pop, back
        up, clear the back-up). Here the first message is waited for as Channels does; one script then puts
        it in the back-up queue and moves up to ``RECEIVE_BATCH`` more already queued there too (so a receive
        cancelled meanwhile loses none: the next one puts them back), the back-up is cleared in one more
        trip once they are taken, and they are handed out from memory in order. The back-up queue is put
        back only when a batch was not cleared (Channels does it before every pop)."""
        if "!" not in channel:
            return await super().receive_single(channel)
        held = self._held[channel]
        if not held:
            assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
            assert channel.endswith("!")
            key = self.prefix + channel
            backup = self._backup_channel_name(key)
            connection = self.connection(self.consistent_hash(channel))
            await self.receive_clean_locks.acquire(key)
            try:
                popped = None
                while popped is None:
                    if key not in self._cleared:
                        await connection.eval(_RESTORE, 2, key, backup)
                        self._cleared.add(key)
                    popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
                self._cleared.discard(key)  # (until the batch is taken and its back-up cleared)
                _, first, score = popped
                more = await connection.eval(
                    _BACK_UP_AND_POP_MORE, 2, key, backup, first, score, RECEIVE_BATCH
                )
                cleaner = asyncio.ensure_future(connection.zpopmin(backup, 1 + len(more)))
                self.receive_cleaners.append(cleaner)

                def _cleaned(cleaner, key=key):
                    self.receive_cleaners.remove(cleaner)
                    if not cleaner.cancelled() and cleaner.exception() is None:
                        self._cleared.add(key)
                    self.receive_clean_locks.release(key)

                cleaner.add_done_callback(_cleaned)
            except BaseException:
                self.receive_clean_locks.release(key)
                raise
            held.append(first)
            held.extend(more)
        message = self.deserialize(held.popleft())
        if not held:
            del self._held[channel]
        if "__asgi_channel__" in message:
            channel = message.pop("__asgi_channel__")
        return channel, message

    async def receive(self, channel):
        """The next message of a channel. This process's sockets (a channel name with "!") each wait on their
        own queue in memory, which one task per process fills from Redis (``_take``) and which a send from
        this process to its own sockets fills directly (``group_send_many``). (Channels' Redis layer has the
        socket that waits first take the process's messages from Redis for all of them: a message put in
        memory for that one would wait until Redis brings another.)"""
        if "!" not in channel:
            try:
                return await super().receive(channel)
            except LAYER_FAILURES as exc:
                self._failed("receive", exc)
                return dict(LAYER_LOST)
        assert self.require_valid_channel_name(channel), "Channel name invalid"
        real = self.non_local_name(channel)
        assert real.endswith(self.client_prefix + "!"), "Wrong client prefix"
        queue = self.receive_buffer[channel]
        self._waiting += 1
        try:
            if queue.empty():
                self._take_for(real)
            return await queue.get()
        finally:
            self._waiting -= 1
            if queue.empty() and self.receive_buffer.get(channel) is queue:
                del self.receive_buffer[channel]

    def _take_for(self, real: str) -> None:
        loop = asyncio.get_running_loop()
        if self._taker is None or self._taker.done() or self._taker.get_loop() is not loop:
            self._taker = loop.create_task(self._take(real))

    async def _take(self, real: str) -> None:
        """This process's messages from Redis, each into its socket's queue, while a socket waits for one. When
        Redis fails (or anything else does here), every socket of the process is handed
        ``{"type": "layer.lost"}``: each closes, and its page reconnects and reads its table anew."""
        try:
            while self._waiting:
                channels, message = await self.receive_single(real)
                self._recovered()
                # (one message of Redis for several sockets of this process names them all)
                for channel in channels if isinstance(channels, list) else [channels]:
                    self.receive_buffer[channel].put_nowait(message)
        except Exception as exc:
            if isinstance(exc, LAYER_FAILURES):
                self._failed("receive", exc)
            else:
                logger.exception("Channel layer: taking this process's messages from Redis failed")
            for queue in list(self.receive_buffer.values()):
                queue.put_nowait(dict(LAYER_LOST))

    async def close_pools(self):
        if self._taker is not None:
            self._taker.cancel()
            self._taker = None
        await super().close_pools()


# KEYS: channel keys; ARGV: the messages, their channels' capacities, their scores, then the expiry.
_SEND_MANY = """
local n = #KEYS
local over = 0
local expiry = ARGV[3 * n + 1]
for i = 1, n do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], ARGV[2 * n + i], ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over = over + 1
    end
end
return over
"""

# KEYS: a channel's queue and its back-up queue. Puts what the back-up queue holds back into the queue (as
# Channels' Redis layer does before each pop).
_RESTORE = """
local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', KEYS[2])
"""

# KEYS: a channel's queue and its back-up queue; ARGV: the message just popped, its score, and at most how
# many more. Backs up the message popped, moves that many of the oldest still queued to the back-up queue
# (with their scores) and returns them, oldest first.
_BACK_UP_AND_POP_MORE = """
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[3]))
local out = {}
for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[2], popped[i + 1], popped[i])
    out[#out + 1] = popped[i]
end
return out
"""
