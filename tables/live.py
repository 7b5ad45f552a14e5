"""Live frames: after a change commits, each viewer's frame is rendered once per language and sent ready-made.

A table's sockets are grouped by viewer and language: ``table-<id>-s<i>-<lang>`` holds every socket of seat
i's player reading in ``lang`` (three tabs are one viewer), ``table-<id>-watch-<lang>`` every spectator
reading in ``lang``. A socket's language is the one its person chose on their account, else its browser's
(``tables.consumers.socket_language``, as LocaleMiddleware decides a page's). After a change commits, the
process that made it renders one frame per (viewer, language) that has a socket and sends it to that group;
the sockets only forward it, without touching the database. With ``settings.PARTIAL_FRAMES`` (the default),
after a socket's first frame, what is sent is the partial frame from that viewer's frame at the revision
before (``tables.frame_diff``, from the frames the table's room kept), marked with that ``base`` revision: a
socket that holds it forwards it, any other reads the table anew and sends a full frame. Across processes
(Redis) the message carries the whole frame too (``full``): a process keeps it as the frame before for the
next change it makes, and a viewer whose frame before the sending process did not hold gets the whole frame,
which the receiving process makes partial from its own room (``rooms.partial_heard``); and it carries the
change itself (``change``: the seats, state and log after it, ``rooms.change_of``), which the receiving
process's room takes (``rooms.heard_change``), so that the next move made there reads nothing again; a socket
never sends it on. A change made at the table's home (``tables.homes``: the process whose socket the others'
hand their moves to) carries neither: the other processes' sockets only forward what changed. A frame carries the
table's ``revision`` (bumped by every change, under the table's lock), so a socket never replaces a newer
frame with an older one, and the seat of every player, so a socket whose person took or left a seat re-keys
itself.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from accounts.preferences import chosen_language
from tables import frame_diff, loops, rooms, selectors
from tables.models import Table
from tables.stream_presence import open_among, open_scopes, sockets, table_scope
from tables.stream_presence import streams as stream_counts

logger = logging.getLogger(__name__)

WATCH = "watch"


def viewer_key(seat: int | None) -> str:
    return WATCH if seat is None else f"s{seat}"


def table_group(table_id: int, *parts: str) -> str:
    """The name of a channel group of one table (the one place that builds them): ``table-<id>-<parts>``."""
    return "-".join((f"table-{table_id}", *parts))


def key_of(user_id: int | None, seats: dict[str, str]) -> str:
    """A socket's viewer key, from the frame's {user id: key} map of seated players."""
    if user_id is None:
        return WATCH
    return seats.get(str(user_id), WATCH)


def frame_languages(user) -> list[str]:
    """The languages a viewer's sockets may read in: a seated person's chosen one, else any of the site's."""
    chosen = chosen_language(user)
    return [chosen] if chosen else selectors.languages()


def has_listeners(layer, group: str) -> bool:
    """Whether any socket is in ``group``. Known exactly in one process's in-memory layer. On Redis a socket
    may sit in another process: the groups the pages' sockets join (a table viewer's frames, a person's
    badge) are counted in the cache (``tables.stream_presence.sockets``); any other group is taken as
    listened to."""
    return group in listened(layer, [group])


def between_processes(layer) -> bool:
    """Whether ``layer`` carries messages between processes (Redis), where other processes' sockets and rooms
    may hear a change; not the in-memory layer of one process."""
    return not isinstance(layer, InMemoryChannelLayer)


def listened(layer, groups, streams=()) -> set[str]:
    """Those of ``groups`` with a socket in them (see ``has_listeners``), and those of ``streams`` (scopes of
    the API's streams, ``tables.stream_presence.streams``) that may have a stream open: in one read of the
    cache at most."""
    heard, streaming = listened_apart(layer, groups, streams)
    return heard | streaming


