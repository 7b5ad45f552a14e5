"""The API's streams (issue #32, point 2): long-lived answers in NDJSON, one JSON object a line, and an
empty line every ``STREAM_KEEPALIVE_SECONDS`` while nothing happens.

``GET /api/stream/events``: the caller's events as they happen (``tables.api_events``), after one
``gameStart`` per game they play in now and one ``challenge`` per challenge waiting for their answer. An
event that happens as the stream opens may come twice (a client takes a second ``gameStart`` of a game it
follows already as the same game).

``GET /api/stream/tables/<id>``: first ``{"type": "full", "seq", "status", "seats", "view", "legal_moves",
"to_act"}`` as the caller sees the table (a spectator's view unless seated), then a ``{"type": "state", ...}``
line with the same keys after every change, then ``{"type": "finish", "result"}`` once the game is over, and
the answer ends.

A stream joins its viewer's channel group (``tables.live``: ``table-<id>-<viewer>-api``), where each change
of the table sends the lines its process drew once for that viewer: a stream forwards them, touching no
database. On Redis, a stream whose table's last line was lost on the way is sent the table as it is now
(``tables.catch_up``), as a ``state`` line. It ends when the client goes away (the handler cancels it), when the server stops (daphne
cancels it), when the game is over, and within ``STREAM_KEEPALIVE_SECONDS`` of its token's revocation (the
token is read again only when the stamp of people's data changed: ``accounts.api_tokens``).
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from accounts import api_tokens
from tables import access, api_events, challenges, live, rooms, selectors, stream_presence
from tables.api import api_view, error
from tables.catch_up import Watch, checks
from tables.models import Seat, Table

NDJSON = "application/x-ndjson"
OVER = (Table.FINISHED, Table.ABORTED)


def line(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


@api_view(("GET",))
def table_stream(request, pk):
    table = access.table_for(pk, request.api_user, request.GET.get("invite"))  # (404 before streaming)
    layer = get_channel_layer()
    if layer is None:
        return error(_("Streams are not available on this server."), 503)
    raw = request.headers["Authorization"].partition(" ")[2].strip()
    response = StreamingHttpResponse(_follow(layer, table.pk, request.api_user, raw), content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # (a proxy in front passes each line on at once)
    return response


def _full(table_id: int, user) -> tuple[dict, int, str, list]:
    """The table now, as ``user`` sees it: the ``full`` line, its revision, the viewer's key, the lines that
    end the stream at once (a game already over)."""
    table = Table.objects.get(pk=table_id)
    seats, position = rooms.position(table, lambda seats: selectors.seat_of(seats, user))  # (the room's)
    viewer = selectors.seat_of(seats, user)
    tail = []
    if table.status in OVER:
        tail = [{"type": "finish", "result": selectors.final_result(table, seats)}]
    full = {"type": "full", **live.stream_state(table, seats, position)}
    return full, table.revision, live.viewer_key(viewer), tail


async def _follow(layer, table_id: int, user, raw: str):
    channel = await layer.new_channel()
    group = None
    scope = stream_presence.table_scope(table_id)
    stamp = await sync_to_async(api_tokens.stamp_of)(user.pk)
    watch = Watch(table_id, layer, channel)  # (what the checks of a layer that may lose lines look at)
    await stream_presence.aopened(scope, layer)  # (before the full line: no change falls in between)
    try:
        kind = "full"
        while True:  # (again when the caller takes or leaves a seat, or when a check finds the stream behind)
            full, revision, key, tail = await sync_to_async(_full)(table_id, user)
            if group != live.table_group(table_id, key, live.STREAM):
                if group is not None:
                    await layer.group_discard(group, channel)
                group = live.table_group(table_id, key, live.STREAM)
                await layer.group_add(group, channel)
                full, revision, key, tail = await sync_to_async(_full)(table_id, user)  # (joined first)
                kind = "full"  # (a new viewer: their own view from now on)
            yield line({**full, "type": kind})
            for finish in tail:
                yield line(finish)
                return
            watch.revision = revision
            checks.add(watch)
            reread = False  # (set with the kind of line the table is read again for)
            while not reread:
                try:
                    message = await asyncio.wait_for(
                        layer.receive(channel), settings.STREAM_KEEPALIVE_SECONDS
                    )
                except TimeoutError:
                    stamp, valid = await _still_valid(stamp, raw, user.pk)
                    if not valid:
                        return
                    yield b"\n"
                    continue
                if message.get("type") == "table.check":
                    if message["revision"] > revision:  # a line lost on the way (tables.catch_up)
                        kind, reread = "state", True  # the table as it is now, as a state line
                    continue
                if message.get("type") != "table.stream" or message["revision"] <= revision:
                    continue  # (a change the full line already showed)
                revision = watch.revision = message["revision"]
                if live.key_of(user.pk, message["seats"]) != key:
                    kind, reread = "full", True  # this person took or left a seat: their own view from now on
                    continue
                yield message["text"].encode()
                if message["over"]:
                    return
    finally:
        checks.discard(watch)
        await stream_presence.aclosed(scope, layer)
        if group is not None:
            await layer.group_discard(group, channel)


@api_view(("GET",))
def event_stream(request):
    layer = get_channel_layer()
    if layer is None:
        return error(_("Streams are not available on this server."), 503)
    raw = request.headers["Authorization"].partition(" ")[2].strip()
    response = StreamingHttpResponse(_events(layer, request.api_user, raw), content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def opening_events(user) -> list[dict]:
    """What an event stream says first: the games the person plays in now, the challenges awaiting them."""
    playing = (
        Seat.objects.filter(user=user, table__status=Table.PLAYING, bot="")
        .select_related("table")
        .order_by("table__started_at", "table_id")
    )
    events = [{"type": "gameStart", "table": s.table_id, "game": s.table.game} for s in playing]
    return events + [
        {"type": "challenge", "challenge": challenges.challenge_json(c)}
        for c in challenges.received(user).select_related("challenged", "table")
    ]


async def _events(layer, user, raw: str):
    channel = await layer.new_channel()
    group = api_events.group(user.pk)
    await layer.group_add(group, channel)  # (before reading what is under way: nothing falls in between)
    stamp = await sync_to_async(api_tokens.stamp_of)(user.pk)
    await stream_presence.aopened(
        stream_presence.user_scope(user.pk), layer
    )  # (then at once the try: one close)
    try:
        for event in await sync_to_async(opening_events)(user):
            yield line(event)
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), settings.STREAM_KEEPALIVE_SECONDS)
            except TimeoutError:
                stamp, valid = await _still_valid(stamp, raw, user.pk)
                if not valid:
                    return
                yield b"\n"
                continue
            if message.get("type") == "api.event":
                yield line(message["event"])
    finally:
        await stream_presence.aclosed(stream_presence.user_scope(user.pk), layer)
        await layer.group_discard(group, channel)


async def _still_valid(stamp: str, raw: str, user_id: int) -> tuple[str, bool]:
    """Whether the stream's token still names its person: read again only when that person's stamp changed
    (one of their tokens revoked, their password changed, their account deactivated renew it)."""
    now = await sync_to_async(api_tokens.stamp_of)(user_id)
    if now == stamp:
        return stamp, True
    return now, await sync_to_async(api_tokens.user_for)(raw) is not None
