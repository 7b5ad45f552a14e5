"""Sockets end with their session: logging out closes every socket that session opened.

A signed-in socket joins a group named after its session (a hash of the session key: the key itself
never goes into a group name, which the channel layer may log or store). ``user_logged_out`` sends that
group ``session.ended``; each socket then sends no further frame and closes with code 4401.
"""

from __future__ import annotations

import hashlib

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

SESSION_ENDED_CODE = 4401


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _scope_session_group(scope) -> str | None:
    user, session = scope.get("user"), scope.get("session")
    if user is None or not user.is_authenticated or session is None or not session.session_key:
        return None
    return session_group(session.session_key)


async def join_session_group(consumer) -> None:
    """Put a consumer's socket in its session's group (nothing for an anonymous socket)."""
    group = _scope_session_group(consumer.scope)
    if group is not None and group not in consumer.groups:
        consumer.groups.append(group)
        await consumer.channel_layer.group_add(group, consumer.channel_name)


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
    async_to_sync(layer.group_send)(session_group(session.session_key), {"type": "session.ended"})
