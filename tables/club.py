"""The club's people: following and blocking (state changes), who is playing where, and the public tables
in play that anyone may watch ("Live now"). Nothing here shows a private table: a follower, a spectator
or the API sees only what any visitor could (tables listed in the lobby, their seats and progress)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from accounts import blocks, presence
from accounts.models import Block, ClubSetting, Follow
from rules import registry
from tables import ratings
from tables.errors import BadRequest, Forbidden, NotFound
from tables.models import Rating, Seat, Table


def person(username, *, active_only: bool = True):
    """The person called ``username`` (exactly, else case-insensitively); NotFound with "not possible"."""
    if not isinstance(username, str) or not username.strip() or "\x00" in username:
        raise NotFound(blocks.not_possible())
    people = get_user_model().objects.filter(is_active=True) if active_only else get_user_model().objects
    found = (
        people.filter(username=username).first() or people.filter(username__iexact=username.strip()).first()
    )
    if found is None:
        raise NotFound(blocks.not_possible())
    return found


# --- Following and blocking ----------------------------------------------------------------------


def follow(user, username) -> None:
    other = person(username)
    if other.pk == user.pk:
        raise BadRequest(gettext("You cannot follow yourself."))
    if blocks.between(user.pk, other.pk):
        raise Forbidden(blocks.not_possible())
    Follow.objects.get_or_create(follower=user, followed=other)


def unfollow(user, username) -> None:
    other = person(username)
    Follow.objects.filter(follower=user, followed=other).delete()


def follows(user, other) -> bool:
    return bool(
        user and user.is_authenticated and Follow.objects.filter(follower=user, followed=other).exists()
    )


@transaction.atomic
def block(user, username) -> None:
    """Block a person: they can no longer invite, challenge or join the blocker, whose pages and sockets
    stop showing their chat. Pending challenges between the two are cancelled; a follow of the blocker by
    them ends (they would read the blocker's presence)."""
    from tables.models import Challenge

    other = person(username)
    if other.pk == user.pk:
        raise BadRequest(gettext("You cannot block yourself."))
    Block.objects.get_or_create(blocker=user, blocked=other)
    Follow.objects.filter(follower=other, followed=user).delete()
    Challenge.objects.filter(
        status=Challenge.PENDING, challenger__in=[user, other], challenged__in=[user, other]
    ).update(status=Challenge.CANCELLED)
    transaction.on_commit(lambda: blocks.tell_sockets(user.pk), robust=True)


@transaction.atomic
def unblock(user, username) -> None:
    other = person(username, active_only=False)
    Block.objects.filter(blocker=user, blocked=other).delete()
    transaction.on_commit(lambda: blocks.tell_sockets(user.pk), robust=True)


def blocked_people(user) -> list:
    return [b.blocked for b in Block.objects.filter(blocker=user).select_related("blocked")]


def challenge_setting(user) -> str:
    row = ClubSetting.objects.filter(user=user).values_list("challenges", flat=True).first()
    return row or ClubSetting.EVERYONE


def set_challenge_setting(user, value: str) -> None:
    if value not in dict(ClubSetting.CHALLENGES):
        raise BadRequest(gettext("Choose who may challenge you."))
    ClubSetting.objects.update_or_create(user=user, defaults={"challenges": value})


# --- Who plays where ----------------------------------------------------------------------------------


def public_tables_of(user_ids) -> dict[int, list[int]]:
    """{user id: ids of the listed (not private) tables they play now}, in one query."""
    out: dict[int, list[int]] = {pk: [] for pk in user_ids}
    rows = (
        Seat.objects.filter(user_id__in=list(user_ids), table__status=Table.PLAYING, table__private=False)
        .order_by("-table__started_at")
        .values_list("user_id", "table_id")
    )
    for user_id, table_id in rows:
        out[user_id].append(table_id)
    return out


def people_rows(people, viewer=None) -> list[dict]:
    """Each person with their presence and the public tables they play now (lists of people)."""
    people = list(people)
    present = presence.of_many(people)
    playing = public_tables_of([p.pk for p in people])
    return [{"user": p, "presence": present[p.pk], "playing": playing[p.pk]} for p in people]


def following(user) -> list:
    return [
        f.followed
        for f in Follow.objects.filter(follower=user, followed__is_active=True).select_related("followed")
    ]


def followed_open_tables(user, limit: int = 20):
    """Listed open tables with a free seat that people ``user`` follows opened (the lobby's section)."""
    if not user.is_authenticated:
        return []
    free = Seat.objects.filter(user__isnull=True, bot="", departed=False).values("table_id")
    followed = Follow.objects.filter(follower=user).values("followed_id")
    hidden = Block.objects.filter(blocker=user).values("blocked_id")
    return (
        Table.objects.filter(status=Table.OPEN, private=False, pk__in=free, created_by__in=followed)
        .exclude(created_by__in=hidden)
        .exclude(seats__user=user)
        .select_related("created_by")
        .prefetch_related("seats__user")[:limit]
    )


# --- Live now ------------------------------------------------------------------------------------


SORTS = ("recent", "rating")
LIVE_LIMIT = 100


def live_tables(game: str | None = None, sort: str = "recent", limit: int = LIVE_LIMIT) -> list[dict]:
    """The listed tables in play: game, players (name, shown rating, presence), spectators, how far
    (the move count and, where the game has rounds, the round). Sorted by the newest start, or by the
    players' best rating. Private tables never appear."""
    tables = Table.objects.filter(status=Table.PLAYING, private=False)
    if game:
        tables = tables.filter(game=game)
    tables = list(tables.order_by("-started_at", "-pk").prefetch_related("seats__user")[: limit * 2])
    people = {s.user_id: s.user for t in tables for s in t.seats.all() if s.user_id}
    present = presence.of_many(list(people.values()))
    rated = {
        (r.user_id, r.game): r
        for r in Rating.objects.filter(user_id__in=list(people), game__in={t.game for t in tables})
    }
    watching = presence.spectators([t.pk for t in tables])
    rows = []
    for table in tables:
        players = []
        for seat in sorted(table.seats.all(), key=lambda s: s.index):
            person_row = seat.user if seat.user_id and not seat.replaced else None
            row = rated.get((seat.user_id, table.game)) if person_row else None
            rating = ratings.shown(row)
            players.append(
                {
                    "seat": seat,
                    "username": person_row.username if person_row else None,
                    "name": seat.display_name,
                    "rating": rating,
                    "display": ratings.display_text(ratings.display_of(row), ratings.provisional(row))
                    if row
                    else None,
                    "online": bool(present.get(seat.user_id)) if person_row else False,
                }
            )
        ratings_known = [p["rating"] for p in players if p["rating"] is not None]
        rows.append(
            {
                "table": table,
                "players": players,
                "spectators": watching.get(table.pk, 0),
                "move": table.seq,
                "round": round_of(table),
                "best": max(ratings_known) if ratings_known else None,
            }
        )
    if sort == "rating":
        rows.sort(key=lambda r: (r["best"] is None, -(r["best"] or 0)))
    return rows[:limit]


def round_of(table: Table) -> int | None:
    """The round the game is in, where its engine counts rounds (read from the stored state, no replay)."""
    state = table.state
    if isinstance(state, dict):
        value = state.get("round")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def live_json(rows: list[dict]) -> list[dict]:
    return [
        {
            "id": r["table"].pk,
            "game": r["table"].game,
            "players": [{"username": p["username"], "rating": p["rating"]} for p in r["players"]],
            "spectators": r["spectators"],
            "move": r["move"],
            "round": r["round"],
        }
        for r in rows
    ]


def known_game(slug) -> str | None:
    return slug if slug in registry.games() else None
