"""The API's look back at finished games (CONTRACTS §2): history with filters, export, and replay checks."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import JsonResponse
from django.utils.translation import gettext as _

from accounts import presence
from accounts.limits import parse_id
from rules import registry
from tables import club, history, ratings
from tables.api import api_view, error

HISTORY_LIMIT = 200


@api_view(("GET",))
def history_list(request):
    """``?user=USERNAME&game=SLUG`` plus the page's filters (opponent, result, from, to): newest first."""
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
    rows = ratings.leaderboard(slug, page)
    return JsonResponse(
        {
            "game": slug,
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
