"""One live room per table: what this process keeps of a table being played, under one lock and one rule.

A room holds, for one table, what the process last knew of it at one *moment* (the table's ``revision``,
bumped under the table's lock by every change of its seats, state or status, with its invite token): the
seats with their people, the engine's state, the log's last moves and seat events, and the position and
frame it drew for each viewer. Lichess's round is the model (one in-memory game per table, versioned
events): the revision is the version, and the database is the truth. The one freshness rule: a room is used
only while the table's revision in the database (read by whoever asks: a change under the table's lock, an
API read) is the room's, and the seated people's stamps (``accounts.api_tokens.stamps``: a person saved,
their language or verified address) are those its seats were read under. A room that finds itself behind
reloads: another process's move bumped the revision in the database, and this process reads the table
again on its next use (its seats and state; of its log only the moves made since, the rows it holds kept with
their words: a table whose moves alternate between processes, or whose bots move in the worker, reads one
row a move, not the log). A room only ever moves forward: what a slower reader read at an older revision never
replaces it.

A change takes copies of the room's seats, its state and its log instead of reading them (``for_change``),
and once it commits its publication hands the room what it drew (``advance``): the seats as saved, the state
after, the log extended by the move, each viewer's position and frame. ``GET /api/tables/<id>`` answers from
the room (``position``), and a socket that connects gets its seat's frame from it when the room drew one at
the table's revision (``now``). A frame is kept per viewer key and language (``tables.live``), and only
ever given to the seat it was drawn for (a spectator's frame depends on who reads it: drawn for them). The
frames a room keeps at one revision are what the next change's partial frames are computed from
(``frames_before``: each socket gets only what changed since the frame it holds).

With several processes (PostgreSQL + Redis), a table's moves come through whichever process holds the
mover's socket, and its viewers' sockets may sit in any of them. A change's frames carry the change itself to
the other processes (``change_of``), and the first of their sockets to hear it hands it to their room
(``heard_change``): a room that heard a change made elsewhere is at the table's revision for the next move
made there, which then reads nothing again (a room that missed it reloads, as above). So a room also keeps the last whole frame
its process's sockets *heard* for each viewer (``heard``, from a change made elsewhere): the next change made
here takes it as the frame before (``frames_before``), and a whole frame that comes from a process which had
no frame before for that viewer is made partial here, once for all this process's sockets of that viewer
(``partial_heard``). Either way a socket gets what changed since the frame it holds, whichever process made
the change.

A room learns only what was committed: a change hands it over once its transaction has, and a reader that
reloads a room (``position``, ``now``) is outside any change's transaction (the services commit before the
pages, the API and the sockets read).

A seat's ``chat_muted`` changes without a new revision (a player hides the chat for themselves): the chat
panel is drawn from the seats as they are, never from a room's.

At most ``ROOMS`` rooms are kept per process, the least recently used dropped first.
"""

from __future__ import annotations

import copy
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from accounts import api_tokens
from tables import frame_diff, selectors, social
from tables.models import Seat, Table

ROOMS = 4096


def moment(table: Table) -> tuple[int, str]:
    """What a room is checked against: the table's revision, and its invite token (random, never changed), so
    that a table given an id another had (a rolled-back transaction, as in the tests) never gets its room."""
    return table.revision, table.invite_token


def _newer(at: tuple, than: tuple | None) -> bool:
    return than is None or at[1] != than[1] or at[0] > than[0]


@dataclass
class Heard:
    """The last whole frame this process's sockets got for one viewer (any process may have drawn it)."""

    revision: int
    frame: str
    parsed: Any = None  # (its frame_diff.Parsed, once located)
    sent: str | None = None  # (what this process's sockets were sent for it: ``partial_heard``)

    def located(self):
        if self.parsed is None:
            self.parsed = frame_diff.Parsed.of(self.frame)
        return self.parsed


@dataclass
class Held:
    """What a change gets from a room: copies of the seats (the change may set their ``awaited``), the state
    and the log (None when the room had none at the table's revision: read them), and the seated people's
    stamps the seats were read under."""

    seats: list[Seat]
    people: dict[int, str]
    state: Any = None
    log: tuple | None = None


