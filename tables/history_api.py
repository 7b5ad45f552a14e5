"""The API's look back at finished games (CONTRACTS §2): history with filters, export, and replay checks."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import JsonResponse

from tables import history
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
        return error("No such table.", 404)
    if not finished:
        return error("Only a finished game can be exported.", 409)
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
