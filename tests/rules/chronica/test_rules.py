"""Every Chronica rule (RULINGS + rulebook), one test each."""

from __future__ import annotations

import copy

import pytest

from rules.chronica import GAME, preview, starter_decks
from rules.chronica.cards import CARDS
from rules.core import IllegalMove
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
CHAMBORD = "chateau-de-chambord"
ALCUIN = "alcuin"
SORBONNE = "la-sorbonne"
CARCASSONNE = "cite-de-carcassonne"
GUESCLIN = "bertrand-du-guesclin"
CODES = [row[0] for row in CARDS]


def action(card, seat, slot, reinforce=None):
    return {"type": "action", "card": card, "target": {"seat": seat, "slot": slot}, "reinforce": reinforce}


def legal(state, seat, move):
    return move in GAME.legal_moves(state, seat)


# --- set-up ------------------------------------------------------------------------------


def test_it_is_registered_with_its_slug_title_and_player_counts():
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == (
        "chronica",
        "Chronica Universalis",
        2,
        4,
    )


def test_each_player_draws_5_and_every_player_but_the_first_a_6th():
    for players in (2, 3, 4):
        state = GAME.setup(players=players, seed=3)
        first = state["first"]
        assert [len(h) for h in state["hands"]] == [5 if s == first else 6 for s in range(players)]
        assert state["honour"] == [10] * players
        assert all(len(state["decks"][s]) + len(state["hands"][s]) == 30 for s in range(players))


def test_the_first_player_is_random():
    firsts = {GAME.setup(players=3, seed=seed)["first"] for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_without_decks_each_seat_plays_a_starter_deck():
    state = GAME.setup(players=4, seed=1)
    for seat in range(4):
        assert sorted(state["decks"][seat] + state["hands"][seat]) == sorted(starter_decks()[seat]["cards"])


def test_given_decks_are_used_per_seat():
    decks = [CODES[:30], CODES[30:60]]
    state = GAME.setup(players=2, seed=1, options={"decks": decks})
    for seat in range(2):
        assert sorted(state["decks"][seat] + state["hands"][seat]) == sorted(decks[seat])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"decks": [CODES[:30]]}, "2 decks"),
        ({"decks": [CODES[:30], CODES[:29]]}, "Seat 2's deck: A deck needs exactly 30"),
        ({"decks": [CODES[:30], CODES[:29] + ["zzz"]]}, "Unknown card"),
        ({"decks": [CODES[:30], CODES[:30]], "shared_deck": True}, "not both"),
        ({"shared_deck": "yes"}, "true or false"),
        ({"colour": "red"}, "Unknown option"),
    ],
)
def test_it_refuses_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(players=2, seed=1, options=options)


def test_it_refuses_bad_player_counts():
    for players in (1, 5):
        with pytest.raises(ValueError):
            GAME.setup(players=players, seed=1)


# --- mulligan --------------------------------------------------------------------------


def test_the_mulligan_goes_in_turn_order_from_the_first_player():
    state = GAME.setup(players=3, seed=5)
    first = state["first"]
    order = []
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        assert GAME.legal_moves(state, seat) == [{"type": "mulligan"}, {"type": "keep"}]
        state = GAME.apply(state, seat, {"type": "keep"})
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    assert state["phase"] == "play" and GAME.to_act(state) == [first]


def test_a_mulligan_shuffles_the_hand_back_and_draws_one_card_fewer():
    state = GAME.setup(players=2, seed=5)
    (seat,) = GAME.to_act(state)
    size = len(state["hands"][seat])
    after = GAME.apply(state, seat, {"type": "mulligan"})
    assert len(after["hands"][seat]) == size - 1
    assert len(after["decks"][seat]) == 30 - (size - 1)
    assert after["mulligans"][seat] is True
    # once only: the next decision is the other player's
    assert GAME.to_act(after) == [1 - seat]
    with pytest.raises(IllegalMove):
        GAME.apply(after, seat, {"type": "mulligan"})


def test_it_refuses_a_mulligan_after_the_first_turn_has_begun():
    state = board(hands={0: [CHARLES]})
    with pytest.raises(IllegalMove, match="mulligan"):
        GAME.apply(state, 0, {"type": "mulligan"})


def test_it_refuses_a_play_during_the_mulligan():
    state = GAME.setup(players=2, seed=5)
    (seat,) = GAME.to_act(state)
    card = state["hands"][seat][0]
    with pytest.raises(IllegalMove, match="keep your hand"):
        GAME.apply(state, seat, {"type": "place", "card": card, "slot": 0})


# --- building ---------------------------------------------------------------------------


def test_a_building_goes_on_a_free_slot_then_the_player_draws_one():
    state = board(hands={0: [VINCENNES, CHARLES]})
    deck = len(state["decks"][0])
    after = GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 5})
    assert after["provinces"][0][5] == {"building": VINCENNES, "character": None, "guest": None}
    assert len(after["hands"][0]) == 2 and len(after["decks"][0]) == deck - 1
    assert GAME.to_act(after) == [1]


def test_building_on_your_own_wandering_character_occupies_it_and_costs_the_opponent_1():
    state = board(hands={0: [VINCENNES]}, provinces={0: {3: (None, PHILIPPE)}})
    assert legal(state, 0, {"type": "build", "card": VINCENNES, "slot": 3})
    after = GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 3})
    assert after["provinces"][0][3] == {"building": VINCENNES, "character": PHILIPPE, "guest": None}
    assert after["honour"] == [10, 9]


