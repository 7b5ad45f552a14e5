"""A table's home: the one process that makes the moves sent over its sockets (PostgreSQL + Redis, several
daphnes; issue 31, points 1 and 5).

With several processes a table's sockets may sit in any of them (a load balancer spreads them as it likes).
A move made where the one before was made finds that process's room as that move left it: its seats, state,
log and each viewer's frame, parsed, for the next change's partial frames (``tables.rooms``). A move made in
the other process finds a room that only heard the change, and parses every viewer's whole frame again to
draw what changed (``rooms.frames_before``). So the first socket of a table to send a move claims the table
for itself (the claim is a key in the cache, ``table-home-<id>``, holding its channel name), and a move sent
over a socket of another process is handed to that socket's channel (``table.forwarded``), where it is judged
and played exactly as a move sent there (``tables.socket_moves``): its frames reach every socket as any
change's do, and a refusal goes back to the sending socket alone (``table.refused``). A move sent over a
socket of the home's own process is played where it arrives. The database's table lock keeps a table's
changes one at a time wherever they are made (the API's ``POST``, the bots in the worker, a seat taken): the
home is where the moves go to be cheap, not what makes them right. And since the other processes' sockets
hand their moves over, a change made at the home does not carry itself and its whole frames to their rooms
(``tables.live``): they forward what changed, and a room there that must make a change after all (a posted
move) reads the table again, as any room behind does.

Only the site's processes write to the channel layer (Redis, behind the same trust boundary as the cache):
a forwarded move names its person by id, as the sending socket's session did.

A claim lasts ``CLAIM_FOR`` seconds and its socket renews it every ``RENEW_EVERY`` while it is open; it
gives it up as it closes. A process killed leaves a claim that runs out within ``CLAIM_FOR`` seconds. A move
handed to a home that answers neither with a frame at a later revision nor with a refusal within
``WAIT_FOR_HOME`` seconds (its process died, or Redis dropped the message), or whose home gives the table up
meanwhile (looked at every ``LOOK_EVERY`` seconds: its socket closed as the move was on its way), is played
where it was sent: the ``seq`` it carries then decides, as for any move sent twice. A home that did not answer
and still holds the table is taken over by the socket that waited, so that one dead process costs its
tables one wait. On the in-memory layer (one process) every move is played where it arrives, and nothing is
claimed.
"""

from __future__ import annotations

import asyncio
import logging
import time

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tables import live, rooms, socket_moves

logger = logging.getLogger(__name__)

CLAIM_FOR = 10.0  # seconds a claim holds unless its socket renews it
RENEW_EVERY = 3.0  # seconds between two renewals (and how long a socket believes the home it read)
WAIT_FOR_HOME = 5.0  # seconds a move handed to the home waits for its answer before it is played here
LOOK_EVERY = 1.0  # seconds between two looks, while a move waits, at whether its home still holds the table


def key(table_id: int) -> str:
    return f"table-home-{table_id}"


def process_of(channel_name: str) -> str:
    """The process a channel belongs to: the layer's prefix before ``!`` (``new_channel``: one per process)."""
    return channel_name.partition("!")[0]


def claimed(table_id: int, channel_name: str) -> str:
    """The channel of the table's home; ``channel_name``'s own once it claimed the table (nobody had)."""
    for _ in range(2):
        home = cache.get(key(table_id))
        if home is not None:
            return home
        if cache.add(key(table_id), channel_name, CLAIM_FOR):
            return channel_name
    return channel_name  # (claimed and lost twice in a row: played here, as before any home)


def claimed_if(table_id: int, names: tuple, channel_name: str) -> bool:
    """Claim the table for ``channel_name`` (anew, for CLAIM_FOR seconds) if its claim names one of ``names``
    (None: nobody): a home renewing its own claim, or a socket taking over a home that did not answer."""
    if cache.get(key(table_id)) not in names:
        return False
    cache.set(key(table_id), channel_name, CLAIM_FOR)
    return True


def holds(table_id: int, channel_name: str) -> bool:
    """Whether the table's claim still names ``channel_name``."""
    return cache.get(key(table_id)) == channel_name


def given_up(table_id: int, channel_name: str) -> None:
    """Give the claim up if it is ``channel_name``'s (a socket closing)."""
    if cache.get(key(table_id)) == channel_name:
        cache.delete(key(table_id))


def mover(user_id: int):
    """The person a forwarded move is played for: the move is judged by their id (their seat), as for a socket
    of theirs in this process, whose person was read as it connected (``tables.consumers``)."""
    return get_user_model()(pk=user_id)


