"""Django's ASGI handler with a request's synchronous work on a few long-lived threads.

Django's own ``ASGIHandler`` opens an ``asgiref.sync.ThreadSensitiveContext`` per request: the request's
sync code (middleware, view, signals) gets a thread of its own, started for it and joined after it, and
with that thread a new database connection. It also runs the middleware in async mode, so a sync-only
middleware in the chain sends the request from the event loop to a thread and back several times.

``PooledASGIHandler`` keeps ``SYNC_THREADS`` threads for the whole process instead. A request enters a
``ThreadSensitiveContext`` that names one of them (the least busy; asgiref's ``executor=``), so all its
sync code still runs on one thread, as Django requires, but on a thread that lives on, with its database
connection (persistent on SQLite: ``CONN_MAX_AGE``; lent by the pool on PostgreSQL). The middleware and
the view run in Django's sync mode, as under WSGI: the whole chain is one trip to that thread.

The thread knows which event loop its request came from (``serving_loop``): ``tables.live`` hands the
frames of a move to that loop to send and goes on to the next request without waiting for them.

One thread suits SQLite, which takes one writer at a time: requests queue in order on the thread instead
of waiting for the write lock in SQLite's busy handler. PostgreSQL serves requests side by side, so it
gets several threads (settings.SYNC_THREADS).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler

_serving = threading.local()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose request the current thread is serving (a thread of the pool), else None."""
    return getattr(_serving, "loop", None)


class PooledASGIHandler(ASGIHandler):
    """An ASGI handler whose requests' sync work runs on ``threads`` long-lived threads (see the module)."""

    def __init__(self, threads: int | None = None):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # sync mode: the chain and the view in one trip to the thread
        count = threads or settings.SYNC_THREADS
        self.executors = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"django-sync-{i}") for i in range(count)
        ]
        self.busy = [0] * count  # requests in flight per thread

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        index = min(range(len(self.busy)), key=self.busy.__getitem__)
        self.busy[index] += 1
        try:
            async with ThreadSensitiveContext(executor=self.executors[index]):
                await self.handle(scope, receive, send)
        finally:
            self.busy[index] -= 1

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response_on_thread)(request, asyncio.get_running_loop())

    def get_response_on_thread(self, request, loop):
        _serving.loop = loop  # (tables.live hands its frames to this loop without waiting for it)
        return self.get_response(request)


def get_asgi_application() -> PooledASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledASGIHandler()
