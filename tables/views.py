"""Pages. Thin: check access, call a service, render."""

from __future__ import annotations

import json
from contextlib import contextmanager

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string, select_template
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from accounts import decks
from accounts.preferences import in_words
from rules import IllegalMove, registry
from tables import (
    access,
    challenges,
    club,
    games,
    selectors,
    services,
    social,
    social_views,
    tournament_reads,
    your_turn,
)
from tables.models import Seat, Table
from tables.rendering import table_context
from tables.selectors import games_list
from tables.texts import MOVE_TIMES


def lobby(request):
    # Open tables with a free seat: a full one waiting for its creator's Start is not open to anyone else.
    free = Seat.objects.filter(user__isnull=True, bot="").values("table_id")
    open_tables = (
        Table.objects.filter(status=Table.OPEN, private=False, pk__in=free)
        .select_related("created_by")
        .prefetch_related("seats__user")[:50]
    )
    mine = []
    if request.user.is_authenticated:
        mine = (
            Table.objects.filter(seats__user=request.user, status__in=[Table.OPEN, Table.PLAYING])
            .prefetch_related("seats__user")
            .distinct()[:50]
        )
    ctx = {"games": games_list(), "open_tables": open_tables, "mine": mine}
    ctx["followed_tables"] = club.followed_open_tables(request.user)
    return render(request, "tables/lobby.html", ctx)


def option_fields(engine):
    """The create-table form's option fields, from the engine's own option schema."""
    fields = []
    for name, spec in engine.options.items():
        if spec["type"] in ("choice", "bool"):
            fields.append({"name": name, **spec})
    return fields


@login_required
def new_table(request, slug):
    try:
        engine = registry.get(slug)
    except KeyError:
        raise Http404("No such game.") from None
    error = None
    if request.method == "POST":
        options = {}
        for field in option_fields(engine):
            raw = request.POST.get(field["name"])
            if field["type"] == "bool":
                options[field["name"]] = raw == "on"
            elif raw is not None:
                options[field["name"]] = raw
        level = request.POST.get("bot_level", "casual")
        try:
            players = _posted_int(request, "players", _("The number of players"))
            bot_count = _posted_int(request, "bots", _("The number of bots"), default=0)
            move_time = _posted_int(request, "move_time", _("The clock"))
            if not 0 <= bot_count < engine.max_players:  # before building a list of that many bots
                raise services.BadRequest(
                    _("%(game)s has room for %(count)d bots at most.")
                    % {"game": engine.title, "count": engine.max_players - 1}
                )
            deck = decks.resolve_deck(request.user, slug, request.POST.get("deck"))
            with transaction.atomic():
                table = services.create_table(
                    request.user,
                    slug,
                    players,
                    options,
                    private=request.POST.get("private") == "on",
                    bots=[{"level": level}] * bot_count,
                    move_time=move_time,
                    rated=request.POST.get("rated") == "on",
                    spectator_chat=request.POST.get("spectator_chat") == "on",
                )
                if deck is not None:
                    services.set_deck(table.pk, request.user, deck)
            services.start_if_full(table, request.user)
        except ValueError as exc:
            error = in_words(exc)
        except services.TableError as exc:
            error = exc.message
        else:
            return redirect(table)
    return render(
        request,
        "tables/new.html",
        {
            "engine": engine,
            "fields": option_fields(engine),
            "player_range": range(engine.min_players, engine.max_players + 1),
            "bot_range": range(0, engine.max_players),
            "bot_levels": services.BOT_LEVELS,
            "move_times": MOVE_TIMES.items(),
            "error": error,
            "deck_choices": decks.deck_choices(request.user, slug),
            "deck_builder": decks.deck_url(slug) if games.plugin(slug).decks else None,
        },
    )


def _posted_int(request, name, label, default=None):
    raw = request.POST.get(name, "")
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise services.BadRequest(_("%(what)s must be a whole number.") % {"what": label}) from None


def _session_invite(request, pk):
    return access.session_invite(request.session, pk)


def _visible_table(request, pk) -> Table:
    """The table if this visitor may see it, else 404; an ?invite= link that matches is remembered."""
    invite = request.GET.get("invite")
    try:
        table = access.table_for(pk, request.user, invite, _session_invite(request, pk))
    except services.NotFound:
        raise Http404("No such table.") from None
    if table.private and access.invite_matches(table, invite):
        access.remember_invite(request.session, table)
    return table


