"""Pages for looking back: the match history, a finished game's replay and its export."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import blocks, presence
from accounts.preferences import is_bot_account
from rules import registry
from tables import club, history, ratings, social, tournament_reads
from tables.models import Table
from tables.rendering import Snapshot
from tables.selectors import games_list, names_of, ranking, seat_of

HISTORY_PAGE = 25


@login_required
def history_page(request):
    try:
        filters = history.HistoryFilters.from_query(request.GET)
        error = ""
    except history.FilterError as exc:
        filters, error = history.HistoryFilters(), str(exc)
    tables = history.player_history(request.user, request.user, filters).prefetch_related("seats__user")
    page = Paginator(tables, HISTORY_PAGE).get_page(request.GET.get("page"))
    ever = (
        filters.active
        and history.player_history(request.user, request.user, history.HistoryFilters()).exists()
    )
    ctx = {
        "page": page,
        "rows": history.history_rows(page, request.user, ratings.changes_by_table(request.user)),
        "games": games_list(),
        "filters": filters,
        "filter_query": urlencode(filters.query()),
        "results": history.HISTORY_RESULTS,
        "error": error,
        "any_game": bool(page.paginator.count) or ever,
    }
    return render(request, "tables/history.html", ctx)


def _finished_table(request, pk) -> Table | HttpResponse:
    """The table if this visitor may look back at it; 404 if not theirs to see, 409 while not finished."""
    table, finished = history.look_back(pk, request.user)
    if table is None:
        raise Http404("No such table.")
    if finished:
        return table
    return render(request, "tables/replay_unavailable.html", {"table": table}, status=409)


def _int(raw, default: int | None) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return default


def replay(request, pk):
    table = _finished_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    game = history.Replay.of(table)
    step = min(max(_int(request.GET.get("step"), 0), 0), game.last)
    own = seat_of(game.seats, request.user)
    seat = _int(request.GET.get("seat"), own) if request.GET.get("seat") != "watch" else None
    if seat is not None and not 0 <= seat < table.players:
        seat = own
    ctx = replay_context(game, step, seat, request.user)
    ctx["own_seat"] = own
    if request.htmx:
        return render(request, "tables/replay.html#step", ctx)
    return render(request, "tables/replay.html", ctx)


def replay_context(game: history.Replay, step: int, seat: int | None, user) -> dict:
    """One step of a replay drawn as live play draws it, from ``seat``'s chair (None: a spectator's)."""
    table, engine = game.table, game.table.engine
    state = game.state_at(step)
    events = [e for e in social.events_since(table, None) if e.position <= step]
    snapshot = Snapshot(table=table, seats=game.seats, state=state, moves=game.moves[:step], events=events)
    ctx = snapshot.context(None, translation.get_language(), viewer=seat)
    names = names_of(game.seats)
    ctx["to_act"] = [] if engine.is_over(state) else list(engine.to_act(state))
    ctx.update(social.chat_context(table, game.seats, user, upto=step))
    ctx["ranking"] = ranking(table, names) if step == game.last else None
    ctx.update(step=step, last=game.last, seat=seat, step_links=_step_links(table, step, seat, game.last))
    ctx["seat_links"] = [
        {"label": name, "seat": i, "url": _url(table, step, i), "current": i == seat}
        for i, name in enumerate(names)
    ] + [{"label": _("Spectator"), "seat": None, "url": _url(table, step, None), "current": seat is None}]
    return ctx


def _url(table: Table, step: int, seat: int | None) -> str:
    return f"/tables/{table.pk}/replay/?" + urlencode(
        {"step": step, "seat": "watch" if seat is None else seat}
    )


def _step_links(table, step, seat, last) -> dict:
    return {
        "first": _url(table, 0, seat),
        "prev": _url(table, max(step - 1, 0), seat),
        "next": _url(table, min(step + 1, last), seat),
        "last": _url(table, last, seat),
    }


def export(request, pk):
    table = _finished_table(request, pk)
    if isinstance(table, HttpResponse):
        return table
    body = json.dumps(history.export(table), indent=1)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{table.game}-{table.pk}.json"'
    return response


def _page_number(raw) -> int:
    return max(_int(raw, 1) or 1, 1)


LEADERS_SHOWN = 5  # the top of each game's leaderboard on the leaderboards' page


def leaderboards(request):
    """Every game's best players at a glance, and the visitor's own rank in each."""
    boards = [
        {
            "game": game,
            "rows": ratings.leaderboard(game.slug, 1, size=LEADERS_SHOWN),
            "mine": ratings.rank_of(game.slug, request.user),
        }
        for game in games_list()
    ]
    return render(request, "tables/leaderboards.html", {"boards": boards})


def leaderboard(request, slug):
    try:
        engine = registry.get(slug)
    except KeyError:
        raise Http404("No such game.") from None
    bots = request.GET.get("bots") == "1"  # the bot accounts' own board (tables.bot_accounts)
    pages = ratings.leaderboard_pages(slug, bots)
    page = min(_page_number(request.GET.get("page")), pages)
    ctx = {
        "engine": engine,
        "games": games_list(),
        "rows": ratings.leaderboard(slug, page, bots),
        "page": page,
        "pages": pages,
        "mine": ratings.rank_of(slug, request.user, bots),
        "bots": bots,
    }
    return render(request, "tables/leaderboard.html", ctx)


def player(request, username):
    user = get_object_or_404(get_user_model(), username=username)
    recent = history.player_history(user, request.user, history.HistoryFilters())
    ctx = {
        "player": user,
        "bot_account": is_bot_account(user),
        "record": history.player_record(user, request.user),
        "recent": history.history_rows(
            recent.prefetch_related("seats__user")[:10], user, ratings.changes_by_table(user)
        ),
        "against": None,
    }
    if request.user.is_authenticated and request.user != user:
        ctx["against"] = history.record_against(request.user, user)
        ctx["followed"] = club.follows(request.user, user)
        ctx["blocked"] = blocks.blocks(request.user.pk, user.pk)
    ctx["presence"] = presence.of(user)
    ctx["playing"] = club.public_tables_of([user.pk])[user.pk]
    ctx["tournaments"] = tournament_reads.played_by(user)
    return render(request, "tables/player.html", ctx)