class Room:
    """One table's live state in this process. Read and change it only under ``lock``."""

    def __init__(self, table_id: int):
        self.table_id = table_id
        self.lock = threading.Lock()
        self.moment: tuple | None = None
        self.people: dict[int, str] = {}  # {seated person's id: their stamp when the seats were read}
        self.seats: list[Seat] | None = None
        self.state: Any = None
        self.log: tuple | None = None  # (moves, seat events) the log shows at the moment, when known
        self.positions: dict[int | None, selectors.Position] = {}
        self.frames: dict[tuple[str, str], str] = {}  # {(viewer key, language): frame}
        self.parsed: dict[
            tuple[str, str], Any
        ] = {}  # {(viewer key, language): the frame's tables.frame_diff.Parsed}
        self.heard: dict[tuple[str, str], Heard] = {}  # {(viewer key, language): what its sockets last got}

    def fresh(self, table: Table) -> bool:
        """Whether the room holds ``table`` as the database has it now (its revision), its people unchanged."""
        if self.seats is None or self.moment != moment(table):
            return False
        return not self.people or api_tokens.stamps(self.people) == self.people

    def _replace(self, at: tuple, seats, people, state, log) -> None:
        if self.moment is not None and self.moment[1] != at[1]:
            self.heard = {}  # (another table under this id: a rolled-back one's frames are not its own)
        self.moment, self.seats, self.people, self.state, self.log = at, seats, people, state, log
        self.positions, self.frames, self.parsed = {}, {}, {}

    def before(self, key: tuple[str, str], revision: int):
        """The frame of ``key`` at ``revision`` that this room holds, located (``frame_diff.Parsed``), or None:
        one it drew (at its moment) or one its sockets heard."""
        if self.moment is not None and self.moment[0] == revision:
            if key in self.parsed:
                return self.parsed[key]
            if key in self.frames:
                self.parsed[key] = frame_diff.Parsed.of(self.frames[key])
                return self.parsed[key]
        kept = self.heard.get(key)
        return kept.located() if kept is not None and kept.revision == revision else None

    def _reload(self, table: Table) -> None:
        """Read the seats (under the stamps of the people seated when last known) and load the state. (Another
        process moved: the frames drawn here stay as heard, the frames before for this process's sockets.)"""
        self._drawn_to_heard(table.invite_token)
        log = self._caught_up_log(table)
        seats, people = _read_seats(self.people, table)
        self._replace(moment(table), seats, people, selectors.load_state(table), log)

    def _take(self, at: tuple, status: str, seats, people, state, log) -> bool:
        """A committed change at the moment ``at`` (``advance``, ``heard_change``): the room holds it unless it
        holds that moment or a later one already (False). A finished game's log is not kept (read whole)."""
        if not _newer(at, self.moment):
            return False
        # (a person whose stamp is not known makes the room reload next time)
        self._replace(at, seats, _people_of(seats, people), state, log if status == Table.PLAYING else None)
        return True

    def _drawn_to_heard(self, token: str) -> None:
        """The frames drawn here at the room's moment kept as heard, as the room moves on to a change made in
        another process: they are the frames before for this process's sockets."""
        if self.moment is not None and self.moment[1] == token:
            for key, frame in self.frames.items():
                kept = self.heard.get(key)
                if kept is None or kept.revision < self.moment[0]:
                    self.heard[key] = Heard(self.moment[0], frame, self.parsed.get(key))

    def _caught_up_log(self, table: Table) -> tuple | None:
        """The log at ``table``'s revision from the one this room holds (an earlier moment of the same game):
        only the moves made since are read, the rows it holds (each put into words once per reader) kept, and
        the seat events since the log's first move read again. None when the room holds no log of this game."""
        if self.log is None or self.moment is None or self.moment[1] != table.invite_token:
            return None
        if table.status != Table.PLAYING or self.moment[0] >= table.revision:
            return None  # (a finished game's log shows every move: read whole; a room never goes back)
        moves, _events = self.log
        last = moves[-1].seq if moves else -1
        newer = list(table.moves.filter(seq__gt=last).order_by("seq").defer("move")[: selectors.RECENT_MOVES])
        if len(newer) == selectors.RECENT_MOVES:
            return None  # (the room is far behind: the whole log is new, read as it is)
        moves = [*moves, *newer][-selectors.RECENT_MOVES :]
        return moves, social.events_since(table, moves[0].seq if moves else None)


_rooms: OrderedDict[int, Room] = OrderedDict()
_rooms_lock = threading.Lock()


# The tables whose home is a socket of this process (``tables.homes``): {table id: that socket's channel}.
# Their socket moves are made here, so a change made here need not carry itself and its whole frames to the
# other processes' rooms (``tables.live``): their sockets only forward what changed.
_homes: dict[int, str] = {}


def home_taken(table_id: int, channel_name: str) -> None:
    _homes[table_id] = channel_name


def home_left(table_id: int, channel_name: str) -> None:
    if _homes.get(table_id) == channel_name:
        del _homes[table_id]


