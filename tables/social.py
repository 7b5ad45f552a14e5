"""The social table, as readers see it: chat lines, seat events and take-backs put into words.

Nothing here changes a table (``tables.services`` does); these functions turn stored rows into what a
reader sees, in the language active while they run (quick phrases and seat events are kept as keys and
kinds, never as prose).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from accounts.blocks import blocked_by, blockers_of
from tables.models import ChatMessage, Move, TableEvent
from tables.selectors import seat_of

CHAT_MAX = 500  # characters in one message
CHAT_LIMIT, CHAT_WINDOW = 5, 10  # messages per person per window of seconds
CHAT_SHOWN = 200  # the newest messages a page shows (the API lists them all)

QUICK_PHRASES = {
    "gg": gettext_lazy("Good game"),
    "wp": gettext_lazy("Well played"),
    "your_turn": gettext_lazy("Your turn!"),
    "thanks": gettext_lazy("Thanks"),
}

TAKE_BACK = "take_back"  # the move type of a take-back row (never given to an engine)


def site_url(path: str) -> str:
    """``path`` on the site as it is served (SITE_URL: make run's port, the proxy's host in production)."""
    return settings.SITE_URL.rstrip("/") + path


# --- Chat ----------------------------------------------------------------------------------------


def chat_text(message: ChatMessage) -> str:
    """What a message says, in the active language for a quick phrase."""
    if message.phrase:
        phrase = QUICK_PHRASES.get(message.phrase)
        return str(phrase) if phrase is not None else ""
    return message.text


def chat_lines(messages) -> list[dict]:
    """Messages as the chat panel draws them (their user already loaded)."""
    return [
        {
            "id": m.pk,
            "user": m.user.username if m.user_id else gettext("(gone)"),
            "text": chat_text(m),
            "phrase": m.phrase,
            "at": m.at,
        }
        for m in messages
    ]


def chat_json(message: ChatMessage) -> dict:
    """A message as the API shows it (CONTRACTS §2), with the quick phrase's key where it is one."""
    return {
        "id": message.pk,
        "user": message.user.username if message.user_id else None,
        "text": chat_text(message),
        "phrase": message.phrase or None,
        "at": message.at.isoformat(),
    }


def may_write(table, seats, user) -> bool:
    """Players write at their table; spectators (signed in) only where its creator allowed it."""
    if user is None or not user.is_authenticated:
        return False
    return seat_of(seats, user) is not None or table.spectator_chat


def chat_for(table, user, *, upto: int | None = None):
    """The chat lines of ``table`` that ``user`` (or None) may read, oldest first, their authors loaded: not
    those of people they blocked; ``upto``: only what was said by that step (a replay). The page's panel,
    a socket's first frame, a replay and ``GET /api/tables/<id>/chat`` all read it here."""
    messages = ChatMessage.objects.filter(table=table).select_related("user")
    hidden = blocked_by(getattr(user, "pk", None))
    if hidden:  # the chat of people the reader blocked is not shown to them
        messages = messages.exclude(user_id__in=hidden)
    if upto is not None:
        messages = messages.filter(position__lte=upto)
    return messages.order_by("id")


def line_readers(message: ChatMessage, seats) -> list:
    """The seats whose people read a new line live: as ``chat_for`` and the panel say, not a seat whose
    person muted the chat, nor one who blocked its author (spectators read every line their socket is not
    told to hide: their frame is shared)."""
    shut = blockers_of(message.user_id, [s.user_id for s in seats if s.user_id])
    return [s for s in seats if s.user_id and not s.chat_muted and s.user_id not in shut]


def chat_context(table, seats, user, *, upto: int | None = None) -> dict:
    """The chat panel's context for ``user`` (``upto``: only what was said by that step, for a replay)."""
    messages = chat_for(table, user, upto=upto)
    messages = reversed(list(messages.reverse()[:CHAT_SHOWN]))  # the newest, oldest first
    index = seat_of(seats, user)  # (a visitor is no one's seat: not an empty seat's)
    own = next((s for s in seats if s.index == index), None) if index is not None else None
    muted = own is not None and own.chat_muted
    return {
        "chat": [] if muted else chat_lines(messages),
        "chat_muted": muted,
        "chat_can_mute": own is not None and upto is None,
        "chat_can_write": upto is None and may_write(table, seats, user),
        "chat_live": upto is None,
        "quick_phrases": list(QUICK_PHRASES.items()),
        "chat_max": CHAT_MAX,
    }


# --- The log: moves, take-backs and seat events -----------------------------------------------


