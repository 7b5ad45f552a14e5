"""The installable site and Web Push, on the pages' side: the service worker (served from the site's root,
so its scope is the whole site), the web app manifest, the offline page, and the JSON calls a signed-in
page makes with its session and CSRF token: subscribe this device (the same body and answers as
``POST /api/push/subscriptions``), forget it, and "this table is in view" (no push about it meanwhile)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import push
from accounts.limits import LimitReached, parse_id
from tables.errors import json_error

THEME_COLOUR = "#1d3557"


def _error(message: str, status: int) -> JsonResponse:
    return json_error(message, status)


def subscribe_answer(user, data, user_agent: str) -> JsonResponse:
    """201 {"id"} (also when the endpoint was known: it is updated, same id), or the refusal {"error"}."""
    try:
        subscription, _created = push.subscribe(user, data, user_agent)
    except push.BadSubscription as exc:
        return _error(str(exc), 400)
    except LimitReached as exc:
        return _error(exc.message, 429)
    return JsonResponse({"id": subscription.pk}, status=201)


def unsubscribe_answer(user, raw_id: str) -> HttpResponse:
    pk = parse_id(str(raw_id))
    if pk is None or not push.unsubscribe(user, pk):
        return _error(_("No such subscription."), 404)
    return HttpResponse(status=204)


def _json_body(request):
    try:
        return json.loads(request.body or b"null")
    except RequestDataTooBig:
        raise
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def _signed_in(view):
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return _error(_("Log in first."), 401)
        try:
            return view(request, *args, **kwargs)
        except RequestDataTooBig:
            return _error(_("The body is too large."), 413)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


@require_POST
@_signed_in
def subscriptions(request):
    """``POST /accounts/push/subscriptions/`` ``PushSubscription.toJSON()`` -> 201 {"id"}."""
    return subscribe_answer(request.user, _json_body(request), request.headers.get("User-Agent", ""))


@require_http_methods(["DELETE"])
@_signed_in
def subscription(request, pk):
    """``DELETE /accounts/push/subscriptions/<id>/`` -> 204."""
    return unsubscribe_answer(request.user, pk)


@require_POST
@login_required
def remove_device(request, pk):
    """The profile's "Remove" button next to a device."""
    device = parse_id(pk)
    if device is not None and push.unsubscribe(request.user, device):
        messages.success(request, _("Device removed: it receives no more notifications."))
    return redirect("accounts:profile")


@require_POST
@_signed_in
def viewing(request):
    """``POST /accounts/push/viewing/`` ``{"table": id, "visible": bool}`` -> 204: a page of that table is in
    view (sent again every 15 s while it is) or no longer is."""
    data = _json_body(request)
    table = data.get("table") if isinstance(data, dict) else None
    if isinstance(table, bool) or not isinstance(table, int) or not 0 < table < 2**63:
        return _error(_('Send {"table": id, "visible": true or false}.'), 400)
    push.mark_viewing(request.user.pk, table, data.get("visible") is True)
    return HttpResponse(status=204)


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request):
    """``/sw.js``: at the root, so it controls every page of the site."""
    response = render(request, "pwa/sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    """``/manifest.webmanifest``: what an installed Card Club looks like."""
    data = {
        "name": "Card Club",
        "short_name": "Card Club",
        "description": _("Play card games with friends, strangers or bots, live or turn by turn."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "background_color": "#f7f4ee",
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_GET
def offline(request):
    """What the service worker shows when the site cannot be reached (cached when it installs)."""
    return render(request, "pwa/offline.html", {"site_url": settings.SITE_URL})
