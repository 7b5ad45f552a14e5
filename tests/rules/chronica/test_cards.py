"""The Chronica catalog, deck validation, starter decks and the text deck code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.chronica import catalog, decode_deck, encode_deck, starter_decks, validate_deck
from rules.chronica.cards import CARDS, DECK_CODE_PREFIX

CODES = [row[0] for row in CARDS]

RULEBOOK_CARDS = {
    # code: (name, kind, class, (erudition, prestige, guerre), preferred or None if not printed in RULINGS)
    "chateau-de-vincennes": ("Château de Vincennes", "building", "Château", (0, 5, 5), None),
    "philippe-auguste": ("Philippe Auguste", "character", "Roi", (0, 0, 8), "guerre"),
    "saint-eustache-de-fly": ("Saint Eustache de Fly", "character", "Saint", (4, 2, 0), "erudition"),
    "cathedrale-notre-dame-d-amiens": (
        "Cathédrale Notre-Dame d'Amiens",
        "building",
        "Cathédrale",
        (5, 5, 0),
        None,
    ),
    "charles-le-chauve": ("Charles le Chauve", "character", "Roi", (2, 4, 3), None),
    "abbaye-notre-dame-de-citeaux": (
        "Abbaye Notre-Dame de Cîteaux",
        "building",
        "Abbaye",
        (6, 3, 0),
        "erudition",
    ),
    "sainte-odile": ("Sainte Odile", "character", "Sainte", (5, 2, 0), "erudition"),
    "chateau-de-bonaguil": ("Château de Bonaguil", "building", "Château", (0, 3, 4), "prestige"),
    "louis-viii-le-lion": ("Louis VIII le Lion", "character", "Roi", (0, 0, 8), "guerre"),
}


def by_code():
    return {c["code"]: c for c in catalog()}


def test_the_catalog_has_at_least_64_distinct_cards_over_5_categories_and_4_eras():
    cards = catalog()
    assert len(cards) >= 64
    assert len({c["code"] for c in cards}) == len(cards)
    assert len({c["name"] for c in cards}) == len(cards)
    assert len({c["category"] for c in cards}) >= 5
    assert len({c["era"] for c in cards}) >= 4


def test_every_card_has_the_contract_fields_and_sensible_values():
    for c in catalog():
        assert c["code"].isascii() and " " not in c["code"] and c["code"]
        assert c["kind"] in ("character", "building")
        assert set(c["values"]) == {"erudition", "prestige", "guerre"}
        assert c["preferred"] in c["values"]
        assert all(isinstance(v, int) and 0 <= v <= 8 for v in c["values"].values())
        assert 6 <= sum(c["values"].values()) <= 11, c["code"]
        assert c["class"] and c["category"] and c["era"] and c["name"]


def test_every_category_pairs_characters_with_buildings():
    kinds = {}
    for c in catalog():
        kinds.setdefault(c["category"], set()).add(c["kind"])
    assert all(k == {"character", "building"} for k in kinds.values())


def test_the_catalog_holds_the_rulebooks_nine_cards_with_their_printed_values():
    cards = by_code()
    for code, (name, kind, klass, values, preferred) in RULEBOOK_CARDS.items():
        card = cards[code]
        assert card["name"] == name
        assert card["kind"] == kind
        assert card["class"] == klass
        assert (card["values"]["erudition"], card["values"]["prestige"], card["values"]["guerre"]) == values
        if preferred:
            assert card["preferred"] == preferred
    assert cards["charles-le-chauve"]["category"] == cards["chateau-de-bonaguil"]["category"]
    assert cards["sainte-odile"]["category"] == cards["abbaye-notre-dame-de-citeaux"]["category"]


def test_catalog_returns_copies_the_caller_cannot_corrupt():
    first = catalog()
    first[0]["values"]["erudition"] = 99
    assert catalog()[0]["values"]["erudition"] != 99


def test_validate_deck_accepts_30_distinct_known_cards():
    assert validate_deck(CODES[:30]) == []


def test_validate_deck_reports_the_wrong_size_readably():
    problems = validate_deck(CODES[:29])
    assert problems == ["A deck needs exactly 30 cards; this one has 29."]


def test_validate_deck_reports_duplicates_by_name():
    deck = CODES[:29] + [CODES[0]]
    problems = validate_deck(deck)
    assert len(problems) == 1
    assert "Charles le Chauve" in problems[0] and "more than once" in problems[0]


def test_validate_deck_reports_unknown_cards():
    problems = validate_deck(CODES[:29] + ["napoleon-on-a-unicorn"])
    assert problems == ["Unknown card: 'napoleon-on-a-unicorn' is not in the catalog."]


def test_validate_deck_refuses_things_that_are_not_lists():
    assert validate_deck("charles-le-chauve") == ["A deck is a list of card codes."]
    assert validate_deck(None) == ["A deck is a list of card codes."]
    assert "are text" in validate_deck([1] + CODES[:29])[0]


def test_there_are_four_starter_decks_of_30_distinct_legal_cards():
    decks = starter_decks()
    assert len(decks) == 4
    assert len({d["code"] for d in decks}) == 4
    for deck in decks:
        assert validate_deck(deck["cards"]) == []
        kinds = [by_code()[c]["kind"] for c in deck["cards"]]
        assert 12 <= kinds.count("character") <= 18


def test_a_deck_code_round_trips():
    deck = starter_decks()[3]["cards"]
    text = encode_deck(deck)
    assert text.startswith(DECK_CODE_PREFIX)
    assert len(text) < 60
    assert decode_deck(text) == deck
    assert decode_deck(text.lower()) == deck
    assert decode_deck(" " + text[:10] + "\n" + text[10:]) == deck


@given(st.lists(st.sampled_from(CODES), max_size=40))
def test_any_list_of_cards_round_trips_through_a_deck_code(deck):
    assert decode_deck(encode_deck(deck)) == deck


def test_encode_deck_refuses_unknown_cards():
    with pytest.raises(ValueError, match="Unknown card"):
        encode_deck(["charles-le-chauve", "nobody"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XX1-ABCDEF", "not a Chronica deck code"),
        ("CU1-!!!!", "damaged"),
        ("CU1-", "too short"),
        (None, "is text"),
    ],
)
def test_decode_deck_explains_bad_codes(text, message):
    with pytest.raises(ValueError, match=message):
        decode_deck(text)


def test_decode_deck_catches_a_mistyped_character():
    text = encode_deck(starter_decks()[0]["cards"])
    k = len(text) - 8
    typo = text[:k] + ("A" if text[k] != "A" else "B") + text[k + 1 :]
    with pytest.raises(ValueError, match="checksum"):
        decode_deck(typo)


def test_deck_problems_and_deck_code_errors_read_in_french():
    problems = validate_deck([1, CODES[0], CODES[0]])
    assert [p.words("fr") for p in problems] == [
        "Un deck compte exactement 30 cartes ; celui-ci en a 3.",
        "Les codes de cartes sont du texte ; 1 n’en est pas.",
        "Charles le Chauve (charles-le-chauve) figure plusieurs fois dans le deck ; un deck ne contient que "
        "des cartes différentes.",
    ]
    assert problems[0] == "A deck needs exactly 30 cards; this one has 3."  # as a str: English
    with pytest.raises(ValueError) as caught:
        decode_deck("XX1-ABCDEF")
    assert (
        caught.value.words("fr") == "Ce n’est pas un code de deck Chronica (il devrait commencer par CU1-)."
    )
    with pytest.raises(ValueError) as caught:
        encode_deck(["nobody"])
    assert caught.value.words("fr") == "Carte inconnue : 'nobody' n’est pas dans le catalogue."
