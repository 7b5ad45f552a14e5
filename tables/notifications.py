"""Telling a player it is their turn: a live badge on whatever page they have open, and an e-mail."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.template.loader import render_to_string

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def turns_changed(table, newly_awaited, no_longer_awaited) -> None:
    """Refresh the live badge of everyone whose turn began or ended; e-mail those whose turn began."""
    layer = get_channel_layer()
    if layer is not None:
        from tables.live import has_listeners

        for user in [*newly_awaited, *no_longer_awaited]:
            if has_listeners(layer, user_group(user.pk)):  # (no page open: nothing to render)
                message = {"type": "turn.changed", "table": table.pk, "html": badge(user)}
                async_to_sync(layer.group_send)(user_group(user.pk), message)
    for user in newly_awaited:
        # In a live game the turn comes back every minute: one e-mail per table and player per window.
        if not cache.add(f"turn-mail:{table.pk}:{user.pk}", 1, settings.TURN_MAIL_WINDOW):
            continue
        mail_player(
            user,
            f"Your turn: {table.title} #{table.pk}",
            f"Hello {user.username},\n\nIt is your turn at {table.title} #{table.pk}.\n{table_url(table)}\n",
        )


def badge(user) -> str:
    """The "Your turn" badge of the navigation, as an out-of-band swap."""
    from tables.context_processors import awaiting_count

    return render_to_string("tables/_badge.html", {"your_turn_count": awaiting_count(user), "oob": True})


def table_url(table) -> str:
    return settings.SITE_URL.rstrip("/") + table.get_absolute_url()


def mail_player(user, subject: str, body: str) -> bool:
    """One e-mail to a player, if they gave an address. A mail server being down never blocks the game."""
    if not user.email:
        return False
    try:
        send_mail(subject=subject, message=body, from_email=None, recipient_list=[user.email])
    except Exception:
        log.exception("could not send an e-mail to user %s", user.pk)
        return False
    return True
