"""Challenges: one person asks another to a game (its players, options, clock, rated or not). The challenged
person sees it live (badge, "Your turn" page), gets a push and an e-mail as they chose, and accepts (the
table is made and starts: the challenger in seat 0, the challenged in seat 1, the other seats bots or open)
or declines (the challenger is told). It expires at the time the challenger chose; the worker marks it.

A refusal (no such person, a block either way, a person who takes no challenges or only from people they
follow) says "not possible" and nothing more, and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts import blocks, push
from accounts.limits import LimitReached, room_for
from accounts.models import ClubSetting, Follow
from accounts.preferences import language_of
from tables import api_events, loops, notifications, selectors, services, social
from tables.club import person
from tables.errors import BadRequest, Conflict, Forbidden, NotFound
from tables.models import Challenge, Seat, Table

OPEN_SEAT = "open"
LIVE_CLOCK = 3600  # a clock under an hour per move is a live game: its challenge waits minutes, not a day
EXPIRY_MIN, EXPIRY_MAX = 60, 7 * 24 * 3600


def default_expiry(move_time: int | None) -> int:
    """Seconds a challenge waits for an answer when the challenger names none."""
    if move_time is not None and move_time < LIVE_CLOCK:
        return settings.CHALLENGE_LIVE_EXPIRY
    return settings.CHALLENGE_TURN_EXPIRY


def _whole(value, name: str):
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(gettext("%(name)s must be a whole number.") % {"name": name})
    return value


def may_challenge(challenger, challenged) -> bool:
    """Whether ``challenged`` takes a challenge from ``challenger`` (no block either way, and their setting)."""
    if challenger.pk == challenged.pk or blocks.between(challenger.pk, challenged.pk):
        return False
    setting = ClubSetting.objects.filter(user=challenged).values_list("challenges", flat=True).first()
    if setting == ClubSetting.NOBODY:
        return False
    if setting == ClubSetting.FOLLOWED:
        return Follow.objects.filter(follower=challenged, followed=challenger).exists()
    return True


@transaction.atomic
def create(
    challenger,
    username,
    game,
    players=None,
    options=None,
    move_time=None,
    rated=True,
    others="casual",
    expires_in=None,
) -> Challenge:
    engine = services.get_game(game)
    challenged = person(username)
    if challenged.pk == challenger.pk:
        raise BadRequest(gettext("You cannot challenge yourself."))
    if not may_challenge(challenger, challenged):
        raise Forbidden(blocks.not_possible())
    players = _whole(players, "players")
    if players is None:
        players = max(2, engine.min_players)
    move_time = _whole(move_time, "move_time")
    options = services.checked_settings(engine, players, options, move_time)
    if players < 2:
        raise BadRequest(gettext("A challenge is for two players or more."))
    if others not in (*services.BOT_LEVELS, OPEN_SEAT):
        raise BadRequest(
            gettext("The other seats are one of %(choices)s.")
            % {"choices": ", ".join((*services.BOT_LEVELS, OPEN_SEAT))}
        )
    if not isinstance(rated, bool):
        raise BadRequest(gettext("rated is true or false."))
    expires_in = _whole(expires_in, "expires_in") or default_expiry(move_time)
    if not EXPIRY_MIN <= expires_in <= EXPIRY_MAX:
        raise BadRequest(
            gettext("A challenge waits from %(min)d seconds to %(max)d (7 days).")
            % {"min": EXPIRY_MIN, "max": EXPIRY_MAX}
        )
    with_bots = players > 2 and others != OPEN_SEAT
    pending = Challenge.objects.filter(
        challenger=challenger, status=Challenge.PENDING, expires_at__gt=timezone.now()
    )
    limit = settings.CHALLENGE_LIMIT
    message = gettext("You have %(limit)d challenges waiting for an answer: wait for one first.") % {
        "limit": limit
    }
    try:
        with room_for(challenger, pending, limit, message):
            challenge = Challenge.objects.create(
                challenger=challenger,
                challenged=challenged,
                game=game,
                players=players,
                others=others if players > 2 else "casual",
                options=options,
                move_time=move_time,
                rated=rated and not with_bots,
                expires_at=timezone.now() + timedelta(seconds=expires_in),
            )
    except LimitReached as exc:
        raise services.TooMany(exc.message) from None
    _tell_challenged(challenge)
    return challenge


def _tell_challenged(challenge: Challenge) -> None:
    """Inside the transaction: a push and an e-mail as the challenged person chose; after commit, their badge."""
    challenged = challenge.challenged
    url = social.site_url(reverse("tables:dashboard"))
    notifications.challenged(
        challenged, challenge.challenger.username, challenge.title, url, f"challenge-{challenge.pk}"
    )
    with translation.override(language_of(challenged)):
        words = {
            "username": challenged.username,
            "name": challenge.challenger.username,
            "game": challenge.title,
            "url": url,
        }
        notifications.mail_player(
            challenged,
            gettext("%(name)s challenges you to %(game)s") % words,
            gettext(
                "Hello %(username)s,\n\n%(name)s challenges you to a game of %(game)s. Accept or decline it here:\n%(url)s\n"
            )
            % words,
        )
    transaction.on_commit(lambda: notifications.refresh_badges(None, [challenged.pk]), robust=True)
    api_events.tell(
        [challenge.challenger_id, challenged.pk],
        {"type": "challenge", "challenge": challenge_json(challenge)},
    )


def _locked(challenge_id, user) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update().filter(pk=challenge_id).filter(**{"challenged": user}).first()
        if isinstance(challenge_id, int)
        else None
    )
    if challenge is None:
        raise NotFound(gettext("No such challenge."))
    if challenge.status != Challenge.PENDING or challenge.expires_at <= timezone.now():
        raise Conflict(gettext("This challenge is no longer open."))
    return challenge


@transaction.atomic
def accept(challenge_id, user) -> Table:
    """The challenged person accepts: the table is made (the challenger's, seat 0; theirs, seat 1; the
    others bots, or open for anyone) and starts when every seat is taken."""
    challenge = _locked(challenge_id, user)
    challenge = Challenge.objects.select_related("challenger", "challenged").get(pk=challenge.pk)
    if not challenge.challenger.is_active or blocks.between(challenge.challenger_id, user.pk):
        raise Forbidden(blocks.not_possible())
    bots = None
    if challenge.others != OPEN_SEAT and challenge.players > 2:
        bots = [{"seat": i, "level": challenge.others} for i in range(2, challenge.players)]
    table = services.create_table(
        challenge.challenger,
        challenge.game,
        challenge.players,
        dict(challenge.options),
        bots=bots,
        move_time=challenge.move_time,
        rated=challenge.rated,
    )
    services.take_seat(table, user)  # (seat 1: the challenger holds seat 0, bots the seats after)
    if not Seat.objects.filter(table=table, user__isnull=True, bot="").exists():
        table = services.start_table(table.pk, challenge.challenger, person_chose=challenge.rated)
    else:
        services._announce(table)
    challenge.status, challenge.table, challenge.answered_at = Challenge.ACCEPTED, table, timezone.now()
    challenge.save(update_fields=["status", "table", "answered_at"])
    _tell_challenger(challenge, accepted=True)
    return table


@transaction.atomic
def decline(challenge_id, user) -> None:
    challenge = _locked(challenge_id, user)
    challenge = Challenge.objects.select_related("challenger", "challenged").get(pk=challenge.pk)
    challenge.status, challenge.answered_at = Challenge.DECLINED, timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    _tell_challenger(challenge, accepted=False)
    api_events.tell([challenge.challenger_id], {"type": "challengeDeclined", "challenge": challenge.pk})


@transaction.atomic
def cancel(challenge_id, user) -> None:
    """The challenger takes back a challenge not yet answered."""
    challenge = (
        Challenge.objects.select_for_update().filter(pk=challenge_id, challenger=user).first()
        if isinstance(challenge_id, int)
        else None
    )
    if challenge is None:
        raise NotFound(gettext("No such challenge."))
    if challenge.status != Challenge.PENDING:
        raise Conflict(gettext("This challenge is no longer open."))
    challenge.status, challenge.answered_at = Challenge.CANCELLED, timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    challenged_id = challenge.challenged_id
    transaction.on_commit(lambda: notifications.refresh_badges(None, [challenged_id]), robust=True)
    api_events.tell([challenged_id], {"type": "challengeCanceled", "challenge": challenge.pk})


def _tell_challenger(challenge: Challenge, accepted: bool) -> None:
    challenger = challenge.challenger
    words = {"name": challenge.challenged.username, "game": challenge.title}
    if accepted:
        url = notifications.table_url(challenge.table)
    else:
        url = social.site_url(reverse("tables:dashboard"))
    with translation.override(language_of(challenger)):
        if accepted:
            title = gettext("%(name)s accepted your challenge to %(game)s") % words
            body = gettext("The table is ready. Open it to play.")
        else:
            title = gettext("%(name)s declined your challenge to %(game)s") % words
            body = gettext("Maybe another time.")
        push.notify(challenger, title, body, url, tag=f"challenge-{challenge.pk}")
    challenged_id = challenge.challenged_id
    transaction.on_commit(lambda: notifications.refresh_badges(None, [challenged_id]), robust=True)
    transaction.on_commit(lambda: tell_live(challenger.pk, title), robust=True)


def tell_live(user_id: int, news: str) -> None:
    """After commit: the person's open pages get their badge and the news (a toast), over the badge socket."""
    from channels.layers import get_channel_layer
    from django.template.loader import render_to_string

    from tables.live import has_listeners

    layer = get_channel_layer()
    group = notifications.user_group(user_id)
    if layer is None or not has_listeners(layer, group):
        return
    html = notifications.badge(user_id) + render_to_string("tables/_news.html", {"news": news, "oob": True})
    loops.send(layer, [(group, {"type": "turn.changed", "table": None, "html": html})])  # (from the loop)


