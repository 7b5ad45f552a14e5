"""The JSON API of CONTRACTS §2, for bots and scripts. Token-authenticated; errors are {"error": ...}."""

from __future__ import annotations

import json
from functools import wraps

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts import api_tokens
from accounts.limits import CONTROL_CHARACTERS_MESSAGE, LimitReached, has_control_characters
from accounts.models import ApiToken
from accounts.throttle import LoginThrottle, hashes_passwords
from rules import registry
from tables import access, rooms, selectors, services, social
from tables.errors import json_error
from tables.models import Table


def error(message: str, status: int) -> JsonResponse:
    return json_error(message, status)


def api_view(methods: tuple[str, ...], auth: bool = True):
    """JSON in and out, bearer-token authentication, and every client error as {"error"}."""

    def decorator(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                return error(_("Use %(methods)s.") % {"methods": " / ".join(methods)}, 405)
            request.api_user = None
            if auth:
                request.api_user = token_user(request)
                if request.api_user is None:
                    return error(_("A valid token is required: Authorization: Bearer <token>."), 401)
            if any("\x00" in value for values in request.GET.lists() for value in values[1]):
                return error(_("A query parameter holds a NUL character."), 400)
            body = {}
            try:
                raw = request.body if request.method == "POST" else b""
            except RequestDataTooBig:
                return error(_("The body is too large."), 413)
            if raw:
                try:
                    body = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    return error(_("The body is not valid JSON."), 400)
                except RecursionError:
                    return error(_("The body is nested too deeply."), 400)
            request.json = body
            try:
                return view(request, *args, **kwargs)
            except services.TableError as exc:
                return error(exc.message, exc.status)

        return wrapper

    return decorator


def token_user(request):
    header = request.headers.get("Authorization", "")
    kind, _, raw = header.partition(" ")
    if kind.lower() != "bearer" or not raw.strip():
        return None
    return api_tokens.user_for(raw.strip())


def printable_text(text: str) -> bool:
    """No NUL (databases refuse it) and no lone surrogate (it cannot be encoded)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def body_object(request) -> dict:
    if not isinstance(request.json, dict):
        raise services.BadRequest(_("The body must be a JSON object."))
    return request.json


@hashes_passwords
@api_view(("POST",), auth=False)
def token(request):
    from django.contrib.auth import authenticate

    data = body_object(request)
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return error(_("Give a username and a password."), 400)
    name = data.get("name")  # given: this token replaces the account's token of that name
    if name is not None and (
        not isinstance(name, str) or not name.strip() or len(name) > 60 or not printable_text(name)
    ):
        return error(_("name is a text of 1 to 60 characters."), 400)
    if name is not None and has_control_characters(name):
        return error(CONTROL_CHARACTERS_MESSAGE, 400)
    if has_control_characters(username + password):
        return error(CONTROL_CHARACTERS_MESSAGE, 400)
    if not printable_text(username) or not printable_text(password):
        return error(_("Wrong username or password."), 400)
    throttle = LoginThrottle(username, request)
    if not throttle.attempt():
        response = error(_("Too many failed attempts. Try again later."), 429)
        response["Retry-After"] = str(throttle.retry_after)
        return response
    user = authenticate(request, username=username, password=password)
    if user is None:
        return error(_("Wrong username or password."), 400)
    throttle.succeeded()
    try:
        _issued, raw = ApiToken.issue(user, name=name.strip() if name else "API", replace=name is not None)
    except LimitReached as exc:
        return error(exc.message, 429)
    return JsonResponse({"token": raw}, status=201)


@api_view(("GET",), auth=False)
def games(request):
    return JsonResponse(
        [
            {
                "slug": g.slug,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "options": g.options,
            }
            for g in sorted(registry.games().values(), key=lambda g: g.slug)
        ],
        safe=False,
    )


def table_json(table: Table, user) -> dict:
    # (the seats and position from the table's room: drawn by its last change's frames, or drawn now)
    seats, position = rooms.position(table, lambda seats: selectors.seat_of(seats, user))
    data = {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "players": table.players,
        "options": public_options(table),
        "seats": [
            {"seat": s.index, "user": s.user.username if s.user_id else None, "bot": s.bot or None}
            for s in seats
        ],
        "move_time": table.move_time,
        "spectator_chat": table.spectator_chat,
        "tournament": table.tournament_id,  # the tournament the table belongs to, or null
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "seq": table.seq,
        "to_act": position.to_act,
        "view": position.view,
        "legal_moves": position.legal_moves,
    }
    # null until the game is finished; then the engine's result (scores, winners) with placings and, on a
    # rated table, each rated person's rating before and after (OpenSkill ordinal and displayed)
    data["result"] = selectors.final_result(table, seats)
    if table.private:  # whoever may see a private table may share it
        data["invite"] = table.invite_token
    return data


def public_options(table: Table) -> dict:
    """The table's options without what belongs to one seat (such as the Chronica decks)."""
    return {k: v for k, v in table.options.items() if k != "decks"}


def invite_of(request):
    """The invite token the caller presents for a private table: ?invite=, or "invite" in a join body."""
    invite = request.GET.get("invite")
    if invite is None and isinstance(request.json, dict):
        invite = request.json.get("invite")
    return invite


def _table_or_404(request, pk) -> Table:
    return access.table_for(pk, request.api_user, invite_of(request))


def _hidden(request, pk):
    """Refusals about a private table the caller may not see become 404 (see access.hidden_unless_visible)."""
    return access.hidden_unless_visible(pk, request.api_user, invite_of(request))


@api_view(("POST",))
def tables(request):
    data = body_object(request)
    game = data.get("game")
    if not isinstance(game, str):
        return error(_("Name the game."), 400)
    rated = data.get("rated", True)
    if not isinstance(rated, bool):
        return error(_("rated must be true or false."), 400)
    spectator_chat = data.get("spectator_chat", False)
    if not isinstance(spectator_chat, bool):
        return error(_("spectator_chat must be true or false."), 400)
    table = services.create_table(
        request.api_user,
        game,
        data.get("players"),
        data.get("options") or {},
        private=bool(data.get("private", False)),
        bots=data.get("bots"),
        move_time=data.get("move_time"),
        rated=rated,
        spectator_chat=spectator_chat,
    )
    table = services.start_if_full(table, request.api_user)
    return JsonResponse(table_json(table, request.api_user), status=201)


@api_view(("GET",))
def table_detail(request, pk):
    return JsonResponse(table_json(_table_or_404(request, pk), request.api_user))


@api_view(("POST",))
def join(request, pk):
    data = body_object(request)
    deck = data.get("deck")
    if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
        return error(_("deck must be a list of card codes."), 400)
    seat = services.join_table(pk, request.api_user, deck=deck, invite=invite_of(request))
    return JsonResponse({"seat": seat})


@api_view(("POST",))
def start(request, pk):
    with _hidden(request, pk):
        table = services.start_table(pk, request.api_user)
    return JsonResponse(table_json(table, request.api_user))


@api_view(("POST",))
def concede(request, pk):
    with _hidden(request, pk):
        services.concede(pk, request.api_user)
    return JsonResponse(table_json(_table_or_404(request, pk), request.api_user))


@api_view(("POST",))
def reclaim(request, pk):
    with _hidden(request, pk):
        services.reclaim_seat(pk, request.api_user)
    return JsonResponse(table_json(_table_or_404(request, pk), request.api_user))


@api_view(("POST",))
def abort(request, pk):
    with _hidden(request, pk):
        services.vote_abort(pk, request.api_user)
    return JsonResponse(table_json(_table_or_404(request, pk), request.api_user))


@api_view(("GET", "POST"))
def moves(request, pk):
    if request.method == "POST":
        data = body_object(request)
        with _hidden(request, pk):
            result = services.play_move(pk, request.api_user, data.get("move"), data.get("seq"))
        return JsonResponse({"seq": result.seq})
    table = _table_or_404(request, pk)
    rows = list(table.moves.order_by("seq"))
    cancelled = social.cancelled_seqs(rows)
    reader = selectors.seat_of(selectors.read_seats(table), request.api_user)
    shown = selectors.moves_as_seen(table, rows, reader)
    return JsonResponse(
        [
            {
                "seq": m.seq,
                "seat": m.seat,
                "move": move,
                "at": m.at.isoformat(),
                **({"taken_back": True} if m.seq in cancelled else {}),
            }
            for m, move in zip(rows, shown, strict=True)
        ],
        safe=False,
    )


@api_view(("POST",))
def takeback(request, pk):
    """Take back the caller's latest move of this turn: {"seq": n} -> {"seq"} (409 when there is none)."""
    data = body_object(request)
    with _hidden(request, pk):
        result = services.take_back(pk, request.api_user, data.get("seq"))
    return JsonResponse({"seq": result.seq})


@api_view(("GET", "POST"))
def chat(request, pk):
    """The table's chat, oldest first; POST {"text"} (or {"phrase"}: a quick phrase's key) says something."""
    if request.method == "POST":
        data = body_object(request)
        phrase = data.get("phrase")
        if phrase is not None and not isinstance(phrase, str):
            return error(
                _("phrase is one of %(phrases)s.") % {"phrases": ", ".join(social.QUICK_PHRASES)}, 400
            )
        message = services.post_chat(
            pk, request.api_user, text=data.get("text"), phrase=phrase, invite=invite_of(request)
        )
        return JsonResponse(social.chat_json(message), status=201)
    table = _table_or_404(request, pk)
    messages = social.chat_for(table, request.api_user)
    return JsonResponse([social.chat_json(m) for m in messages], safe=False)


@api_view(("POST",))
def invite(request, pk):
    """Invite a person by username to an open table: {"username"} -> 201 {"user"}."""
    data = body_object(request)
    with _hidden(request, pk):
        invitation = services.invite(pk, request.api_user, data.get("username"))
    return JsonResponse({"user": invitation.user.username}, status=201)


@api_view(("POST",))
def abandon(request, pk):
    """Walk away from a game against bots alone: it is aborted, unrated (409 for any other table)."""
    with _hidden(request, pk):
        services.abandon(pk, request.api_user)
    return JsonResponse(table_json(_table_or_404(request, pk), request.api_user))


@api_view(("GET",))
def your_turn_list(request):
    """The tables waiting for the caller's move, most urgent first (CONTRACTS §2: ``GET /api/your-turn``)."""
    from tables.your_turn import waiting_tables

    return JsonResponse([w.json() for w in waiting_tables(request.api_user)], safe=False)
