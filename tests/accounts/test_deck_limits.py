"""Deck input the builder refuses with a message (issue #17, findings 4 and 10): odd deck ids, control
characters, junk or oversized card lists, and more decks than an account may keep."""

from __future__ import annotations

import pytest

from accounts.decks import resolve_deck
from accounts.models import Deck
from rules.chronica import starter_decks

pytestmark = pytest.mark.django_db

STARTER = starter_decks()[0]


@pytest.mark.parametrize(
    "deck_id", ["²", "١٢", "12345678901234567890", "99999999999999999999999", "0", "-1", " 1"]
)
def test_a_draft_with_an_odd_deck_id_is_not_an_error(client_for, alice, deck_id):
    r = client_for(alice).post("/decks/draft/", {"deck": deck_id, "op": "clear"})
    assert r.status_code == 200 and 'id="deck-panel"' in r.content.decode()


def test_a_draft_still_finds_its_own_deck(client_for, alice):
    deck = Deck.objects.create(owner=alice, name="Mine", cards=[])
    page = client_for(alice).post("/decks/draft/", {"deck": str(deck.pk), "op": "clear"}).content.decode()
    assert f'name="deck" value="{deck.pk}"' in page


@pytest.mark.parametrize("ref", ["deck:²", "deck:12345678901234567890", "deck:"])
def test_joining_with_an_odd_deck_reference_is_a_message(alice, ref):
    with pytest.raises(ValueError, match="Choose one of your decks"):
        resolve_deck(alice, "chronica", ref)


@pytest.mark.parametrize("bad", ["\x00", "\x01", "\x1b"])
def test_a_deck_name_with_control_characters_is_refused(client_for, alice, bad):
    c = client_for(alice)
    r = c.post("/decks/new/", {"name": f"My{bad}deck", "cards": STARTER["cards"]})
    assert (
        r.status_code == 400
        and "Deck name: Control characters (such as NUL) are not allowed" in r.content.decode()
    )
    assert not Deck.objects.exists()
    deck = Deck.objects.create(owner=alice, name="Clean", cards=STARTER["cards"])
    r = c.post(f"/decks/{deck.pk}/", {"name": f"Re{bad}named", "cards": STARTER["cards"]})
    assert r.status_code == 400
    deck.refresh_from_db()
    assert deck.name == "Clean"
    page = c.post("/decks/draft/", {"name": f"Dr{bad}aft", "op": "clear"}).content.decode()
    assert "Control characters" in page and 'value="Draft"' in page


@pytest.mark.parametrize("junk", ["rol\x00and", "x" * 41, "two words", "é-card"])
def test_card_entries_that_are_not_codes_are_left_out_with_a_message(client_for, alice, junk):
    c = client_for(alice)
    page = c.post(
        "/decks/draft/", {"cards": ["roland", junk], "op": "add", "card": "alcuin"}
    ).content.decode()
    assert "were not card codes" in page
    assert 'name="cards" value="roland"' in page and 'name="cards" value="alcuin"' in page
    r = c.post("/decks/new/", {"name": "Junk", "cards": [*STARTER["cards"][:29], junk]})
    assert r.status_code == 400 and "were not card codes" in r.content.decode()
    assert not Deck.objects.exists()


def test_a_saved_deck_holds_only_catalog_cards_and_at_most_the_deck_size(client_for, alice):
    c = client_for(alice)
    r = c.post("/decks/new/", {"name": "Big", "cards": [*STARTER["cards"], "roland"]})
    assert r.status_code == 400 and "A deck holds at most 30 cards; this one has 31." in r.content.decode()
    r = c.post("/decks/new/", {"name": "Odd", "cards": ["roland", "no-such-card"]})
    assert (
        r.status_code == 400
        and "Only catalog cards can be saved; remove: no-such-card." in r.content.decode()
    )
    assert not Deck.objects.exists()
    r = c.post("/decks/new/", {"name": "Unfinished", "cards": ["roland"]})
    assert r.status_code == 302 and Deck.objects.get().cards == ["roland"]
    deck = Deck.objects.get()
    r = c.post(f"/decks/{deck.pk}/", {"name": "Unfinished", "cards": ["x" * 40] * 120})
    assert r.status_code == 400
    deck.refresh_from_db()
    assert deck.cards == ["roland"]


def test_an_account_keeps_at_most_50_decks(client_for, alice, bob):
    Deck.objects.bulk_create(Deck(owner=alice, name=f"Deck {n}", cards=[]) for n in range(50))
    c = client_for(alice)
    r = c.post("/decks/new/", {"name": "One more", "cards": ["roland"]})
    assert r.status_code == 400 and "You may keep at most 50 decks: delete one first." in r.content.decode()
    first = Deck.objects.filter(owner=alice).first()
    r = c.post(f"/decks/{first.pk}/duplicate/", follow=True)
    assert "You may keep at most 50 decks" in r.content.decode()
    r = c.post(f"/decks/starters/{STARTER['code']}/copy/", follow=True)
    assert "You may keep at most 50 decks" in r.content.decode()
    assert Deck.objects.filter(owner=alice).count() == 50
    assert client_for(bob).post("/decks/new/", {"name": "Bob's", "cards": []}).status_code == 302
    first.delete()
    assert c.post("/decks/new/", {"name": "One more", "cards": []}).status_code == 302