def listened_apart(layer, groups, streams=()) -> tuple[set[str], set[str]]:
    """``listened``'s two answers apart, (groups heard, streams open): a person's badge group and their event
    streams' scope are both named ``user-<id>``."""
    if isinstance(layer, InMemoryChannelLayer):  # (the streams' own groups say it: tables.streams)
        return {group for group in groups if layer.groups.get(group)}, set(streams)
    from django.core.cache import cache

    if getattr(cache, "degraded", False):  # (Redis out of reach: the counts are this process's own)
        return set(groups), set(streams)
    counted = [group for group in groups if socket_counted(group)]
    heard, streaming = open_among((sockets, counted), (stream_counts, streams))
    return heard | (set(groups) - set(counted)), streaming


def socket_counted(group: str) -> bool:
    """Whether the sockets in ``group`` count themselves in the cache: a table viewer's frames in a language
    (``table-<id>-<viewer>-<lang>``) or a person's badge (``user-<id>``), not the API's streams (``-api``)."""
    head, _, tail = group.rpartition("-")
    if head == "user":
        return tail.isdigit()
    return head.startswith("table-") and tail in selectors.languages()


@dataclass
class Also:
    """What else a change sends with its frames, in their batch, once it has committed (a badge whose turn
    changed, an event to the API's streams): the groups of sockets and the stream scopes that tell whether
    anybody listens (read with the frames' in one read of the cache), and ``messages``, which gives the
    (group, message) pairs to send from the groups heard and the streams open (``listened_apart``)."""

    groups: list[str]
    streams: list[str]
    messages: Callable[[set[str], set[str]], list[tuple[str, dict]]]  # (groups heard, streams open) -> sends


@dataclass
class Publication:
    """The frames of one committed change, and what else it sends with them (``also``). ``run`` is called
    once the transaction has committed."""

    table: Any  # tables.models.Table, as saved by the change
    seats: list | None = None  # the seats as saved (None: read them again after commit)
    people: dict | None = None  # {seated person: their stamp} those seats were read under (tables.rooms)
    state: Any = None  # the engine's state after the change, if at hand (saves loading the snapshot)
    log: tuple | None = None  # the log's (moves, events) after the change, if at hand (saves reading them)
    frames: dict[tuple[str, str], str] = field(default_factory=dict)  # (viewer key, language) -> the frame
    parsed: dict[tuple[str, str], Any] = field(default_factory=dict)  # the frames sent, located (frame_diff)
    also: list[Also] = field(default_factory=list)
    _snapshot: Any = None

    def snapshot(self):
        from tables.rendering import Snapshot

        if self._snapshot is None:
            if self.seats is None:
                self.seats, self.people = rooms.read_seats(self.table)
            self._snapshot = Snapshot.read(self.table, seats=self.seats, state=self.state, log=self.log)
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
        wanted = [(key, user, lang) for key, user in viewers for lang in frame_languages(user)]
        scope = table_scope(table.pk)  # (its API streams, counted with the sockets: one cache read)
        groups = [table_group(table.pk, key, lang) for key, _user, lang in wanted]
        streams = [scope]
        for more in self.also:
            groups += more.groups
            streams += more.streams
        heard, streaming = listened_apart(layer, groups, streams)
        # (each viewer's frame at the revision before, when frames are partial: settings.PARTIAL_FRAMES)
        before = rooms.frames_before(table) if settings.PARTIAL_FRAMES else None
        # (other processes' sockets may listen: they keep each whole frame for the change they make next, and
        # their rooms take the change itself instead of reading the table again, rooms.heard_change; but not
        # from a table's home, whose changes they only forward, as they hand it their moves: tables.homes)
        crossing = between_processes(layer) and not rooms.home_here(table.pk)
        elsewhere = before is not None and crossing
        people = self.people or {}
        change = None  # (pickled once, after the first frame drawn: its log is read by then)
        shared: dict = {}  # (what the partial frames found, for the other viewers: tables.frame_diff.partial)
        for key, user, lang in wanted:
            group = table_group(table.pk, key, lang)
            if group in heard:
                html = self.frames[key, lang] = snapshot.frame(user, lang)
                message = {"key": key, "revision": table.revision, "seats": seat_keys, "html": html}
                if before is not None:
                    was = before.get((key, lang))
                    parsed = self.parsed[key, lang] = frame_diff.Parsed.of(html, like=was)
                    part = frame_diff.partial(was, parsed, shared) if was is not None else html
                    if part is not html:
                        # Only what changed since the frame at the revision before: for a socket that holds it.
                        message.update(html=part, base=table.revision - 1)
                        if elsewhere:
                            message["full"] = html
                    elif was is not None:
                        message["whole"] = True  # (compared: what changed is no smaller than the frame)
                if crossing:
                    change = change or rooms.change_of(
                        table, seats=snapshot.seats, people=people, state=snapshot.state, log=snapshot.log()
                    )
                    message["change"] = change
                messages.append((group, {"type": "table.frame", **message}))
        messages += stream_messages(layer, table, snapshot, viewers, seat_keys, streaming=scope in streaming)
        for more in self.also:
            try:
                messages += more.messages(heard, streaming)
            except Exception:  # (as when each was sent on its own: the frames go whatever befalls a badge)
                logger.exception("A change's message beside its frames failed (table %s)", table.pk)
        if messages:
            send(layer, messages)
        # The table's room takes what this change drew, for the table's next move and readers.
        log = snapshot.log()
        rooms.advance(
            table,
            seats=snapshot.seats,
            people=people,
            state=snapshot.state,
            log=log,
            positions=snapshot.positions_drawn(),
            frames=dict(self.frames),
            parsed=dict(self.parsed),
        )

    def frame_for(self, user, lang: str) -> str:
        """The frame this change sent to ``user``'s seat in ``lang``, or one rendered now (nobody listens there)."""
        snapshot = self.snapshot()
        key = viewer_key(snapshot.viewer_of(user)), lang
        if key not in self.frames:
            self.frames[key] = snapshot.frame(user, lang)
        return self.frames[key]


