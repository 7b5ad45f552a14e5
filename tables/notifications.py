"""Telling a player it is their turn: a live badge on whatever page they have open, an e-mail and a push.

The e-mail and the push are only queued (the outboxes of accounts.mail and accounts.push, in the caller's
transaction), each as the person chose (accounts.NotificationChoice: channels, a daily digest instead of
a mail per turn, quiet hours); mail only to a verified address. The worker sends them. Nothing here waits
for a mail server or a push service.
"""

from __future__ import annotations

from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import mail, push
from accounts.models import NotificationChoice
from accounts.preferences import (
    language_of,
    language_of_id,
    languages_of_ids,
    not_before,
    notification_choice,
    quiet_end,
    telling,
    zone_of,
)
from tables import loops
from tables.context_processors import waiting_for, waiting_for_people
from tables.live import Also, Publication, listened
from tables.models import Table


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def turns_changed(
    table, newly_awaited, no_longer_awaited, stamps: dict[int, str] | None, publication: Publication
) -> None:
    """Inside the move's transaction: queue "your turn" mail and pushes for those whose turn began, and have
    the change's ``publication`` refresh, with its frames after commit, the live badge of everyone whose
    turn began or ended (``tables.live.Also``). How each is told (their choice, whether they have a push
    device) is what the process keeps under their stamp, read again once it changed anywhere
    (``accounts.preferences.telling``); ``stamps``: the seated people's, as the move read them
    (``tables.rooms``)."""
    user_ids = list(dict.fromkeys(user.pk for user in [*newly_awaited, *no_longer_awaited]))
    # (the table as the move saved it: its id and game are all a badge names)
    publication.also.append(
        Also(
            [user_group(pk) for pk in user_ids],
            [],
            lambda heard, _streaming: badge_messages(
                table, [pk for pk in user_ids if user_group(pk) in heard]
            ),
        )
    )
    now = timezone.now()
    told = telling([user.pk for user in newly_awaited], stamps)
    for user in newly_awaited:
        choice = told[user.pk].choice
        words = {"username": user.username, "table": table.title, "id": table.pk, "url": table_url(table)}
        with translation.override(language_of(user)):  # the recipient's language, not the mover's
            push.notify(
                user,
                _("Your turn: %(table)s #%(id)s") % words,
                _("It is your turn. Open the table to play."),
                words["url"],
                tag=table.pk,
                table_id=table.pk,
                now=now,
                choice=choice,
                devices=told[user.pk].devices,
            )
            # A digest reader gets the day's list instead (send_digests). In a live game the turn comes back
            # every minute: one e-mail per table and player per window.
            if (
                choice.email
                and not choice.email_digest
                and mail.is_verified(user)
                and cache.add(f"turn-mail:{table.pk}:{user.pk}", 1, settings.TURN_MAIL_WINDOW)
            ):
                mail.enqueue(
                    user.email,
                    _("Your turn: %(table)s #%(id)s") % words,
                    _("Hello %(username)s,\n\nIt is your turn at %(table)s #%(id)s.\n%(url)s\n") % words,
                    not_before=not_before(choice, now),
                )


def refresh_badges(table_id: int, user_ids: list[int], table=None) -> None:
    """Push each person's badge, rendered once however many pages they have open, and not at all when they
    have none (the in-process layer's groups, or the sockets counted in the cache: ``tables.live.listened``).
    ``table``: the table ``table_id`` names, if at hand."""
    layer = get_channel_layer()
    if layer is None:
        return
    people = list(dict.fromkeys(user_ids))
    heard = listened(layer, [user_group(pk) for pk in people])  # (one cache read on Redis)
    listening = [pk for pk in people if user_group(pk) in heard]
    if not listening:
        return
    if table is None:
        table = Table.objects.filter(pk=table_id).only("pk", "game").first()
    # (from the event loop: a request's thread does not wait for it)
    loops.send(layer, badge_messages(table, listening, table_id))


def badge_messages(table, listening: list[int], table_id: int | None = None) -> list[tuple[str, dict]]:
    """Each of ``listening``'s badge, naming ``table`` as the one whose turn changed (``table_id``: its id,
    None for no table), for their group."""
    if not listening:
        return []
    if table_id is None and table is not None:
        table_id = table.pk
    # (what waits for them and their languages read for all of them at once, not person by person)
    waiting, languages = waiting_for_people(listening), languages_of_ids(listening)
    return [
        (
            user_group(user_id),
            {
                "type": "turn.changed",
                "table": table_id,
                "html": badge(user_id, changed=table, waiting=waiting[user_id], lang=languages[user_id]),
            },
        )
        for user_id in listening
    ]


def badge(user, changed=None, *, waiting=None, lang: str | None = None) -> str:  # (a user or a user id)
    """The "Your turn" badge of the navigation, as an out-of-band swap, in the person's language (its
    tooltip is words; sockets and pushes have no request to take it from). It names the most urgent waiting
    tables (the "Next game" button's) and ``changed``, the table whose turn just changed (a browser
    notification names and opens it). ``waiting`` and ``lang``: what waits for them and their language,
    when the caller read them already."""
    with translation.override(lang or language_of_id(getattr(user, "pk", user))):
        context = {"waiting": waiting or waiting_for(user), "oob": True, "changed": changed}
        return render_to_string("tables/_badge.html", context)


def table_url(table) -> str:
    return settings.SITE_URL.rstrip("/") + table.get_absolute_url()


