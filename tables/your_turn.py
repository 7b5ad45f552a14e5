"""Reads for the "Your turn" page, its API and the badge: the tables waiting for a person, most urgent first.

Most urgent is the least time left on the clock (a table without a clock comes after every clocked one),
then the longest waiting. A row says what the person needs to decide whether to go there now: the game, the
opponents (bots named as bots), how long the table has waited for them, the clock left and the last move
put into words as their seat may read it (``tables.selectors``: never a hidden card).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Subquery

from rules.core import narrate
from tables.models import Move, Seat, Table
from tables.selectors import bots_only


@dataclass
class Waiting:
    """One table waiting for a person's move."""

    table: Table
    seat: Seat  # the person's own
    seats: list[Seat]  # every seat, in order, with their people
    since: datetime  # when it became their turn (or the table's last move, for a wait older than the record)
    last_move: Move | None  # the last move that stands, if any

    @property
    def opponents(self) -> list[Seat]:
        return [s for s in self.seats if s.index != self.seat.index]

    @property
    def bots_only(self) -> bool:
        return bots_only(self.seats)

    def last_move_lines(self, lang: str) -> list[str]:
        """The last move in words, as this person's seat may read it, in ``lang``."""
        if self.last_move is None:
            return []
        names = [s.display_name for s in self.seats]
        return narrate(self.table.engine, self.last_move.events, names, self.seat.index, lang)

    def json(self) -> dict:
        """A row of ``GET /api/your-turn`` (CONTRACTS §2), with a few keys more."""
        table = self.table
        return {
            "table": table.pk,
            "game": table.game,
            "waiting_since": self.since.isoformat(),
            "deadline": table.deadline.isoformat() if table.deadline else None,
            "opponents": [s.user.username if s.user_id else None for s in self.opponents],
            "seat": self.seat.index,
            "seq": table.seq,
            "url": table.get_absolute_url(),
            "bots_only": self.bots_only,
        }


def urgency(table: Table, since: datetime) -> tuple:
    """The sort key of a waiting table: the least time left first (no clock last), then the longest wait."""
    return (table.deadline is None, table.deadline or since, since)


def waited_since(seat: Seat) -> datetime:
    """When a person's turn at a seat began (the table's last move or start, for a wait older than the
    record)."""
    table = seat.table
    return seat.awaited_since or table.last_move_at or table.started_at or table.created_at


def most_urgent_first(seats) -> list[Seat]:
    """Awaited seats (their tables loaded), most urgent first: the order of the page, the badge, the API and
    the daily digest."""
    return sorted(seats, key=lambda s: urgency(s.table, waited_since(s)))


def awaited_seats(**where):
    """The seats where a person's own move is awaited, in games being played: a seat a bot plays for its
    person (after a timeout, a concession) waits for the bot, not for them. ``where``: more filters."""
    return Seat.objects.filter(awaited=True, bot="", table__status=Table.PLAYING, **where)


def waiting_tables(user) -> list[Waiting]:
    """The tables being played where ``user``'s move is awaited, most urgent first (four queries)."""
    if user is None or not user.is_authenticated:
        return []
    standing = Move.objects.filter(table=OuterRef("table_id"), cancels__isnull=True).exclude(
        Exists(Move.objects.filter(table=OuterRef("table_id"), cancels=OuterRef("seq")))
    )
    mine = list(
        awaited_seats(user=user)
        .select_related("table")
        .annotate(last_move_id=Subquery(standing.order_by("-seq").values("pk")[:1]))
    )
    if not mine:
        return []
    table_ids = [s.table_id for s in mine]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=table_ids).select_related("user").order_by("index"):
        seats.setdefault(seat.table_id, []).append(seat)
    moves = Move.objects.in_bulk([s.last_move_id for s in mine if s.last_move_id])
    rows = [
        Waiting(
            table=s.table,
            seat=s,
            seats=seats[s.table_id],
            since=waited_since(s),
            last_move=moves.get(s.last_move_id),
        )
        for s in most_urgent_first(mine)
    ]
    return rows


def waiting_ids(user, limit: int | None = 20) -> list[int]:
    """The ids of the tables waiting for ``user``, most urgent first (one query: the badge's list)."""
    return waiting_ids_of([user.pk], limit)[user.pk]


def waiting_ids_of(user_ids, limit: int | None = 20) -> dict[int, list[int]]:
    """``waiting_ids`` of each of ``user_ids`` (one query however many they are: the badges of a move)."""
    ids = list(dict.fromkeys(user_ids))
    rows = (
        awaited_seats(user_id__in=ids)
        .select_related("table")
        .only(
            "user_id",
            "awaited_since",
            "table__deadline",
            "table__last_move_at",
            "table__started_at",
            "table__created_at",
            "table__id",
        )
    )
    found: dict[int, list[int]] = {pk: [] for pk in ids}
    for seat in most_urgent_first(rows):
        found[seat.user_id].append(seat.table_id)
    return {pk: tables[:limit] for pk, tables in found.items()}