def table_page(request, pk):
    table = _visible_table(request, pk)
    ctx = table_context(table, request.user)
    ctx.update(social_views.page_context(request, table, ctx["seats"]))
    return render(request, "tables/table.html", ctx)


def join_area(request, pk):
    """The join button (or the log-in invitation) of an open table, for whoever asks: the spectators' live
    frame is shared by all of them, so it loads this part per person."""
    table = _visible_table(request, pk)
    return render(request, "tables/_join_area.html", table_context(table, request.user))


@contextmanager
def _hidden_or_404(request, pk):
    """A refusal about a private table this visitor may not see (or about no table) is a 404 page."""
    try:
        with access.hidden_unless_visible(pk, request.user, _session_invite(request, pk)):
            yield
    except services.NotFound:
        raise Http404("No such table.") from None


def _table_action(request, pk, action):
    try:
        with _hidden_or_404(request, pk):
            action()
    except services.TableError as exc:
        messages.error(request, exc.message)
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect("tables:table", pk=pk)


@require_POST
@login_required
def join(request, pk):
    table = _visible_table(request, pk)
    try:
        deck = decks.resolve_deck(request.user, table.game, request.POST.get("deck"))
    except ValueError as exc:
        messages.error(request, in_words(exc))
        return _table_action(request, pk, lambda: None)
    invite = table.invite_token if table.private else None  # _visible_table let this visitor in
    return _table_action(request, pk, lambda: services.join_table(pk, request.user, deck=deck, invite=invite))


@require_POST
@login_required
def leave(request, pk):
    return _table_action(request, pk, lambda: services.leave_table(pk, request.user))


@require_POST
@login_required
def start(request, pk):
    return _table_action(request, pk, lambda: services.start_table(pk, request.user))


@require_POST
@login_required
def play_now(request, slug):
    try:
        table = services.play_now(request.user, slug, request.POST.get("level", "casual"))
    except services.TableError as exc:
        messages.error(request, exc.message)
        return redirect("tables:lobby")
    return redirect(table)


@require_POST
@login_required
def concede(request, pk):
    return _table_action(request, pk, lambda: services.concede(pk, request.user))


@require_POST
@login_required
def abort(request, pk):
    return _table_action(request, pk, lambda: services.vote_abort(pk, request.user))


@require_POST
@login_required
def reclaim(request, pk):
    return _table_action(request, pk, lambda: services.reclaim_seat(pk, request.user))


@require_POST
@login_required
def rematch(request, pk):
    try:
        with _hidden_or_404(request, pk):
            new = services.offer_rematch(pk, request.user)
    except services.TableError as exc:
        messages.error(request, exc.message)
        return redirect("tables:table", pk=pk)
    if request.htmx:
        return HttpResponseClientRedirect(new.get_absolute_url())
    return redirect(new)


@require_POST
def move(request, pk):
    """An htmx move: answers with the mover's own frame, or an error message swapped in place."""
    try:
        move_data = json.loads(request.POST.get("move", ""))
    except (ValueError, RecursionError):  # (RecursionError: JSON nested too deep)
        move_data = None
    return answer_change(request, pk, lambda seq: services.play_move(pk, request.user, move_data, seq))


@require_POST
def takeback(request, pk):
    """Undo: answers like a move, with the mover's own frame (or an error message swapped in place)."""
    return answer_change(request, pk, lambda seq: services.take_back(pk, request.user, seq))


def answer_change(request, pk, change):
    """A player's change of the game (a move, a take-back) from the form's ``seq``: ``change(seq)`` returns
    the MoveResult, and the answer is the mover's own frame, or the error message swapped in place."""
    if not request.user.is_authenticated:
        return _move_error(pk, _("Sign in to play."), 403)
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        seq = None
    try:
        with access.hidden_unless_visible(pk, request.user, _session_invite(request, pk)):
            result = change(seq)
    except services.TableError as exc:
        return _move_error(pk, exc.message, exc.status)
    if not request.htmx:
        return redirect("tables:table", pk=pk)
    # In the language of the mover's sockets: the one they chose, else their browser's. The request already
    # speaks it (LocaleMiddleware, then AccountLanguageMiddleware for a chosen one).
    return HttpResponse(result.frame_for(request.user, translation.get_language()))


