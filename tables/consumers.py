"""Live updates, and moves sent over the socket (``tables.socket_moves``).

Each socket joins its viewer's group in its language (``tables.live``): its seat's, or the spectators'.
After a change, the process that made it renders each (viewer, language) frame once and sends it there;
the socket forwards it as it is. A page out of sight (another tab, a phone put away) says so over its
socket, ``{"visible":false}`` (``static/js/site.js``): the socket leaves its group, so that a frame nobody
would see is not drawn for it (a viewer's frame is drawn only for a group with a socket in it), and nothing
reaches it but the end of its session; ``{"visible":true}`` brings it back, sent the table as it is then (its
chat included), as on a reconnect. The database is read only on connect and when the socket's person takes
or leaves a seat, and, on Redis, in one query every few seconds per process, which makes up for
a table's last frame lost on the way (``tables.catch_up``: a socket behind is sent the table as it is now).
"""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from accounts import presence
from accounts.blocks import blocked_by
from accounts.preferences import chosen_language
from accounts.socket_guard import GuardedSocket
from accounts.sockets import SessionBoundSocket
from tables import chat_frames, homes, live, rooms, selectors, stream_presence
from tables.access import may_connect
from tables.catch_up import checks
from tables.notifications import badge, user_group


def socket_language(scope) -> str:
    """The language a socket's frames are in: the one its person chose on their account, else what the
    browser says as LocaleMiddleware reads it for a page (the language cookie, then Accept-Language)."""
    chosen = chosen_language(scope.get("user"))
    if chosen:
        return chosen
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin1")
    language = translation.get_language_from_request(request)
    return language if language in selectors.languages() else settings.LANGUAGE_CODE


def current_frame(table_id: int, user, lang: str) -> tuple[str, int, str] | None:
    """(viewer key, revision, frame in ``lang``) of the table as it is now for ``user``; None if there is none."""
    from tables.models import Table
    from tables.rendering import Snapshot

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None

    def drawn(seats):
        """The frame the table's room keeps for this person's own seat: a seat's frame is drawn for its
        person alone (a spectator's depends on who reads it: not taken from the room)."""
        seat = selectors.seat_of(seats, user)
        return None if seat is None else (live.viewer_key(seat), lang)

    seats, state, kept = rooms.now(table, drawn)
    snapshot = Snapshot.read(table, seats=seats, state=state)
    board = kept
    if board is None:
        board = snapshot.frame(user, lang)
        key = drawn(seats)
        if key is not None:  # (kept for the seat: the next change sends this socket what changed since)
            rooms.keep_frame(table, key, board)
    # (the chat panel from the seats as they are: muting the chat changes a seat without a new revision)
    frame = board + chat_frames.panel_frame(table, selectors.read_seats(table), user, lang)
    return live.viewer_key(snapshot.viewer_of(user)), table.revision, frame


# The two messages a page sends of itself as it goes out of sight and comes back (exactly these: any other
# message is a move, tables.socket_moves).
VISIBILITY = {'{"visible":false}': False, '{"visible":true}': True}


def seat_key(table_id: int, user_id: int | None) -> str:
    from tables.models import Seat

    if user_id is None:
        return live.WATCH
    index = Seat.objects.filter(table_id=table_id, user_id=user_id).values_list("index", flat=True).first()
    return live.viewer_key(index)


