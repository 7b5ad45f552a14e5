"""``/api/``: every call is an operation of ``tables.openapi.ninja_api`` (which serves ``openapi.json``), and
``docs`` is the page that reads that document."""

from django.urls import path

from tables import api_docs, openapi, tournament_api

app_name = "api"  # (ninja finds its own root under this namespace)

urlpatterns = [
    path("docs", api_docs.docs, name="docs"),
    *openapi.url_patterns(),
    path("tournaments", tournament_api.tournament_list),
    path("tournaments/<int:pk>", tournament_api.tournament_detail),
    path("tournaments/<int:pk>/join", tournament_api.join),
    path("tournaments/<int:pk>/leave", tournament_api.leave),
    path("tournaments/<int:pk>/start", tournament_api.start),
    path("tournaments/<int:pk>/pause", tournament_api.pause),
]
