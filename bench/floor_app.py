"""The floor under the site's figures in bench/live.py: the echo app's answers, made by Django as the site
makes its own.

Same calls, same in-memory tables and ~6 KB frame as bench/echo_app.py (its ``respond``), same sockets
(its consumer), but every HTTP call goes through what the site's HTTP path costs before any of its own
work: the site's settings and middleware chain (security, CSP, sessions, locale, CSRF, auth, messages,
htmx...), URL resolution, a sync Django view and a ``JsonResponse`` on the site's request threads
(config.handlers.PooledASGIHandler), and a move's frame handed to the event loop by the site's own
``tables.live.send``. No database, no game, no rendering.

So echo -> floor is what Django and its request path cost; floor -> site is what the site's own work
(its database writes, the rules, the frames) costs. Served by bench/live.py with
`daphne -b 127.0.0.1 -p PORT bench.floor_app:application` from the project's root. With FLOOR_BARE=1 in
its environment the middleware chain is left out too (Django's handler, URL resolution and the view only).
"""

from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # echo_app, beside this file

from django.conf import settings  # noqa: E402

settings.ROOT_URLCONF = __name__  # this module's urlpatterns, below, in place of the site's
if os.environ.get("FLOOR_BARE"):
    settings.MIDDLEWARE = []

from config.handlers import get_asgi_application  # noqa: E402

django_app = get_asgi_application()

import echo_app  # noqa: E402  (after Django is set up with the site's settings: it keeps them)
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.urls import re_path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402

from tables import live  # noqa: E402


@csrf_exempt
def api(request):
    user = echo_app.token_of(request.headers.get("Authorization", ""))
    status, data, moved = echo_app.respond(request.method, request.path, user, request.body)
    if moved is not None:
        live.send(get_channel_layer(), [(moved.group, moved.message())])
    return JsonResponse(data, status=status, safe=False)


urlpatterns = [re_path(r"^(?:api/tables(?:/.*)?)?$", api)]

application = ProtocolTypeRouter(
    {"http": django_app, "websocket": echo_app.application.application_mapping["websocket"]}
)
