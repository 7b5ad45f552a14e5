"""``/api/``: every call is an operation of ``tables.openapi.ninja_api`` (which serves ``openapi.json``), and
``docs`` is the page that reads that document."""

from django.urls import path

from tables import api_docs, openapi

app_name = "api"  # (ninja finds its own root under this namespace)

urlpatterns = [
    path("docs", api_docs.docs, name="docs"),
    *openapi.url_patterns(),
]
