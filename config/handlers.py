"""Django's ASGI handler with a request's synchronous work on a few long-lived threads.

Django's own ``ASGIHandler`` opens an ``asgiref.sync.ThreadSensitiveContext`` per request: the request's
sync code (middleware, view, signals) gets a thread of its own, started for it and joined after it, and
with that thread a new database connection. It also runs the middleware in async mode, so a sync-only
middleware in the chain sends the request from the event loop to a thread and back several times.

``PooledASGIHandler`` keeps ``SYNC_THREADS`` threads for the whole process instead. A request enters a
``ThreadSensitiveContext`` that names one of them (the least busy; asgiref's ``executor=``), so all its
sync code still runs on one thread, as Django requires, but on a thread that lives on, with its database
connection (persistent on SQLite: ``CONN_MAX_AGE``; lent by the pool on PostgreSQL). The middleware and
the view run in Django's sync mode, as under WSGI, and a request is one trip to that thread: its
``request_started``, the whole chain and its ``request_finished`` (Django's handler makes three trips).

The thread knows which event loop its request came from (``tables.loops.serving_loop``): the frames and
badges of a move are handed to that loop to send, and the thread goes on to its next request at once.

Requests that change something (POST and the other unsafe methods: moves, chat, joins) run on
settings.SYNC_THREADS threads; one suits SQLite, which takes one writer at a time: they queue in order on
the thread instead of waiting for the write lock in SQLite's busy handler. PostgreSQL serves them side by
side, so it gets several threads. Pages and other reads (GET, HEAD, OPTIONS) run on threads of their own
(settings.PAGE_THREADS, two by default; 0: on the same threads as the changes), so a slow page (a big
account's history, the leaderboards) never holds up a move behind it; SQLite in WAL mode lets them read
while a move writes (``tests/test_handlers.py`` holds a page open while moves are posted).

Hashing a password holds a thread for a good part of a second, by design. A POST to a view marked as
hashing passwords (``accounts.throttle.hashes_passwords``: log-in, sign-up, password change, API token)
runs on threads of its own instead (settings.PASSWORD_THREADS, one by default): a flood of log-ins queues
there, at most that many hashes at once, and the threads that serve moves and pages go on serving them.
The hash itself (PBKDF2 in OpenSSL) lets go of the interpreter, so it competes with the site only for the
processor: those threads run at a lower scheduling priority (settings.PASSWORD_THREAD_NICE, Linux's
per-thread nice value), so that a busy machine serves moves and pages first and log-ins with what is left.

A body larger than settings.DATA_UPLOAD_MAX_MEMORY_SIZE is answered 413 with a JSON error before Django
reads it: at once when its Content-Length says so, else as soon as the bytes read pass the bound.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import Resolver404, resolve, set_script_prefix
from django.utils import translation
from django.utils.translation import gettext, trans_real

from tables.loops import serve

READS = frozenset({"GET", "HEAD", "OPTIONS"})  # the methods served on the page threads


class PooledASGIHandler(ASGIHandler):
    """An ASGI handler whose requests' sync work runs on ``threads`` long-lived threads (see the module)."""

    def __init__(self, threads: int | None = None):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # sync mode: the chain and the view in one trip to the thread
        count = threads or settings.SYNC_THREADS
        self.executors = _threads("django-sync", count)  # the threads that serve moves and pages
        self.busy = [0] * count  # requests in flight per thread
        self.page_executors = _threads("django-page", settings.PAGE_THREADS)  # pages and reads
        self.page_busy = [0] * settings.PAGE_THREADS
        self.password_executors = _threads("django-password", settings.PASSWORD_THREADS, _lower_priority)
        self.password_busy = [0] * settings.PASSWORD_THREADS

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if self.password_executors and _hashes_passwords(scope):
            executors, busy = self.password_executors, self.password_busy
        elif self.page_executors and scope.get("method") in READS and not _streams(scope):
            executors, busy = self.page_executors, self.page_busy
        else:
            executors, busy = self.executors, self.busy
        index = min(range(len(busy)), key=busy.__getitem__)
        busy[index] += 1
        try:
            async with ThreadSensitiveContext(executor=executors[index]):
                await self.handle(scope, receive, send)
        finally:
            busy[index] -= 1

    async def handle(self, scope, receive, send):
        """Django's ``ASGIHandler.handle`` with one trip to the thread where Django makes three.

        Django sends ``request_started`` to its (sync) receivers, runs the request, and closes the response
        (``request_finished``), each in a trip of its own from the event loop to the thread and back.
        Here ``serve_on_thread`` does all three in one; only a streamed response (a static file) is closed
        after it is sent, in a second trip, as Django does. The body is read, the disconnect watched and
        the response sent on the loop, as in Django.
        """
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and (_declared_length(scope) or 0) > limit:
            await _answer_too_large(send, limit, scope)  # (without reading a byte of it)
            return
        try:
            body_file = await self.read_body(_bounded(receive, limit))
        except RequestAborted:
            return
        except _BodyTooLarge:
            await _answer_too_large(send, limit, scope)
            return
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            response = None
            try:
                try:
                    async with asyncio.TaskGroup() as tg:
                        tg.create_task(self.listen_for_disconnect(receive))
                        loop = asyncio.get_running_loop()
                        response = await sync_to_async(self.serve_on_thread)(scope, body_file, loop)
                        await self.send_response(response, send)
                        raise _Processed
                except* (_Processed, RequestAborted):
                    pass
            except BaseExceptionGroup as group:
                if len(group.exceptions) == 1:
                    raise group.exceptions[0] from None
                raise
            if response is None:  # the client went away before the answer was ready
                await signals.request_finished.asend(sender=self.__class__)
            elif response.streaming:
                await sync_to_async(response.close)()

    def serve_on_thread(self, scope, body_file, loop):
        """On the request's thread: request_started, the middleware and the view, and (for an answer that
        is not streamed) the response's close() with request_finished. The response, ready to send."""
        serve(loop)  # (tables.loops hands the frames and badges of a change to this loop, without waiting)
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # (its content is bytes already: closing frees only what it held)
        return response


