"""Telling a player it is their turn: a live badge on whatever page they have open, and an e-mail.

The e-mail is only queued (accounts.mail's outbox, in the caller's transaction) and only to a verified
address; the worker sends it. Nothing here waits for a mail server.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import mail
from accounts.preferences import language_of, language_of_id


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def turns_changed(table, newly_awaited, no_longer_awaited) -> None:
    """Inside the move's transaction: queue "your turn" mail for those whose turn began, and after
    commit refresh the live badge of everyone whose turn began or ended."""
    user_ids = [user.pk for user in [*newly_awaited, *no_longer_awaited]]
    transaction.on_commit(lambda: refresh_badges(table.pk, user_ids), robust=True)  # (logged if it fails)
    for user in newly_awaited:
        # In a live game the turn comes back every minute: one e-mail per table and player per window.
        if mail.is_verified(user) and cache.add(
            f"turn-mail:{table.pk}:{user.pk}", 1, settings.TURN_MAIL_WINDOW
        ):
            words = {"username": user.username, "table": table.title, "id": table.pk, "url": table_url(table)}
            with translation.override(language_of(user)):  # the recipient's language, not the mover's
                mail.enqueue(
                    user.email,
                    _("Your turn: %(table)s #%(id)s") % words,
                    _("Hello %(username)s,\n\nIt is your turn at %(table)s #%(id)s.\n%(url)s\n") % words,
                )


def refresh_badges(table_id: int, user_ids: list[int]) -> None:
    """Push each person's badge, rendered once however many pages they have open (and not at all when
    the in-process layer knows they have none)."""
    layer = get_channel_layer()
    if layer is None:
        return
    from tables.live import has_listeners

    for user_id in user_ids:
        group = user_group(user_id)
        if has_listeners(layer, group):
            message = {"type": "turn.changed", "table": table_id, "html": badge(user_id)}
            async_to_sync(layer.group_send)(group, message)


def badge(user) -> str:  # (a user or a user id)
    """The "Your turn" badge of the navigation, as an out-of-band swap, in the person's language (its
    tooltip is words; sockets and pushes have no request to take it from)."""
    from tables.context_processors import waiting_for

    with translation.override(language_of_id(getattr(user, "pk", user))):
        return render_to_string("tables/_badge.html", {"waiting": waiting_for(user), "oob": True})


def table_url(table) -> str:
    return settings.SITE_URL.rstrip("/") + table.get_absolute_url()


def mail_player(user, subject: str, body: str) -> bool:
    """Queue one e-mail to a player, if their address is verified; the worker sends it."""
    if not mail.is_verified(user):
        return False
    mail.enqueue(user.email, subject, body)
    return True
