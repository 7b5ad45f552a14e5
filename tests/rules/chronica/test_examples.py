"""The rulebook's five worked examples, figure for figure (plus the occupation example)."""

from __future__ import annotations

import pytest

from rules.chronica import GAME, preview
from tests.rules.chronica.helpers import board

CHARLES = "charles-le-chauve"
CITEAUX = "abbaye-notre-dame-de-citeaux"
ODILE = "sainte-odile"
BONAGUIL = "chateau-de-bonaguil"
LOUIS = "louis-viii-le-lion"
EUSTACHE = "saint-eustache-de-fly"
AMIENS = "cathedrale-notre-dame-d-amiens"
VINCENNES = "chateau-de-vincennes"
PHILIPPE = "philippe-auguste"


def action(card, seat, slot, reinforce=None):
    return {"type": "action", "card": card, "target": {"seat": seat, "slot": slot}, "reinforce": reinforce}


def test_example_charles_le_chauve_against_citeaux_costs_4_honour():
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, None)}})
    move = action(CHARLES, 1, 0)
    assert preview(state, 0, move)["honour_delta"] == -4
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [6, 10]
    assert after["discards"][0] == [CHARLES]
    assert after["discards"][1] == [CITEAUX]
    assert after["provinces"][1][0] is None
    assert after["phase"] == "play" and after["current"] == 1  # no fervour: the turn passed


def test_example_charles_against_citeaux_occupied_by_sainte_odile_costs_9_and_gives_fervour():
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CITEAUX, ODILE)}})
    move = action(CHARLES, 1, 0)
    p = preview(state, 0, move)
    assert p["honour_delta"] == -9
    assert p["opponent_honour_delta"] == {1: -1}
    assert "fervour" in p["explanation"]["en"].lower() and "Ferveur populaire" in p["explanation"]["fr"]
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [1, 9]
    assert after["phase"] == "fervour" and GAME.to_act(after) == [0]
    assert sorted(after["discards"][1]) == sorted([CITEAUX, ODILE])


def test_example_charles_against_bonaguil_occupied_by_louis_viii_gains_1_by_the_same_category_exception():
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}}, honour=[5, 10])
    move = action(CHARLES, 1, 0)
    p = preview(state, 0, move)
    assert p["honour_delta"] == 1
    assert "Prestige 4" in p["explanation"]["en"] and "Prestige 3" in p["explanation"]["en"]
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [6, 9]
    assert after["phase"] == "fervour"


def test_example_the_same_category_gain_is_capped_at_10():
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}})
    after = GAME.apply(state, 0, action(CHARLES, 1, 0))
    assert after["honour"] == [10, 9]


def test_example_reinforced_by_saint_eustache_from_the_province_costs_5():
    state = board(
        hands={0: [CHARLES]},
        provinces={0: {2: (AMIENS, EUSTACHE)}, 1: {0: (CITEAUX, ODILE)}},
    )
    move = action(CHARLES, 1, 0, {"from": "province", "slot": 2})
    assert preview(state, 0, move)["honour_delta"] == -5
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [5, 9]
    assert after["provinces"][0][2] == {"building": AMIENS, "character": None, "guest": None}
    assert sorted(after["discards"][0]) == sorted([CHARLES, EUSTACHE])
    assert after["phase"] == "fervour"


def test_example_reinforced_by_saint_eustache_from_the_hand_costs_5_too():
    state = board(hands={0: [CHARLES, EUSTACHE]}, provinces={1: {0: (CITEAUX, ODILE)}})
    after = GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": EUSTACHE}))
    assert after["honour"] == [5, 9]
    assert EUSTACHE not in after["hands"][0]


def test_example_vincennes_welcoming_philippe_auguste_costs_3_and_the_opponent_1():
    state = board(hands={0: [VINCENNES]}, provinces={1: {1: (None, PHILIPPE)}})
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 1}}
    p = preview(state, 0, move)
    assert p["honour_delta"] == -3 and p["opponent_honour_delta"] == {1: -1}
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [7, 9]
    assert after["provinces"][0][0] == {"building": VINCENNES, "character": PHILIPPE, "guest": 1}
    assert after["provinces"][1][1] is None
    view = GAME.view(after, 1)
    assert view["provinces"][0][0] == {"building": VINCENNES, "character": PHILIPPE}
    assert view["guests"][0][0] == 1
    assert after["phase"] == "play" and after["current"] == 1  # welcoming is not an Action: no fervour


def test_example_saint_eustache_on_amiens_makes_an_occupied_set_and_costs_the_opponent_1():
    state = board(hands={0: [EUSTACHE]}, provinces={0: {0: (AMIENS, None)}})
    after = GAME.apply(state, 0, {"type": "place", "card": EUSTACHE, "slot": 0})
    assert after["honour"] == [10, 9]
    assert after["provinces"][0][0]["character"] == EUSTACHE
    assert GAME.view(after, None)["victory_points"] == [3, 0]