STREAM = "api"  # the groups of the API's table streams (tables.streams): table-<id>-<viewer key>-api


def stream_messages(layer, table, snapshot, viewers, seat_keys, streaming=None) -> list[tuple[str, dict]]:
    """A change's lines for the API's table streams, one message per viewer with a stream open: its
    ``state`` (and ``finish`` once the game is over), read from what the change's snapshot holds and
    encoded once as NDJSON (``text``), which every stream of that viewer sends as it is."""
    if streaming is None:  # (else the caller read it with the frames' counts)
        streaming = isinstance(layer, InMemoryChannelLayer) or bool(open_scopes([table_scope(table.pk)]))
    if not streaming:
        return []  # (no stream open for this table in any process: one cache read, no work)
    out = []
    for key, _user in viewers:
        group = table_group(table.pk, key, STREAM)
        if not has_listeners(layer, group):
            continue
        position = snapshot.position(None if key == WATCH else int(key[1:]))
        lines = [{"type": "state", **stream_state(table, snapshot.seats, position)}]
        over = table.status in (Table.FINISHED, Table.ABORTED)
        if over:
            lines.append({"type": "finish", "result": snapshot.final_result()})
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)  # (encoded once)
        message = {"revision": table.revision, "seats": seat_keys, "text": text, "over": over}
        out.append((group, {"type": "table.stream", **message}))
    return out


def stream_state(table, seats, position) -> dict:
    """What a table stream's ``full`` and ``state`` lines hold (CONTRACTS §2), for one viewer's position."""
    return {
        "seq": table.seq,
        "status": table.status,
        "seats": [
            {"seat": s.index, "user": s.user.username if s.user_id else None, "bot": s.bot or None}
            for s in seats
        ],
        "view": position.view,
        "legal_moves": position.legal_moves,
        "to_act": position.to_act,
    }


def send(layer, messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) from the event loop the thread works for (``tables.loops``)."""
    loops.send(layer, messages)
