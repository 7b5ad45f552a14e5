"""The round's public log of a Five Crowns state: what everyone at the table saw, in order.

Each event is ``{"act", "seat"?, "card"?}`` (see ``FiveCrowns.view``'s ``round_log``).
"""

from __future__ import annotations

# The round's log only grows, and a long round holds a thousand events: a move must neither copy
# nor change it (the state it was applied to keeps its own log). In a state the log is a list of
# events (as ``dump`` writes it and ``load`` or a test may leave it), or, once a move has added to it,
# a persistent chain ``(older, chunk)``: ``chunk`` a tuple of up to LOG_CHUNK events, ``older`` the
# chain before it (None, or a list of events). An event is added by copying ``chunk`` only, so
# states share their history; ``round_log`` reads it back as a list.
LOG_CHUNK = 32


def record(state: dict, event: dict) -> None:
    """Add a public event to the round's log (states saved before the log existed start one)."""
    log = state.get("log")
    if isinstance(log, tuple) and len(log[1]) < LOG_CHUNK:
        state["log"] = (log[0], (*log[1], event))
    else:
        state["log"] = (log or None, (event,))


def round_log(state: dict) -> list[dict]:
    """The round's public events in order (the log of any state: a list or a chain)."""
    chunks = []
    log = state.get("log")
    while isinstance(log, tuple):
        log, chunk = log
        chunks.append(chunk)
    events = list(log or [])
    for chunk in reversed(chunks):
        events.extend(chunk)
    return events
