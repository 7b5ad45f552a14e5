"""Finished games: who may see which, the history's filters, exports and step-by-step replays.

A replay is rebuilt from the table's seed and its move log through the rules (``setup`` then ``apply`` of
each move); the stored snapshot is never read for it. The seed leaves the server only in the export of a
finished game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from itertools import islice
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from accounts.preferences import in_words
from rules import registry
from tables import ratings, selectors, social
from tables.access import may_watch
from tables.models import Move, Rating, RatingChange, Seat, Standing, Table

HISTORY_RESULTS = ("won", "lost", "shared")


def visible_tables(viewer) -> QuerySet[Table]:
    """The finished tables ``viewer`` may look back at: every listed one, and the private ones they played."""
    return Table.objects.filter(visible(viewer))


def visible(viewer, through: str = "") -> Q:
    """``visible_tables`` as a condition, for rows that reach the table ``through`` a relation ("table__"):
    the one place that decides who sees which finished game."""
    finished = Q(**{f"{through}status": Table.FINISHED})
    if viewer is None or not viewer.is_authenticated:
        return finished & Q(**{f"{through}private": False})
    own = Seat.objects.filter(user=viewer).values("table_id")
    return finished & (Q(**{f"{through}private": False}) | Q(**{f"{through}pk__in": own}))


def look_back(pk, viewer) -> tuple[Table | None, bool]:
    """The table ``viewer`` asks to look back at and whether it is finished; None if it is not theirs to see
    (no such table, or a private one they did not play)."""
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        return None, False
    if table.status == Table.FINISHED:
        return (table, True) if visible_tables(viewer).filter(pk=pk).exists() else (None, False)
    if not may_watch(table, viewer):  # the one rule of who sees a table being played
        return None, False
    return table, False


# --- History filters ---------------------------------------------------------------------------


class FilterError(ValueError):
    """A filter the history cannot apply (an unknown game or result, a malformed date)."""


@dataclass
class HistoryFilters:
    game: str = ""
    opponent: str = ""
    result: str = ""
    rated: bool | None = None
    since: date | None = None
    until: date | None = None
    tournament: int | None = None

    @classmethod
    def from_query(cls, params) -> HistoryFilters:
        """Read the filters from a query string; raise FilterError with a clear message for a bad one."""
        game = (params.get("game") or "").strip()
        if game and game not in registry.games():
            raise FilterError(gettext("No game is called %(game)r.") % {"game": game})
        result = (params.get("result") or "").strip()
        if result and result not in HISTORY_RESULTS:
            raise FilterError(gettext("result is one of won, lost, shared."))
        rated = (params.get("rated") or "").strip()
        if rated not in ("", "yes", "no"):
            raise FilterError(gettext("rated is yes or no."))
        tournament = (params.get("tournament") or "").strip()
        if tournament and not (tournament.isdigit() and len(tournament) < 12):
            raise FilterError(gettext("tournament is a tournament's number."))
        return cls(
            tournament=int(tournament) if tournament else None,
            game=game,
            opponent=(params.get("opponent") or "").strip()[:150],
            result=result,
            rated={"yes": True, "no": False}.get(rated),
            since=_date(params, "from"),
            until=_date(params, "to"),
        )

    @property
    def active(self) -> bool:
        return bool(
            self.game
            or self.opponent
            or self.result
            or self.rated is not None
            or self.since
            or self.until
            or self.tournament
        )

    def query(self) -> dict[str, str]:
        """The filters as query parameters (for links that keep them)."""
        out = {"game": self.game, "opponent": self.opponent, "result": self.result}
        out["rated"] = "" if self.rated is None else ("yes" if self.rated else "no")
        out["from"] = self.since.isoformat() if self.since else ""
        out["to"] = self.until.isoformat() if self.until else ""
        out["tournament"] = str(self.tournament) if self.tournament else ""
        return {k: v for k, v in out.items() if v}


def _date(params, name: str) -> date | None:
    raw = (params.get(name) or "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise FilterError(gettext("%(name)s is a date written YYYY-MM-DD.") % {"name": name}) from None


def outcome(winners: list[int], index: int) -> str:
    """How a finished game ended for seat ``index``: won alone, shared the win, or lost."""
    if index not in winners:
        return Standing.LOST
    return Standing.SHARED if len(winners) > 1 else Standing.WON


def record_finished(table: Table, seats: list[Seat]) -> None:
    """When a game finishes (inside its transaction): each person's standing, then the ratings."""
    winners = table.result.get("winners", [])
    Standing.objects.bulk_create(
        [
            Standing(
                table=table,
                user_id=s.user_id,
                game=table.game,
                outcome=outcome(winners, s.index),
                finished_at=table.finished_at,
            )
            for s in seats
            if s.user_id
        ]
    )
    ratings.record(table, seats)


