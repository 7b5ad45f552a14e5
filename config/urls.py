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
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return JsonResponse({"error": "Not found."}, status=404)
    return page_not_found(request, exception)


def handler500(request):
    from django.http import JsonResponse
    from django.views.defaults import server_error

    if request.path.startswith("/api/"):
        return JsonResponse({"error": "Something went wrong on our side."}, status=500)
    return server_error(request)