class NoConnectionCheckPerMessage:
    """Channels closes stale database connections before every message a consumer handles, a trip to a
    worker thread each time: for every socket, for every frame it forwards. These consumers reach the
    database only through ``database_sync_to_async``, which does that check itself, so a forwarded frame
    stays on the event loop. List it before the consumer's base."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            return await super().dispatch(message)  # Channels' error for a message nobody handles
        await handler(message)


class TableConsumer(
    GuardedSocket,
    NoConnectionCheckPerMessage,
    homes.TableHome,
    SessionBoundSocket,
    presence.PresentSocket,
    AsyncWebsocketConsumer,
):
    group: str | None = None
    key: str | None = None
    watching: bool = False  # counted among the table's spectators (accounts.presence)
    hidden: frozenset = frozenset()  # the people this socket's person blocked: their chat is not shown
    checked: int = -1  # the table's revision as the last check read it (``tables.catch_up``)
    out_of_sight: bool = False  # its page said it is out of sight: no group, no frames until it is back

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        if not await database_sync_to_async(may_connect)(
            self.table_id, self.scope.get("user"), self.scope.get("session")
        ):
            await self.close(code=4404)  # a private table this socket may not watch: as if there were none
            return
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.lang = await database_sync_to_async(socket_language)(self.scope)
        if self.user_id is not None:
            self.hidden = await database_sync_to_async(blocked_by)(self.user_id)
        self.revision = -1
        if await self.refresh():
            await self.accept()
            await self.count_watching()
            await self.send(text_data=self.pending)
            checks.add(self)
        else:
            await self.close(code=4404)

    async def count_watching(self) -> None:
        """Keep this socket counted among the spectators exactly while it watches."""
        watching = self.key == live.WATCH and self.group is not None
        if watching and not self.watching:
            await presence.watching(self.table_id)
        elif self.watching and not watching:
            await presence.stopped_watching(self.table_id)
        self.watching = watching

    async def refresh(self) -> bool:
        """Join this socket's viewer group, then read its current frame into ``pending``.

        The group is joined before the frame renders: a change committed in between then still reaches
        the socket (as a later frame) instead of falling between the two.
        """
        await self.join(await database_sync_to_async(seat_key)(self.table_id, self.user_id))
        current = await database_sync_to_async(current_frame)(
            self.table_id, self.scope.get("user"), self.lang
        )
        if current is None:
            await self.leave()
            return False
        key, self.revision, self.pending = current
        if key != self.key:  # the seat changed between the two reads
            await self.join(key)
        return True

    async def join(self, key: str) -> None:
        """Join the group of ``key`` in this socket's language, counted there before it returns (on Redis, in
        the cache: ``tables.stream_presence.sockets``), so that a change committed after it draws the frame."""
        await self.leave()
        self.key, self.group = key, live.table_group(self.table_id, key, self.lang)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await stream_presence.sockets.aopened(self.group, self.channel_layer)

    async def leave(self) -> None:
        if self.group is not None:
            group, self.group = self.group, None
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            finally:  # (uncounted even when Redis failed: the group's membership expires by itself)
                await stream_presence.sockets.aclosed(group, self.channel_layer)

    async def disconnect(self, code):
        checks.discard(self)
        await self.leave_home()
        await self.leave()
        await self.count_watching()

    async def receive(self, text_data=None, bytes_data=None):
        """A move (CONTRACTS §3): played, its frames reach every socket; refused, this socket alone is told
        (played where it arrives, or by the table's home process: ``tables.homes``). Or its page going out of
        sight or coming back (``VISIBILITY``)."""
        if text_data in VISIBILITY:
            await self.in_sight(VISIBILITY[text_data])
            return
        await self.play(text_data)

    async def in_sight(self, visible: bool) -> None:
        """Its page went out of sight: leave the group (its viewer's frames are drawn no more unless another
        socket listens there). Back in sight: join it again and send the table as it is now."""
        if visible != self.out_of_sight:
            return  # (already so)
        self.out_of_sight = not visible
        if self.out_of_sight:
            checks.discard(self)  # (nothing to make up for while it gets nothing)
            await self.leave()
        else:
            await self.resend()
            checks.add(self)

    async def blocks_changed(self, event):
        """This socket's person blocked or unblocked someone (accounts.blocks): whose chat to leave out."""
        self.hidden = frozenset(event["blocked"])

    async def table_frame(self, event):
        if event["revision"] > self.revision:
            self.answered()  # (a move this socket handed to the table's home, if any, was played)
        if "change" in event:  # (made in another process: this process's room takes it, never the page)
            rooms.heard_change(self.table_id, event["revision"], event["change"])
        if self.out_of_sight or event["revision"] <= self.revision:
            return  # out of sight (a frame sent before it left), or it shows that revision or a later one
        if live.key_of(self.user_id, event["seats"]) != self.key:
            # This person took or left a seat: follow them to their new group and read the table anew.
            await self.resend()
            return
        base = event.get("base")  # (a partial frame: what changed since that revision)
        if event["revision"] > self.revision + 1 or (base is not None and base != self.revision):
            # Frames were lost on the way (Redis was down, say): every change sends one, so this socket
            # missed some; or the frame holds only what changed since a revision this socket does not show.
            # Read the table as it is now, the chat included, and send all of it.
            await self.resend()
            return
        if event["key"] == self.key:  # (not a frame still queued for a group this socket has left)
            self.revision, html = event["revision"], event["html"]
            if settings.PARTIAL_FRAMES:
                # Kept as the frame before for the next change made here (this one may come from another
                # process); sent whole by a process that held no frame before for this viewer, it is made
                # partial from this process's room when that holds one (tables.rooms).
                key = self.key, self.lang
                if base is not None:
                    if "full" in event:
                        rooms.heard(self.table_id, key, self.revision, event["full"])
                elif event.get("whole"):
                    rooms.heard(self.table_id, key, self.revision, html)
                else:
                    html = rooms.partial_heard(self.table_id, key, self.revision, html)
            await self.send(text_data=html)

    async def table_check(self, event):
        """A check found this socket behind its table's revision (``tables.catch_up``): send it the table as it is."""
        if event["revision"] > self.revision:
            await self.resend()

    async def resend(self) -> None:
        """Read the table as it is now, the chat included, and send all of it (as on connect)."""
        if await self.refresh():
            await self.count_watching()
            await self.send(text_data=self.pending)

    async def table_chat(self, event):
        """A chat line, rendered once per language and sent to every viewer group but muted seats (and not
        shown to a person who blocked its author)."""
        if event["key"] == self.key and event.get("author") not in self.hidden and not self.out_of_sight:
            await self.send(text_data=event["html"])


class NotificationConsumer(
    GuardedSocket,
    NoConnectionCheckPerMessage,
    SessionBoundSocket,
    presence.PresentSocket,
    AsyncWebsocketConsumer,
):
    """The "Your turn" badge on every page, for a signed-in player."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await stream_presence.sockets.aopened(self.group, self.channel_layer)  # (badges are drawn for it)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(badge)(user))

    async def disconnect(self, code):
        if getattr(self, "group", None) is not None:
            group, self.group = self.group, None
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            finally:
                await stream_presence.sockets.aclosed(group, self.channel_layer)

    async def receive(self, text_data=None, bytes_data=None):
        """Push only."""

    async def blocks_changed(self, event):
        """(For the table sockets: the badge shows no chat.)"""

    async def turn_changed(self, event):
        """The badge comes rendered (once per person, however many pages they have open)."""
        await self.send(text_data=event["html"])