def player_history(user, viewer, filters: HistoryFilters) -> QuerySet[Table]:
    """``user``'s finished games that ``viewer`` may see, filtered, newest first."""
    tables = visible_tables(viewer).filter(pk__in=Seat.objects.filter(user=user).values("table_id"))
    if filters.game:
        tables = tables.filter(game=filters.game)
    if filters.opponent:
        named = get_user_model().objects.filter(username__iexact=filters.opponent).exclude(pk=user.pk)
        rivals = Seat.objects.filter(user_id__in=named.values("pk"))
        tables = tables.filter(pk__in=rivals.values("table_id"))
    if filters.tournament:
        tables = tables.filter(tournament_id=filters.tournament)
    if filters.rated is not None:
        tables = tables.filter(rated=filters.rated)
    if filters.since:
        tables = tables.filter(finished_at__date__gte=filters.since)
    if filters.until:
        tables = tables.filter(finished_at__date__lte=filters.until)
    if filters.result:
        ended = Standing.objects.filter(user=user, outcome=filters.result)
        tables = tables.filter(pk__in=ended.values("table_id"))
    return tables.order_by("-finished_at", "-pk")


def history_rows(tables, user, rating_changes: dict | None = None) -> list[dict]:
    """One row per table (seats already prefetched): opponents, the outcome for ``user`` and their place among
    how many players (ties share a place: ``ratings.ranks``), the score and, from ``rating_changes`` ({table id:
    ratings.changed(...)}), the rated game's change of rating."""
    rows = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.index)
        me = next((s.index for s in seats if s.user_id == user.pk), None)
        result = table.result or {"scores": [], "winners": []}
        winners = result.get("winners", [])
        counted = me is not None and me < len(result["scores"])
        rows.append(
            {
                "table": table,
                "seats": seats,
                "opponents": [s for s in seats if s.index != me],
                "won": me in winners,
                "shared": me in winners and len(winners) > 1,
                "place": ratings.ranks(table)[me] + 1 if counted else None,
                "players": len(result["scores"]),
                "score": result["scores"][me] if counted else None,
                "rating": (rating_changes or {}).get(table.pk),
            }
        )
    return rows


def history_json(table: Table) -> dict:
    """A table as ``GET /api/history`` lists it (CONTRACTS §2); its seats prefetched."""
    seats = sorted(table.seats.all(), key=lambda s: s.index)
    return {
        "id": table.pk,
        "game": table.game,
        "players": [s.user.username if s.user_id else None for s in seats],
        "scores": table.result["scores"],
        "winners": table.result["winners"],
        "finished_at": table.finished_at.isoformat(),
    }


# --- Export and check ---------------------------------------------------------------------------


def engine_result(table: Table) -> dict:
    """The result as the rules give it (the table's own result also records the replaced seats)."""
    return {k: v for k, v in (table.result or {}).items() if k != "replaced"}


def export(table: Table) -> dict:
    """A finished game as a file anyone can replay (CONTRACTS §2). Only ever called for a finished table."""
    if table.status != Table.FINISHED:
        raise ValueError("Only a finished game can be exported.")
    seats = sorted(table.seats.all(), key=lambda s: s.index)
    return {
        "game": table.game,
        "options": table.options,
        "players": [s.user.username if s.user_id else None for s in seats],
        "seed": table.seed,
        "moves": [
            {"seq": m.seq, "seat": m.seat, "move": m.move}
            for m in social.effective(list(table.moves.order_by("seq")))
        ],
        "result": engine_result(table),
    }


@dataclass
class Check:
    reproduces: bool
    message: str
    result: Any = None


class BadExport(ValueError):
    """The file is not an export at all (a missing or mistyped field)."""


