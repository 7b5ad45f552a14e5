from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from tables import consumers, tournament_consumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other path (``/ws/tables/abc/``): refused cleanly, where URLRouter would raise (and log a traceback)."""

    async def connect(self):
        await self.close(code=4404)


websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/notifications/", consumers.NotificationConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", tournament_consumer.TournamentConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
