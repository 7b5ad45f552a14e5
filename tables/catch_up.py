"""What missed its table's last change catches up: the table sockets (``tables.consumers``) and the API's
table streams (``tables.streams``).

A socket or a stream that sees a gap in revisions reads the table anew, but only when a later message comes.
On Redis a message can be lost with none after it: one the layer dropped while Redis was out of reach
(``config.layers``), or one a change skipped because, just after Redis came back, another process had not yet
published that somebody listens there (``tables.stream_presence``); a page would then show the move before
the last one, and a bot following its stream would wait for a line that never comes. So each process reads,
every ``CHECK_EVERY`` seconds, the revisions of the tables its sockets and streams show (one query for all of
them), and one still behind the revision read at the check before is sent a ``table.check`` message on its
own channel, in order with its other messages: it then reads the table as it is now. A message on its way when
a check reads the revision has arrived by the next one: only one that was lost is made up for, within two
checks. On the in-memory layer nothing is lost on the way or skipped, and nothing is checked.

What is checked (a ``Watch``: a socket is one as it is) holds ``table_id``, ``revision`` (what it shows),
``checked`` (what the check before read), ``channel_layer`` and ``channel_name``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async

from tables import stream_presence

logger = logging.getLogger(__name__)

# Seconds between two reads of the revisions this process's sockets and streams show (on Redis).
CHECK_EVERY = 3.0


@dataclass(eq=False)
class Watch:
    """An API stream, as the checks see it (``tables.streams``): its table, what it shows, its channel."""

    table_id: int
    channel_layer: Any
    channel_name: str
    revision: int = -1
    checked: int = -1


def revisions(table_ids) -> dict[int, int]:
    from tables.models import Table

    return dict(Table.objects.filter(pk__in=set(table_ids)).values_list("pk", "revision"))


def may_lose_frames(layer) -> bool:
    """Redis's layer (``config.layers``), not the in-memory one: nothing is lost on the way there, or skipped."""
    return stream_presence.counted(layer)


class Checks:
    """What each event loop has to check (sockets and streams), and the task that checks it shows its table's
    last revision. Runs while the loop has something to check, on a channel layer that may lose messages."""

    def __init__(self):
        self.watched: dict[asyncio.AbstractEventLoop, weakref.WeakSet] = {}

    def add(self, watch) -> None:
        if not may_lose_frames(watch.channel_layer):
            return
        loop = asyncio.get_running_loop()
        if loop not in self.watched:
            self.watched[loop] = weakref.WeakSet()
            loop.create_task(self._run(loop))
        self.watched[loop].add(watch)

    def discard(self, watch) -> None:
        for watched in self.watched.values():
            watched.discard(watch)

    async def _run(self, loop) -> None:
        try:
            while self.watched.get(loop):
                await asyncio.sleep(CHECK_EVERY)
                try:
                    await self.check(list(self.watched.get(loop, ())))
                except Exception:  # (the database or Redis out of reach: the next check tries again)
                    logger.exception("Checking the tables' revisions failed")
        finally:
            self.watched.pop(loop, None)

    async def check(self, watched) -> None:
        if not watched:
            return
        now = await database_sync_to_async(revisions)([w.table_id for w in watched])
        for watch in watched:
            was, watch.checked = watch.checked, now.get(watch.table_id, -1)
            if watch.revision < was:  # (behind what the check before read: a message was lost)
                await watch.channel_layer.send(watch.channel_name, {"type": "table.check", "revision": was})


checks = Checks()
