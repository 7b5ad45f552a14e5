"""ASGI entry point: HTTP through Django, WebSockets through Channels (CONTRACTS §3)."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from tables.routing import websocket_urlpatterns  # noqa: E402

if settings.WORKER_IN_PROCESS and "pytest" not in sys.modules:  # the test suite drives worker.tick() itself
    from tables import worker

    worker.start_in_process()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
