"""Reading tournaments: their standings, rounds and JSON (the API's and the pages'). No change happens here."""

from __future__ import annotations

import secrets

from django.db.models import Count, Q
from django.utils.translation import gettext

from tables import pairing, ratings, services
from tables.errors import BadRequest, NotFound
from tables.models import Rating, Table, Tournament, TournamentPlayer, TournamentTable


def ratings_of(tournament: Tournament, players) -> dict[int, float]:
    """Each entrant's rating at the game (a new player's for bots and the unrated)."""
    by_user = dict(
        Rating.objects.filter(
            game=tournament.game, user_id__in=[p.user_id for p in players if p.user_id]
        ).values_list("user_id", "ordinal")
    )
    return {p.pk: ratings.display(by_user.get(p.user_id, 0.0)) for p in players}


# --- Reading -------------------------------------------------------------------------------------------


def may_see(tournament: Tournament, user, invite=None) -> bool:
    """A public tournament: anyone. A private one: its creator, its players, whoever holds its invite."""
    if not tournament.private:
        return True
    if isinstance(invite, str) and secrets.compare_digest(invite.encode(), tournament.invite_token.encode()):
        return True
    if user is None or not user.is_authenticated:
        return False
    return tournament.created_by_id == user.pk or tournament.entrants.filter(user=user).exists()


def get(pk, user=None, invite=None) -> Tournament:
    """The tournament if ``user`` (or the holder of ``invite``) may see it, else NotFound."""
    try:
        tournament = Tournament.objects.get(pk=pk)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        tournament = None
    if tournament is None or not may_see(tournament, user, invite):
        raise NotFound(gettext("No such tournament."))
    return tournament


def standings(tournament: Tournament) -> list[dict]:
    players = list(tournament.entrants.all())
    rating = ratings_of(tournament, players)
    meetings = TournamentTable.objects.filter(tournament=tournament, scored=True).values_list(
        "entrants", flat=True
    )
    table = pairing.standings(
        {p.pk: p.points for p in players},
        rating,
        list(meetings),
        {p.pk: p.games for p in players},
    )
    by_pk = {p.pk: p for p in players}
    return [
        {
            "rank": s.rank,
            "username": by_pk[s.key].name,
            "points": s.points,
            "tiebreak": s.tiebreak,
            "games": s.games,
            "withdrawn": by_pk[s.key].withdrawn,
            "bot": bool(by_pk[s.key].bot),
            "user_id": by_pk[s.key].user_id,
            "pk": s.key,
        }
        for s in table
    ]


def rounds_of(tournament: Tournament) -> list[list[int]]:
    rounds: list[list[int]] = [[] for _ in range(tournament.round)]
    for number, table_id in TournamentTable.objects.filter(tournament=tournament).values_list(
        "round", "table_id"
    ):
        if 1 <= number <= len(rounds):
            rounds[number - 1].append(table_id)
    return [sorted(r) for r in rounds]


def as_json(tournament: Tournament, viewer=None) -> dict:
    """A tournament as ``GET /api/tournaments/<id>`` shows it (the README's API section); a private one's
    invite is shown to its creator and players."""
    rows = standings(tournament)
    data = {
        "id": tournament.pk,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "table_size": tournament.table_size,
        "move_time": tournament.move_time,
        "options": tournament.options,
        "rated": tournament.rated,
        "max_players": tournament.max_players,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "started_at": tournament.started_at.isoformat() if tournament.started_at else None,
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
        "created_by": tournament.created_by.username if tournament.created_by_id else None,
        "description": tournament.description,
        "bots": {"count": tournament.bot_count, "level": tournament.bot_level},
        "private": tournament.private,
        "players": [p.name for p in tournament.entrants.all()],
        "standings": [
            {k: row[k] for k in ("rank", "username", "points", "tiebreak", "games")} for row in rows
        ],
    }
    if tournament.private and may_see(tournament, viewer):
        data["invite"] = tournament.invite_token
    if tournament.format == Tournament.SWISS:
        data["rounds"] = rounds_of(tournament)
        data["round"] = tournament.round
        data["round_count"] = tournament.rounds
    else:
        data["minutes"] = tournament.minutes
        data["ends_at"] = tournament.ends_at.isoformat() if tournament.ends_at else None
        data["tables"] = sorted(
            TournamentTable.objects.filter(tournament=tournament).values_list("table_id", flat=True)
        )
    return data


def summary_json(tournament: Tournament) -> dict:
    """A tournament in a list: what it is and where it stands, without its standings."""
    return {
        "id": tournament.pk,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "minutes": tournament.minutes,
        "move_time": tournament.move_time,
        "rated": tournament.rated,
        "max_players": tournament.max_players,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "created_by": tournament.created_by.username if tournament.created_by_id else None,
        "players": getattr(tournament, "entrant_count", None) or tournament.entrants.count(),
    }


def listed(status: str | None = None, game: str | None = None, viewer=None):
    """Tournaments by status and game, newest first: the public ones, and the private ones of ``viewer``."""
    query = (
        Tournament.objects.select_related("created_by")
        .annotate(entrant_count=Count("entrants"))
        .order_by("-created_at", "-pk")
    )
    mine = Q(private=False)
    if viewer is not None and viewer.is_authenticated:
        entered = TournamentPlayer.objects.filter(user=viewer).values("tournament_id")
        mine |= Q(created_by=viewer) | Q(pk__in=entered)
    query = query.filter(mine)
    if status:
        if status not in (Tournament.OPEN, Tournament.RUNNING, Tournament.FINISHED):
            raise BadRequest(gettext('status is "open", "running" or "finished".'))
        query = query.filter(status=status)
    if game:
        services.get_game(game)
        query = query.filter(game=game)
    return query


def running_for(user) -> list[dict]:
    """The running tournaments ``user`` plays in, each with the table they sit at now (or None): Your turn."""
    entries = list(
        TournamentPlayer.objects.filter(user=user, withdrawn=False, tournament__status=Tournament.RUNNING)
        .select_related("tournament")
        .order_by("-tournament__started_at")
    )
    at = dict(
        Table.objects.filter(
            tournament_id__in=[e.tournament_id for e in entries], status=Table.PLAYING, seats__user=user
        ).values_list("tournament_id", "pk")
    )
    return [{"tournament": e.tournament, "table": at.get(e.tournament_id)} for e in entries]


def played_by(user, limit: int = 20) -> list[dict]:
    """The tournaments a person played, newest first, with their final place in each finished one (one
    query, whatever the number of tournaments: the place is kept when a tournament finishes)."""
    entries = (
        TournamentPlayer.objects.filter(user=user)
        .select_related("tournament")
        .order_by("-tournament__created_at")[:limit]
    )
    return [{"tournament": e.tournament, "place": e.place} for e in entries]