class TableHome:
    """What a table socket does about its table's home (see the module): mixed into ``TableConsumer``, which
    gives it ``table_id``, ``user_id``, ``lang``, ``scope``, ``channel_layer`` and ``channel_name``."""

    home: str | None = None  # the home's channel, as read
    home_read_at: float = 0.0
    renewing: asyncio.Task | None = None  # (this socket's claim, renewed while it is open)
    waiting: asyncio.Task | None = None  # (a move handed to the home, until it is answered)

    async def play(self, text_data: str | None) -> None:
        """Play a move sent over this socket: here, or at the table's home."""
        home = await self.home_now()
        if home is not None and process_of(home) != process_of(self.channel_name):
            await self.hand_over(home, text_data)
            return
        await self.play_here(self.scope.get("user"), text_data, self.lang, self.channel_name)

    async def play_here(self, user, text_data, lang: str, reply: str) -> None:
        refusal = await database_sync_to_async(socket_moves.play)(
            self.table_id, user, text_data, lang, asyncio.get_running_loop()
        )
        if refusal is None:
            return
        if reply == self.channel_name:
            await self.send(text_data=refusal)
            return
        try:
            await self.channel_layer.send(reply, {"type": "table.refused", "html": refusal})
        except ChannelFull:  # (the sender has fallen far behind: it reads the table anew)
            logger.info(
                "A refusal for table %s's socket %s was dropped: its queue is full", self.table_id, reply
            )

    async def home_now(self) -> str | None:
        """The channel of the table's home, claimed for this socket if nobody holds it; None on one process."""
        if not live.between_processes(self.channel_layer) or self.user_id is None:
            return None
        if self.home is not None and time.monotonic() - self.home_read_at < RENEW_EVERY:
            return self.home
        self.home = await sync_to_async(claimed, thread_sensitive=False)(self.table_id, self.channel_name)
        self.home_read_at = time.monotonic()
        if self.home == self.channel_name:
            self.became_home()
        return self.home

    def became_home(self) -> None:
        """This socket holds the table's claim: renew it while open (once)."""
        if self.renewing is not None:
            return
        rooms.home_taken(self.table_id, self.channel_name)
        self.renewing = asyncio.create_task(self.renew())

    async def renew(self) -> None:
        try:
            while True:
                await asyncio.sleep(RENEW_EVERY)
                mine = (None, self.channel_name)  # (ran out: nobody took it meanwhile)
                if not await sync_to_async(claimed_if, thread_sensitive=False)(
                    self.table_id, mine, self.channel_name
                ):
                    break  # (another socket holds it now)
        except asyncio.CancelledError:
            raise
        except Exception:  # (Redis out of reach: the claim runs out by itself, and another socket takes it)
            logger.warning("Renewing table %s's home failed", self.table_id, exc_info=True)
        rooms.home_left(self.table_id, self.channel_name)
        self.renewing = None
        self.home = None

    async def hand_over(self, home: str, text_data: str | None) -> None:
        """Hand the move to the table's home; played here if the home does not answer in time."""
        if self.waiting is not None:
            self.waiting.cancel()  # (a move sent before it was answered: the latest one waits)
        message = {
            "type": "table.forwarded",
            "table": self.table_id,
            "user": self.user_id,
            "text": text_data,
            "lang": self.lang,
            "reply": self.channel_name,
        }
        try:
            await self.channel_layer.send(home, message)
        except ChannelFull:  # (the home's queue is full: it is swamped, or gone with its queue left behind)
            await self.play_here(self.scope.get("user"), text_data, self.lang, self.channel_name)
            return
        self.waiting = asyncio.create_task(self.unanswered(home, text_data))

    async def unanswered(self, home: str, text_data: str | None) -> None:
        """Wait for the move's answer: played here once the home gives the table up (its socket closed as the
        move was on its way, or its claim ran out), or after WAIT_FOR_HOME seconds."""
        waited, step = 0.0, min(LOOK_EVERY, WAIT_FOR_HOME)
        while waited < WAIT_FOR_HOME:
            await asyncio.sleep(step)
            waited += step
            if not await sync_to_async(holds, thread_sensitive=False)(self.table_id, home):
                break
        else:  # (the home still holds the table and did not answer: its process died, most likely)
            if await sync_to_async(claimed_if, thread_sensitive=False)(
                self.table_id, (home,), self.channel_name
            ):
                self.became_home()
        self.waiting = None
        self.home = self.channel_name if self.renewing is not None else None  # (else read again)
        self.home_read_at = time.monotonic()
        logger.warning("Table %s's home did not answer a move in %.1fs: played here", self.table_id, waited)
        await self.play_here(self.scope.get("user"), text_data, self.lang, self.channel_name)

    def answered(self) -> None:
        """A frame at a later revision, or a refusal, came: the move handed over was answered."""
        if self.waiting is not None:
            self.waiting.cancel()
            self.waiting = None

    async def table_forwarded(self, event) -> None:
        """A move sent over another process's socket of this table, handed to this socket as its home."""
        if event.get("table") != self.table_id:
            return  # (not for this socket's table: never played)
        await self.play_here(mover(event["user"]), event["text"], event["lang"], event["reply"])

    async def table_refused(self, event) -> None:
        """The home refused a move this socket handed it: tell this socket alone."""
        self.answered()
        await self.send(text_data=event["html"])

    async def leave_home(self) -> None:
        """This socket closes: stop waiting, stop renewing, and give its claim up."""
        self.answered()
        if self.renewing is not None:
            self.renewing.cancel()
            self.renewing = None
            rooms.home_left(self.table_id, self.channel_name)
            try:
                await sync_to_async(given_up, thread_sensitive=False)(self.table_id, self.channel_name)
            except Exception:  # (Redis out of reach: the claim runs out by itself)
                logger.warning("Giving up table %s's home failed", self.table_id, exc_info=True)
