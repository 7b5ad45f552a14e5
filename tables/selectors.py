"""Reads: what one viewer sees of a table, the move log in words, the seats and their languages.

``services`` changes tables; everything here only reads. ``position`` is the one place that loads a
state's view for a viewer and lists its legal moves when it is awaited: the page, the htmx answer, the
live frame (through ``tables.rendering.Snapshot``), the API and the bot worker all go through it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils import timezone

from rules import registry
from rules.core import move_as_seen, narrate
from tables import ratings
from tables.models import Challenge, Move, Seat, Table

RECENT_MOVES = 12  # the log of a game being played shows its last moves; a finished game's shows all


def games_list():
    """Every game of the club, by title (as the lobby and the leaderboards list them)."""
    return sorted(registry.games().values(), key=lambda g: g.title)


def languages() -> list[str]:
    """The site's languages (``settings.LANGUAGES``), in order."""
    return [code for code, _ in settings.LANGUAGES]


def read_seats(table: Table) -> list[Seat]:
    """The table's seats in order, with their people, the languages they chose and their verified addresses
    (no query per seat later)."""
    return list(
        Seat.objects.filter(table=table)
        .select_related("user", "user__verified_email", "user__preference")
        .order_by("index")
    )


def seat_of(seats: list[Seat], user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.index
    return None


def bots_only(seats: list[Seat]) -> bool:
    """A table of one person and bots (a "Play now" table, or one opened with bots in every other seat):
    nobody else is kept waiting by it, so its person may walk away from it, and the worker closes it idle."""
    people = [s for s in seats if s.user_id]
    return len(people) == 1 and all(s.bot and not s.user_id for s in seats if s is not people[0])


def names_of(seats: list[Seat]) -> list[str]:
    return [seat.display_name for seat in seats]


def load_state(table: Table) -> Any:
    """The engine's state from the table's snapshot column; None before the start."""
    return None if table.state is None else table.engine.load(table.state)


@dataclass
class Position:
    """What one viewer (a seat, or None for the spectators) sees of a table's game now."""

    view: dict | None  # the engine's view for this viewer; None before the start
    to_act: list[int] = field(default_factory=list)  # the seats awaited
    legal_moves: list[dict] = field(default_factory=list)  # this viewer's, when its move is awaited
    awaited: bool = False  # the game is being played and this viewer's move is awaited


def position(
    table: Table, viewer: int | None, state: Any = None, seats: list[Seat] | None = None
) -> Position:
    """``viewer``'s position at ``table``, from ``state`` when the caller has it loaded (else the snapshot).
    With the table's ``seats``, it is a person's: a seat a bot plays for them is not awaited (its moves are
    the bot's); without, the seat's own (what the bot decides from)."""
    if state is None:
        state = load_state(table)
    if state is None:
        return Position(view=None)
    engine = table.engine
    to_act = list(table.to_act or [])
    awaited = table.status == Table.PLAYING and viewer is not None and viewer in to_act
    awaited = awaited and not (seats is not None and seats[viewer].is_bot)
    return Position(
        view=engine.view(state, viewer),
        to_act=to_act,
        legal_moves=engine.legal_moves(state, viewer) if awaited else [],
        awaited=awaited,
    )


def log_moves(table: Table) -> list[Move]:
    """The moves the log shows, oldest first: all of a finished game, the last few of one being played."""
    moves = table.moves.order_by("-seq").defer("move")  # the log shows the events, not the move
    if table.status != Table.FINISHED:
        moves = moves[:RECENT_MOVES]
    return list(reversed(list(moves)))


def moves_as_seen(table: Table, moves: list[Move], reader: int | None) -> list[dict]:
    """Each move of ``moves`` as ``reader`` (a seat, None: anyone else) may read it: a field private to
    its mover (``Game.private_move_fields``) is left out until the game is over (CONTRACTS §2's move list)."""
    engine, over = table.engine, table.status == Table.FINISHED
    return [
        move_as_seen(engine, m.move, m.seat, reader, over) if m.cancels is None else m.move for m in moves
    ]


def log_entries(engine, moves: list[Move], names: list[str], viewer: int | None, lang: str) -> list[dict]:
    """The log's moves put into words for ``viewer`` in ``lang``: the events it may read, nothing else."""
    return [
        {
            "seq": m.seq,
            "key": f"m{m.seq}",
            "seat": m.seat,
            "name": names[m.seat],
            "lines": _narrated(engine, m, names, viewer, lang),
            "at": m.at,
        }
        for m in moves
    ]


def _narrated(engine, move: Move, names: list[str], viewer: int | None, lang: str) -> list[str]:
    """A move's lines for ``viewer``, put into words once per row (a kept log's rows serve move after move:
    ``tables.rendering.log_after``) and per reader, names and language: only what ``narrate`` reads."""
    kept = move.__dict__.setdefault("_narrated", {})
    key = (tuple(names), viewer, lang)
    if key not in kept:
        kept[key] = narrate(engine, move.events, names, viewer, lang)
    return kept[key]


def shows_the_start(table: Table, moves: list[Move]) -> bool:
    """Whether a log of ``moves`` reaches back to the deal (its first move, or no move yet, of a started game)."""
    return table.seed is not None and (not moves or moves[0].seq == 0)


def setup_events(table: Table) -> list:
    """What happened at the deal, before any move (``Game.setup_events``), dealt again from the seed (once
    per process and deal: every frame of a game's first moves shows it). Read it, never change it."""
    options = json.dumps(table.options, sort_keys=True)
    return _dealt(table.game, table.players, table.seed, options)


@lru_cache(maxsize=1024)
def _dealt(game: str, players: int, seed: int, options: str) -> list:
    engine = registry.get(game)
    return engine.setup_events(engine.setup(players=players, seed=seed, options=json.loads(options)))


def ranking(table: Table, names: list[str]) -> list[dict]:
    """Seats from best to worst, by their places (``ratings.ranks``: the winners, then by score, lowest first
    where the game counts penalties), in seat order within a tie."""
    result = table.result
    scores, winners = result["scores"], set(result["winners"])
    places = ratings.ranks(table)
    order = sorted(range(len(scores)), key=lambda s: (places[s], s))
    return [{"seat": s, "name": names[s], "score": scores[s], "winner": s in winners} for s in order]


def final_result(table: Table, seats: list[Seat]) -> dict | None:
    """How a finished game ended, for the result panel and the API's ``result``: the engine's result (scores,
    winners) with each seat's placing (ties share one: ``ratings.ranks``), its person and, on a rated table,
    each rated person's rating before and after on both scales. None until the game is finished."""
    if table.status != Table.FINISHED or not table.result:
        return None
    result = table.result
    places = ratings.ranks(table)
    changes = ratings.table_changes(table)
    placings = sorted(
        (
            {
                "seat": s.index,
                "place": places[s.index] + 1,
                "user": s.user.username if s.user_id else None,
                "bot": s.bot or None,
                "score": result["scores"][s.index],
                "winner": s.index in result.get("winners", []),
            }
            for s in seats
        ),
        key=lambda p: (p["place"], p["seat"]),
    )
    rated = [
        {"seat": s.index, "user": s.user.username, **changes[s.user_id]}
        for s in seats
        if s.user_id and s.user_id in changes
    ]
    return {**result, "placings": placings, "ratings": rated, "rated": table.rated}


def challenges_received(user):
    """Challenges waiting for ``user``'s answer, newest first."""
    return (
        Challenge.objects.filter(challenged=user, status=Challenge.PENDING, expires_at__gt=timezone.now())
        .select_related("challenger")
        .order_by("-created_at", "-pk")
    )


def challenges_received_counts(user_ids) -> dict[int, int]:
    """{person: how many challenges wait for their answer} (``challenges_received``) for each of ``user_ids``,
    in one query (a person with none is left out)."""
    from django.db.models import Count

    rows = (
        Challenge.objects.filter(
            challenged_id__in=list(user_ids), status=Challenge.PENDING, expires_at__gt=timezone.now()
        )
        .order_by()
        .values("challenged_id")
        .annotate(n=Count("pk"))
    )
    return {row["challenged_id"]: row["n"] for row in rows}