READINGS = [
    (
        board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, None)}}),
        action(CHARLES, 1, 0),
        [
            "alice sent Charles le Chauve against bob's Abbaye Notre-Dame de Cîteaux on frontier 1.",
            "Charles le Chauve (Erudition 2) against Abbaye Notre-Dame de Cîteaux (Erudition 6): \u22124.",
        ],
        [
            "alice lance une Action : Charles le Chauve contre Abbaye Notre-Dame de Cîteaux, chez bob, en frontière 1.",
            "Charles le Chauve (Érudition 2) contre Abbaye Notre-Dame de Cîteaux (Érudition 6) : \u22124.",
        ],
    ),
    (
        board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CITEAUX, ODILE)}}),
        action(CHARLES, 1, 0),
        [
            "alice sent Charles le Chauve against bob's Abbaye Notre-Dame de Cîteaux + Sainte Odile on frontier 1.",
            "Charles le Chauve (Erudition 2) against Abbaye Notre-Dame de Cîteaux + Sainte Odile (Erudition 11): \u22129.",
            "bob loses 1 honour (Action against an occupied building).",
            "Popular fervour: alice may play another card.",
        ],
        [
            "alice lance une Action : Charles le Chauve contre Abbaye Notre-Dame de Cîteaux + Sainte Odile, chez bob, "
            "en frontière 1.",
            "Charles le Chauve (Érudition 2) contre Abbaye Notre-Dame de Cîteaux + Sainte Odile (Érudition 11) : \u22129.",
            "bob perd 1 point d’Honneur (Action contre un Édifice occupé).",
            "Ferveur populaire : alice peut jouer une autre carte.",
        ],
    ),
    (
        board(hands={0: [CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}}, honour=[5, 10]),
        action(CHARLES, 1, 0),
        [
            "alice sent Charles le Chauve against bob's Château de Bonaguil + Louis VIII le Lion on frontier 1.",
            "Charles le Chauve (Prestige 4) against Château de Bonaguil + Louis VIII le Lion (Prestige 3): +1.",
            "bob loses 1 honour (Action against an occupied building).",
            "Popular fervour: alice may play another card.",
        ],
        [
            "alice lance une Action : Charles le Chauve contre Château de Bonaguil + Louis VIII le Lion, chez bob, "
            "en frontière 1.",
            "Charles le Chauve (Prestige 4) contre Château de Bonaguil + Louis VIII le Lion (Prestige 3) : +1.",
            "bob perd 1 point d’Honneur (Action contre un Édifice occupé).",
            "Ferveur populaire : alice peut jouer une autre carte.",
        ],
    ),
    (
        board(hands={0: [CHARLES]}, provinces={0: {2: (AMIENS, EUSTACHE)}, 1: {0: (CITEAUX, ODILE)}}),
        action(CHARLES, 1, 0, {"from": "province", "slot": 2}),
        [
            "alice sent Charles le Chauve + Saint Eustache de Fly against bob's Abbaye Notre-Dame de Cîteaux + "
            "Sainte Odile on frontier 1.",
            "Charles le Chauve + Saint Eustache de Fly (Erudition 6) against Abbaye Notre-Dame de Cîteaux + "
            "Sainte Odile (Erudition 11): \u22125.",
            "bob loses 1 honour (Action against an occupied building).",
            "Popular fervour: alice may play another card.",
        ],
        [
            "alice lance une Action : Charles le Chauve + Saint Eustache de Fly contre Abbaye Notre-Dame de Cîteaux + "
            "Sainte Odile, chez bob, en frontière 1.",
            "Charles le Chauve + Saint Eustache de Fly (Érudition 6) contre Abbaye Notre-Dame de Cîteaux + "
            "Sainte Odile (Érudition 11) : \u22125.",
            "bob perd 1 point d’Honneur (Action contre un Édifice occupé).",
            "Ferveur populaire : alice peut jouer une autre carte.",
        ],
    ),
    (
        board(hands={0: [VINCENNES]}, provinces={1: {1: (None, PHILIPPE)}}),
        {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 1}},
        [
            "alice built Château de Vincennes on frontier 1.",
            "alice welcomed bob's Philippe Auguste into it.",
            "Château de Vincennes (War 5) against Philippe Auguste (War 8): \u22123.",
            "bob loses 1 honour (an occupied building).",
            "alice drew a card.",
        ],
        [
            "alice bâtit Château de Vincennes en frontière 1.",
            "alice y accueille Philippe Auguste, Personnage Errant de bob.",
            "Château de Vincennes (Guerre 5) contre Philippe Auguste (Guerre 8) : \u22123.",
            "bob perd 1 point d’Honneur (un Édifice occupé).",
            "alice pioche une carte.",
        ],
    ),
]


@pytest.mark.parametrize(("state", "move", "english", "french"), READINGS)
def test_the_rulebook_examples_read_right_in_both_languages(state, move, english, french):
    after = GAME.apply(state, 0, move)
    theirs = GAME.narrate(state, 0, move, after, ["alice", "bob"], 1, "en")
    assert theirs[: len(english)] == english
    assert GAME.narrate(state, 0, move, after, ["alice", "bob"], 1, "fr")[: len(french)] == french
    # the preview says the same about honour, addressed to the mover
    clash = english[2] if move["type"] == "build" else english[1]
    assert preview(state, 0, move)["explanation"]["en"].startswith(clash)
