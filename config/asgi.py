"""ASGI entry point: HTTP through Django (on a few long-lived threads: config.handlers), WebSockets through
Channels (CONTRACTS §3).

Under daphne, a request whose head is too large is answered 431 (config.protocol), and one whose body is
too large 413 (config.handlers), never dropped.

A socket is accepted only from the site's own pages: its `Origin` must be the scheme, host and port
that serve the request (the `Host` header, an allowed host; https when the socket is wss or the proxy
says so through SECURE_PROXY_SSL_HEADER), or one of CSRF_TRUSTED_ORIGINS.
"""

import gc
import os
import sys
from urllib.parse import urlsplit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config import protocol  # noqa: E402
from config.handlers import get_asgi_application  # noqa: E402

protocol.install()  # (daphne imports this module before it listens)
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402
from django.utils.http import is_same_domain  # noqa: E402

from config import checks  # noqa: E402  (also registered by config.apps)
from tables.routing import websocket_urlpatterns  # noqa: E402

DEFAULT_PORTS = {"http": "80", "https": "443"}

# The event loop (sockets, HTTP parsing) shares the interpreter lock with the thread running a request
# (config.handlers). Python makes a thread that wants the lock wait up to the switch interval (5 ms by
# default) while another runs Python code: the loop would wait that long to send a move's frames while
# the next request renders. At 1 ms, in bench/live.py at 50 moves/s: p99 66-242 ms against 69-310 ms.
SWITCH_INTERVAL = 0.001  # seconds


def origin_key(origin: str) -> tuple[str, str] | None:
    """(scheme, host:port) of an origin, the port always written out; None for anything malformed."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path or parts.query:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return parts.scheme, f"{host}:{port or DEFAULT_PORTS[parts.scheme]}"


def request_scheme(scope, headers: dict[bytes, bytes]) -> str:
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    if settings.SECURE_PROXY_SSL_HEADER:
        name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        if header in headers:
            value = headers[header].decode("latin1").split(",")[0].strip()
            scheme = "https" if value == secure_value else "http"
    return scheme


def origin_allowed(scope) -> bool:
    headers = {name.lower(): value for name, value in scope.get("headers", [])}
    raw = headers.get(b"origin", b"").decode("latin1").strip().lower()
    origin = origin_key(raw)
    if origin is None:
        return False
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:  # "https://*.example.com", as Django's CSRF check reads it
            pattern = urlsplit(trusted.lower())
            if pattern.scheme == origin[0] and is_same_domain(
                urlsplit(raw).netloc, pattern.netloc.lstrip("*")
            ):
                return True
        elif origin_key(trusted) == origin:
            return True
    host = headers.get(b"host", b"").decode("latin1")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin_key(f"{request_scheme(scope, headers)}://{host}") == origin


class SameOriginValidator:
    """Refuse a WebSocket whose Origin is not the site's own (before the handshake is accepted)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            await send({"type": "websocket.close", "code": 403})
            return None
        return await self.app(scope, receive, send)


sys.setswitchinterval(SWITCH_INTERVAL)

# Startup checks: in production, refuse to serve pages that would all fail.
problems = checks.static_manifest(None)
if problems:
    raise ImproperlyConfigured("; ".join(f"{p.msg} {p.hint}" for p in problems))

if (
    settings.WORKER_IN_PROCESS
):  # (off in the test suite, which drives worker.tick() itself: tests/conftest.py)
    from tables import worker

    worker.start_in_process()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Python's cyclic garbage collector stops every thread while it walks the objects it tracks, and the site
# holds many long-lived ones (Django's URL and template machinery, the kept frame parts' keys, the sockets'
# state): a full walk is a pause of tens of milliseconds in the middle of some move's frames. Objects that
# exist once the application is built live as long as the process: freeze them out of every walk, and run
# the youngest generation less often (a move makes thousands of short-lived objects). bench/live.py, 25
# tables x 4 seats at 50 moves/s, two runs each: p95 / p99 37 / 84 and 15 / 61 ms before, 15 / 25 and
# 13 / 23 ms after, the median unchanged (10-11 ms).
gc.freeze()
gc.set_threshold(20_000, 50, 100)
