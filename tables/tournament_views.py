"""The tournaments' pages: the list (upcoming, running, finished, by game), the create form, a
tournament's page (live over its socket: tables.tournament_live) and its buttons."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.preferences import in_words
from rules import registry
from tables import selectors, services, texts, tournament_live, tournament_reads, tournaments
from tables.models import Table, Tournament
from tables.views import option_fields

LIST_LENGTH = 30
ROUND_CHOICES = (3, 4, 5, 6, 7, 9)
MINUTE_CHOICES = (30, 60, 90, 120, 180)


def tournament_list(request):
    game = request.GET.get("game") or ""
    if game not in registry.games():
        game = ""
    sections = []
    for status, title in (
        (Tournament.OPEN, _("Upcoming")),
        (Tournament.RUNNING, _("Running")),
        (Tournament.FINISHED, _("Finished")),
    ):
        found = tournament_reads.listed(status, game or None, request.user)[:LIST_LENGTH]
        sections.append({"status": status, "title": title, "tournaments": list(found)})
    return render(
        request,
        "tables/tournaments.html",
        {"sections": sections, "games": selectors.games_list(), "game": game},
    )


def _posted(request, name):
    raw = request.POST.get(name, "").strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise services.BadRequest(_("%(what)s must be a whole number.") % {"what": name}) from None


def _starts_at(request):
    raw = request.POST.get("starts_at", "").strip()
    if not raw:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise services.BadRequest(_("The start time is not a date and time.")) from None
    if when.tzinfo is None:  # (the form's local time: the site's time zone)
        when = timezone.make_aware(when)
    return when.isoformat()


@login_required
def new_tournament(request):
    games = selectors.games_list()
    slug = request.GET.get("game") or request.POST.get("game") or games[0].slug
    if slug not in registry.games():
        raise Http404("No such game.")
    engine = registry.get(slug)
    error = None
    if request.method == "POST":
        options = {}
        for field in option_fields(engine):
            raw = request.POST.get(field["name"])
            if field["type"] == "bool":
                options[field["name"]] = raw == "on"
            elif raw is not None:
                options[field["name"]] = raw
        form = request.POST.get("format")
        try:
            data = {
                "game": slug,
                "format": form,
                "table_size": _posted(request, "table_size"),
                "move_time": _posted(request, "move_time"),
                "options": options,
                "rated": request.POST.get("rated") == "on",
                "max_players": _posted(request, "max_players"),
                "starts_at": _starts_at(request),
                "bots": {
                    "count": _posted(request, "bots") or 0,
                    "level": request.POST.get("bot_level", "casual"),
                },
                "description": request.POST.get("description", ""),
                "private": request.POST.get("private") == "on",
            }
            if form == Tournament.SWISS:
                data["rounds"] = _posted(request, "rounds")
            else:
                data["minutes"] = _posted(request, "minutes")
            tournament = tournaments.create(request.user, data)
            if request.POST.get("play") == "on":
                tournaments.join(tournament.pk, request.user)
        except ValueError as exc:
            error = in_words(exc)
        except services.TableError as exc:
            error = exc.message
        else:
            return redirect(tournament)
    return render(
        request,
        "tables/tournament_new.html",
        {
            "engine": engine,
            "games": games,
            "fields": option_fields(engine),
            "sizes": range(engine.min_players, engine.max_players + 1),
            "move_times": [(s, label) for s, label in texts.MOVE_TIMES.items() if s is not None],
            "rounds": ROUND_CHOICES,
            "minutes": MINUTE_CHOICES,
            "bot_levels": services.BOT_LEVELS,
            "error": error,
            "posted": request.POST,
        },
    )


def tournament_page(request, pk):
    try:
        tournament = tournament_reads.get(pk, request.user, request.GET.get("invite"))
    except services.NotFound:
        raise Http404("No such tournament.") from None
    return render(
        request,
        "tables/tournament.html",
        {**tournament_live.context(tournament), **_viewer(request, tournament)},
    )


@require_GET
def tournament_actions(request, pk):
    """The page's buttons for its viewer (their table of the round in play, join, leave...), fetched again each
    time the live part changes (it is the same for every viewer, these are not)."""
    try:
        tournament = tournament_reads.get(pk, request.user, request.GET.get("invite"))
    except services.NotFound:
        raise Http404("No such tournament.") from None
    return render(
        request, "tables/tournament.html#actions", {"tournament": tournament, **_viewer(request, tournament)}
    )


def _viewer(request, tournament) -> dict:
    me = None
    next_table = None
    if request.user.is_authenticated:
        me = tournament.entrants.filter(user=request.user).first()
        waiting = Table.objects.filter(
            tournament=tournament, status=Table.PLAYING, seats__user=request.user, seats__awaited=True
        ).first()
        next_table = (
            waiting
            or Table.objects.filter(
                tournament=tournament, status=Table.PLAYING, seats__user=request.user
            ).first()
        )
    return {
        "me": me,
        "next_table": next_table,
        "is_creator": request.user.is_authenticated and tournament.created_by_id == request.user.pk,
        "full": bool(tournament.max_players) and tournament.entrants.count() >= tournament.max_players,
    }


def _act(request, pk, action, done: str):
    try:
        action()
    except services.TableError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect("tables:tournament", pk)


@require_POST
@login_required
def join(request, pk):
    invite = request.POST.get("invite")
    done = _("You are in the tournament.")
    return _act(request, pk, lambda: tournaments.join(pk, request.user, invite), done)


@require_POST
@login_required
def leave(request, pk):
    return _act(request, pk, lambda: tournaments.leave(pk, request.user), _("You left the tournament."))


@require_POST
@login_required
def start(request, pk):
    return _act(request, pk, lambda: tournaments.start(pk, request.user), _("The tournament has started."))


@require_POST
@login_required
def pause(request, pk):
    paused = request.POST.get("paused") == "on"
    words = _("Paused: you get no new table until you come back.") if paused else _("Welcome back.")
    return _act(request, pk, lambda: tournaments.pause(pk, request.user, paused), words)
