"""The channel layers: the embedded default's in-memory one, and Redis's made to survive an outage.

The embedded default's channel layer: Channels' in-memory layer, its expiry sweep at most once a second.

Channels' ``InMemoryChannelLayer`` sweeps every channel's queue and every group membership for expired
entries on each ``receive`` and each ``group_send``. Every open socket waits in ``receive``, so a frame
sent to a table's four seats costs four sweeps over all the sockets of the process, and a move a few
more: with a thousand sockets open, thousands of entries scanned per move, for entries that expire after
60 seconds (messages) or a day (memberships). Here the sweep runs at most once a ``SWEEP_INTERVAL``: an
expired entry goes at most that much later, which nobody can tell apart.
"""

from __future__ import annotations

import logging
import time

from channels import layers
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LAYER_FAILURES = (RedisError, OSError)
LAYER_LOST = {"type": "layer.lost"}  # what a socket receives instead of the error when Redis fails

SWEEP_INTERVAL = 1.0  # seconds


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    _swept = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept >= SWEEP_INTERVAL:
            self._swept = now
            super()._clean_expired()


class ResilientRedisChannelLayer(RedisChannelLayer):
    """Channels' Redis layer, for a Redis that may go away for a while and come back (empty, maybe).

    - A message that cannot be sent is dropped and logged (once per outage), never raised to the sender:
      a move, a chat line or a log-out has committed, and is answered as such, whatever happens to its
      frames. A socket that missed frames is brought up to date by revision (``tables.consumers``).
    - A socket waiting for its messages when Redis fails is handed ``{"type": "layer.lost"}`` instead of
      the error, and so is every other socket of the process waiting then: a restarted Redis has lost
      their group memberships, so each closes with 1012 (service restart) and its page reconnects (htmx's
      WebSocket extension does, with back-off), joins its groups again and reads its full frame anew.
    - Joining a group raises as before: a socket that cannot join is refused (``accounts.socket_guard``).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outage = False

    def _failed(self, what: str, exc: BaseException) -> None:
        if not self.outage:
            logger.warning(
                "Channel layer: Redis unreachable (%s: %s); frames are dropped until it is back", what, exc
            )
        self.outage = True

    def _recovered(self) -> None:
        if self.outage:
            logger.warning("Channel layer: Redis reachable again")
            self.outage = False

    async def send(self, channel, message):
        try:
            await super().send(channel, message)
        except LAYER_FAILURES as exc:
            self._failed("send", exc)
        else:
            self._recovered()

    async def group_send(self, group, message):
        try:
            await super().group_send(group, message)
        except LAYER_FAILURES as exc:
            self._failed("group_send", exc)
        else:
            self._recovered()

    async def receive(self, channel):
        try:
            message = await super().receive(channel)
        except LAYER_FAILURES as exc:
            self._failed("receive", exc)
            # Every socket of this process waiting now is told as well (this runs on their event loop).
            for waiting, queue in list(self.receive_buffer.items()):
                if waiting != channel:
                    queue.put_nowait(dict(LAYER_LOST))
            return dict(LAYER_LOST)
        return message
