"""What a viewer sees of a table: one context, used by the page, the move response and the live frame.

A *viewer* is a seat (its player, in every tab they have open) or the spectators. ``Snapshot`` holds
what every viewer of one moment shares (the table, its seats, the loaded state, the recent moves), read
from the database once; ``Snapshot.frame(viewer)`` renders one viewer's frame from it without another
query. ``tables.live`` renders each viewer's frame once per change and sends it to that viewer's sockets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string

from accounts import decks
from tables import social
from tables.models import Move, Seat, Table, TableEvent
from tables.services import names_of, seat_of

RECENT_MOVES = 12

# Renders per viewer, counted so that tests can prove a move costs one render per viewer, not per socket.
render_count = 0


def recent_moves(table: Table) -> list[Move]:
    """The moves the log shows, oldest first: all of a finished game, the last few of one being played."""
    moves = table.moves.order_by("-seq").defer("move")  # the log shows the narration, not the move
    if table.status != Table.FINISHED:
        moves = moves[:RECENT_MOVES]
    return list(reversed(list(moves)))


@dataclass
class Snapshot:
    """One moment of a table, shared by all its viewers."""

    table: Table
    seats: list[Seat]
    state: Any  # the engine's state (None before the start)
    moves: list[Move] | None = None  # the log's moves; None: read when a frame is first drawn
    events: list[TableEvent] | None = None  # the seat events among them; None: read with the moves
    _logs: dict = field(default_factory=dict)  # rendered logs, by their lines (most viewers share one)

    @classmethod
    def read(cls, table: Table, *, seats: list[Seat] | None = None, state: Any = None) -> Snapshot:
        """Read what is not given: the seats and the state (from the snapshot column); the recent moves
        are read when a frame is first drawn (a change nobody watches costs no query for them)."""
        if seats is None:
            seats = list(table.seats.select_related("user").order_by("index"))
        if state is None and table.state is not None:
            state = table.engine.load(table.state)
        return cls(table=table, seats=seats, state=state)

    def log_moves(self) -> list[Move]:
        if self.moves is None:
            self.moves = recent_moves(self.table)
        return self.moves

    def log_events(self) -> list[TableEvent]:
        if self.events is None:
            moves = self.log_moves()
            self.events = social.events_since(self.table, moves[0].seq if moves else None)
        return self.events

    def viewer_of(self, user) -> int | None:
        return seat_of(self.seats, user)

    def context(self, user) -> dict:
        table, seats, engine = self.table, self.seats, self.table.engine
        viewer = seat_of(seats, user)
        names = names_of(seats)
        signed_in = user is not None and user.is_authenticated
        ctx = {
            "table": table,
            "seats": seats,
            "viewer": viewer,
            "names": names,
            "game": engine,
            "board_template": f"games/{table.game}/board.html",
            "view": None,
            "legal_moves": [],
            "to_act": list(table.to_act or []),
            "my_turn": False,
            "is_creator": signed_in and table.created_by_id == user.pk,
            # Whether this viewer may join: a spectator's frame is shared by every spectator, so there the
            # join area loads per person (``join_area`` view) instead of being decided here.
            "can_join": (
                table.status == Table.OPEN
                and signed_in
                and viewer is None
                and any(not s.taken for s in seats)
            ),
            "signed_in": signed_in,
            "full": all(seat.taken for seat in seats),
            "options_shown": [
                (spec.get("label", name), table.options.get(name))
                for name, spec in engine.options.items()
                if spec["type"] in ("choice", "bool") and name in table.options
            ],
        }
        if ctx["can_join"]:
            ctx["deck_choices"] = decks.deck_choices(user, table.game)
        if self.state is not None:
            ctx["view"] = engine.view(self.state, viewer)
            if table.status == Table.PLAYING and viewer is not None and viewer in ctx["to_act"]:
                ctx["legal_moves"] = engine.legal_moves(self.state, viewer)
                ctx["my_turn"] = True
                # Each legal move with what it would do, where the engine tells it cheaply (Five Crowns' go-out
                # melds). A preview that plays the move on a copy (Chronica's honour) is asked for one move
                # at a time when the player picks it (views.move_preview), not drawn into every frame.
                preview = (
                    None if getattr(engine, "preview_on_demand", False) else getattr(engine, "preview", None)
                )
                ctx["choices"] = [
                    {"move": m, "preview": preview(self.state, viewer, m) if preview else None}
                    for m in ctx["legal_moves"]
                ]
            if table.result:
                ctx["ranking"] = ranking(table, names)
        ctx["log"] = [
            {"seq": m.seq, "seat": m.seat, "name": names[m.seat], "lines": m.lines_for(viewer), "at": m.at}
            for m in self.log_moves()
        ]
        ctx["log"] = social.log_entries(ctx["log"], self.log_moves(), self.log_events(), names)
        target = social.takeback_target(self.log_moves()) if table.status == Table.PLAYING else None
        mine = target is not None and target.seat == viewer and not seats[viewer].is_bot
        ctx["takeback_seq"] = target.seq if mine else None
        return ctx

    def frame(self, user) -> str:
        """One frame of out-of-band swaps for this viewer: status, board and log."""
        global render_count
        render_count += 1
        ctx = self.context(user)
        ctx["oob"] = True
        status = render_to_string("tables/table.html#status", ctx)
        board = render_to_string("tables/table.html#board", ctx)
        return status + board + self._log(ctx)

    def _log(self, ctx: dict) -> str:
        """The log, rendered once for all the viewers who read the same lines (all but a mover, mostly)."""
        key = (ctx["table"].status, tuple((m["seq"], m.get("kind"), tuple(m["lines"])) for m in ctx["log"]))
        if key not in self._logs:
            self._logs[key] = render_to_string("tables/table.html#log", ctx)
        return self._logs[key]


def table_context(table: Table, user, *, seats: list[Seat] | None = None) -> dict:
    """The whole page's context for ``user`` (the page itself; frames use ``Snapshot``)."""
    return Snapshot.read(table, seats=seats).context(user)


def ranking(table: Table, names: list[str]) -> list[dict]:
    """Seats from best to worst, by the result's scores (lowest first where the game counts penalties)."""
    result = table.result or {}
    scores = result.get("scores", [])
    winners = set(result.get("winners", []))
    lowest_wins = getattr(table.engine, "low_score_wins", False)
    order = sorted(
        range(len(scores)), key=lambda s: (s not in winners, scores[s] if lowest_wins else -scores[s])
    )
    return [{"seat": s, "name": names[s], "score": scores[s], "winner": s in winners} for s in order]


def render_frame(table: Table, user) -> str:
    """One viewer's frame of this table as it is in the database."""
    return Snapshot.read(table).frame(user)
