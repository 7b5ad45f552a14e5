"""The card list: counts, codes, abilities built only from the five kinds and the known effects."""

import re

import pytest

from rules.cosplay.cards import CARDS, DRAMA_CODES, LIBRARY, OBJECTIVE_LEVELS, STARTER_DECK, describe
from rules.cosplay.effects import EFFECTS

KINDS = {"discard", "influence", "recruit", "sacrifice", "support"}


def of_kind(kind):
    return [c for c in CARDS.values() if c["kind"] == kind]


def test_it_has_the_rulebook_counts():
    assert len(of_kind("character")) == 40
    assert len(of_kind("equipment")) == 12
    assert len(LIBRARY) == 52
    assert len(DRAMA_CODES) == 20
    assert sorted(STARTER_DECK) == sorted(
        ["st-badass"] * 3 + ["st-kawaii"] * 3 + ["st-craft"] * 3 + ["st-passion"]
    )
    for level in (1, 2, 3):
        assert len(OBJECTIVE_LEVELS[level]) >= 5  # 4 players need 5 piles of each level


def test_codes_are_short_ascii_without_spaces():
    for code, card in CARDS.items():
        assert re.fullmatch(r"[a-z0-9-]{4,28}", code), code
        assert card["code"] == code
        assert card["name"] and card["art"] and ";" in card["art"]


def test_names_are_unique():
    names = [c["name"] for c in CARDS.values()]
    assert len(names) == len(set(names))


def test_characters_cost_badass_or_kawaii_and_equipment_costs_craft():
    for card in of_kind("character"):
        assert card["cost"].get("badass", 0) + card["cost"].get("kawaii", 0) > 0
        assert set(card["cost"]) <= {"badass", "kawaii", "craft"}
    for card in of_kind("equipment"):
        assert set(card["cost"]) == {"craft"}
        assert card["encumbrance"] in (1, 2, None)
    assert {c["encumbrance"] for c in of_kind("equipment")} == {1, 2, None}


def test_every_playable_card_gives_points_for_recruiting():
    for card in of_kind("character") + of_kind("equipment") + of_kind("starter"):
        assert sum(card["points"].values()) >= 1, card["code"]
    for card in of_kind("starter"):
        assert sum(card["points"].values()) == 1


def test_drama_costs_are_multicolour_and_objectives_have_points():
    for card in of_kind("drama"):
        assert set(card["cost"]) == {"any"}
        assert card["sting"] in (None, "tax", "fatigue")
    for card in of_kind("objective"):
        assert card["vp"] >= 1 and card["level"] in (1, 2, 3)
        assert not card["ability"] or card["ability"]["kind"] in ("recruit", "influence")


def test_abilities_use_the_five_kinds_and_known_effects():
    kinds_seen = set()
    for card in CARDS.values():
        ability = card["ability"]
        if not ability:
            continue
        assert ability["kind"] in KINDS
        kinds_seen.add(ability["kind"])
        for item in ability["effects"]:
            assert item["effect"] in EFFECTS
            if ability["kind"] == "influence":
                assert item["effect"] == "cost_mod"
            else:
                assert item["effect"] != "cost_mod"
    assert kinds_seen == KINDS


def test_la_passion_poaches():
    assert CARDS["st-passion"]["ability"]["effects"][0]["effect"] == "poach"
    assert CARDS["st-passion"]["points"] == {"wild": 1}


def test_combos_name_existing_partners_both_ways():
    combos = [c for c in CARDS.values() if c["combo"]]
    assert any(len(c["combo"]["partners"]) == 1 for c in combos)
    assert any(len(c["combo"]["partners"]) == 2 for c in combos)
    for card in combos:
        for partner in card["combo"]["partners"]:
            assert CARDS[partner]["kind"] == "character"
            assert card["code"] in CARDS[partner]["combo"]["partners"]
        assert sum(card["combo"]["bonus"].values()) >= 1


@pytest.mark.parametrize("code", sorted(c for c in CARDS if CARDS[c]["ability"] or CARDS[c]["combo"]))
def test_every_ability_has_a_text(code):
    assert describe(code)


FRENCH_KINDS = {"discard": "Défausse", "influence": "Influence", "recruit": "Recrutement"}
FRENCH_KINDS |= {"sacrifice": "Sacrifice", "support": "Soutien"}


@pytest.mark.parametrize("code", sorted(CARDS))
def test_every_text_is_said_in_french_too(code):
    """The same sentences, one for one, in French: the kind as rulebook 003 names it, no English word left."""
    english, french = describe(code), describe(code, "fr")
    assert bool(english) == bool(french)
    assert english.count(". ") == french.count(". ")
    ability = CARDS[code]["ability"]
    if ability:
        assert french.startswith(FRENCH_KINDS[ability["kind"]] + "\u00a0: "), french
    names = {CARDS[p]["name"] for p in (CARDS[code].get("combo") or {}).get("partners", [])}
    for name in names:
        french = french.replace(name, "")
    english_words = {
        "draw",
        "card",
        "cards",
        "your",
        "this",
        "turn",
        "send",
        "from",
        "the",
        "with",
        "cost",
        "less",
    }
    assert not english_words & set(re.findall(r"[a-z]+", french)), french


def test_characters_cost_badass_or_kawaii_and_equipment_craft_only():
    """Rulebook 003: « Personnage : Elles peuvent être recrutées via leurs coûts de BADASS et/ou KAWAII »;
    « Équipement : Les cartes d'équipement peuvent être recrutées via leurs coûts de CRAFT »."""
    for card in of_kind("character"):
        assert set(card["cost"]) <= {"badass", "kawaii"} and sum(card["cost"].values()) > 0, card["code"]
    for card in of_kind("equipment"):
        assert set(card["cost"]) == {"craft"} and card["cost"]["craft"] > 0, card["code"]


def test_the_catalog_lists_every_card_with_its_cost_by_resource():
    from rules.cosplay import catalog

    entries = catalog()
    assert [e["code"] for e in entries] == list(CARDS)
    for entry in entries:
        card = CARDS[entry["code"]]
        assert entry["name"] == card["name"] and entry["kind"] == card["kind"]
        assert set(entry["cost"]) == {"badass", "kawaii", "craft"}
        for res in ("badass", "kawaii", "craft"):
            assert entry["cost"][res] == card["cost"].get(res, 0)
        assert entry["any"] == card["cost"].get("any", 0)
    assert {e["kind"] for e in entries} == {"character", "equipment", "starter", "drama", "objective"}
