"""The API of the club (CONTRACTS §2): presence on a player, following, blocking, challenges, the tables
in play to watch, and leaving with your data.

- ``POST`` / ``DELETE /api/players/<username>/follow`` -> 204; ``GET /api/following`` -> ``[{"username","online"}]``
- ``POST`` / ``DELETE /api/players/<username>/block`` -> 204
- ``POST /api/challenges`` ``{"username","game","players"?,"options"?,"move_time"?,"rated"?,"others"?,
  "expires_in"?}`` -> 201 ``{"id"}``; ``GET /api/challenges`` -> ``{"received": [...], "sent": [...]}``;
  ``POST /api/challenges/<id>/accept`` -> 200 the table as ``GET /api/tables/<id>`` shows it;
  ``POST /api/challenges/<id>/decline`` -> 204; ``POST /api/challenges/<id>/cancel`` (the challenger) -> 204
- ``GET /api/live?game=SLUG&sort=rating`` -> ``[{"id","game","players": [{"username","rating"}],"spectators",
  "move","round"}]``
- ``GET /api/account/export`` -> the account's data (a download); ``POST /api/account/delete`` ``{"password"}`` -> 204

A refusal that must not say why (no such person, a block, a person who takes no challenge from the caller)
is 404 or 403 with ``{"error": "This is not possible."}``, and changes nothing.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from accounts import presence
from accounts.limits import parse_id
from tables import challenges, club, leaving
from tables.api import api_view, body_object, error, table_json
from tables.models import Table


def no_content() -> HttpResponse:
    return HttpResponse(status=204)


@api_view(("POST", "DELETE"))
def follow(request, username):
    if request.method == "POST":
        club.follow(request.api_user, username)
    else:
        club.unfollow(request.api_user, username)
    return no_content()


@api_view(("POST", "DELETE"))
def block(request, username):
    if request.method == "POST":
        club.block(request.api_user, username)
    else:
        club.unblock(request.api_user, username)
    return no_content()


@api_view(("GET",))
def following(request):
    people = club.following(request.api_user)
    present = presence.of_many(people)
    return JsonResponse(
        [{"username": p.username, "online": present[p.pk].online} for p in people], safe=False
    )


@api_view(("GET", "POST"))
def challenge_list(request):
    if request.method == "POST":
        data = body_object(request)
        challenge = challenges.create(
            request.api_user,
            data.get("username"),
            data.get("game"),
            players=data.get("players"),
            options=data.get("options"),
            move_time=data.get("move_time"),
            rated=data.get("rated", True),
            others=data.get("others", "casual"),
            expires_in=data.get("expires_in"),
        )
        return JsonResponse({"id": challenge.pk}, status=201)
    user = request.api_user
    return JsonResponse(
        {
            "received": [challenges.challenge_json(c) for c in challenges.received(user)],
            "sent": [challenges.challenge_json(c) for c in challenges.sent(user)],
        }
    )


def _challenge_id(raw) -> int | None:
    return parse_id(str(raw))


@api_view(("POST",))
def challenge_accept(request, pk):
    table = challenges.accept(_challenge_id(pk), request.api_user)
    table = Table.objects.get(pk=table.pk)
    return JsonResponse(table_json(table, request.api_user))


@api_view(("POST",))
def challenge_decline(request, pk):
    challenges.decline(_challenge_id(pk), request.api_user)
    return no_content()


@api_view(("POST",))
def challenge_cancel(request, pk):
    challenges.cancel(_challenge_id(pk), request.api_user)
    return no_content()


@api_view(("GET",))
def live(request):
    game = request.GET.get("game") or None
    if game is not None and club.known_game(game) is None:
        return error(_("No such game."), 404)
    sort = request.GET.get("sort") or "recent"
    if sort not in club.SORTS:
        return error(_("sort is one of %(sorts)s.") % {"sorts": ", ".join(club.SORTS)}, 400)
    return JsonResponse(club.live_json(club.live_tables(game, sort)), safe=False)


@api_view(("GET",))
def account_export(request):
    return leaving.account_file(request.api_user)


@api_view(("POST",))
def account_delete(request):
    leaving.delete_account(request.api_user, body_object(request).get("password"))
    return no_content()
