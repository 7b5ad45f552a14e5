"""The API's look back at finished games (CONTRACTS §2): history with filters, export, and replay checks.

``GET /api/v2/history`` pages through a player's whole history with a cursor: ``{"games": [...], "next"}``,
where ``next`` is the opaque cursor to pass as ``?after=`` for the following page (null on the last one).
``GET /api/history`` (a bare list, at most 200 rows) is deprecated and stays until its removal is announced.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import JsonResponse
from django.utils.translation import gettext as _

from accounts import presence
from accounts.limits import parse_id
from rules import registry
from tables import club, history, ratings
from tables.api import api_view, error

HISTORY_LIMIT = 200
PAGE_SIZE = 50  # rows of a /api/v2/history page unless ?limit= asks for 1..PAGE_LIMIT
PAGE_LIMIT = 200


@api_view(("GET",))
def history_list(request):
    """``?user=USERNAME&game=SLUG`` plus the page's filters (opponent, result, from, to): newest first, at most
    HISTORY_LIMIT rows. Deprecated: ``/api/v2/history`` pages through all of them."""
    username = request.GET.get("user") or request.api_user.username
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return JsonResponse([], safe=False)
    try:
        filters = history.HistoryFilters.from_query(request.GET)
    except history.FilterError as exc:
        return error(str(exc), 400)
    tables = history.player_history(user, request.api_user, filters).prefetch_related("seats__user")
    return JsonResponse([history.history_json(t) for t in tables[:HISTORY_LIMIT]], safe=False)


class BadCursor(ValueError):
    pass


def encode_cursor(table) -> str:
    """Where a page stopped: the last row's (finished time, id), the keys the history is ordered by."""
    raw = f"{table.finished_at.isoformat()}|{table.pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        moment, _bar, pk = raw.partition("|")
        finished = datetime.fromisoformat(moment)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise BadCursor from None
    table_id = parse_id(pk)
    if finished.tzinfo is None or table_id is None:
        raise BadCursor
    return finished, table_id


@api_view(("GET",))
def history_pages(request):
    """``/api/v2/history``: the filters of ``/api/history`` plus ``?after=CURSOR`` and ``?limit=N``, newest
    first, ordered by (finished time, id) so that ties never repeat or skip a row between pages."""
    limit = parse_id(request.GET.get("limit") or str(PAGE_SIZE))
    if limit is None or not 1 <= limit <= PAGE_LIMIT:
        return error(_("limit is a whole number from 1 to %(most)d.") % {"most": PAGE_LIMIT}, 400)
    after = request.GET.get("after")
    try:
        filters = history.HistoryFilters.from_query(request.GET)
        position = decode_cursor(after) if after else None
    except history.FilterError as exc:
        return error(str(exc), 400)
    except BadCursor:
        return error(_("after is not a cursor this API gave: start again without it."), 400)
    username = request.GET.get("user") or request.api_user.username
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return JsonResponse({"games": [], "next": None})
    tables = history.player_history(user, request.api_user, filters)
    if position is not None:
        finished, pk = position
        tables = tables.filter(Q(finished_at__lt=finished) | Q(finished_at=finished, pk__lt=pk))
    page = list(tables.prefetch_related("seats__user")[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return JsonResponse(
        {
            "games": [history.history_json(t) for t in page],
            "next": encode_cursor(page[-1]) if more else None,
        }
    )


@api_view(("GET",))
def export(request, pk):
    table, finished = history.look_back(pk, request.api_user)
    if table is None:
        return error(_("No such table."), 404)
    if not finished:
        return error(_("Only a finished game can be exported."), 409)
    return JsonResponse(history.export(table))


@api_view(("POST",))
def check(request):
    """Replay an export (the body) through the rules: ``{"reproduces", "message", "result"}``."""
    try:
        outcome = history.check_export(request.json)
    except history.BadExport as exc:
        return error(str(exc), 400)
    return JsonResponse(
        {"reproduces": outcome.reproduces, "message": outcome.message, "result": outcome.result}
    )


@api_view(("GET",))
def leaderboard(request, slug):
    if slug not in registry.games():
        return error(_("No such game."), 404)
    page = parse_id(request.GET.get("page") or "1")  # (ASCII digits only: "²".isdigit() is True)
    if page is None:
        return error(_("page is a whole number from 1."), 400)
    bots = request.GET.get("bots") or "0"
    if bots not in ("0", "1"):
        return error(_("bots is 0 (people) or 1 (bot accounts)."), 400)
    rows = ratings.leaderboard(slug, page, bots == "1")
    return JsonResponse(
        {
            "game": slug,
            "bots": bots == "1",
            "players": [
                {k: r[k] for k in ("rank", "username", "rating", "display_rating", "provisional", "games")}
                for r in rows
            ],
        }
    )


@api_view(("GET",))
def player(request, username):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return error(_("No such player."), 404)
    games = {
        row["game"].slug: {k: row[k] for k in ("played", "won", "rating", "display_rating", "provisional")}
        for row in history.player_record(user, request.api_user)
    }
    return JsonResponse(
        {
            "username": user.username,
            "games": games,
            "online": presence.of(user).online,
            "playing": club.public_tables_of([user.pk])[user.pk],
            "followed": club.follows(request.api_user, user),
        }
    )
