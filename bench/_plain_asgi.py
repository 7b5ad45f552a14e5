"""bench/handler.py's yardstick: the site with its HTTP served by Django's own ``ASGIHandler`` (a thread
started per request, the middleware in async mode) instead of ``config.handlers.PooledASGIHandler``; the
sockets as the site serves them. Served with `daphne -b 127.0.0.1 -p PORT bench._plain_asgi:application`
from the project's root.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from config.asgi import application as site  # noqa: E402  (sets the site up: checks, worker, sockets)

application = ProtocolTypeRouter({"http": ASGIHandler(), "websocket": site.application_mapping["websocket"]})
