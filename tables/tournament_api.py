"""The tournaments' JSON API (issue 33; the README's API section): list, create, read, join, leave, start,
pause. Every call needs a token (CONTRACTS §2). Errors are {"error": ...} with 400/401/403/404/409."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _

from tables import tournament_reads, tournaments
from tables.api import api_view, body_object, error

LIST_LIMIT = 100


@api_view(("GET", "POST"))
def tournament_list(request):
    """GET ?status=open|running|finished&game=SLUG: the newest first. POST: a new tournament -> 201."""
    if request.method == "POST":
        tournament = tournaments.create(request.api_user, body_object(request))
        return JsonResponse(tournament_reads.as_json(tournament, request.api_user), status=201)
    found = tournament_reads.listed(
        request.GET.get("status") or None, request.GET.get("game") or None, request.api_user
    )
    return JsonResponse([tournament_reads.summary_json(t) for t in found[:LIST_LIMIT]], safe=False)


def invite_of(request):
    """The invite a caller presents for a private tournament: ?invite=, or "invite" in the body."""
    invite = request.GET.get("invite")
    if invite is None and isinstance(request.json, dict):
        invite = request.json.get("invite")
    return invite


def shown(request, pk) -> JsonResponse:
    tournament = tournament_reads.get(pk, request.api_user, invite_of(request))
    return JsonResponse(tournament_reads.as_json(tournament, request.api_user))


@api_view(("GET",))
def tournament_detail(request, pk):
    return shown(request, pk)


@api_view(("POST",))
def join(request, pk):
    tournaments.join(pk, request.api_user, invite_of(request))
    return shown(request, pk)


@api_view(("POST",))
def leave(request, pk):
    tournament = tournament_reads.get(pk, request.api_user, invite_of(request))
    tournaments.leave(pk, request.api_user)
    tournament.refresh_from_db()
    return JsonResponse(tournament_reads.as_json(tournament, request.api_user))


@api_view(("POST",))
def start(request, pk):
    tournament = tournament_reads.get(pk, request.api_user, invite_of(request))
    tournaments.start(pk, request.api_user)
    tournament.refresh_from_db()
    return JsonResponse(tournament_reads.as_json(tournament, request.api_user))


@api_view(("POST",))
def pause(request, pk):
    """An arena player pauses ({"paused": true}, the default) or comes back ({"paused": false})."""
    paused = body_object(request).get("paused", True) if request.json else True
    if not isinstance(paused, bool):
        return error(_("paused must be true or false."), 400)
    tournament = tournament_reads.get(pk, request.api_user, invite_of(request))
    tournaments.pause(pk, request.api_user, paused)
    tournament.refresh_from_db()
    return JsonResponse(tournament_reads.as_json(tournament, request.api_user))
