"""The socket of a tournament's page (``/ws/tournaments/<id>/``): it joins its language's group and
forwards the live part each change sends (tables.tournament_live)."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.socket_guard import GuardedSocket
from tables import tournament_live
from tables.consumers import NoConnectionCheckPerMessage, socket_language
from tables.models import Tournament


class TournamentConsumer(GuardedSocket, NoConnectionCheckPerMessage, AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self):
        pk = self.scope["url_route"]["kwargs"]["tournament_id"]
        if not await database_sync_to_async(Tournament.objects.filter(pk=pk).exists)():
            await self.close(code=4404)
            return
        lang = await database_sync_to_async(socket_language)(self.scope)
        self.group = tournament_live.group(pk, lang)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Push only."""

    async def tournament_frame(self, event):
        await self.send(text_data=event["html"])
