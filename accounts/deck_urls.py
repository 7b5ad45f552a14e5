"""The deck builder's addresses. Without a game in the address (/decks/…) a page serves the registry's first
deck-building game; the same pages for any deck-building game are at /decks/<slug>/… (accounts.decks.deck_url
picks the right one). Both share their names: ``{% url 'decks:list' game=slug %}`` is the slugged one."""

from django.urls import path

from accounts import deck_views as views

app_name = "decks"

PAGES = [
    ("", views.deck_list, "list"),
    ("catalog/", views.catalog, "catalog"),
    ("new/", views.new_deck, "new"),
    ("draft/", views.draft, "draft"),
    ("<int:pk>/", views.edit_deck, "edit"),
    ("<int:pk>/duplicate/", views.duplicate_deck, "duplicate"),
    ("<int:pk>/delete/", views.delete_deck, "delete"),
    ("starters/<slug:code>/", views.starter, "starter"),
    ("starters/<slug:code>/copy/", views.copy_starter, "copy_starter"),
]

urlpatterns = [path(route, view, name=name) for route, view, name in PAGES] + [
    path(f"<slug:game>/{route}", view, name=name) for route, view, name in PAGES
]
