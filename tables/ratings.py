"""Ratings per game with openskill's Plackett–Luce model, updated once when a rated game finishes.

Only persons who played their seat to the end count: a seat a bot finished for its person
(``result["replaced"]``) is left out, and so is a game that no longer has two such seats. A rating is
provisional until its player has played ``PROVISIONAL_GAMES`` rated games of that game.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from openskill.models import PlackettLuce

from tables.models import Rating, RatingChange, Seat, Table

PROVISIONAL_GAMES = 10
MODEL = PlackettLuce()


def ranks(table: Table) -> list[int]:
    """Each seat's place (0 best; equal places for a tie): the winners first, then by score."""
    result = table.result
    scores, winners = result["scores"], set(result["winners"])
    lowest_wins = getattr(table.engine, "low_score_wins", False)

    def key(seat):
        return (seat not in winners, scores[seat] if lowest_wins else -scores[seat])

    return [sorted({key(s) for s in range(len(scores))}).index(key(s)) for s in range(len(scores))]


def rated_seats(table: Table, seats: list[Seat]) -> list[Seat]:
    """The seats a rated game rates: persons who played to the end."""
    replaced = set((table.result or {}).get("replaced", []))
    return [s for s in seats if s.user_id and not s.bot and s.index not in replaced and not s.replaced]


def record(table: Table, seats: list[Seat]) -> None:
    """Update the ratings for a game that just finished (inside its transaction). Nothing if it is unrated."""
    if not table.rated or table.status != Table.FINISHED:
        return
    rated = rated_seats(table, seats)
    if len(rated) < 2:
        return
    current = {
        r.user_id: r for r in Rating.objects.filter(game=table.game, user_id__in=[s.user_id for s in rated])
    }
    teams = []
    for seat in rated:
        r = current.get(seat.user_id)
        teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma) if r else MODEL.rating()])
    place = ranks(table)
    updated = MODEL.rate(teams, ranks=[place[s.index] for s in rated])
    now = timezone.now()
    changes, fresh = [], []
    for seat, (new,) in zip(rated, updated, strict=True):
        r = current.get(seat.user_id) or Rating(user_id=seat.user_id, game=table.game, games=0)
        r.mu, r.sigma, r.ordinal, r.games = new.mu, new.sigma, new.ordinal(), r.games + 1
        (fresh if r.pk is None else changes).append(r)
        r.change = RatingChange(
            user_id=seat.user_id,
            game=table.game,
            table=table,
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            at=now,
        )
    Rating.objects.bulk_create(fresh)
    Rating.objects.bulk_update(changes, ["mu", "sigma", "ordinal", "games"])
    RatingChange.objects.bulk_create([r.change for r in fresh + changes])


def provisional(rating: Rating | None) -> bool:
    return rating is None or rating.games < PROVISIONAL_GAMES


def shown(rating: Rating | None) -> float | None:
    """The conservative rating as pages and the API show it (mu - 3 sigma, one decimal)."""
    return None if rating is None else round(rating.ordinal, 1)


# --- Leaderboards and players' records -------------------------------------------------------------

LEADERBOARD_PAGE = 50
CHART_POINTS = 100  # the last rated games a player's chart draws


def leaderboard(game: str, page: int) -> list[dict]:
    """One page of a game's leaderboard, best conservative rating first (two queries at most)."""
    start = (page - 1) * LEADERBOARD_PAGE
    rows = Rating.objects.filter(game=game).select_related("user").order_by("-ordinal", "id")
    return [
        {
            "rank": start + i + 1,
            "username": r.user.username,
            "rating": shown(r),
            "games": r.games,
            "provisional": provisional(r),
        }
        for i, r in enumerate(rows[start : start + LEADERBOARD_PAGE])
    ]


def rank_of(game: str, user) -> dict | None:
    """``user``'s place on the game's leaderboard and their rating; None if they have none."""
    if user is None or not user.is_authenticated:
        return None
    mine = Rating.objects.filter(game=game, user=user).first()
    if mine is None:
        return None
    ahead = Rating.objects.filter(game=game).filter(
        models.Q(ordinal__gt=mine.ordinal) | models.Q(ordinal=mine.ordinal, id__lt=mine.id)
    )
    return {
        "rank": ahead.count() + 1,
        "rating": shown(mine),
        "games": mine.games,
        "provisional": provisional(mine),
    }


def leaderboard_pages(game: str) -> int:
    return max(1, -(-Rating.objects.filter(game=game).count() // LEADERBOARD_PAGE))


def chart(changes: list[RatingChange], width: int = 320, height: int = 90) -> dict | None:
    """An SVG polyline of the conservative rating over the rated games (at least two points)."""
    if len(changes) < 2:
        return None
    values = [c.ordinal for c in changes]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    points = " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )
    return {"points": points, "width": width, "height": height, "low": round(low, 1), "high": round(high, 1)}