def home_here(table_id: int) -> bool:
    """Whether a socket of this process is the table's home (``tables.homes``)."""
    return table_id in _homes


def room(table_id: int) -> Room:
    """The table's room in this process (a new, empty one if there is none); the most recently used."""
    with _rooms_lock:
        found = _rooms.get(table_id)
        if found is None:
            found = _rooms[table_id] = Room(table_id)
            while len(_rooms) > ROOMS:
                _rooms.popitem(last=False)
        else:
            _rooms.move_to_end(table_id)
        return found


def forget(table_id: int) -> None:
    with _rooms_lock:
        _rooms.pop(table_id, None)


def read_seats(table: Table) -> tuple[list[Seat], dict[int, str]]:
    """The table's seats read now, and the stamps of their people (read before them, as the room knew them)."""
    here = room(table.pk)
    with here.lock:
        known = dict(here.people)
    return _read_seats(known, table)


def for_change(table: Table) -> Held:
    """For a change of ``table``, locked in the database: the room's seats (copies), state and log, the room
    brought up to the table's revision first when it is behind (another process changed the table: its log
    catches up with the moves made since); the seats read now when the room cannot be (it is ahead of what
    the caller read: a rolled-back table's id), with no state nor log (the change loads and reads them)."""
    here = room(table.pk)
    with here.lock:
        if _caught_up(here, table):
            return Held([copy.copy(s) for s in here.seats], dict(here.people), here.state, here.log)
    return Held(*read_seats(table))


def advance(
    table: Table, *, seats, people, state, log=None, positions=None, frames=None, parsed=None
) -> None:
    """What a committed change (at ``table``'s revision) drew: the room takes it unless it already holds a
    later moment; at its own moment it adds the positions and frames drawn."""
    at = moment(table)
    here = room(table.pk)
    with here.lock:
        if not here._take(at, table.status, seats, people, state, log) and at != here.moment:
            return  # (a later change is already here)
        if here.log is None and log is not None and table.status == Table.PLAYING:
            here.log = log
        here.positions.update(positions or {})
        here.frames.update(frames or {})
        here.parsed.update(parsed or {})


def change_of(table: Table, *, seats, people, state, log=None) -> bytes:
    """What a committed change at ``table``'s revision hands the rooms of the other processes, beside its frames
    through the channel layer (``tables.live``): what ``advance`` takes here (the moment and status, the seats
    as saved with their people's stamps, the state after, the log), pickled once for all its messages (the
    layer is Redis, as trusted as the cache, which pickles too). It holds every hand: a socket never sends it
    on, it gives it to its process's room (``heard_change``)."""
    return pickle.dumps((moment(table), table.status, seats, people, state, log), pickle.HIGHEST_PROTOCOL)


def heard_change(table_id: int, revision: int, change: bytes) -> None:
    """A change made in another process at ``revision`` (``change_of``), heard by a socket of this one: the
    table's room here takes it, as ``advance`` does in the process that made it, unless it holds that moment or
    a later one already. So the next change made here finds the room at the table's revision instead of reading
    the seats and the log again: moves alternating between processes (a table's sockets spread over two
    daphnes, bots moving in the worker) read what a move through one process reads. The frames drawn here
    before stay as heard, the frames before for this process's sockets."""
    here = room(table_id)
    with here.lock:
        if here.moment is not None and here.moment[0] >= revision:
            return  # (this process made it, or a socket here heard it first, or a later change is here)
    at, status, seats, people, state, log = pickle.loads(change)
    with here.lock:
        if _newer(at, here.moment):
            here._drawn_to_heard(at[1])
            here._take(at, status, seats, people, state, log)


def keep_frame(table: Table, key: tuple[str, str], frame: str) -> None:
    """A frame drawn outside a change (a socket connecting) for the seat ``key`` names, at ``table``'s
    revision: kept when the room is at that revision, so that the next change's frame for it is partial."""
    here = room(table.pk)
    with here.lock:
        if here.moment == moment(table) and key not in here.frames:
            here.frames[key] = frame


def frames_before(table: Table) -> dict:
    """The frames the room holds at the revision before ``table``'s (the one a change at ``table``'s revision
    follows), located for a partial frame (``tables.frame_diff.Parsed``), by (viewer key, language): those it
    drew, when it is at that revision, and those its sockets heard from a change made in another process.
    A viewer it holds none for gets a whole frame, which a process whose room holds the one before makes
    partial for its own sockets (``partial_heard``)."""
    here = room(table.pk)
    revision = table.revision - 1
    with here.lock:
        if here.moment is not None and here.moment[1] != table.invite_token:
            return {}
        drew = here.moment == (revision, table.invite_token)
        keys = [
            *(here.frames if drew else ()),
            *(k for k, kept in here.heard.items() if kept.revision == revision),
        ]
        return {key: here.before(key, revision) for key in keys}