def _streams(scope) -> bool:
    """Whether the request opens one of the API's streams (tables.streams): served with the changes' threads,
    like a socket's first frame, not on the page threads (see PAGE_THREADS)."""
    return scope.get("path", "").startswith("/api/stream/")


def _threads(name: str, count: int, initializer=None) -> list[ThreadPoolExecutor]:
    """``count`` long-lived threads, an executor each (a request's sync code stays on its one thread)."""
    return [
        ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-{i}", initializer=initializer)
        for i in range(count)
    ]


def _lower_priority() -> None:
    """Lower the calling thread's scheduling priority by settings.PASSWORD_THREAD_NICE (on Linux a thread
    has a nice value of its own; elsewhere, or when refused, the thread keeps the process's)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), settings.PASSWORD_THREAD_NICE)
    except (AttributeError, OSError):
        pass


def _hashes_passwords(scope) -> bool:
    """Whether the request is a POST to a view that hashes a password (``hashes_passwords`` on the view)."""
    return scope.get("method") == "POST" and _view_hashes_passwords(scope["path"], scope.get("root_path", ""))


@functools.lru_cache(maxsize=1024)
def _view_hashes_passwords(path: str, root_path: str) -> bool:
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, "hashes_passwords", False)


class _BodyTooLarge(Exception):
    """A body sent without its length (chunked) grew past settings.DATA_UPLOAD_MAX_MEMORY_SIZE."""


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers") or ():
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _bounded(receive, limit: int | None):
    """``receive``, raising _BodyTooLarge once the body read adds up to more than ``limit`` bytes."""
    if limit is None:
        return receive
    read = 0

    async def bounded():
        nonlocal read
        message = await receive()
        read += len(message.get("body", b""))
        if read > limit:
            raise _BodyTooLarge
        return message

    return bounded


def _language(scope) -> str:
    """The request's language as Accept-Language asks for it (the middleware has not run yet)."""
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            for code, _weight in trans_real.parse_accept_lang_header(value.decode("latin1")):
                try:
                    return translation.get_supported_language_variant(code)
                except LookupError:
                    continue
    return settings.LANGUAGE_CODE


async def _answer_too_large(send, limit: int, scope) -> None:
    """413 with a JSON error (the API's shape for every client error), before Django sees the request: a
    body over settings.DATA_UPLOAD_MAX_MEMORY_SIZE is neither read nor kept."""
    with translation.override(_language(scope)):
        message = gettext("The body is too large (at most %(limit)d bytes).") % {"limit": limit}
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {"type": "http.response.start", "status": 413, "headers": [*headers, (b"connection", b"close")]}
    )
    await send({"type": "http.response.body", "body": body})


class _Processed(Exception):
    """Ends the task group that watches for a disconnect once the response is sent (as Django does)."""


def get_asgi_application() -> PooledASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledASGIHandler()
