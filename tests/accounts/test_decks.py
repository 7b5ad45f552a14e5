"""The Chronica deck builder: catalog filters, deck CRUD, the draft editor, codes, starters, privacy."""

from __future__ import annotations

import re

import pytest

from accounts.models import Deck
from rules.chronica import catalog, encode_deck, starter_decks

pytestmark = pytest.mark.django_db

STARTER = starter_decks()[1]


def cards_on(page: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', page)


def results_codes(page: str) -> list[str]:
    return re.findall(r'class="cat-item[^"]*" data-code="([^"]+)"', page)


def test_the_catalog_draws_every_card(client):
    page = client.get("/decks/catalog/").content.decode()
    assert results_codes(page) == [c["code"] for c in catalog()]
    assert "78 of 78 cards" in page.replace(str(len(catalog())), "78")
    assert "Erudition" in page and "Prestige" in page and "War" in page and "Guerre" not in page
    french = client.get("/decks/catalog/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Érudition" in french and "Prestige" in french and "Guerre" in french


@pytest.mark.parametrize(
    ("params", "check"),
    [
        ({"kind": "building"}, lambda c: c["kind"] == "building"),
        ({"category": "foi"}, lambda c: c["category"] == "foi"),
        ({"era": "Renaissance"}, lambda c: c["era"] == "Renaissance"),
        ({"domain": "guerre"}, lambda c: c["preferred"] == "guerre"),
        (
            {"kind": "character", "domain": "erudition"},
            lambda c: c["kind"] == "character" and c["preferred"] == "erudition",
        ),
    ],
)
def test_the_catalog_filters(client, params, check):
    page = client.get("/decks/catalog/", params).content.decode()
    expected = [c["code"] for c in catalog() if check(c)]
    assert expected and results_codes(page) == expected


def test_the_catalog_searches_by_name_ignoring_accents(client):
    page = client.get("/decks/catalog/", {"q": "chateau"}).content.decode()
    codes = results_codes(page)
    assert "chateau-de-vincennes" in codes and "chateau-gaillard" in codes and "roland" not in codes
    page = client.get("/decks/catalog/", {"q": "Vercingétorix"}).content.decode()
    assert results_codes(page) == ["vercingetorix"]
    page = client.get("/decks/catalog/", {"q": "zzz"}).content.decode()
    assert results_codes(page) == [] and "No card matches" in page


def test_the_catalog_sorts_by_a_domain_value(client):
    page = client.get("/decks/catalog/", {"sort": "guerre"}).content.decode()
    by_code = {c["code"]: c for c in catalog()}
    values = [by_code[code]["values"]["guerre"] for code in results_codes(page)]
    assert values == sorted(values, reverse=True) and values[0] == 8
    page = client.get("/decks/catalog/", {"sort": "best", "category": "savoir"}).content.decode()
    best = [max(by_code[code]["values"].values()) for code in results_codes(page)]
    assert best == sorted(best, reverse=True)


def test_htmx_filtering_answers_only_the_results(client):
    r = client.get("/decks/catalog/", {"category": "arts"}, HTTP_HX_REQUEST="true")
    page = r.content.decode()
    assert page.lstrip().startswith('<div id="catalog-results"') and "<html" not in page


def test_deck_pages_need_a_login(client):
    assert client.get("/decks/").status_code == 302
    assert client.get("/decks/new/").status_code == 302


def test_a_player_creates_saves_and_renames_a_deck(client_for, alice):
    c = client_for(alice)
    cards = STARTER["cards"]
    r = c.post("/decks/new/", {"name": "  My   army ", "cards": cards})
    deck = Deck.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/decks/{deck.pk}/"
    assert deck.owner == alice and deck.name == "My army" and deck.cards == cards
    page = c.get(f"/decks/{deck.pk}/").content.decode()
    assert "Legal deck ✓" in page and encode_deck(cards) in page
    c.post(f"/decks/{deck.pk}/", {"name": "Renamed", "cards": cards[:29]})
    deck.refresh_from_db()
    assert deck.name == "Renamed" and len(deck.cards) == 29
    page = c.get("/decks/").content.decode()
    assert "Renamed" in page and "29/30" in page and "1 problem" in page


def test_the_editor_adds_and_removes_cards_live_without_saving(client_for, alice):
    c = client_for(alice)
    r = c.post(
        "/decks/draft/",
        {"name": "Draft", "cards": ["roland"], "op": "add", "card": "alcuin"},
        HTTP_HX_REQUEST="true",
    )
    page = r.content.decode()
    assert page.lstrip().startswith('<section id="deck-panel"')
    assert sorted(re.findall(r'name="cards" value="([^"]+)"', page)) == ["alcuin", "roland"]
    assert "<strong>2</strong> / 30" in page and "Unsaved changes" in page
    assert "A deck needs exactly 30 cards; this one has 2." in page
    page = c.post(
        "/decks/draft/", {"cards": ["roland", "alcuin"], "op": "remove", "card": "roland"}
    ).content.decode()
    assert re.findall(r'name="cards" value="([^"]+)"', page) == ["alcuin"]
    assert not Deck.objects.exists()


def test_the_editor_explains_every_problem(client_for, alice):
    c = client_for(alice)
    cards = STARTER["cards"][:29] + ["roland", "no-such-card"]
    page = c.post("/decks/draft/", {"cards": cards, "op": "add", "card": "roland"}).content.decode()
    assert "this one has 32" in page
    assert "Roland (roland) is in the deck more than once" in page
    assert "Unknown card: &#x27;no-such-card&#x27; is not in the catalog." in page
    page = c.post("/decks/draft/", {"cards": [], "op": "add", "card": "nope"}).content.decode()
    assert "There is no such card in the catalog." in page


def test_the_make_up_counts_types_categories_and_domains(client_for, alice):
    page = (
        client_for(alice)
        .post("/decks/draft/", {"cards": ["roland", "alcuin"], "op": "add", "card": "la-sorbonne"})
        .content.decode()
    )

    def bar(label):
        m = re.search(r'<span class="bar-label">' + label + r"</span>.*?<strong>(\d+)</strong>", page, re.S)
        return int(m.group(1))

    assert bar("Characters") == 2 and bar("Buildings") == 1
    assert bar("Learning") == 2 and bar("Arms") == 1 and bar("Faith") == 0
    assert bar("Erudition") == 2 and bar("War") == 1 and bar("Prestige") == 0


def test_a_deck_code_round_trips_through_export_and_import(client_for, alice):
    c = client_for(alice)
    code = encode_deck(STARTER["cards"])
    page = c.post("/decks/draft/", {"cards": ["roland"], "op": "import", "code": code}).content.decode()
    assert sorted(re.findall(r'name="cards" value="([^"]+)"', page)) == sorted(STARTER["cards"])
    assert "Legal deck ✓" in page and f'value="{code}"' in page
    page = c.post("/decks/draft/", {"cards": ["roland"], "op": "import", "code": "CU1-AAAA"}).content.decode()
    assert "damaged" in page or "too short" in page
    assert re.findall(r'name="cards" value="([^"]+)"', page) == ["roland"]
    page = c.get("/decks/new/", {"code": code}).content.decode()
    assert "<strong>30</strong> / 30" in page
    page = c.get("/decks/new/", {"code": "hello"}).content.decode()
    assert "This is not a Chronica deck code" in page


def test_a_player_duplicates_and_deletes_a_deck(client_for, alice):
    c = client_for(alice)
    deck = Deck.objects.create(owner=alice, name="Base", cards=STARTER["cards"])
    r = c.post(f"/decks/{deck.pk}/duplicate/")
    copy = Deck.objects.exclude(pk=deck.pk).get()
    assert r["Location"] == f"/decks/{copy.pk}/" and copy.name == "Base (copy)" and copy.cards == deck.cards
    c.post(f"/decks/{deck.pk}/delete/")
    assert list(Deck.objects.all()) == [copy]
    assert c.get(f"/decks/{deck.pk}/delete/").status_code == 405


def test_another_players_deck_is_not_found(client_for, alice, bob):
    deck = Deck.objects.create(owner=alice, name="Secret", cards=STARTER["cards"])
    c = client_for(bob)
    assert c.get(f"/decks/{deck.pk}/").status_code == 404
    assert c.post(f"/decks/{deck.pk}/", {"name": "Mine now", "cards": []}).status_code == 404
    assert c.post(f"/decks/{deck.pk}/duplicate/").status_code == 404
    assert c.post(f"/decks/{deck.pk}/delete/").status_code == 404
    assert c.post("/decks/draft/", {"deck": deck.pk, "op": "clear"}).status_code == 404
    assert "Secret" not in c.get("/decks/").content.decode()
    deck.refresh_from_db()
    assert deck.name == "Secret"


def test_starter_decks_are_listed_viewable_and_copyable(client, client_for, alice):
    c = client_for(alice)
    page = c.get("/decks/").content.decode()
    for s in starter_decks():
        assert s["name"].replace("'", "&#x27;") in page and f"/decks/starters/{s['code']}/" in page
    page = client.get(f"/decks/starters/{STARTER['code']}/").content.decode()
    assert sorted(cards_on(page)) == sorted(STARTER["cards"])
    assert encode_deck(STARTER["cards"]) in page
    r = c.post(f"/decks/starters/{STARTER['code']}/copy/")
    deck = Deck.objects.get()
    assert r["Location"] == f"/decks/{deck.pk}/" and deck.cards == STARTER["cards"] and deck.owner == alice
    assert client.get("/decks/starters/nope/").status_code == 404


def test_a_saved_legal_deck_is_offered_when_joining_a_table(client_for, alice, bob):
    from tables import services

    Deck.objects.create(owner=bob, name="Bob's best", cards=STARTER["cards"])
    Deck.objects.create(owner=bob, name="Unfinished", cards=STARTER["cards"][:3])
    table = services.create_table(alice, "chronica", 2)
    page = client_for(bob).get(f"/tables/{table.pk}/").content.decode()
    assert "Bob&#x27;s best" in page and "Unfinished" not in page


@pytest.mark.parametrize(
    ("power", "check"),
    [
        ("any", lambda c: c["power"] is not None),
        ("none", lambda c: c["power"] is None),
        ("shield", lambda c: c["power"] and c["power"]["do"] == "shield"),
        ("placed", lambda c: c["power"] and c["power"]["when"] == "placed"),
        ("next_to_category", lambda c: c["power"] and "next_to_category" in c["power"]["keywords"]),
    ],
)
def test_the_catalog_filters_by_power_and_keyword(client, power, check):
    page = client.get("/decks/catalog/", {"power": power}).content.decode()
    expected = [c["code"] for c in catalog() if check(c)]
    assert expected and results_codes(page) == expected


def test_the_catalog_shows_each_power_in_the_readers_language_and_searches_it(client):
    page = client.get("/decks/catalog/", {"q": "jeanne"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "When it wins an Action it performs (not as a Reinforcement): you may play one more card." in page
    page = client.get("/decks/catalog/", {"q": "jeanne"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert (
        "Quand elle gagne une Action qu’elle réalise (pas en Renfort) : vous pouvez jouer une carte de plus."
        in page
    )
    page = client.get("/decks/catalog/", {"q": "cannot be the target"}).content.decode()
    shielded = [c["code"] for c in catalog() if c["power"] and c["power"]["do"] == "shield"]
    assert results_codes(page) == shielded
    page = client.get("/decks/catalog/", {"power": "nonsense"}).content.decode()
    assert len(results_codes(page)) == len(catalog())  # an unknown value filters nothing


def test_a_refused_deck_is_kept_as_a_draft_without_a_saved_banner(client_for, alice):
    c = client_for(alice)
    page = c.post("/decks/new/", {"name": "Vide", "cards": []}, follow=True).content.decode()
    assert "saved." not in page and "kept as a draft" in page and 'class="warning"' in page
    page = c.post("/decks/new/", {"name": "Pleine", "cards": STARTER["cards"]}, follow=True).content.decode()
    assert "Deck “Pleine” saved." in page and "kept as a draft" not in page
