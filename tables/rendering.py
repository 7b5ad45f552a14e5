"""What a viewer sees of a table, drawn: one context, used by the page, the move response and the live frame.

A *viewer* is a seat (its player, in every tab they have open) or the spectators, and reads the table in
one language. ``Snapshot`` holds what every viewer of one moment shares (the table, its seats, the loaded
state, the log's moves), read from the database once; ``Snapshot.frame(user, lang)`` renders one viewer's
frame in ``lang`` from it without another query. ``tables.live`` renders each (viewer, language) frame
once per change and sends it to the sockets of that viewer in that language. What a viewer's position is
(its view, its legal moves) and the log in words come from ``tables.selectors``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from accounts import decks
from accounts.preferences import is_bot_account
from rules.core import narrate
from tables import games, parts, selectors, social
from tables.models import Move, Seat, Table, TableEvent

_OWN_CHAIR: Any = object()  # ``Snapshot.context``'s default viewer: the user's own seat, if any

# Renders per viewer, counted so that tests can prove a move costs one render per viewer, not per socket.
render_count = 0


@dataclass
class Snapshot:
    """One moment of a table, shared by all its viewers."""

    table: Table
    seats: list[Seat]
    state: Any  # the engine's state (None before the start)
    moves: list[Move] | None = None  # the log's moves; None: read when a frame is first drawn
    events: list[TableEvent] | None = None  # the seat events among them; None: read with the moves
    _setup_events: list | None = None  # what the deal did, when the log reaches back to it
    _logs: dict = field(default_factory=dict)  # rendered logs, by language and lines (most viewers share one)
    memo: bool = True  # draw the frames' {% shared %} parts once per process for what they read
    _positions: dict = field(default_factory=dict)  # {viewer: selectors.Position}, each computed once
    _result: dict | None = None  # a finished game's result with placings and rating changes, read once
    _common: dict | None = None  # what every viewer's context holds alike (``common``), drawn up once

    @classmethod
    def read(
        cls,
        table: Table,
        *,
        seats: list[Seat] | None = None,
        state: Any = None,
        log: tuple | None = None,
    ) -> Snapshot:
        """Read what is not given: the seats and the state (from the snapshot column); the log's moves and
        events (``log``) are read when a frame is first drawn (a change nobody watches costs no query)."""
        if seats is None:
            seats = selectors.read_seats(table)
        if state is None:
            state = selectors.load_state(table)
        moves, events = log or (None, None)
        return cls(table=table, seats=seats, state=state, moves=moves, events=events)

    def log_moves(self) -> list[Move]:
        if self.moves is None:
            self.moves = selectors.log_moves(self.table)
        return self.moves

    def log(self) -> tuple | None:
        """The log's (moves, seat events) when a frame drawn has read them, else None (nothing was read)."""
        return (self.moves, self.events) if self.events is not None else None

    def log_events(self) -> list[TableEvent]:
        if self.events is None:
            moves = self.log_moves()
            self.events = social.events_since(self.table, moves[0].seq if moves else None)
        return self.events

    def start_events(self) -> list:
        """The deal's events when the log shows the start of the game (dealt once per snapshot), else []."""
        if self._setup_events is None:
            show = selectors.shows_the_start(self.table, self.log_moves())
            self._setup_events = selectors.setup_events(self.table) if show else []
        return self._setup_events

    def viewer_of(self, user) -> int | None:
        return selectors.seat_of(self.seats, user)

    def position(self, viewer: int | None) -> selectors.Position:
        if viewer not in self._positions:
            self._positions[viewer] = selectors.position(self.table, viewer, self.state, self.seats)
        return self._positions[viewer]

    def positions_drawn(self) -> dict:
        """{viewer: position} computed for this snapshot's frames."""
        return dict(self._positions)

    def final_result(self) -> dict | None:
        """``selectors.final_result`` of this moment, read once (None until the game is finished)."""
        if self._result is None:
            self._result = selectors.final_result(self.table, self.seats) or {}
        return self._result or None

    def common(self) -> dict:
        """The part of every viewer's context that does not depend on the viewer or the language: the seats'
        names and chips, the table's options (drawn up once for the frames of a change, not once a viewer)."""
        if self._common is None:
            table, seats = self.table, self.seats
            names = selectors.names_of(seats)
            self._common = {
                "table": table,
                "seats": seats,
                "names": names,
                "game": table.engine,
                "board_template": games.plugin(table.game).board,
                # The seats as plain values, for the parts a frame keeps ({% shared %}: tables.parts).
                "chips": [
                    {
                        "index": s.index,
                        "name": names[s.index],
                        "taken": s.taken,
                        "user": s.user.username if s.user_id else None,
                        "bot_account": bool(s.user_id) and is_bot_account(s.user),
                    }
                    for s in seats
                ],
                "bots_only": selectors.bots_only(seats),
                "full": all(seat.taken for seat in seats),
                "empty_seats": sum(not seat.taken for seat in seats),
                "options_shown": [
                    (spec.get("label", name), table.options.get(name))
                    for name, spec in table.engine.options.items()
                    # A choice shows its value; a bool shows only when on (the defaults are off).
                    if (
                        spec["type"] == "choice"
                        or (spec["type"] == "bool" and table.options.get(name) is True)
                    )
                    and name in table.options
                ],
            }
        return self._common

    def context(self, user, lang: str, *, viewer: int | None = _OWN_CHAIR) -> dict:
        """The template context for ``user`` reading in ``lang``; ``viewer`` (a seat or None) sees the table
        from another chair than ``user``'s own (a replay)."""
        table, seats, engine = self.table, self.seats, self.table.engine
        if viewer is _OWN_CHAIR:
            viewer = selectors.seat_of(seats, user)
        common = self.common()
        names = common["names"]
        signed_in = user is not None and user.is_authenticated
        position = self.position(viewer)
        ctx = {
            **common,
            "viewer": viewer,
            "lang": lang,
            "view": position.view,
            "legal_moves": position.legal_moves,
            "to_act": position.to_act,
            "my_turn": position.awaited,
            "is_creator": signed_in and table.created_by_id == user.pk,
            # Whether this viewer may join: a spectator's frame is shared by every spectator, so there the
            # join area loads per person (``join_area`` view) instead of being decided here.
            "can_join": (
                table.status == Table.OPEN
                and signed_in
                and viewer is None
                and any(not s.taken for s in seats)
            ),
            "my_seat": None
            if viewer is None
            else {k: getattr(seats[viewer], k) for k in ("replaced", "conceded", "is_bot")},
            "signed_in": signed_in,
        }
        if ctx["can_join"]:
            ctx["deck_choices"] = decks.deck_choices(user, table.game)
        if position.awaited:
            # Each legal move with what it would do, where the engine tells it cheaply (Five Crowns' go-out
            # melds). A preview that plays the move on a copy (Chronica's honour) is asked for one move at a
            # time when the player picks it (views.move_preview), not drawn into every frame.
            cheap = not engine.preview_on_demand
            ctx["choices"] = [
                {"move": m, "preview": engine.preview(self.state, viewer, m) if cheap else None}
                for m in position.legal_moves
            ]
        if self.state is not None and table.result:
            ctx["ranking"] = selectors.ranking(table, names)
        if table.status == Table.FINISHED:
            ctx["result_panel"] = self.result_panel(viewer, names, lang)
        ctx["log"] = selectors.log_entries(engine, self.log_moves(), names, viewer, lang)
        ctx["log"] = social.interleave(ctx["log"], self.log_moves(), self.log_events(), names)
        target = social.takeback_target(self.log_moves()) if table.status == Table.PLAYING else None
        mine = target is not None and target.seat == viewer and not seats[viewer].is_bot
        ctx["takeback_seq"] = target.seq if mine else None
        # (the log's first line: what the deal showed, drawn like any line, {% log_line %})
        ctx["log_start"] = {
            "key": "start",
            "kind": "start",
            "lines": narrate(engine, self.start_events(), names, viewer, lang),
        }
        return ctx

    def result_panel(self, viewer: int | None, names: list[str], lang: str) -> dict | None:
        """The result panel of a finished game for ``viewer``: placings, scores in the game's own unit, rating
        changes (read once per snapshot: every viewer's frame shares them)."""
        if self._result is None:
            self._result = selectors.final_result(self.table, self.seats) or {}
        result = self._result
        if not result:
            return None
        by_seat = {r["seat"]: r for r in result["ratings"]}
        engine = self.table.engine
        rows = [{**p, "name": names[p["seat"]], "rating": by_seat.get(p["seat"])} for p in result["placings"]]
        winners = result.get("winners", [])
        return {
            "rows": rows,
            "rated": bool(result["ratings"]),
            "score_name": engine.score_name.get(lang) or engine.score_name.get("en", ""),
            "lowest_wins": engine.low_score_wins,
            "won": viewer is not None and viewer in winners and len(winners) == 1,
            "shared": viewer is not None and viewer in winners and len(winners) > 1,
            "lost": viewer is not None and viewer not in winners,
        }

    def frame(self, user, lang: str) -> str:
        """One frame of out-of-band swaps for this viewer, in ``lang``: status, board and log."""
        global render_count
        render_count += 1
        with translation.override(lang):
            ctx = self.context(user, lang)
            ctx["oob"] = True
            ctx[parts.SHARED_PARTS] = parts.frame_head() if self.memo else None
            status = render_to_string("tables/table.html#status", ctx)
            board = render_to_string("tables/table.html#board", ctx)
            return status + board + self._log(ctx)

    def _log(self, ctx: dict) -> str:
        """The log, rendered once for all the viewers who read the same lines (all but a mover, mostly)."""
        lines = tuple((m["seq"], m.get("kind"), tuple(m["lines"])) for m in ctx["log"])
        key = (ctx["lang"], ctx["table"].status, tuple(ctx["log_start"]["lines"]), lines)
        if key not in self._logs:
            self._logs[key] = render_to_string("tables/table.html#log", ctx)
        return self._logs[key]


def extended_log(table: Table, before: tuple | None, move: Move) -> tuple | None:
    """The log once ``move`` (just saved, under the table's lock) is added to ``before``, the log one revision
    earlier (the table's room: ``tables.rooms``). None when there is no ``before``, or when the game is over
    (a finished game's log shows every move: it is read then)."""
    if before is None or table.status != Table.PLAYING:
        return None
    move.events = json.loads(json.dumps(move.events))  # as it reads back from its JSON column
    moves = [*before[0], move][-selectors.RECENT_MOVES :]
    events = [e for e in before[1] if e.position >= moves[0].seq]
    return moves, events


def table_context(table: Table, user, *, seats: list[Seat] | None = None) -> dict:
    """The whole page's context for ``user``, in the request's language (frames use ``Snapshot``)."""
    return Snapshot.read(table, seats=seats).context(user, translation.get_language())


def render_frame(table: Table, user, lang: str | None = None) -> str:
    """One viewer's frame of this table as it is in the database (in ``lang``; default: the active one)."""
    return Snapshot.read(table).frame(user, lang or translation.get_language())
