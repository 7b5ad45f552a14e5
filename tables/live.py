"""Live frames: after a change commits, each viewer's frame is rendered once and sent ready-made.

A table's sockets are grouped by viewer: ``table-<id>-s<i>`` holds every socket of seat i's player
(three tabs are one viewer), ``table-<id>-watch`` every spectator. After a change commits, the process
that made it renders one frame per viewer that has a socket and sends it to that viewer's group; the
sockets only forward it, without touching the database. A frame carries the table's ``revision`` (bumped
by every change, under the table's lock), so a socket never replaces a newer frame with an older one,
and the seat of every player, so a socket whose person took or left a seat re-keys itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

WATCH = "watch"


def viewer_key(seat: int | None) -> str:
    return WATCH if seat is None else f"s{seat}"


def viewer_group(table_id: int, key: str) -> str:
    return f"table-{table_id}-{key}"


def key_of(user_id: int | None, seats: dict[str, str]) -> str:
    """A socket's viewer key, from the frame's {user id: key} map of seated players."""
    if user_id is None:
        return WATCH
    return seats.get(str(user_id), WATCH)


def has_listeners(layer, group: str) -> bool:
    """Whether any socket is in ``group``. Known exactly in one process's in-memory layer; elsewhere (Redis)
    a socket may sit in another process, so every viewer is rendered."""
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(group))
    return True


@dataclass
class Publication:
    """The frames of one committed change. ``run`` is called once the transaction has committed."""

    table: Any  # tables.models.Table, as saved by the change
    seats: list | None = None  # the seats as saved (None: read them again after commit)
    state: Any = None  # the engine's state after the change, if at hand (saves loading the snapshot)
    frames: dict[str, str] = field(default_factory=dict)  # viewer key -> the frame sent
    _snapshot: Any = None

    def snapshot(self):
        from tables.rendering import Snapshot

        if self._snapshot is None:
            self._snapshot = Snapshot.read(self.table, seats=self.seats, state=self.state)
        return self._snapshot

    def run(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        table, snapshot = self.table, self.snapshot()
        people = {seat.index: seat.user for seat in snapshot.seats if seat.user_id}
        seat_keys = {str(user.pk): viewer_key(index) for index, user in people.items()}
        viewers = [(viewer_key(index), user) for index, user in people.items()] + [(WATCH, None)]
        messages = []
        for key, user in viewers:
            group = viewer_group(table.pk, key)
            if not has_listeners(layer, group):
                continue
            self.frames[key] = snapshot.frame(user)
            message = {"key": key, "revision": table.revision, "seats": seat_keys, "html": self.frames[key]}
            messages.append((group, {"type": "table.frame", **message}))
        if messages:
            async_to_sync(_send_all)(layer, messages)

    def frame_for(self, user) -> str:
        """The frame this change sent to ``user``'s seat, or one rendered now (nobody of that seat listens)."""
        snapshot = self.snapshot()
        key = viewer_key(snapshot.viewer_of(user))
        if key not in self.frames:
            self.frames[key] = snapshot.frame(user)
        return self.frames[key]


async def _send_all(layer, messages) -> None:
    await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
