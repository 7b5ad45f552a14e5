"""The deck builder serves a game by its registration alone: Toy Decks (tests/toy/decks.py), registered only here,
gets its catalog, its decks, its editor, its starters and the new-table deck choice at /decks/toydeck/…, its
decks stay apart from Chronica's, and nothing of the platform's deck code names a game."""

from __future__ import annotations

import pathlib
import re

import pytest

from accounts.models import Deck
from rules import registry
from tables import games
from tests.toy.decks import registered

pytestmark = pytest.mark.django_db

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def toydeck(settings):
    with registered(settings) as plugin:
        yield plugin
    assert "toydeck" not in registry.games()


def codes_in(page: str, attr: str = "data-code") -> list[str]:
    return re.findall(rf'{attr}="([^"]+)"', page)


def test_its_catalog_is_served_and_filtered_by_its_builder(client, toydeck):
    page = client.get("/decks/toydeck/catalog/").content.decode()
    assert codes_in(page) == ["t1", "t2", "t3", "t4", "t5", "t6"] and "6 of 6 cards" in page
    page = client.get("/decks/toydeck/catalog/", {"high": "yes"}).content.decode()
    assert codes_in(page) == ["t4", "t5", "t6"] and "3 of 6 cards" in page
    htmx = client.get("/decks/toydeck/catalog/", {"high": "no"}, HTTP_HX_REQUEST="true").content.decode()
    assert htmx.startswith('<ul id="toy-results">') and codes_in(htmx) == ["t1", "t2", "t3"]
    # Chronica's catalog is still the one at /decks/catalog/.
    assert 'id="toy-results"' not in client.get("/decks/catalog/").content.decode()


def test_a_player_builds_saves_and_lists_a_deck_of_it_apart_from_chronicas(client_for, alice, toydeck):
    c = client_for(alice)
    assert c.get("/decks/toydeck/new/").status_code == 200
    panel = c.post(
        "/decks/toydeck/draft/", {"name": "Mine", "cards": ["t1", "t2"], "op": "add", "card": "t6"}
    )
    panel = panel.content.decode()
    assert (
        panel.strip().startswith('<section id="toy-panel">') and "3/4" in panel and "exactly 4 cards" in panel
    )
    refused = c.post("/decks/toydeck/draft/", {"cards": ["t1"], "op": "add", "card": "nope"}).content.decode()
    assert "There is no such card in the catalog." in refused and "1/4" in refused
    imported = c.post("/decks/toydeck/draft/", {"op": "import", "code": "TD-t2.t3.t4.t5"}).content.decode()
    assert "4/4 legal" in imported and "TD-t2.t3.t4.t5" in imported
    r = c.post("/decks/toydeck/new/", {"name": "Mine", "cards": ["t2", "t3", "t4", "t5"]})
    deck = Deck.objects.get(owner=alice)
    assert r.status_code == 302 and r["Location"] == f"/decks/toydeck/{deck.pk}/"
    assert deck.game == "toydeck" and deck.cards == ["t2", "t3", "t4", "t5"]
    assert f'data-deck="{deck.pk}"' in c.get("/decks/toydeck/").content.decode()
    too_many = c.post(f"/decks/toydeck/{deck.pk}/", {"name": "Mine", "cards": ["t1", "t2", "t3", "t4", "t5"]})
    assert too_many.status_code == 400 and "At most 4 cards." in too_many.content.decode()
    deck.refresh_from_db()
    assert deck.cards == ["t2", "t3", "t4", "t5"]
    # Chronica's pages know nothing of it, and its pages nothing of Chronica's decks.
    assert "Mine" not in c.get("/decks/").content.decode()
    assert c.get(f"/decks/{deck.pk}/").status_code == 404
    chronica_deck = Deck.create_for(alice, "Court", [])
    assert c.get(f"/decks/toydeck/{chronica_deck.pk}/").status_code == 404
    r = c.post(f"/decks/toydeck/{deck.pk}/duplicate/")
    copy = Deck.objects.filter(game="toydeck").exclude(pk=deck.pk).get()
    assert r["Location"] == f"/decks/toydeck/{copy.pk}/" and copy.name == "Mine (copy)"
    r = c.post(f"/decks/toydeck/{copy.pk}/delete/")
    assert r["Location"] == "/decks/toydeck/" and not Deck.objects.filter(pk=copy.pk).exists()


def test_its_starters_are_shown_and_copied(client_for, alice, toydeck):
    c = client_for(alice)
    page = c.get("/decks/toydeck/").content.decode()
    assert codes_in(page, "data-starter") == ["low", "high"]
    page = c.get("/decks/toydeck/starters/high/").content.decode()
    assert codes_in(page) == ["t3", "t4", "t5", "t6"]
    assert c.get("/decks/toydeck/starters/nope/").status_code == 404
    r = c.post("/decks/toydeck/starters/low/copy/")
    deck = Deck.objects.get(owner=alice)
    assert r["Location"] == f"/decks/toydeck/{deck.pk}/" and deck.game == "toydeck" and deck.name == "Low"
    page = c.get("/decks/toydeck/new/", {"starter": "high"}).content.decode()
    assert "High (copy)" in page and "4/4 legal" in page


def test_its_new_table_form_offers_its_decks_and_links_its_builder(client_for, alice, toydeck):
    Deck.create_for(alice, "Legal", ["t1", "t2", "t3", "t4"], "toydeck")
    Deck.create_for(alice, "Half", ["t1"], "toydeck")
    Deck.create_for(alice, "Court", [])  # Chronica's
    page = client_for(alice).get("/games/toydeck/new/").content.decode()
    options = re.findall(r'<option value="([^"]+)">([^<]+)</option>', page)
    legal = Deck.objects.get(name="Legal")
    assert (f"deck:{legal.pk}", "Legal") in options and ("starter:low", "Starter: Low") in options
    assert not any(label in ("Half", "Court") for _value, label in options)
    assert 'href="/decks/toydeck/"' in page


def test_the_account_export_names_each_decks_game(client, alice, toydeck):
    from accounts.models import ApiToken, first_deck_game

    Deck.create_for(alice, "Court", [])
    Deck.create_for(alice, "Mine", ["t1"], "toydeck")
    r = client.get("/api/account/export", HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(alice)[1]}")
    decks = {d["name"]: (d["game"], d["cards"]) for d in r.json()["decks"]}
    assert decks == {"Court": (first_deck_game(), []), "Mine": ("toydeck", ["t1"])}


def test_a_page_of_a_game_that_builds_no_decks_is_not_found(client_for, alice):
    c = client_for(alice)
    assert c.get("/decks/five_crowns/").status_code == 404
    assert c.get("/decks/nope/catalog/").status_code == 404


def test_the_decks_link_shows_only_when_some_game_builds_decks(client_for, alice, monkeypatch):
    c = client_for(alice)
    assert 'href="/decks/"' in c.get("/").content.decode()
    every = games.plugins
    monkeypatch.setattr(games, "plugins", lambda: [p for p in every() if p.decks is None])
    assert 'href="/decks/"' not in c.get("/").content.decode()
    assert c.get("/decks/").status_code == 404


def test_the_platforms_deck_code_names_no_game():
    modules = [
        "accounts/decks.py",
        "accounts/deck_views.py",
        "accounts/deck_urls.py",
        "tables/games/__init__.py",
    ]
    for path in modules:
        text = (ROOT / path).read_text().lower()
        for slug in registry.games():
            assert slug not in text, f"{path} names {slug}"