def test_it_refuses_to_build_on_a_slot_holding_a_building():
    state = board(hands={0: [VINCENNES]}, provinces={0: {0: (AMIENS, None)}})
    with pytest.raises(IllegalMove, match="replace"):
        GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 0})


def test_it_refuses_to_build_a_character():
    state = board(hands={0: [CHARLES]})
    with pytest.raises(IllegalMove, match="not a building"):
        GAME.apply(state, 0, {"type": "build", "card": CHARLES, "slot": 0})


def test_welcoming_ignores_frontier_protection():
    state = board(hands={0: [VINCENNES]}, provinces={1: {0: (AMIENS, None), 4: (None, PHILIPPE)}})
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 4}}
    assert legal(state, 0, move)
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [7, 9]


def test_welcoming_is_optional():
    state = board(hands={0: [VINCENNES]}, provinces={1: {1: (None, PHILIPPE)}})
    after = GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 0})
    assert after["honour"] == [10, 10] and after["provinces"][1][1]["character"] == PHILIPPE


def test_welcoming_a_character_can_gain_honour_up_to_10():
    state = board(hands={0: [CARCASSONNE]}, provinces={1: {1: (None, CHARLES)}}, honour=[8, 10])
    move = {"type": "build", "card": CARCASSONNE, "slot": 0, "welcome": {"seat": 1, "slot": 1}}
    # Charles prefers Prestige 4; Carcassonne has Prestige 3: -1
    assert preview(state, 0, move)["honour_delta"] == -1
    state = board(hands={0: [CHAMBORD]}, provinces={1: {1: (None, CHARLES)}}, honour=[8, 10])
    move = {"type": "build", "card": CHAMBORD, "slot": 0, "welcome": {"seat": 1, "slot": 1}}
    after = GAME.apply(state, 0, move)  # Prestige 7 vs 4: +3, capped at 10
    assert after["honour"] == [10, 9]


def test_it_refuses_to_welcome_a_character_that_is_not_wandering():
    state = board(hands={0: [VINCENNES]}, provinces={1: {1: (AMIENS, PHILIPPE)}})
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 1}}
    with pytest.raises(IllegalMove, match="no wandering character"):
        GAME.apply(state, 0, move)


def test_it_refuses_to_welcome_when_building_on_your_own_wandering_character():
    state = board(hands={0: [VINCENNES]}, provinces={0: {0: (None, CHARLES)}, 1: {1: (None, PHILIPPE)}})
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 1}}
    with pytest.raises(IllegalMove, match="free slot"):
        GAME.apply(state, 0, move)


def test_it_refuses_to_welcome_your_own_character():
    state = board(hands={0: [VINCENNES]}, provinces={0: {1: (None, PHILIPPE)}})
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 0, "slot": 1}}
    with pytest.raises(IllegalMove, match="opponent"):
        GAME.apply(state, 0, move)


def test_a_welcomed_character_goes_to_its_owners_discard_when_attacked():
    state = board(hands={1: [ALCUIN]}, provinces={0: {0: (VINCENNES, PHILIPPE, 1)}}, current=1)
    after = GAME.apply(state, 1, action(ALCUIN, 0, 0))
    assert VINCENNES in after["discards"][0]
    assert sorted(after["discards"][1]) == sorted([ALCUIN, PHILIPPE])


def test_a_welcomed_character_cannot_reinforce_its_host():
    state = board(hands={0: [CHARLES]}, provinces={0: {0: (VINCENNES, PHILIPPE, 1)}, 1: {0: (CITEAUX, None)}})
    with pytest.raises(IllegalMove, match="no character of yours"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "province", "slot": 0}))


# --- replacing ------------------------------------------------------------------------------


def test_replacing_a_building_costs_honour_when_the_old_one_was_stronger():
    state = board(hands={0: [BONAGUIL]}, provinces={0: {0: (CHAMBORD, ODILE)}})
    move = {"type": "replace", "card": BONAGUIL, "slot": 0}
    assert preview(state, 0, move)["honour_delta"] == -4  # Prestige 3 vs 7
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [6, 10]
    assert after["provinces"][0][0] == {"building": BONAGUIL, "character": ODILE, "guest": None}
    assert after["discards"][0] == [CHAMBORD]


def test_replacing_a_building_never_gains_honour():
    state = board(hands={0: [CHAMBORD]}, provinces={0: {0: (BONAGUIL, None)}}, honour=[5, 10])
    after = GAME.apply(state, 0, {"type": "replace", "card": CHAMBORD, "slot": 0})
    assert after["honour"] == [5, 10]


def test_replacing_an_occupied_building_costs_the_opponent_nothing():
    state = board(hands={0: [CHAMBORD]}, provinces={0: {0: (BONAGUIL, LOUIS)}})
    after = GAME.apply(state, 0, {"type": "replace", "card": CHAMBORD, "slot": 0})
    assert after["honour"] == [10, 10]
    assert after["phase"] == "play" and after["current"] == 1


def test_it_refuses_to_replace_where_there_is_no_building():
    state = board(hands={0: [CHAMBORD]}, provinces={0: {0: (None, LOUIS)}})
    with pytest.raises(IllegalMove, match="no building"):
        GAME.apply(state, 0, {"type": "replace", "card": CHAMBORD, "slot": 0})


