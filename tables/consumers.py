"""Live updates. The socket only pushes: moves go over HTTP.

The channel layer carries a signal ("table 42 is at seq 17"); each socket renders the table
for its own viewer, so a frame never holds a card its viewer may not see.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from tables.access import may_connect
from tables.notifications import user_group
from tables.rendering import render_frame_for


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        if not await database_sync_to_async(may_connect)(
            self.table_id, self.scope.get("user"), self.scope.get("session")
        ):
            await self.close(code=4404)  # a private table this socket may not watch: as if there were none
            return
        self.group = f"table-{self.table_id}"
        # Join the group before rendering the first frame: a move committed while that frame renders
        # then still reaches this socket (as a second frame) instead of falling between the two.
        await self.channel_layer.group_add(self.group, self.channel_name)
        frame = await database_sync_to_async(render_frame_for)(self.table_id, self.scope.get("user"))
        if frame is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=4404)
            return
        await self.accept()
        await self.send(text_data=frame)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing is accepted from the client: moves are HTTP posts."""

    async def table_updated(self, event):
        frame = await database_sync_to_async(render_frame_for)(self.table_id, self.scope.get("user"))
        if frame is not None:
            await self.send(text_data=frame)


def _badge(user) -> str:
    from tables.context_processors import awaiting_count

    return render_to_string("tables/_badge.html", {"your_turn_count": awaiting_count(user), "oob": True})


class NotificationConsumer(AsyncWebsocketConsumer):
    """The "Your turn" badge on every page, for a signed-in player."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(_badge)(user))

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Push only."""

    async def turn_changed(self, event):
        await self.send(text_data=await database_sync_to_async(_badge)(self.scope["user"]))
