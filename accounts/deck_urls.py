from django.urls import path

from accounts import deck_views as views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("catalog/", views.catalog, name="catalog"),
    path("new/", views.new_deck, name="new"),
    path("draft/", views.draft, name="draft"),
    path("<int:pk>/", views.edit_deck, name="edit"),
    path("<int:pk>/duplicate/", views.duplicate_deck, name="duplicate"),
    path("<int:pk>/delete/", views.delete_deck, name="delete"),
    path("starters/<slug:code>/", views.starter, name="starter"),
    path("starters/<slug:code>/copy/", views.copy_starter, name="copy_starter"),
]
