"""Sockets end with their session: logging out closes every socket that session opened, and a password
change, a reset or an account's deletion closes the sockets of that account's other sessions.

A signed-in socket joins a group named after its session (a hash of the session key: the key itself
never goes into a group name, which the channel layer may log or store) and one named after its account.
``user_logged_out`` sends the session's group ``session.ended``; ``close_account_sockets`` sends the
account's group ``account.ended`` naming the session to keep, if any. Each socket concerned then sends no
further frame and closes with code 4401.
"""

from __future__ import annotations

import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

log = logging.getLogger(__name__)

SESSION_ENDED_CODE = 4401


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _scope_session_group(scope) -> str | None:
    user, session = scope.get("user"), scope.get("session")
    if user is None or not user.is_authenticated or session is None or not session.session_key:
        return None
    return session_group(session.session_key)


def account_group(user_id: int) -> str:
    return f"account-{user_id}"


async def join_session_group(consumer) -> None:
    """Put a consumer's socket in its session's group and its account's (nothing for an anonymous socket)."""
    group = _scope_session_group(consumer.scope)
    if group is None:
        return
    for name in (group, account_group(consumer.scope["user"].pk)):
        if name not in consumer.groups:
            consumer.groups.append(name)
            await consumer.channel_layer.group_add(name, consumer.channel_name)


class SessionBoundSocket:
    """Mixin for an AsyncWebsocketConsumer: the socket closes when its session logs out.

    It joins the session's group as the socket opens, before the consumer's own connect(), and leaves
    it through Channels' own ``groups`` handling when the socket closes. List it before the consumer's base.
    """

    async def websocket_connect(self, message):
        await join_session_group(self)
        await super().websocket_connect(message)

    async def session_ended(self, event):
        self.session_over = True
        await self.close(code=SESSION_ENDED_CODE)

    async def account_ended(self, event):
        """The account's password changed (or it was reset, or deleted): every session but ``keep`` ends."""
        if event.get("keep") is None or event["keep"] != _scope_session_group(self.scope):
            await self.session_ended(event)

    async def send(self, *args, **kwargs):
        """No frame leaves once the session has ended, not even one already on its way."""
        if not getattr(self, "session_over", False):
            await super().send(*args, **kwargs)


@receiver(user_logged_out, dispatch_uid="accounts.sockets.close_on_logout")
def close_sockets_on_logout(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    layer = get_channel_layer()
    if session is None or not session.session_key or layer is None:
        return
    try:  # the log-out is made whatever happens to this: a failure of the channel layer is logged
        async_to_sync(layer.group_send)(session_group(session.session_key), {"type": "session.ended"})
    except Exception:
        log.exception("closing the sockets of a session that logged out failed")


def close_account_sockets(user_id: int, keep_session_key: str | None = None) -> None:
    """Close every socket of the account's sessions but ``keep_session_key``'s (None: all of them). For a
    password change (the session that changed it stays), a reset and an account's deletion. A failure of
    the channel layer is logged: the change it follows is made and stays made."""
    layer = get_channel_layer()
    if layer is None:
        return
    keep = session_group(keep_session_key) if keep_session_key else None
    try:
        async_to_sync(layer.group_send)(account_group(user_id), {"type": "account.ended", "keep": keep})
    except Exception:
        log.exception("closing the sockets of account %s failed", user_id)