@transaction.atomic
def expire_due(now=None) -> int:
    """The worker's part: challenges past their time are marked expired (their badges refreshed after commit;
    a layer that fails is logged, and the tick goes on)."""
    now = now or timezone.now()
    due = list(
        Challenge.objects.filter(status=Challenge.PENDING, expires_at__lte=now).values_list(
            "pk", "challenged_id"
        )
    )
    if not due:
        return 0
    Challenge.objects.filter(pk__in=[pk for pk, _ in due], status=Challenge.PENDING).update(
        status=Challenge.EXPIRED
    )
    challenged_ids = sorted({user_id for _, user_id in due})
    transaction.on_commit(lambda: notifications.refresh_badges(None, challenged_ids), robust=True)
    for pk, user_id in due:
        api_events.tell([user_id], {"type": "challengeCanceled", "challenge": pk})
    return len(due)


received = selectors.challenges_received  # (a read: the badge's context reads it too, without this module)


SENT_SHOWN_DAYS = 7


def sent(user):
    """``user``'s own challenges of the last days: waiting, and how the others were answered."""
    since = timezone.now() - timedelta(days=SENT_SHOWN_DAYS)
    return (
        Challenge.objects.filter(challenger=user, created_at__gte=since)
        .select_related("challenged", "table")
        .order_by("-created_at", "-pk")[:50]
    )


def shown_status(challenge: Challenge, now=None) -> str:
    now = now or timezone.now()
    if challenge.status == Challenge.PENDING and challenge.expires_at <= now:
        return Challenge.EXPIRED
    return challenge.status


def challenge_json(challenge: Challenge) -> dict:
    return {
        "id": challenge.pk,
        "from": challenge.challenger.username,
        "to": challenge.challenged.username,
        "game": challenge.game,
        "players": challenge.players,
        "others": challenge.others,
        "options": challenge.options,
        "move_time": challenge.move_time,
        "rated": challenge.rated,
        "status": shown_status(challenge),
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "table": challenge.table_id,
    }


def challenge_rows(user) -> dict:
    """The dashboard's challenges: received (to answer) and sent (waiting, or how they were answered)."""
    mine = list(sent(user))
    for c in mine:
        c.shown_status = shown_status(c)
    return {"challenges_received": list(received(user)), "challenges_sent": mine}