def heard(table_id: int, key: tuple[str, str], revision: int, frame: str) -> None:
    """A whole frame this process's sockets of ``key`` (viewer key, language) got with a change made at
    ``revision`` by another process: kept as the frame before for the next change made here."""
    here = room(table_id)
    with here.lock:
        kept = here.heard.get(key)
        if kept is None or kept.revision < revision:
            here.heard[key] = Heard(revision, frame)


def partial_heard(table_id: int, key: tuple[str, str], revision: int, frame: str) -> str:
    """What to send a socket of ``key`` that shows the table at ``revision - 1`` and got ``frame`` whole at
    ``revision`` (drawn by a process that held no frame before for that viewer): the partial frame from the one
    this room holds at ``revision - 1``, worked out once for all this process's sockets of that viewer; the
    whole frame when the room holds none. ``frame`` is kept as heard."""
    here = room(table_id)
    with here.lock:
        kept = here.heard.get(key)
        if kept is not None and kept.revision == revision and kept.sent is not None and kept.frame == frame:
            return kept.sent  # (another socket of this viewer here got it first)
        was = here.before(key, revision - 1)
    parsed = frame_diff.Parsed.of(frame, like=was)
    part = frame_diff.partial(was, parsed) if was is not None else frame
    with here.lock:
        kept = here.heard.get(key)
        if kept is None or kept.revision <= revision:
            here.heard[key] = Heard(revision, frame, parsed, part)
    return part


def position(table: Table, viewer_of) -> tuple[list[Seat], selectors.Position]:
    """The seats of ``table`` (read them only) and the position of the viewer ``viewer_of(seats)`` names,
    from the room: drawn already, or drawn now and kept. A room behind the table reloads first."""
    here = room(table.pk)
    with here.lock:
        if not _caught_up(here, table):
            seats = selectors.read_seats(table)
            return seats, selectors.position(table, viewer_of(seats), seats=seats)
        viewer = viewer_of(here.seats)
        if viewer not in here.positions:
            here.positions[viewer] = selectors.position(table, viewer, here.state, here.seats)
        return here.seats, here.positions[viewer]


def now(table: Table, key_of) -> tuple[list[Seat], Any, str | None]:
    """The seats and state of ``table`` at its revision (read them only), from the room (a room behind the
    table reloads first), and the frame the room drew for the viewer ``key_of(seats)`` names at that
    revision, in a language, if it drew one (``key_of`` gives (viewer key, language), or None: no frame)."""
    here = room(table.pk)
    with here.lock:
        if not _caught_up(here, table):
            return selectors.read_seats(table), selectors.load_state(table), None
        key = key_of(here.seats)
        return here.seats, here.state, here.frames.get(key) if key is not None else None


def _caught_up(here: Room, table: Table) -> bool:
    """Make the room hold ``table`` as read (reloading it when behind); False when the room is ahead of
    ``table`` (a change committed since the caller read its row: the caller reads the database)."""
    if here.fresh(table):
        return True
    if here.moment not in (None, moment(table)) and not _newer(moment(table), here.moment):
        return False
    here._reload(table)
    return True


def _read_seats(known: dict[int, str], table: Table) -> tuple[list[Seat], dict[int, str]]:
    """The table's seats, and their people's stamps read before them: those of the people ``known`` (seated
    when the room last read the seats); when others sit there now, their stamps are read and the seats read
    once more (a cold room, a seat taken). A person whose stamp was still not read first gets none (the room
    reads the seats again on its next use)."""
    people = _stamps_before(known)
    seats = selectors.read_seats(table)
    seated = {s.user_id for s in seats if s.user_id}
    if not seated <= people.keys():
        people = api_tokens.stamps(seated)
        seats = selectors.read_seats(table)
    return seats, _people_of(seats, people)


def _stamps_before(people: dict[int, str]) -> dict[int, str]:
    """The current stamps of the people a room last seated, read before their seats are read again."""
    return api_tokens.stamps(people) if people else {}


def _people_of(seats: list[Seat], stamps: dict[int, str]) -> dict[int, str]:
    """{seated person: their stamp read before the seats}; a person newly seated, whose stamp was not read
    before, gets none (the room reads the seats again next time)."""
    return {s.user_id: stamps.get(s.user_id, "") for s in seats if s.user_id}