# What a seat event says, by kind (translated when told: one line asks for its own words alone).
EVENT_WORDS = {
    "join": gettext_noop("%(name)s took a seat."),
    "leave": gettext_noop("%(name)s left the table."),
    "cancel": gettext_noop("%(name)s cancelled the table."),
    "concede": gettext_noop("%(name)s conceded: a bot plays their seat."),
    "timeout": gettext_noop("%(name)s ran out of time: a bot plays their seat."),
    "reclaim": gettext_noop("%(name)s took their seat back from the bot."),
    "abort_offer": gettext_noop("%(name)s offered to abort the game."),
    "abort_accept": gettext_noop("%(name)s agreed to abort the game."),
    "aborted": gettext_noop("%(name)s agreed to abort: the game is aborted."),
    "rematch": gettext_noop("%(name)s offered a rematch (table #%(rematch)s)."),
    "abandon": gettext_noop("%(name)s abandoned the game against the bots: it is aborted, unrated."),
    "idle_closed": gettext_noop(
        "Nobody played at this table against bots for %(days)s days: it is closed, unrated."
    ),
}
OTHER_EVENT = gettext_noop("%(name)s changed seats.")


def event_line(event: TableEvent) -> str:
    """One seat event in the active language, naming who did it."""
    name = event.actor.username if event.actor_id else gettext("A player")
    data = event.data or {}
    text = gettext(EVENT_WORDS.get(event.kind, OTHER_EVENT))
    return text % {"name": name, "rematch": data.get("rematch", ""), "days": data.get("days", "")}


def cancelled_seqs(moves) -> set[int]:
    """The seqs of the moves that later take-back rows cancelled (the log itself says it: append-only)."""
    return {m.cancels for m in moves if m.cancels is not None}


def interleave(entries: list[dict], moves: list[Move], events: list[TableEvent], names) -> list[dict]:
    """The log with its take-backs told and its seat events interleaved in order.

    ``entries`` are the moves' own entries (one per row of ``moves``, same order). An event at position p
    happened after the moves before seq p, so it comes just before move p."""
    cancelled = cancelled_seqs(moves)
    out = []
    for entry, move in zip(entries, moves, strict=True):
        entry = dict(entry)
        if move.cancels is not None:
            entry["lines"] = [gettext("%(name)s took back a move.") % {"name": names[move.seat]}]
            entry["kind"] = "take_back"
        elif move.seq in cancelled:
            entry["kind"] = "taken_back"
        out.append(((move.seq, 1, 0), entry))
    first = moves[0].seq if moves else 0
    for event in events:
        if event.position < first and moves:
            continue  # older than the moves shown
        line = {
            "seq": event.position,
            "key": f"e{event.pk}",  # events share their position with each other and with the next move
            "seat": event.seat,
            "lines": [event_line(event)],
            "at": event.at,
        }
        out.append(((event.position, 0, event.pk), {**line, "kind": "event", "name": ""}))
    return [entry for _, entry in sorted(out, key=lambda pair: pair[0])]


def events_since(table, seq: int | None) -> list[TableEvent]:
    """The table's seat events from position ``seq`` on (None: all of them), their actors loaded."""
    events = TableEvent.objects.filter(table=table).select_related("actor")
    if seq is not None:
        events = events.filter(position__gte=seq)
    return list(events)


def effective(moves) -> list[Move]:
    """The moves that stand: neither take-back rows nor moves a take-back cancelled, in order."""
    cancelled = cancelled_seqs(moves)
    return [m for m in moves if m.cancels is None and m.seq not in cancelled]


def takeback_target(moves) -> Move | None:
    """The latest move that stands, if it may still be taken back (from the log's newest rows)."""
    standing = effective(moves)
    if not standing:
        return None
    latest = standing[-1]
    return latest if latest.undoable else None


def may_take_back(engine, before, seat: int, move: dict, after) -> bool:
    """Decided when a move is applied: the engine allows it, no random draw happened, and the mover is
    still awaited (the turn goes on)."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return False
    if before.get("draws") != after.get("draws"):
        return False
    return seat in engine.to_act(after) and bool(engine.can_take_back(before, seat, move, after))


# --- Invitations ----------------------------------------------------------------------------------


def open_invitations(user):
    """The invitations ``user`` may still act on: to open tables where they have no seat yet."""
    from tables.models import Invitation, Seat, Table

    seated = Seat.objects.filter(user=user).values("table_id")
    return (
        Invitation.objects.filter(user=user, table__status=Table.OPEN)
        .exclude(table_id__in=seated)
        .select_related("table", "invited_by")
    )


def open_invitation_counts(user_ids) -> dict[int, int]:
    """{person: how many ``open_invitations`` they have} for each of ``user_ids``, in one query (a person
    with none is left out)."""
    from django.db.models import Count, Exists, OuterRef

    from tables.models import Invitation, Seat, Table

    seated = Seat.objects.filter(user_id=OuterRef("user_id"), table_id=OuterRef("table_id"))
    rows = (
        Invitation.objects.filter(user_id__in=list(user_ids), table__status=Table.OPEN)
        .exclude(Exists(seated))
        .order_by()
        .values("user_id")
        .annotate(n=Count("pk"))
    )
    return {row["user_id"]: row["n"] for row in rows}