def check_export(data: Any) -> Check:
    """Replay an exported game through the rules and say whether it gives the recorded result.

    Raises BadExport when ``data`` does not have the export's shape; a move the rules refuse or a different
    result is an answer (``reproduces`` false), not an error."""
    if not isinstance(data, dict):
        raise BadExport(gettext("The export is a JSON object."))
    for name, kind in (
        ("game", str),
        ("options", dict),
        ("players", list),
        ("moves", list),
        ("result", dict),
    ):
        if not isinstance(data.get(name), kind):
            raise BadExport(gettext("The export has no valid %(name)r.") % {"name": name})
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadExport(gettext("The export's seed is a whole number."))
    try:
        engine = registry.get(data["game"])
    except KeyError:
        raise BadExport(gettext("No game is called %(game)r.") % {"game": data["game"]}) from None
    for i, m in enumerate(data["moves"]):
        if not (isinstance(m, dict) and isinstance(m.get("move"), dict)):
            raise BadExport(gettext("Move %(number)d is not an object with a 'move'.") % {"number": i})
        if not isinstance(m.get("seat"), int) or isinstance(m.get("seat"), bool):
            raise BadExport(gettext("Move %(number)d has no seat number.") % {"number": i})
    try:
        state = engine.setup(players=len(data["players"]), seed=seed, options=data["options"])
    except ValueError as exc:
        return Check(False, gettext("The rules refuse this setup: %(reason)s") % {"reason": in_words(exc)})
    for i, m in enumerate(data["moves"]):
        try:
            state = engine.apply(state, m["seat"], m["move"])
        except Exception as exc:  # an illegal or garbled move, whatever the engine raises for it
            reason = in_words(exc)
            return Check(
                False,
                gettext("Move %(number)d (seat %(seat)s) is refused by the rules: %(reason)s")
                % {"number": i, "seat": m["seat"], "reason": reason},
            )
    if not engine.is_over(state):
        return Check(
            False, gettext("After its %(count)d moves the game is not over.") % {"count": len(data["moves"])}
        )
    result = json.loads(json.dumps(engine.result(state)))
    if result != data["result"]:
        return Check(False, gettext("The moves give a different result."), result)
    return Check(
        True,
        gettext("The %(count)d moves reproduce the recorded result.") % {"count": len(data["moves"])},
        result,
    )


# --- Replays -----------------------------------------------------------------------------------


@dataclass
class Replay:
    """A finished table rebuilt from its seed and move log, ready to show any step."""

    table: Table
    seats: list[Seat]
    moves: list[Move]

    @classmethod
    def of(cls, table: Table) -> Replay:
        seats = list(table.seats.select_related("user").order_by("index"))
        return cls(table=table, seats=seats, moves=list(table.moves.order_by("seq")))

    @property
    def last(self) -> int:
        return len(self.moves)

    def state_at(self, step: int):
        """The state after the first ``step`` moves, from the seed (never from the stored snapshot)."""
        return next(islice(self.states(), step, None))

    def states(self):
        """Every step's state in turn, from the start to the end."""
        engine = self.table.engine
        state = engine.setup(players=self.table.players, seed=self.table.seed, options=self.table.options)
        yield state
        before: list = []  # the states the moves that stand were played from (a take-back returns to one)
        for move in self.moves:
            if move.cancels is not None:
                state = before.pop()
            else:
                before.append(state)
                state = engine.apply(state, move.seat, move.move)
            yield state


# --- Players -----------------------------------------------------------------------------------


def record_by_game(user, viewer) -> dict[str, dict]:
    """Per game: how many finished games ``user`` played and won (alone or shared), of those ``viewer`` sees."""
    standings = Standing.objects.filter(visible(viewer, through="table__"), user=user)
    rows = (
        standings.order_by()
        .values("game")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(outcome__in=[Standing.WON, Standing.SHARED])))
    )
    return {r["game"]: {"played": r["played"], "won": r["won"]} for r in rows}


def record_against(me, other) -> dict:
    """``me``'s record in the finished games they played with ``other``: played, won, shared, lost."""
    together = Seat.objects.filter(user=other).values("table_id")
    counts = Standing.objects.filter(user=me, table_id__in=together).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(outcome=Standing.WON)),
        shared=Count("pk", filter=Q(outcome=Standing.SHARED)),
        lost=Count("pk", filter=Q(outcome=Standing.LOST)),
    )
    return counts


def player_record(user, viewer) -> list[dict]:
    """Per game (every game of the club): played, won, current rating, provisional mark and chart."""
    played = record_by_game(user, viewer)
    current = {r.game: r for r in Rating.objects.filter(user=user)}
    changes: dict[str, list] = {}
    for change in RatingChange.objects.filter(user=user).order_by("at", "id"):
        changes.setdefault(change.game, []).append(change)
    return [
        {
            "game": g,
            "played": played.get(g.slug, {}).get("played", 0),
            "won": played.get(g.slug, {}).get("won", 0),
            "rating": ratings.shown(current.get(g.slug)),
            "display_rating": ratings.display_of(current.get(g.slug)),
            "provisional": ratings.provisional(current.get(g.slug)),
            "chart": ratings.chart(changes.get(g.slug, [])[-ratings.CHART_POINTS :]),
        }
        for g in selectors.games_list()
    ]
