"""The yardstick for bench/live.py: the site's live shape (HTTP API + table sockets) with none of its work.

No database, no game, no rendering: daphne + Channels and an in-memory seq per table. It answers the
calls bench/live.py makes, in the shapes of CONTRACTS.md §2 and §3, so the same client code drives both:

- POST /api/tables -> 201 {"id", "seq": 0}; POST /api/tables/<id>/join -> {"seat"}; .../start -> 200.
  The bearer token names the player: the creator sits at seat 0, joiners in order.
- GET /api/tables/<id> -> {"id", "status": "playing", "seq", "to_act": [seq % players], "legal_moves"}
  with one fake move for the seat to act (none for anyone else).
- POST /api/tables/<id>/moves {"move", "seq"} -> 409 for a stale seq, 403 out of turn, else bumps the seq,
  group_sends a ~6 KB frame (HTML with data-seq in a status section, as the site's) to the group
  "table-<id>", and answers 200 {"seq"}.
- WebSocket /ws/tables/<id>/ joins that group, sends the current frame, then forwards every frame. The
  table's Nth socket is seat N (bench/live.py opens them in seat order); a seat's frame carries a move
  button (``data-move``), and its status section ``data-my-turn``, while it is that seat's turn, and a move
  sent over its socket, ``{"move", "seq"}``, bumps the seq and sends each seat its own frame, as the site
  does (bench/live.py's part F: the stack's floor beside the peer), or tells that socket alone
  ``data-refused="409"``.

Not a benchmark itself (`make bench` skips it); bench/live.py serves it with
`daphne -b 127.0.0.1 -p PORT echo_app:application` from this folder.
"""

from __future__ import annotations

import html
import json
import os
import pathlib
import re
import sys

import django
from django.conf import settings

# ECHO_AS_SITE=1: the sockets served as the site serves its own (bench/live.py's "echo ws", the stack's floor
# beside the peer): the site's in-memory layer (config.layers: its sweep once a second) and no database
# connection check per message (as tables.consumers.NoConnectionCheckPerMessage). Else Channels' own, as
# issue #11's yardstick has always been.
AS_SITE = os.environ.get("ECHO_AS_SITE") == "1"
if AS_SITE:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))  # (config, the project's)
LAYER = "config.layers.InMemoryChannelLayer" if AS_SITE else "channels.layers.InMemoryChannelLayer"

if not settings.configured:
    settings.configure(
        DEBUG=False, INSTALLED_APPS=["channels"], CHANNEL_LAYERS={"default": {"BACKEND": LAYER}}
    )
    django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

FRAME_BYTES = int(os.environ.get("ECHO_FRAME_BYTES", "6000"))  # (a frame's size; 6000 by default)
FILLER = '<div class="card" data-card="filler"></div>\n'


