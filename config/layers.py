"""The embedded default's channel layer: Channels' in-memory layer, its expiry sweep at most once a second.

Channels' ``InMemoryChannelLayer`` sweeps every channel's queue and every group membership for expired
entries on each ``receive`` and each ``group_send``. Every open socket waits in ``receive``, so a frame
sent to a table's four seats costs four sweeps over all the sockets of the process, and a move a few
more: with a thousand sockets open, thousands of entries scanned per move, for entries that expire after
60 seconds (messages) or a day (memberships). Here the sweep runs at most once a ``SWEEP_INTERVAL``: an
expired entry goes at most that much later, which nobody can tell apart.
"""

from __future__ import annotations

import time

from channels import layers

SWEEP_INTERVAL = 1.0  # seconds


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    _swept = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept >= SWEEP_INTERVAL:
            self._swept = now
            super()._clean_expired()
