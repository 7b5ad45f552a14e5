"""A tournament's page, live: after a change commits (a player joins, a table ends, a round starts, the
tournament finishes), its live part (status, players with presence, standings, each round's tables, the
podium) is rendered once per language and sent to ``tournament-<id>-<lang>``; the page's sockets
(tables.tournament_consumer) forward it as an htmx out-of-band swap, touching no database."""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts import presence
from tables import live, selectors, tournament_reads
from tables.models import Table, Tournament, TournamentTable

log = logging.getLogger(__name__)


def group(pk: int, lang: str) -> str:
    return f"tournament-{pk}-{lang}"


def context(tournament: Tournament) -> dict:
    """What the live part shows: the same for every viewer (a viewer's own buttons are outside it)."""
    rows = tournament_reads.standings(tournament)
    entrants = list(tournament.entrants.select_related("user"))
    present = presence.of_many([p.user for p in entrants if p.user_id])
    online = {p.user.username: present[p.user_id].online for p in entrants if p.user_id}
    for row in rows:
        row["online"] = online.get(row["username"]) if row["user_id"] else None
    pairings = list(
        TournamentTable.objects.filter(tournament=tournament)
        .select_related("table")
        .order_by("-round", "table_id")
    )
    names = {p.pk: p.name for p in entrants}
    rounds: dict[int, list] = {}
    for row in pairings:
        rounds.setdefault(row.round, []).append(
            {
                "table": row.table,
                "names": [names.get(pk, "?") for pk in row.entrants],
                "playing": row.table.status == Table.PLAYING,
            }
        )
    left = None
    if tournament.ends_at and tournament.status == Tournament.RUNNING:
        left = max(0, int((tournament.ends_at - timezone.now()).total_seconds() // 60))
    return {
        "tournament": tournament,
        "standings": rows,
        "podium": rows[:3] if tournament.status == Tournament.FINISHED else [],
        "rounds": sorted(rounds.items(), reverse=True),
        "minutes_left": left,
        "under_way": sum(1 for row in pairings if row.table.status == Table.PLAYING),
    }


def render_live(tournament: Tournament, oob: bool = False) -> str:
    return render_to_string("tables/tournament.html#live", {**context(tournament), "oob": oob})


def changed(pk: int) -> None:
    """After commit: every open page of the tournament gets its new live part, in its language."""
    layer = get_channel_layer()
    if layer is None:
        return
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return
    messages = []
    for lang in selectors.languages():
        name = group(pk, lang)
        if not live.has_listeners(layer, name):
            continue
        with translation.override(lang):
            html = render_live(tournament, oob=True)
        messages.append((name, {"type": "tournament.frame", "html": html}))
    if messages:
        live.send(layer, messages)
