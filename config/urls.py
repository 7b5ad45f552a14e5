from django.contrib import admin
from django.urls import include, path

from accounts import push_views
from accounts.views import switch_language

urlpatterns = [
    path("i18n/setlang/", switch_language, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("tables.api_urls")),
    path("decks/", include("accounts.deck_urls")),
    path("admin/", admin.site.urls),
    path("sw.js", push_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", push_views.manifest, name="manifest"),
    path("offline/", push_views.offline, name="offline"),
    path("", include("tables.urls")),
]


def handler404(request, exception=None):
    """JSON for the API (CONTRACTS §2: errors are {"error": ...}), Django's page elsewhere."""
    from django.views.defaults import page_not_found

    from tables.errors import json_error

    if request.path.startswith("/api/"):
        return json_error("Not found.", 404)
    return page_not_found(request, exception)


def handler500(request):
    from django.views.defaults import server_error

    from tables.errors import json_error

    if request.path.startswith("/api/"):
        return json_error("Something went wrong on our side.", 500)
    return server_error(request)