class EchoTable:
    def __init__(self, table_id: int, creator: str, players: int):
        self.id = table_id
        self.players = players
        self.seats = [creator]
        self.seq = 0
        self.group = f"table-{table_id}"
        self.sockets = 0  # sockets connected so far: the Nth is seat N (the client opens them in order)

    def frame(self, seat: int | None = None) -> str:
        """The table's frame; for ``seat`` (a socket's own), with a move button when it is that seat's turn."""
        mine = seat is not None and seat == self.seq % self.players
        head = (
            f'<section id="table-{self.id}-status" class="table-status" hx-swap-oob="true" '
            f'data-seq="{self.seq}" data-status="playing"{" data-my-turn" if mine else ""}>seq {self.seq}</section>\n'
            f'<section id="table-{self.id}-board" class="board" hx-swap-oob="true">\n'
        )
        if mine:
            move = html.escape(json.dumps({"type": "play", "card": f"echo-{self.seq}"}))
            head += f'<button data-move="{move}">play</button>\n'
        body = FILLER * ((FRAME_BYTES - len(head)) // len(FILLER))
        return head + body + "</section>\n"

    def seat_group(self, seat: int) -> str:
        return f"{self.group}-s{seat}"

    def message(self) -> dict:
        """The group message that carries the table's current frame to its sockets."""
        return {"type": "table.frame", "frame": self.frame()}


TABLES: dict[int, EchoTable] = {}
ROUTE = re.compile(r"/api/tables(?:/(\d+)(?:/(join|start|moves))?)?/?")


async def read_body(receive) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def answer(send, status: int, data) -> None:
    payload = json.dumps(data).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def token_of(authorization: str) -> str:
    """The player an Authorization header names ("Bearer <name>"), or ""."""
    return authorization[7:] if authorization.startswith("Bearer ") else ""


def bearer(scope) -> str:
    for name, value in scope["headers"]:
        if name == b"authorization":
            return token_of(value.decode("latin1"))
    return ""


def respond(method: str, path: str, user: str, body: bytes) -> tuple[int, object, EchoTable | None]:
    """(status, JSON data, the table whose frame goes to its group now or None) for one API call."""
    match = ROUTE.fullmatch(path)
    if match is None:
        return (200 if path == "/" else 404), {"echo": True}, None
    if not user:
        return 401, {"error": "no token"}, None
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return 400, {"error": "bad JSON"}, None
    table_id, action = match.group(1), match.group(2)
    if table_id is None:
        if method != "POST":
            return 405, {"error": "POST only"}, None
        table = EchoTable(len(TABLES) + 1, user, int(data.get("players", 4)))
        TABLES[table.id] = table
        return 201, {"id": table.id, "seq": 0, "status": "open"}, None
    table = TABLES.get(int(table_id))
    if table is None:
        return 404, {"error": "no such table"}, None
    if action == "join":
        table.seats.append(user)
        return 200, {"seat": len(table.seats) - 1}, None
    if action == "start":
        return 200, {"id": table.id, "seq": table.seq, "status": "playing"}, None
    to_act = table.seq % table.players
    if action is None:
        mine = table.seats[to_act] == user if to_act < len(table.seats) else False
        moves = [{"type": "play", "card": f"echo-{table.seq}"}] if mine else []
        data = {
            "id": table.id,
            "status": "playing",
            "seq": table.seq,
            "to_act": [to_act],
            "legal_moves": moves,
        }
        return 200, data, None
    if method == "GET":
        return 200, [], None
    if data.get("seq") != table.seq:
        return 409, {"error": "stale seq"}, None
    if table.seats[to_act] != user:
        return 403, {"error": "not your turn"}, None
    table.seq += 1
    return 200, {"seq": table.seq}, table


async def http_app(scope, receive, send):
    body = await read_body(receive)
    status, data, moved = respond(scope["method"], scope["path"], bearer(scope), body)
    if moved is not None:
        await get_channel_layer().group_send(moved.group, moved.message())
    return await answer(send, status, data)


class EchoConsumer(AsyncWebsocketConsumer):
    if AS_SITE:

        async def dispatch(self, message):
            """Each message handled on the spot: there is no database here to check a connection to."""
            await getattr(self, get_handler_name(message))(message)

    async def connect(self):
        table = TABLES.get(self.scope["url_route"]["kwargs"]["table_id"])
        if table is None:
            await self.close(code=4404)
            return
        self.table, self.seat = table, table.sockets % table.players
        table.sockets += 1
        self.group, self.own = table.group, table.seat_group(self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.own, self.channel_name)
        await self.accept()
        await self.send(text_data=table.frame(self.seat))

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.own, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """A move over the socket ({"move", "seq"}, as the site takes one): the seq bumped and each seat sent
        its own frame (as the site sends each seat's), or this socket alone told of the refusal."""
        table = self.table
        try:
            seq = json.loads(text_data)["seq"]
        except (TypeError, ValueError, KeyError):
            seq = None
        if seq != table.seq or self.seat != table.seq % table.players:
            await self.send(text_data='<p data-refused="409">stale seq or not your turn</p>')
            return
        table.seq += 1
        layer = self.channel_layer
        for seat in range(table.players):
            await layer.group_send(
                table.seat_group(seat), {"type": "table.frame", "frame": table.frame(seat)}
            )

    async def table_frame(self, event):
        await self.send(text_data=event["frame"])


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": URLRouter([path("ws/tables/<int:table_id>/", EchoConsumer.as_asgi())]),
    }
)