# --- placing characters -------------------------------------------------------------------------


def test_a_character_on_a_free_slot_wanders():
    state = board(hands={0: [CHARLES]})
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 6})
    assert after["provinces"][0][6] == {"building": None, "character": CHARLES, "guest": None}
    assert after["honour"] == [10, 10]


def test_a_character_on_your_unoccupied_building_costs_the_opponent_1():
    state = board(hands={0: [CHARLES]}, provinces={0: {1: (CHAMBORD, None)}})
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 1})
    assert after["honour"] == [10, 9]


def test_it_refuses_a_character_on_an_occupied_slot():
    state = board(hands={0: [CHARLES]}, provinces={0: {1: (CHAMBORD, ODILE), 2: (None, LOUIS)}})
    for slot in (1, 2):
        with pytest.raises(IllegalMove, match="already holds a character"):
            GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": slot})


def test_with_three_players_the_placer_names_the_opponent_who_loses_honour():
    state = board(players=3, hands={0: [CHARLES]}, provinces={0: {1: (CHAMBORD, None)}})
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "place" and m["slot"] == 1]
    assert sorted(m["target"] for m in moves) == [1, 2]
    with pytest.raises(IllegalMove, match="Name the opponent"):
        GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 1})
    with pytest.raises(IllegalMove, match="opponent's seat"):
        GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 1, "target": 0})
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 1, "target": 2})
    assert after["honour"] == [10, 10, 9]


def test_with_two_players_the_opponent_may_be_named_or_implied():
    state = board(hands={0: [CHARLES]}, provinces={0: {1: (CHAMBORD, None)}})
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 1, "target": 1})
    assert after["honour"] == [10, 9]


# --- actions ----------------------------------------------------------------------------------


def test_it_refuses_an_action_against_a_protected_hinterland_card():
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (AMIENS, None), 4: (CITEAUX, None)}})
    assert not legal(state, 0, action(CHARLES, 1, 4) | {"target": {"seat": 1, "slot": 4, "part": "building"}})
    with pytest.raises(IllegalMove, match="protected"):
        GAME.apply(state, 0, action(CHARLES, 1, 4))
    assert GAME.view(state, 0)["protected"][1][4] is True


def test_a_hinterland_card_is_targetable_when_the_frontier_slot_in_front_is_empty():
    state = board(hands={0: [CHARLES]}, provinces={1: {1: (AMIENS, None), 4: (CITEAUX, None)}})
    move = {
        "type": "action",
        "card": CHARLES,
        "target": {"seat": 1, "slot": 4, "part": "building"},
        "reinforce": None,
    }
    assert legal(state, 0, move)
    after = GAME.apply(state, 0, move)
    assert after["honour"] == [6, 10]


def test_an_action_against_a_wandering_character_uses_its_preferred_domain():
    state = board(hands={0: [GUESCLIN]}, provinces={1: {2: (None, PHILIPPE)}})
    move = {
        "type": "action",
        "card": GUESCLIN,
        "target": {"seat": 1, "slot": 2, "part": "character"},
        "reinforce": None,
    }
    assert legal(state, 0, move)
    after = GAME.apply(state, 0, move)  # War 7 vs 8
    assert after["honour"] == [9, 10]
    assert after["phase"] == "play" and after["current"] == 1
    assert after["discards"] == [[GUESCLIN], [PHILIPPE]]


def test_it_refuses_the_wrong_part_of_a_target():
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, ODILE)}})
    move = {"type": "action", "card": CHARLES, "target": {"seat": 1, "slot": 0, "part": "character"}}
    with pytest.raises(IllegalMove, match="as a whole"):
        GAME.apply(state, 0, move)


def test_it_refuses_an_action_against_your_own_province_or_an_empty_slot():
    state = board(hands={0: [CHARLES]}, provinces={0: {0: (CITEAUX, None)}})
    with pytest.raises(IllegalMove, match="opponent"):
        GAME.apply(state, 0, action(CHARLES, 0, 0))
    with pytest.raises(IllegalMove, match="nothing to target"):
        GAME.apply(state, 0, action(CHARLES, 1, 0))


def test_an_equal_comparison_leaves_honour_unchanged():
    state = board(hands={0: [PHILIPPE]}, provinces={1: {0: (None, LOUIS)}}, honour=[7, 10])
    after = GAME.apply(state, 0, action(PHILIPPE, 1, 0))
    assert after["honour"] == [7, 10]


def test_against_an_occupied_building_with_different_domains_the_defenders_best_is_used():
    # Bonaguil (0,3,4 Prestige) + Louis VIII (0,0,8 War) against Alcuin (7,1,0), not a Roi:
    # Prestige 1-3 = -2, War 0-12 = -12: the defender's best is War.
    state = board(hands={0: [ALCUIN]}, provinces={1: {0: (BONAGUIL, LOUIS)}})
    after = GAME.apply(state, 0, action(ALCUIN, 1, 0))
    # the actor's last honour stops the game there: the target's owner does not also lose 1 (RULINGS)
    assert after["honour"] == [0, 10]
    assert GAME.is_over(after)