@require_GET
def move_preview(request, pk):
    """What one move would do (Chronica's honour), asked for by the board when its player picks the move.

    Only the seat whose turn it is may ask, about a move it could play now: the answer is what that move
    and the public board decide, never a hidden card. Refusals are short plain-text messages."""
    table = _visible_table(request, pk)
    engine = table.engine
    template = games.plugin(table.game).preview
    if template is None or not hasattr(engine, "preview"):
        return _preview_error(_("This game has no move preview."), 404)
    seats = selectors.read_seats(table)
    seat = selectors.seat_of(seats, request.user)
    if seat is None:
        return _preview_error(_("Only a player at this table can preview a move."), 403)
    if table.status != Table.PLAYING:
        return _preview_error(_("This table is not being played."), 409)
    if seat not in (table.to_act or []):
        return _preview_error(_("It is not your turn."), 403)
    try:
        move_data = json.loads(request.GET.get("move", ""))
    except (ValueError, RecursionError):
        move_data = None
    if not isinstance(move_data, dict):
        return _preview_error(_("The move must be a JSON object."), 400)
    state = engine.load(table.state)
    preview = engine.preview(state, seat, move_data)
    if preview is None:  # an illegal move (say why), or one with nothing to show
        try:
            engine.apply(state, seat, move_data)
        except IllegalMove as exc:
            return _preview_error(in_words(exc), 400)
        return HttpResponse(status=204)
    ctx = {"preview": preview, "move": move_data, "viewer": seat, "names": selectors.names_of(seats)}
    return render(request, template, ctx)


def _preview_error(message, status):
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _move_error(pk, message, status):
    html = render_to_string("tables/_error.html", {"table_id": pk, "message": message, "status": status})
    return HttpResponse(html, status=status)


@login_required
def dashboard(request):
    """Your turn: the tables waiting for you, most urgent first, with what each needs you to know; your
    invitations; your other games."""
    waiting = your_turn.waiting_tables(request.user)
    lang = translation.get_language()
    now = timezone.now()
    rows = [
        {"w": w, "last_move": w.last_move_lines(lang), "fresh": (now - w.since).total_seconds() < 60}
        for w in waiting
    ]
    others = (
        Seat.objects.filter(user=request.user, table__status=Table.PLAYING)
        .exclude(awaited=True, bot="")  # (those are above)
        .select_related("table")
        .order_by("-table__last_move_at")
    )
    invitations = social.open_invitations(request.user)
    ctx = {"rows": rows, "others": others, "invitations": invitations, "now": now}
    ctx.update(challenges.challenge_rows(request.user))
    ctx["tournaments"] = tournament_reads.running_for(request.user)
    return render(request, "tables/dashboard.html", ctx)


@login_required
def next_game(request):
    """The most urgent table waiting for you, but the one you come from (``?from=<id>``); when none waits,
    back where you were, told so."""
    here = request.GET.get("from", "")
    for pk in your_turn.waiting_ids(request.user):
        if str(pk) != here:
            return redirect("tables:table", pk=pk)
    messages.info(request, _("No game is waiting for you."))
    if here.isdigit() and Table.objects.filter(pk=int(here)).exists():
        return redirect("tables:table", pk=int(here))
    return redirect("tables:dashboard")


@require_POST
@login_required
def abandon(request, pk):
    """Walk away from a game against bots alone (it is aborted, unrated): from its page or from Your turn."""
    try:
        with _hidden_or_404(request, pk):
            services.abandon(pk, request.user)
    except services.TableError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The game against the bots is abandoned."))
    if request.POST.get("next") == "dashboard":
        return redirect("tables:dashboard")
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect("tables:table", pk=pk)


@require_GET
def card_zoom(request, slug, code):
    """A card drawn large, with its full text in the reader's language (site.js opens it over the page when a
    card in view is tapped, long-pressed, hovered or focused). Cards are public data: a code the page shows."""
    from tables.templatetags.table_tags import card, card_name

    try:
        plugin = games.plugin(slug)
    except KeyError:
        raise Http404("No such game.") from None
    face = card(slug, code, extra_class="zoom")
    if not face.strip():
        raise Http404("No such card.")
    name = card_name(code, slug) or code
    text = select_template([plugin.zoom] if plugin.zoom else ["tables/_zoom_text.html"])
    text = mark_safe(text.render({"code": code, "name": name}, request))  # (an autoescaped template)
    answer = render(
        request, "tables/card_zoom.html", {"face": face, "name": name, "code": code, "text": text}
    )
    patch_vary_headers(answer, ["Accept-Language", "Cookie"])
    return answer


def game_rules(request, slug):
    try:
        plugin = games.plugin(slug)
    except KeyError:
        raise Http404("No such game.") from None
    return render(
        request, "tables/rules.html", {"engine": plugin.engine, "rules_template": plugin.rules_page}
    )
