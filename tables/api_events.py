"""The events of ``GET /api/stream/events`` (tables.streams): what happens to a person, sent after commit to
their channel group ``user-<id>-api`` where their open event streams forward it.

- ``{"type": "gameStart", "table", "game"}`` when a game they are seated at starts;
- ``{"type": "gameFinish", "table", "game", "status"}`` when it ends (finished or aborted);
- ``{"type": "yourTurn", "table", "game", "seq"}`` when their move is awaited there;
- ``{"type": "challenge", "challenge": {...}}`` to both people when a challenge is made;
- ``{"type": "challengeCanceled", "challenge": id}`` to the challenged when it is taken back or expires,
  ``{"type": "challengeDeclined", "challenge": id}`` to the challenger when it is declined.

Nothing here says more than the API's own calls show these people (no card, no seed).
"""

from __future__ import annotations

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from tables import loops, stream_presence
from tables.live import Also, Publication, listened_apart


def group(user_id: int) -> str:
    return f"user-{user_id}-api"


def tell(user_ids, event: dict) -> None:
    """After the change commits, ``event`` to each person's event streams (none open: nothing is sent)."""
    user_ids = sorted({pk for pk in user_ids if pk is not None})
    if user_ids:
        transaction.on_commit(lambda: _send(user_ids, event), robust=True)


def _send(user_ids: list[int], event: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    also = _also(layer, user_ids, event)
    messages = also.messages(*listened_apart(layer, also.groups, also.streams))  # (one cache read on Redis)
    if messages:
        loops.send(layer, messages)


def _also(layer, user_ids: list[int], event: dict) -> Also:
    """``event`` for the people's streams, as a change sends it beside its frames: to those with a stream open
    (their group in this process's in-memory layer; on Redis, counted under their scope in some process)."""
    counted = not isinstance(layer, InMemoryChannelLayer)
    scopes = [stream_presence.user_scope(pk) for pk in user_ids] if counted else []

    def messages(heard: set[str], streaming: set[str]) -> list[tuple[str, dict]]:
        return [
            (group(pk), {"type": "api.event", "event": event})
            for pk in user_ids
            if group(pk) in heard and (not counted or stream_presence.user_scope(pk) in streaming)
        ]

    return Also([group(pk) for pk in user_ids], scopes, messages)


def people(seats) -> list[int]:
    return [s.user_id for s in seats if s.user_id and not s.is_bot]


def game_started(table, seats) -> None:
    tell(people(seats), {"type": "gameStart", "table": table.pk, "game": table.game})


def game_ended(table, seats) -> None:
    event = {"type": "gameFinish", "table": table.pk, "game": table.game, "status": table.status}
    tell([s.user_id for s in seats if s.user_id], event)


def turn_began(table, users, publication: Publication) -> None:
    """``yourTurn`` to each of ``users``, sent with the change's frames by its ``publication``."""
    event = {"type": "yourTurn", "table": table.pk, "game": table.game, "seq": table.seq}
    user_ids, layer = sorted({u.pk for u in users}), get_channel_layer()
    if user_ids and layer is not None:
        publication.also.append(_also(layer, user_ids, event))
