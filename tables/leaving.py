"""Leave with your data, and leave.

``account_data`` is everything the site keeps about a person that they may read: profile, choices, decks,
ratings and their history, follows and blocks, what they said at tables, and every finished game they
played with its export (a file ``POST /api/replay`` or ``manage.py replay`` checks). A game still being
played is listed without its position (its hands are not over).

``delete_account`` removes the person in one database transaction: their tokens, sessions, push devices,
follows, blocks, challenges, invitations, decks, ratings and chat lines go; the games they played stay
whole for the others. Their seats stay, marked ``departed`` ("deleted player"), with the moves, so every
replay and export still reproduces its game and the others' ratings are what they were; a game they were
playing goes on with a bot in their seat, an open table of theirs is cancelled. Their sockets close after
commit, and their username cannot be taken again for DELETED_NAME_DAYS days.
"""

from __future__ import annotations

import json
import logging

from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone

from accounts import names
from accounts.models import Block, ClubSetting, Deck, Follow, NotificationChoice, Preference
from accounts.sockets import close_account_sockets
from tables import history, services
from tables.models import ChatMessage, Rating, RatingChange, Seat, Table
from tables.services import Forbidden

log = logging.getLogger(__name__)


def account_data(user) -> dict:
    preference = Preference.objects.filter(user=user).first()
    choice = NotificationChoice.objects.filter(user=user).first()
    club = ClubSetting.objects.filter(user=user).first()
    seats = list(
        Seat.objects.filter(user=user).select_related("table").order_by("table__created_at", "table_id")
    )
    finished = [s.table for s in seats if s.table.status == Table.FINISHED]
    finished_by_id = {
        t.pk: t for t in Table.objects.filter(pk__in=[t.pk for t in finished]).prefetch_related("seats__user")
    }
    games = []
    for seat in seats:
        table = seat.table
        entry = {
            "id": table.pk,
            "game": table.game,
            "status": table.status,
            "seat": seat.index,
            "rated": table.rated,
            "created_at": table.created_at.isoformat(),
            "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        }
        if table.status == Table.FINISHED:
            entry["export"] = history.export(finished_by_id[table.pk])
        games.append(entry)
    return {
        "profile": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "language": preference.language if preference else "",
            "challenges_from": club.challenges if club else ClubSetting.EVERYONE,
            "picture": bool(club and club.picture),
            "notifications": (
                {
                    "email": choice.email,
                    "email_digest": choice.email_digest,
                    "push": choice.push,
                    "sound": choice.sound,
                    "time_zone": choice.time_zone,
                    "quiet_from": choice.quiet_from.isoformat() if choice.quiet_from else None,
                    "quiet_until": choice.quiet_until.isoformat() if choice.quiet_until else None,
                }
                if choice
                else None
            ),
        },
        "decks": [
            {"name": d.name, "game": d.game, "cards": d.cards, "created_at": d.created_at.isoformat()}
            for d in Deck.objects.filter(owner=user)
        ],
        "ratings": [
            {"game": r.game, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "games": r.games}
            for r in Rating.objects.filter(user=user).order_by("game")
        ],
        "rating_history": [
            {"game": c.game, "table": c.table_id, "ordinal": c.ordinal, "at": c.at.isoformat()}
            for c in RatingChange.objects.filter(user=user).order_by("at", "id")
        ],
        "following": [
            f.followed.username for f in Follow.objects.filter(follower=user).select_related("followed")
        ],
        "blocked": [b.blocked.username for b in Block.objects.filter(blocker=user).select_related("blocked")],
        "chat": [
            {"table": m.table_id, "text": m.text, "phrase": m.phrase or None, "at": m.at.isoformat()}
            for m in ChatMessage.objects.filter(user=user).order_by("id")
        ],
        "games": games,
    }


def account_file(user) -> HttpResponse:
    """The account's data as a JSON download (``GET /api/account/export`` and the profile's button)."""
    stamp = timezone.now().strftime("%Y%m%d")
    response = HttpResponse(
        json.dumps(account_data(user), ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="cardclub-{user.pk}-{stamp}.json"'
    return response


class WrongPassword(Forbidden):
    pass


def delete_account(user, password) -> None:
    """Check the password, then remove the person in one transaction (see the module's docstring)."""
    from django.utils.translation import gettext

    if not isinstance(password, str) or not password or not user.check_password(password):
        raise WrongPassword(gettext("The password is wrong: the account stays."))
    user_id = user.pk
    with transaction.atomic():
        for table_id in Seat.objects.filter(user=user, table__status=Table.OPEN).values_list(
            "table_id", flat=True
        ):
            services.leave_table(table_id, user)
        playing = Seat.objects.filter(user=user, table__status=Table.PLAYING, conceded=False)
        for table_id in playing.values_list("table_id", flat=True):
            services.concede(table_id, user)  # a bot plays the seat for good; the game goes on
        Seat.objects.filter(user=user).update(departed=True, chat_muted=False)
        ChatMessage.objects.filter(user=user).delete()
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
            if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
                session.delete()
        names.leave_behind(user.username)
        user.delete()  # tokens, devices, follows, blocks, challenges, decks, ratings: CASCADE; seats: SET_NULL
        transaction.on_commit(lambda: close_account_sockets(user_id), robust=True)