def test_the_same_category_exception_looks_at_the_acting_character_not_the_reinforcement():
    # Alcuin acting, Charles reinforcing: no exception -> War: 3 - 12 = -9
    state = board(hands={0: [ALCUIN, CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}})
    after = GAME.apply(state, 0, action(ALCUIN, 1, 0, {"from": "hand", "card": CHARLES}))
    assert after["honour"] == [1, 9]
    # Charles acting, Alcuin reinforcing: exception -> Prestige: 5 - 3 = +2
    state = board(hands={0: [ALCUIN, CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}}, honour=[5, 10])
    after = GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": ALCUIN}))
    assert after["honour"] == [7, 9]


def test_a_wandering_reinforcement_leaves_its_slot_empty():
    state = board(hands={0: [CHARLES]}, provinces={0: {5: (None, ODILE)}, 1: {0: (CITEAUX, None)}})
    after = GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "province", "slot": 5}))
    assert after["provinces"][0][5] is None
    assert after["honour"] == [10, 10]  # (2+5) - 6 = +1, already at 10


def test_it_refuses_a_reinforcement_that_is_not_a_second_character_of_yours():
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CITEAUX, None), 1: (None, ODILE)}})
    with pytest.raises(IllegalMove, match="second character"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": CHARLES}))
    with pytest.raises(IllegalMove, match="not a character"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": VINCENNES}))
    with pytest.raises(IllegalMove, match="not in your hand"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": ODILE}))
    with pytest.raises(IllegalMove, match="hand or your province"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "sky", "card": ODILE}))
    with pytest.raises(IllegalMove, match="no character of yours"):
        GAME.apply(state, 0, action(CHARLES, 1, 0, {"from": "province", "slot": 1}))


def test_legal_moves_offer_reinforcements_from_hand_and_from_the_province():
    state = board(hands={0: [CHARLES, ALCUIN]}, provinces={0: {5: (None, ODILE)}, 1: {0: (CITEAUX, None)}})
    helpers = [
        m["reinforce"]
        for m in GAME.legal_moves(state, 0)
        if m["type"] == "action" and m["card"] == CHARLES and m["target"]["slot"] == 0
    ]
    assert helpers == [None, {"from": "hand", "card": ALCUIN}, {"from": "province", "slot": 5}]


def test_legal_moves_offer_every_reinforcement_a_player_could_choose():
    state = board(
        hands={0: [CHARLES, ALCUIN, LOUIS, SORBONNE]},
        provinces={0: {5: (None, ODILE), 6: (AMIENS, EUSTACHE)}, 1: {0: (CITEAUX, None)}},
    )
    helpers = [
        m["reinforce"]
        for m in GAME.legal_moves(state, 0)
        if m["type"] == "action" and m["card"] == CHARLES and m["target"]["slot"] == 0
    ]
    assert helpers == [
        None,
        {"from": "hand", "card": ALCUIN},
        {"from": "hand", "card": LOUIS},
        {"from": "province", "slot": 5},
        {"from": "province", "slot": 6},
    ]


def test_honour_never_exceeds_10():
    state = board(hands={0: [ALCUIN]}, provinces={1: {0: (BONAGUIL, None)}}, honour=[9, 10])
    move = {"type": "action", "card": CHAMBORD, "target": {"seat": 1, "slot": 0}}
    state["hands"][0] = [CHAMBORD, "louis-xiv"]
    with pytest.raises(IllegalMove, match="not a character"):
        GAME.apply(state, 0, move)
    after = GAME.apply(state, 0, action("louis-xiv", 1, 0))  # Prestige 7 vs 3
    assert after["honour"] == [10, 10]


def test_a_player_reaching_0_honour_loses_at_once_even_with_more_victory_points():
    state = board(
        hands={0: [CHARLES, VINCENNES]},
        provinces={
            0: {i: (CHAMBORD if i == 0 else None, ODILE if i == 0 else None) for i in range(1)},
            1: {0: (CITEAUX, None)},
        },
        honour=[4, 10],
    )
    after = GAME.apply(state, 0, action(CHARLES, 1, 0))
    assert after["honour"] == [0, 10]
    assert GAME.is_over(after) and GAME.to_act(after) == [] and after["end_reason"] == "honour"
    assert GAME.result(after) == {"scores": [3, 0], "winners": [1]}
    assert len(after["hands"][0]) == 1  # the game ended mid-turn: no draw


def test_the_target_losing_its_last_honour_ends_the_game():
    state = board(hands={0: [CHARLES]}, provinces={0: {0: (CHAMBORD, None)}}, honour=[10, 1])
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 0})
    assert after["honour"] == [10, 0]
    assert GAME.result(after)["winners"] == [0]


# --- popular fervour -----------------------------------------------------------------------------


def fervour_state():
    state = board(hands={0: [CHARLES, VINCENNES, ALCUIN]}, provinces={1: {0: (CITEAUX, ODILE)}})
    return GAME.apply(state, 0, action(CHARLES, 1, 0))


def test_fervour_lets_the_player_play_another_card_then_draw_only_once():
    state = fervour_state()
    deck = len(state["decks"][0])
    assert {"type": "end_turn"} in GAME.legal_moves(state, 0)
    assert not any(m["type"] == "pass" for m in GAME.legal_moves(state, 0))
    after = GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 0})
    assert len(after["decks"][0]) == deck - 1
    assert len(after["hands"][0]) == 2  # 3 cards, played 2, drew 1
    assert after["current"] == 1


def test_fervour_may_be_declined():
    state = fervour_state()
    after = GAME.apply(state, 0, {"type": "end_turn"})
    assert len(after["hands"][0]) == 3 and after["current"] == 1


