"""What a change sends once it has committed (its frames, the badges it changes) goes out from an event loop.

A thread that serves a request (the request handler's threads, ``config.handlers``) or a socket's move
(``tables.consumers``) says which event loop it works for (``serving``); ``send`` hands the group sends
to that loop and returns at once, so the thread goes on to its next request. Elsewhere (the worker, a
management command, a test calling a service) no loop waits for the thread, and ``send`` sends before
it returns.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync

logger = logging.getLogger(__name__)

_serving = threading.local()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop the current thread works for (see the module), else None."""
    return getattr(_serving, "loop", None)


def serve(loop: asyncio.AbstractEventLoop | None) -> None:
    """From now on the current thread works for ``loop`` (a long-lived thread of the request handler)."""
    _serving.loop = loop


@contextmanager
def serving(loop: asyncio.AbstractEventLoop):
    """The current thread works for ``loop`` until the block ends (a socket's move on a borrowed thread)."""
    previous = serving_loop()
    _serving.loop = loop
    try:
        yield
    finally:
        _serving.loop = previous


def send(layer, messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message): handed to the loop the thread works for, else sent before returning."""
    loop = serving_loop()
    if loop is None:
        async_to_sync(_send_all)(layer, messages)
    else:
        # In a context of its own: the request's (its thread-sensitive context among it) ends before this.
        loop.call_soon_threadsafe(_start_sending, loop, layer, messages, context=contextvars.Context())


_sending: set[asyncio.Task] = set()  # the sendings under way (the loop keeps only weak references to tasks)


def _start_sending(loop, layer, messages) -> None:
    task = loop.create_task(_send_all(layer, messages))
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("Sending to the sockets failed", exc_info=task.exception())


async def _send_all(layer, messages) -> None:
    many = getattr(layer, "group_send_many", None)  # (Redis's: all of them in two trips, config.layers)
    if many is not None:
        await many(messages)
    else:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
