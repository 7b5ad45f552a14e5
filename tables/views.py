"""Pages. Thin: check access, call a service, render."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from accounts import decks
from rules import registry
from tables import services
from tables.models import Seat, Table
from tables.rendering import table_context


def games_list():
    return sorted(registry.games().values(), key=lambda g: g.title)


def lobby(request):
    open_tables = (
        Table.objects.filter(status=Table.OPEN, private=False)
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
    return render(
        request, "tables/lobby.html", {"games": games_list(), "open_tables": open_tables, "mine": mine}
    )


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
        try:
            players = int(request.POST.get("players", ""))
            bot_count = int(request.POST.get("bots") or 0)
            move_time = int(request.POST["move_time"]) if request.POST.get("move_time") else None
        except ValueError:
            players, bot_count, move_time = None, 0, None
        level = request.POST.get("bot_level", "casual")
        try:
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
                )
                if deck is not None:
                    services.set_deck(table.pk, request.user, deck)
            if bot_count and bot_count == players - 1:  # nobody else to wait for
                services.start_table(table.pk, request.user)
        except ValueError as exc:
            error = str(exc)
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
            "move_times": services.MOVE_TIMES.items(),
            "error": error,
            "deck_choices": decks.deck_choices(request.user, slug),
        },
    )


def table_page(request, pk):
    table = get_object_or_404(Table, pk=pk)
    ctx = table_context(table, request.user)
    ctx["invite_url"] = request.build_absolute_uri(table.get_absolute_url())
    return render(request, "tables/table.html", ctx)


def join_area(request, pk):
    """The join button (or the log-in invitation) of an open table, for whoever asks: the spectators' live
    frame is shared by all of them, so it loads this part per person."""
    table = get_object_or_404(Table, pk=pk)
    return render(request, "tables/_join_area.html", table_context(table, request.user))


def _table_action(request, pk, action):
    try:
        action()
    except services.TableError as exc:
        messages.error(request, exc.message)
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect("tables:table", pk=pk)


@require_POST
@login_required
def join(request, pk):
    table = get_object_or_404(Table, pk=pk)
    try:
        deck = decks.resolve_deck(request.user, table.game, request.POST.get("deck"))
    except ValueError as exc:
        messages.error(request, str(exc))
        return _table_action(request, pk, lambda: None)
    return _table_action(request, pk, lambda: services.join_table(pk, request.user, deck=deck))


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
    if not request.user.is_authenticated:
        return _move_error(pk, "Sign in to play.", 403)
    try:
        move_data = json.loads(request.POST.get("move", ""))
    except ValueError:
        move_data = None
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        seq = None
    try:
        result = services.play_move(pk, request.user, move_data, seq)
    except services.TableError as exc:
        return _move_error(pk, exc.message, exc.status)
    if not request.htmx:
        return redirect("tables:table", pk=pk)
    return HttpResponse(result.frame_for(request.user))


def _move_error(pk, message, status):
    html = render_to_string("tables/_error.html", {"table_id": pk, "message": message})
    return HttpResponse(html, status=status)


@login_required
def dashboard(request):
    seats = (
        Seat.objects.filter(user=request.user, table__status=Table.PLAYING)
        .select_related("table")
        .order_by("-awaited", "-table__started_at")
    )
    waiting = [seat for seat in seats if seat.awaited]
    others = [seat for seat in seats if not seat.awaited]
    return render(request, "tables/dashboard.html", {"waiting": waiting, "others": others})


def game_rules(request, slug):
    try:
        engine = registry.get(slug)
        get_template(f"games/{slug}/rules.html")
    except (KeyError, TemplateDoesNotExist):
        raise Http404("No such game.") from None
    return render(
        request, "tables/rules.html", {"engine": engine, "rules_template": f"games/{slug}/rules.html"}
    )
