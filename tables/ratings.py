"""Ratings per game with openskill's Plackett–Luce model, updated once when a rated game finishes.

What players read is the familiar scale of ``display`` (1500 for a new player, 200 points per class of
strength, "?" while provisional); the OpenSkill values (mu, sigma and the ordinal mu - 3 sigma) stay
stored as they are, and the API gives both.

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


# --- The scale players read ----------------------------------------------------------------------------

DISPLAY_BASE = 1500  # a new player's rating: openskill's first rating has ordinal 0 (mu 25, sigma 25/3)
DISPLAY_CLASS = 200  # points per class of strength
# A class is openskill's beta (25/6 of mu, half a new player's sigma; as in TrueSkill, where Elo's 200-point
# class comes from): a player one class above another beats them about three games in four. The
# displayed rating is the conservative ordinal put on that scale, so the leaderboard's order is the
# displayed ratings' order.
POINTS_PER_ORDINAL = DISPLAY_CLASS / MODEL.beta  # 48 points per unit of ordinal


def display(ordinal: float | None) -> int | None:
    """An ordinal on the familiar scale: ``round(1500 + 200 * ordinal / beta)`` (1500 for a new player)."""
    return None if ordinal is None else round(DISPLAY_BASE + POINTS_PER_ORDINAL * ordinal)


def display_of(rating: Rating | None) -> int | None:
    return None if rating is None else display(rating.ordinal)


def display_text(value: int | None, provisional: bool) -> str:
    """ "1500?" while provisional, "1623" after; "" for no rating."""
    if value is None:
        return ""
    return f"{value}?" if provisional else str(value)


def signed(change: int | None) -> str:
    """A change of displayed rating as players read it: "+12", "−8" (a true minus sign), "±0"."""
    if change is None:
        return ""
    if change == 0:
        return "±0"
    return f"+{change}" if change > 0 else f"\u2212{-change}"


def table_changes(table: Table) -> dict[int, dict]:
    """{user id: {before, after, change (displayed), provisional (after the game), games}} for a rated
    finished table: its rating changes and, for each player, the change before it (a new player's first
    game starts from the first rating). Empty for an unrated table."""
    if not table.rated or table.status != Table.FINISHED:
        return {}
    mine = list(RatingChange.objects.filter(table=table))
    if not mine:
        return {}
    earlier = RatingChange.objects.filter(
        game=table.game, user_id__in=[c.user_id for c in mine], id__lt=max(c.id for c in mine)
    ).order_by("user_id", "id")
    history: dict[int, list[RatingChange]] = {}
    for change in earlier:
        history.setdefault(change.user_id, []).append(change)
    out = {}
    for change in mine:
        before_rows = [c for c in history.get(change.user_id, []) if c.id < change.id]
        before = before_rows[-1].ordinal if before_rows else MODEL.rating().ordinal()
        games = len(before_rows) + 1
        out[change.user_id] = changed(before, change.ordinal, games)
    return out


def changed(before: float, after: float, games: int) -> dict:
    """One rated game's change for one player, on both scales; ``games``: their rated games after it."""
    shown_before, shown_after = display(before), display(after)
    return {
        "before": round(before, 2),
        "after": round(after, 2),
        "display_before": shown_before,
        "display_after": shown_after,
        "display_change": shown_after - shown_before,
        "provisional": games < PROVISIONAL_GAMES,
        "provisional_before": games - 1 < PROVISIONAL_GAMES,
    }


def changes_by_table(user, game: str | None = None) -> dict[int, dict]:
    """{table id: that game's change for ``user``} over all their rated games (of ``game``, if given): the
    history's and the player page's "+12"."""
    rows = RatingChange.objects.filter(user=user).order_by("game", "at", "id")
    if game:
        rows = rows.filter(game=game)
    out: dict[int, dict] = {}
    last: dict[str, tuple[float, int]] = {}
    for change in rows.only("id", "game", "table_id", "ordinal", "at"):
        before, games = last.get(change.game, (MODEL.rating().ordinal(), 0))
        out[change.table_id] = changed(before, change.ordinal, games + 1)
        last[change.game] = (change.ordinal, games + 1)
    return out


def provisional(rating: Rating | None) -> bool:
    return rating is None or rating.games < PROVISIONAL_GAMES


def shown(rating: Rating | None) -> float | None:
    """The conservative rating as pages and the API show it (mu - 3 sigma, one decimal)."""
    return None if rating is None else round(rating.ordinal, 1)


# --- Leaderboards and players' records -------------------------------------------------------------

LEADERBOARD_PAGE = 50
CHART_POINTS = 100  # the last rated games a player's chart draws


def board(game: str, bots: bool = False):
    """The ratings on a game's leaderboard: people's, or bot accounts' (their own board: tables.bot_accounts)."""
    rows = Rating.objects.filter(game=game)
    if bots:
        return rows.filter(user__preference__bot_account=True)
    return rows.exclude(user__preference__bot_account=True)


def leaderboard(game: str, page: int, bots: bool = False, size: int = LEADERBOARD_PAGE) -> list[dict]:
    """One page of ``size`` rows of a game's leaderboard, best conservative rating first (two queries at
    most)."""
    start = (page - 1) * size
    rows = board(game, bots).select_related("user").order_by("-ordinal", "id")
    return [
        {
            "rank": start + i + 1,
            "username": r.user.username,
            "rating": shown(r),
            "display_rating": display_of(r),
            "games": r.games,
            "provisional": provisional(r),
        }
        for i, r in enumerate(rows[start : start + size])
    ]


def rank_of(game: str, user, bots: bool = False) -> dict | None:
    """``user``'s place on the game's leaderboard (people's or bot accounts') and their rating; None if they
    have none there."""
    if user is None or not user.is_authenticated:
        return None
    mine = board(game, bots).filter(user=user).first()
    if mine is None:
        return None
    ahead = board(game, bots).filter(
        models.Q(ordinal__gt=mine.ordinal) | models.Q(ordinal=mine.ordinal, id__lt=mine.id)
    )
    return {
        "rank": ahead.count() + 1,
        "rating": shown(mine),
        "display_rating": display_of(mine),
        "display": display_text(display_of(mine), provisional(mine)),
        "games": mine.games,
        "provisional": provisional(mine),
    }


def leaderboard_pages(game: str, bots: bool = False) -> int:
    return max(1, -(-board(game, bots).count() // LEADERBOARD_PAGE))


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
    return {"points": points, "width": width, "height": height, "low": display(low), "high": display(high)}