def test_it_refuses_a_pass_or_an_early_end_outside_fervour():
    state = fervour_state()
    with pytest.raises(IllegalMove, match="not pass"):
        GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})
    state = board(hands={0: [CHARLES]})
    with pytest.raises(IllegalMove, match="only end your turn early"):
        GAME.apply(state, 0, {"type": "end_turn"})


def test_fervour_chains_after_another_action_against_an_occupied_building():
    state = board(
        hands={0: [CHARLES, "louis-xiv", ALCUIN]},
        provinces={1: {0: (CITEAUX, ODILE), 1: (BONAGUIL, LOUIS)}},
        honour=[10, 10],
    )
    state = GAME.apply(state, 0, action(ALCUIN, 1, 0))  # (7) vs 11: -4, opponent -1
    assert state["phase"] == "fervour"
    state = GAME.apply(state, 0, action(CHARLES, 1, 1))  # exception: +1
    assert state["phase"] == "fervour" and state["honour"] == [7, 8]


# --- passing and drawing -------------------------------------------------------------------------


def test_passing_discards_one_card_and_draws_two():
    state = board(hands={0: [CHARLES, VINCENNES]})
    deck = len(state["decks"][0])
    after = GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})
    assert after["discards"][0] == [VINCENNES]
    assert len(after["hands"][0]) == 3 and len(after["decks"][0]) == deck - 2
    assert after["current"] == 1


def test_it_refuses_to_discard_a_card_you_do_not_hold():
    state = board(hands={0: [CHARLES]})
    with pytest.raises(IllegalMove, match="from your hand"):
        GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})


def test_drawing_the_last_card_ends_the_game_at_once():
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CHAMBORD, ODILE)}})
    state["decks"][0] = state["decks"][0][:1]
    after = GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})
    assert GAME.is_over(after) and after["end_reason"] == "deck"
    assert len(after["hands"][0]) == 2  # the second draw never happened
    assert GAME.result(after) == {"scores": [0, 3], "winners": [1]}


# --- twins ---------------------------------------------------------------------------------------


def twin_state():
    deck0 = CODES[:30]
    deck1 = CODES[:30]
    state = board(
        decks=[deck0, deck1],
        hands={0: [CHARLES, CHAMBORD], 1: [CHARLES]},
        provinces={1: {0: (CHAMBORD, CHARLES)}},
    )
    return state


def test_a_card_whose_twin_is_in_play_cannot_be_played():
    state = twin_state()
    moves = GAME.legal_moves(state, 0)
    assert not any(m.get("card") in (CHARLES, CHAMBORD) for m in moves if m["type"] != "pass")
    for move in (
        {"type": "place", "card": CHARLES, "slot": 0},
        {"type": "build", "card": CHAMBORD, "slot": 0},
        action(CHARLES, 1, 0),
    ):
        with pytest.raises(IllegalMove, match="twin"):
            GAME.apply(state, 0, move)


def test_a_twin_can_be_played_once_the_other_is_discarded():
    state = twin_state()
    state["provinces"][1][0] = None
    state["discards"][1] = [CHAMBORD, CHARLES]
    assert legal(state, 0, {"type": "place", "card": CHARLES, "slot": 0})
    assert legal(state, 0, {"type": "build", "card": CHAMBORD, "slot": 0})


# --- three and four players ------------------------------------------------------------------------


def test_with_four_players_an_action_may_target_any_opponent():
    state = board(
        players=4,
        hands={0: [CHARLES]},
        provinces={1: {0: (CITEAUX, None)}, 2: {0: (AMIENS, None)}, 3: {1: (None, ODILE)}},
    )
    targets = {
        (m["target"]["seat"], m["target"]["slot"])
        for m in GAME.legal_moves(state, 0)
        if m["type"] == "action"
    }
    assert targets == {(1, 0), (2, 0), (3, 1)}
    after = GAME.apply(state, 0, action(CHARLES, 2, 0))
    assert after["discards"][2] == [AMIENS] and after["current"] == 1


def test_with_four_players_the_game_ends_when_anyone_reaches_0_honour():
    state = board(
        players=4, hands={0: [CHARLES]}, provinces={0: {0: (CHAMBORD, None)}}, honour=[10, 10, 1, 10]
    )
    after = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 0, "target": 2})
    assert GAME.is_over(after)
    assert GAME.result(after)["winners"] == [0]


# --- end of the game and scoring ------------------------------------------------------------------


def test_a_full_province_ends_the_game_at_once():
    slots = {i: (CODES[40 + i], None) for i in range(7)}
    state = board(hands={0: [VINCENNES]}, provinces={0: slots})
    state["provinces"][0][0]["building"] = CITEAUX
    after = GAME.apply(state, 0, {"type": "build", "card": VINCENNES, "slot": 7})
    assert GAME.is_over(after) and after["end_reason"] == "province"
    assert len(after["hands"][0]) == 0  # no draw after the game ended


def test_victory_points_count_1_per_card_slot_and_3_per_occupied_building():
    state = board(
        provinces={
            0: {0: (CHAMBORD, ODILE), 1: (None, CHARLES), 5: (CITEAUX, None)},
            1: {2: (AMIENS, LOUIS, 0)},
        }
    )
    assert GAME.view(state, 0)["victory_points"] == [5, 3]