def mail_player(user, subject: str, body: str) -> bool:
    """Queue one e-mail to a player, if their address is verified and they want mail; the worker sends it,
    when their quiet hours are over."""
    choice = notification_choice(user)
    if not choice.email or not mail.is_verified(user):
        return False
    mail.enqueue(user.email, subject, body, not_before=not_before(choice, timezone.now()))
    return True


def reminded(table, user, minutes: int) -> int:
    """A clock about to run out (the worker's reminder): a mail and a push; 1 if either was queued."""
    words = {"username": user.username, "table": table.title, "id": table.pk, "minutes": minutes}
    with translation.override(language_of(user)):  # each recipient reads their own language
        subject = _("Reminder: your move at %(table)s #%(id)s") % words
        pushed = push.notify(
            user,
            subject,
            _("About %(minutes)d minutes left, then a bot takes your seat.") % words,
            table_url(table),
            tag=table.pk,
            table_id=table.pk,
        )
        mailed = mail_player(
            user,
            subject,
            _(
                "Hello %(username)s,\n\nYou have about %(minutes)d minutes left to move at %(table)s "
                "#%(id)s. After that a bot takes your seat (you can reclaim it).\n%(url)s\n"
            )
            % {**words, "url": table_url(table)},
        )
    return int(bool(mailed or pushed))


def invited(table, inviter, invitee) -> None:
    """Someone invites ``invitee`` to an open table: a mail to a verified address and a push, in the
    invitee's language, both with the invitation's link (it lets them into a private table)."""
    url = settings.SITE_URL.rstrip("/") + table.invite_path
    words = {
        "username": invitee.username,
        "name": inviter.username,
        "table": table.title,
        "id": table.pk,
        "url": url,
    }
    with translation.override(language_of(invitee)):
        title = _("%(name)s invites you to %(table)s #%(id)s") % words
        push.notify(invitee, title, _("Open the table to take a seat."), url, tag=table.pk)
        mail_player(
            invitee,
            title,
            _("Hello %(username)s,\n\n%(name)s invites you to a table of %(table)s.\n%(url)s\n") % words,
        )


def challenged(user, challenger_name: str, game_title: str, url: str, tag) -> int:
    """Someone challenges ``user`` to a game (for the challenges feature): a push in their language that
    opens ``url`` (absolute); ``tag`` replaces an older push about the same challenge."""
    words = {"name": challenger_name, "game": game_title}
    with translation.override(language_of(user)):
        return push.notify(
            user,
            _("%(name)s challenges you to %(game)s") % words,
            _("Open it to accept or decline."),
            url,
            tag=tag,
        )


def send_digests(now=None) -> int:
    """The daily digest, for those who chose it instead of a mail per turn: once a local day, from
    DIGEST_HOUR on and outside quiet hours, the tables waiting for them, most urgent first as on the Your
    turn page (none waiting: no mail). A constant number of queries, however many people read it."""
    from tables.your_turn import awaited_seats, most_urgent_first

    now = now or timezone.now()
    readers = NotificationChoice.objects.filter(
        email=True, email_digest=True, user__is_active=True
    ).select_related("user", "user__verified_email", "user__preference")
    due = {}  # user id: (choice, their local date)
    for choice in readers:
        local = now.astimezone(zone_of(choice))
        if (
            choice.digest_sent_on == local.date()
            or local.hour < settings.DIGEST_HOUR
            or quiet_end(choice, now)
        ):
            continue
        if mail.is_verified(choice.user):
            due[choice.user_id] = (choice, local.date())
    if not due:
        return 0
    waiting: dict[int, list] = {}
    for seat in most_urgent_first(awaited_seats(user_id__in=list(due)).select_related("table")):
        waiting.setdefault(seat.user_id, []).append(seat)
    if not waiting:
        return 0
    with transaction.atomic():
        # Each reader's choice locked and read again: not sent there meanwhile. PostgreSQL: another worker
        # skips the locked rows. SQLite: the transaction takes the write lock as it begins (transaction_mode
        # IMMEDIATE), so another worker waits here and then reads the dates this one wrote.
        sent_on = dict(
            NotificationChoice.objects.select_for_update(skip_locked=True)
            .filter(pk__in=[due[user_id][0].pk for user_id in waiting])
            .values_list("pk", "digest_sent_on")
        )
        claimed = []
        for user_id in waiting:
            choice, today = due[user_id]
            if choice.pk in sent_on and sent_on[choice.pk] != today:
                choice.digest_sent_on = today
                claimed.append(choice)
        NotificationChoice.objects.bulk_update(claimed, ["digest_sent_on"])
        mails = []
        for choice in claimed:
            user, seats = choice.user, waiting[choice.user_id]
            with translation.override(language_of(user)):
                lines = [
                    _("- %(table)s #%(id)s: %(url)s")
                    % {"table": s.table.title, "id": s.table.pk, "url": table_url(s.table)}
                    for s in seats
                ]
                subject = ngettext(
                    "Card Club: %(count)d table waits for you",
                    "Card Club: %(count)d tables wait for you",
                    len(seats),
                ) % {"count": len(seats)}
                body = _("Hello %(username)s,\n\nThese tables wait for your move:\n%(tables)s\n") % {
                    "username": user.username,
                    "tables": "\n".join(lines),
                }
            mails.append((user.email, subject, body))
        mail.enqueue_many(mails)
    return len(claimed)
