"""The Battleground card turned up at the start of a round, and its special reveals."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME

from .helpers import assert_conserved, build, play, trick_winner


def test_a_falling_star_reveal_lets_the_dealer_choose_then_lead():
    state = build(
        [["eagle-5", "eagle-6"], ["dog-4", "dog-5"], ["frog-10", "frog-9"]], top="falling-star-1", dealer=1
    )
    view = GAME.view(state, 0)
    assert view["battleground"] is None
    assert view["battleground_card"] == "falling-star-1"
    assert view["pending"] == {"kind": "choose_clan", "cause": "falling_star_reveal"}
    assert view["to_act"] == [1]
    assert GAME.to_act(state) == [1]
    state = play(state, (1, {"type": "choose_clan", "clan": "frog"}))
    assert state["battleground"] == "frog"
    assert GAME.to_act(state) == [1]
    assert state["pending"]["kind"] == "play"


def test_a_devil_reveal_lets_the_player_left_of_the_dealer_choose_and_the_dealer_leads():
    state = build(
        [["eagle-5", "eagle-6"], ["dog-4", "dog-5"], ["frog-10", "frog-9"]], top="devil-2", dealer=1
    )
    assert GAME.to_act(state) == [2]
    assert state["pending"]["cause"] == "devil_reveal"
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 1, {"type": "choose_clan", "clan": "dog"})
    state = play(state, (2, {"type": "choose_clan", "clan": "dog"}))
    assert GAME.to_act(state) == [1]


def test_a_devil_reveal_with_the_last_seat_dealing_wraps_to_seat_zero():
    state = build([["eagle-5"], ["dog-4"], ["frog-10"]], top="devil-2", dealer=2)
    assert GAME.to_act(state) == [0]


def test_it_refuses_an_unknown_clan():
    state = build([["eagle-5"], ["dog-4"]], top="devil-2")
    for bad in ("cat", None, 3, ["frog"]):
        with pytest.raises(IllegalMove, match="Choose one of"):
            GAME.apply(state, 1, {"type": "choose_clan", "clan": bad})


def assassin_reveal(dealer_hand=("dog-5", "dog-6"), options=None):
    return build(
        [list(dealer_hand), ["dog-4", "eagle-2"], ["frog-10", "frog-9"]],
        top="eagle-assassin",
        stack=("raptor-7",),
        options=options,
    )


def test_an_assassin_reveal_plays_a_random_card_of_the_dealer_and_the_next_player_continues():
    state = assassin_reveal()
    assert state["battleground"] == "eagle"
    assert len(state["trick"]) == 1
    first = state["trick"][0]
    assert first["seat"] == 0 and first["how"] == "reveal" and first["card"] in ("dog-5", "dog-6")
    assert len(state["hands"][0]) == 1
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 1)["leading_clan"] == "dog"
    assert GAME.legal_moves(state, 1) == [{"type": "play", "card": "dog-4"}]
    state = play(state, (1, "dog-4"), (2, "frog-10"))
    assert trick_winner(state) == 0
    assert_conserved(state)


def test_an_assassin_reveal_is_random_but_seeded():
    picked = set()
    for seed in range(12):
        state = assassin_reveal()
        state["seed"] = seed
        state["hands"][0] = ["dog-5", "dog-6"]
        state["trick"] = []
        state["pending"] = None
        state["assassin_reveal"] = True
        GAME._advance(state)
        picked.add(state["trick"][0]["card"])
    assert picked == {"dog-5", "dog-6"}


def test_an_assassin_reveal_hitting_a_divine_acts_for_the_dealer():
    state = assassin_reveal(dealer_hand=("falling-star-1", "falling-star-2"))
    assert GAME.to_act(state) == [0]
    assert state["pending"]["kind"] == "choose_clan"
    state = play(state, (0, {"type": "choose_clan", "clan": "raptor"}))
    assert GAME.to_act(state) == [1, 2]
    state = play(state, (1, "eagle-2"), (2, "frog-9"))
    assert trick_winner(state) == 0


def test_an_assassin_reveal_comes_after_the_bids_in_hard_mode():
    state = assassin_reveal(options={"mode": "hard"})
    assert state["trick"] == []
    assert GAME.to_act(state) == [0]
    state = play(state, (0, {"type": "bid", "tricks": 1}), (1, {"type": "bid", "tricks": 0}))
    state = play(state, (2, {"type": "bid", "tricks": 0}))
    assert len(state["trick"]) == 1 and state["trick"][0]["seat"] == 0
    assert GAME.to_act(state) == [1]


def test_a_thief_reveal_makes_the_dealer_return_a_crown():
    state = build([["eagle-5"], ["dog-4"], ["frog-10"]], top="raptor-thief", dealer=2, crowns=[3, 3, 2])
    assert state["crowns"] == [3, 3, 1]
    assert state["battleground"] == "raptor"
    assert GAME.to_act(state) == [2]


def test_a_thief_reveal_against_a_dealer_without_crowns_changes_nothing():
    state = build([["eagle-5"], ["dog-4"]], top="raptor-thief", crowns=[0, 4])
    assert state["crowns"] == [0, 4]


def test_a_thief_reveal_in_hard_mode_acts_on_the_totals():
    state = build([["eagle-5"], ["dog-4"]], top="raptor-thief", crowns=[2, 4], options={"mode": "hard"})
    assert state["crowns"] == [1, 4]