def test_ties_go_to_more_honour_then_fewer_discards():
    state = board(provinces={0: {0: (CHAMBORD, None)}, 1: {0: (CITEAUX, None)}}, honour=[8, 9])
    state["phase"] = "over"
    assert GAME.result(state) == {"scores": [1, 1], "winners": [1]}
    state["honour"] = [9, 9]
    state["discards"] = [[ODILE], [LOUIS, ALCUIN]]
    assert GAME.result(state)["winners"] == [0]
    state["discards"] = [[ODILE], [LOUIS]]
    assert GAME.result(state)["winners"] == [0, 1]


# --- shared deck and river -------------------------------------------------------------------------


def test_the_shared_deck_is_one_pile_of_distinct_cards_with_a_river_of_5():
    state = GAME.setup(players=2, seed=4, options={"shared_deck": True})
    everything = state["pile"] + state["river"] + state["hands"][0] + state["hands"][1]
    assert len(everything) == len(set(everything)) >= 52
    assert len(state["river"]) == 5
    view = GAME.view(state, 0)
    assert view["river"] == state["river"] and view["pile_size"] == len(state["pile"])


def test_in_the_shared_variant_the_player_chooses_each_draw():
    state = board(shared=True, hands={0: [CHARLES, VINCENNES], 1: []})
    state = GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})
    assert state["phase"] == "draw" and state["pending_draws"] == 2 and GAME.to_act(state) == [0]
    river = list(state["river"])
    moves = GAME.legal_moves(state, 0)
    assert moves[0] == {"type": "draw", "source": "pile"}
    assert [m["card"] for m in moves[1:]] == river
    top = state["pile"][-1]
    state = GAME.apply(state, 0, {"type": "draw", "source": "river", "card": river[2]})
    assert river[2] in state["hands"][0]
    assert state["river"][2] == top and len(state["river"]) == 5  # refilled at once from the pile
    state = GAME.apply(state, 0, {"type": "draw", "source": "pile"})
    assert len(state["hands"][0]) == 3 and state["current"] == 1 and state["phase"] == "play"


def test_it_refuses_a_draw_from_the_river_of_a_card_not_there():
    state = board(shared=True, hands={0: [CHARLES, VINCENNES]})
    state = GAME.apply(state, 0, {"type": "pass", "discard": VINCENNES})
    with pytest.raises(IllegalMove, match="not in the river"):
        GAME.apply(state, 0, {"type": "draw", "source": "river", "card": VINCENNES})
    with pytest.raises(IllegalMove, match="Draw a card first"):
        GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 0})


def test_in_the_shared_variant_the_game_ends_when_the_pile_runs_out():
    state = board(shared=True, hands={0: [CHARLES]})
    state["pile"] = state["pile"][:1]
    state = GAME.apply(state, 0, {"type": "place", "card": CHARLES, "slot": 0})
    state = GAME.apply(state, 0, {"type": "draw", "source": "river", "card": state["river"][0]})
    assert GAME.is_over(state) and state["end_reason"] == "deck"


# --- malformed moves and preview ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        None,
        "build",
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "build"},
        {"type": "build", "card": VINCENNES},
        {"type": "build", "card": VINCENNES, "slot": "0"},
        {"type": "build", "card": VINCENNES, "slot": True},
        {"type": "build", "card": VINCENNES, "slot": 8},
        {"type": "build", "card": "nope", "slot": 0},
        {"type": "build", "card": ["x"], "slot": 0},
        {"type": "build", "card": VINCENNES, "slot": 0, "welcome": 3},
        {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": "1", "slot": 1}},
        {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1}},
        {"type": "build", "card": VINCENNES, "slot": 0, "target": 1},
        {"type": "place", "card": CHARLES, "slot": -1},
        {"type": "place", "card": CHARLES, "slot": 0, "target": 1},
        {"type": "replace", "card": VINCENNES},
        {"type": "action", "card": CHARLES},
        {"type": "action", "card": CHARLES, "target": [1, 0]},
        {"type": "action", "card": CHARLES, "target": {"seat": 5, "slot": 0}},
        {"type": "action", "card": CHARLES, "target": {"seat": 1, "slot": None}},
        {"type": "action", "card": CHARLES, "target": {"seat": 1, "slot": 1}, "reinforce": "yes"},
        {
            "type": "action",
            "card": CHARLES,
            "target": {"seat": 1, "slot": 1},
            "reinforce": {"from": "province"},
        },
        {"type": "pass"},
        {"type": "pass", "discard": 7},
        {"type": "draw", "source": "pile"},
        {"type": "keep"},
    ],
)
def test_it_refuses_malformed_moves_with_an_illegal_move(move):
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {1: (None, PHILIPPE)}})
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, move)
    assert preview(state, 0, move) is None  # an illegal move has nothing to show; preview never raises


def test_it_refuses_a_move_out_of_turn():
    state = board(hands={0: [CHARLES], 1: [ALCUIN]})
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 1, {"type": "place", "card": ALCUIN, "slot": 0})
    assert GAME.legal_moves(state, 1) == []


def test_preview_leaves_the_state_untouched_and_explains_plain_moves():
    state = board(hands={0: [CHARLES]})
    before = copy.deepcopy(state)
    p = preview(state, 0, {"type": "place", "card": CHARLES, "slot": 0})
    assert state == before
    assert p == {
        "honour_delta": 0,
        "opponent_honour_delta": {1: 0},
        "events": [],
        "explanation": {"en": "No honour changes.", "fr": "L’Honneur ne change pas."},
    }


def test_preview_shows_nothing_once_the_game_is_over_or_for_a_mulligan_or_a_draw():
    state = board(hands={0: [CHARLES]})
    over = dict(state, phase="over")
    assert preview(over, 0, {"type": "place", "card": CHARLES, "slot": 0}) is None
    assert preview(state, 1, {"type": "place", "card": CHARLES, "slot": 0}) is None  # not their turn
    assert preview(GAME.setup(players=2, seed=1), 0, {"type": "keep"}) is None


# --- view and narration ----------------------------------------------------------------------------


def test_the_view_shows_own_hand_and_only_sizes_of_others():
    state = GAME.setup(players=3, seed=2)
    for seat in range(3):
        view = GAME.view(state, seat)
        assert view["hand"] == state["hands"][seat]
        assert view["hand_sizes"] == [len(h) for h in state["hands"]]
        assert view["deck_sizes"] == [len(d) for d in state["decks"]]
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and spectator["seat"] is None
    assert spectator["mulligan"]["seat"] == state["first"]


def test_narration_tells_the_drawn_card_only_to_the_drawer():
    state = board(hands={0: [CHARLES]})
    move = {"type": "place", "card": CHARLES, "slot": 0}
    after = GAME.apply(state, 0, move)
    drawn = after["hands"][0][-1]
    from rules.chronica.cards import name

    names = ["alice", "bob"]
    mine = GAME.narrate(state, 0, move, after, names, 0)
    theirs = GAME.narrate(state, 0, move, after, names, 1)
    watcher = GAME.narrate(state, 0, move, after, names, None)
    assert mine == ["alice placed Charles le Chauve on frontier 1 (wandering).", f"You drew {name(drawn)}."]
    assert (
        theirs
        == watcher
        == ["alice placed Charles le Chauve on frontier 1 (wandering).", "alice drew a card."]
    )
    assert GAME.narrate(state, 0, move, after, names, 0, "fr") == [
        "alice pose Charles le Chauve en frontière 1 (Personnage Errant).",
        f"Vous piochez {name(drawn)}.",
    ]
    events = GAME.events(state, 0, move, after)
    assert events[1:] == [
        {"kind": "drew", "seat": 0, "count": 1, "to": [1, None]},
        {"kind": "drew_cards", "seat": 0, "cards": [drawn], "to": [0]},
    ]


def test_the_mulligan_tells_the_new_hand_to_its_player_alone():
    state = GAME.setup(players=2, seed=5)
    (seat,) = GAME.to_act(state)
    move = {"type": "mulligan"}
    after = GAME.apply(state, seat, move)
    names = ["alice", "bob"]
    own = GAME.narrate(state, seat, move, after, names, seat)
    other = GAME.narrate(state, seat, move, after, names, 1 - seat)
    assert own[0].startswith("Your new hand: ") and names[seat] + " shuffled" not in " ".join(own)
    size = len(state["hands"][seat]) - 1
    assert other == [f"{names[seat]} shuffled their hand back and drew {size} cards."]
    setup = GAME.setup_events(state)
    assert {"kind": "first_player", "seat": state["first"]} in setup
    assert {"kind": "dealt", "seat": 1, "cards": state["hands"][1], "to": [1]} in setup


def test_narration_reports_honour_fervour_and_the_end():
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CITEAUX, ODILE)}}, honour=[10, 10])
    after = GAME.apply(state, 0, action(CHARLES, 1, 0))
    lines = GAME.narrate(state, 0, action(CHARLES, 1, 0), after, ["alice", "bob"], 1)
    text = " ".join(lines)
    assert "bob loses 1 honour" in text and "Popular fervour" in text and "−9" in text
    low = board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, ODILE)}}, honour=[3, 10])
    over = GAME.apply(low, 0, action(CHARLES, 1, 0))
    lines = GAME.narrate(low, 0, action(CHARLES, 1, 0), over, ["alice", "bob"], None)
    assert lines[-1] == "Game over: alice has no honour left. Victory points: 0, 0. bob wins."
    lines = GAME.narrate(low, 0, action(CHARLES, 1, 0), over, ["alice", "bob"], None, "fr")
    assert lines[-1] == "Fin de la partie : alice n’a plus d’Honneur. Points de victoire : 0, 0. bob gagne."


def test_with_three_players_building_under_your_wandering_character_names_the_opponent():
    state = board(players=3, hands={0: [VINCENNES]}, provinces={0: {2: (None, CHARLES)}})
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "build" and m["slot"] == 2]
    assert moves == [
        {"type": "build", "card": VINCENNES, "slot": 2, "target": 1},
        {"type": "build", "card": VINCENNES, "slot": 2, "target": 2},
    ]
    after = GAME.apply(state, 0, moves[1])
    assert after["honour"] == [10, 10, 9]


def test_with_three_players_the_welcomed_characters_owner_loses_the_honour():
    state = board(players=3, hands={0: [VINCENNES]}, provinces={2: {1: (None, PHILIPPE)}})
    after = GAME.apply(
        state, 0, {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 2, "slot": 1}}
    )
    assert after["honour"] == [7, 10, 9]
    assert after["provinces"][0][0]["guest"] == 2


def test_the_view_speaks_the_shared_vocabulary():
    """seat, players, to_act, over, result, hand_sizes, hand (a seat's only) and turn, the counter from 1."""
    state = GAME.setup(players=3, seed=8)
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat)
        assert view["seat"] == seat and view["players"] == 3
        assert view["to_act"] == GAME.to_act(state) and view["over"] is False and view["result"] is None
        assert view["turn"] == 1 and "current" not in view
        assert ("hand" in view) is (seat is not None)
    state = board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, ODILE)}}, honour=[3, 10])
    over = GAME.apply(state, 0, action(CHARLES, 1, 0))
    view = GAME.view(over, None)
    assert view["over"] is True and view["to_act"] == [] and view["result"] == GAME.result(over)


@pytest.mark.parametrize(
    ("state", "move", "english", "french"),
    [
        (
            board(hands={0: [CHARLES]}, provinces={1: {0: (BONAGUIL, LOUIS)}}),
            action(CHARLES, 1, 0),
            "Charles le Chauve (Prestige 4) against Château de Bonaguil + Louis VIII le Lion (Prestige 3): +1, "
            "honour +0 (it never goes above 10).",
            "Charles le Chauve (Prestige 4) contre Château de Bonaguil + Louis VIII le Lion (Prestige 3) : +1, "
            "Honneur +0 (jamais plus de 10).",
        ),
        (
            board(hands={0: [CHARLES]}, provinces={1: {0: (CITEAUX, None)}}, honour=[1, 10]),
            action(CHARLES, 1, 0),
            "Charles le Chauve (Erudition 2) against Abbaye Notre-Dame de Cîteaux (Erudition 6): \u22124, "
            "honour \u22121 (it never goes below 0).",
            "Charles le Chauve (Érudition 2) contre Abbaye Notre-Dame de Cîteaux (Érudition 6) : \u22124, "
            "Honneur \u22121 (jamais moins de 0).",
        ),
        (
            board(hands={0: [CHAMBORD]}, provinces={0: {0: (BONAGUIL, None)}}),
            {"type": "replace", "card": CHAMBORD, "slot": 0},
            "Château de Chambord (Prestige 7) against Château de Bonaguil (Prestige 3): +4, no honour gained "
            "(replacing a building can only lose honour).",
            "Château de Chambord (Prestige 7) contre Château de Bonaguil (Prestige 3) : +4, aucun Honneur gagné "
            "(remplacer un Édifice ne peut qu’en faire perdre).",
        ),
    ],
)
def test_the_narration_says_why_honour_moved_less_than_the_comparison(state, move, english, french):
    after = GAME.apply(state, 0, move)
    assert GAME.narrate(state, 0, move, after, ["alice", "bob"], None, "en")[1] == english
    assert GAME.narrate(state, 0, move, after, ["alice", "bob"], None, "fr")[1] == french


# --- refusals in French (rules.core's wordings, registered in view.py) --------------------------------


def refused(state, seat, move):
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, seat, move)
    return caught.value


def test_a_refused_move_reads_in_french_with_the_printed_card_name():
    state = board(hands={0: [CHARLES, VINCENNES]}, provinces={1: {0: (CITEAUX, None), 1: (None, ODILE)}})
    wrong_kind = refused(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": VINCENNES}))
    assert str(wrong_kind) == "Château de Vincennes is not a character."
    assert wrong_kind.words("fr") == "Château de Vincennes n’est pas un Personnage."
    not_held = refused(state, 0, action(CHARLES, 1, 0, {"from": "hand", "card": ODILE}))
    assert not_held.words("fr") == "Sainte Odile n’est pas dans votre main."
    slot = refused(state, 0, action(CHARLES, 1, 9))
    assert slot.words("fr") == "L’emplacement visé doit être compris entre 0 et 7."
    building = refused(state, 0, {"type": "build", "card": CHARLES, "slot": 0})
    assert building.words("fr") == "Charles le Chauve n’est pas un Édifice."
    unnamed = refused(state, 0, {"type": "place", "card": 7, "slot": 0})
    assert unnamed.words("fr") == "Désignez par son code le Personnage à jouer."
    unknown = refused(state, 0, {"type": "fly"})
    assert (
        str(unknown) == "Unknown move type 'fly'." and unknown.words("fr") == "Type de coup inconnu : 'fly'."
    )


def test_a_bad_deck_at_set_up_reads_in_french():
    with pytest.raises(ValueError) as caught:
        GAME.setup(players=2, seed=1, options={"decks": [CODES[:30], CODES[:28] + [CODES[0], "zzz"]]})
    assert str(caught.value) == (
        "Seat 2's deck: Charles le Chauve (charles-le-chauve) is in the deck more than once; a deck holds "
        "distinct cards. Unknown card: 'zzz' is not in the catalog."
    )
    assert caught.value.words("fr") == (
        "Deck de la place 2 : Charles le Chauve (charles-le-chauve) figure plusieurs fois dans le deck ; un "
        "deck ne contient que des cartes différentes. Carte inconnue : 'zzz' n’est pas dans le catalogue."
    )
    with pytest.raises(ValueError) as caught:
        GAME.setup(players=2, seed=1, options={"decks": [CODES[:30], CODES[:30]], "shared_deck": True})
    assert (
        caught.value.words("fr") == "Choisissez soit un deck par place, soit la pioche commune, pas les deux."
    )
