"""Falling Star and Devil played in a trick, and the discards that follow."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME

from .helpers import assert_conserved, build, play, trick_winner


def devil_lead(stack=("frog-7",)):
    return build(
        [["devil-1", "eagle-5"], ["eagle-9", "dog-4"], ["frog-10", "raptor-2"]],
        top="dog-2",
        stack=stack,
    )


def test_a_divine_lead_leaves_no_leading_clan_and_the_others_discard_at_once():
    state = play(devil_lead(), (0, "devil-1"))
    view = GAME.view(state, 1)
    assert view["leading_clan"] is None
    assert view["divine_winner"] == 0
    assert GAME.to_act(state) == [1, 2]
    assert view["pending"] == {"kind": "discard"}
    assert view["to_act"] == [1, 2]
    assert view["turn"] == 3, "the Devil's turn, then both discards have begun"


def test_discards_are_free_of_the_follow_rule():
    state = play(devil_lead(), (0, "devil-1"))
    assert {m["card"] for m in GAME.legal_moves(state, 1)} == {"eagle-9", "dog-4"}
    assert all(m["type"] == "discard" for m in GAME.legal_moves(state, 2))


def test_it_refuses_a_play_when_a_discard_is_awaited():
    state = play(devil_lead(), (0, "devil-1"))
    with pytest.raises(IllegalMove, match="discard"):
        GAME.apply(state, 1, {"type": "play", "card": "eagle-9"})


def test_discards_may_come_in_any_order_and_the_divine_wins():
    state = play(devil_lead(), (0, "devil-1"), (2, "raptor-2"))
    assert GAME.to_act(state) == [1]
    state = play(state, (1, "eagle-9"))
    assert trick_winner(state) == 0
    assert state["crowns"] == [1, 0, 0]
    assert [e["how"] for e in state["last_trick"]["cards"]] == ["play", "discard", "discard"]
    assert GAME.to_act(state) == [0]
    assert_conserved(state)


def test_the_devil_reveals_the_next_stack_card_as_the_new_battleground():
    state = play(devil_lead(), (0, "devil-1"))
    assert state["battleground"] == "frog"
    assert state["revealed"] == ["dog-2", "frog-7"]
    assert GAME.view(state, 2)["battleground_card"] == "frog-7"


def test_the_devil_reveals_again_past_a_divine_card():
    state = play(devil_lead(stack=("falling-star-2", "raptor-8")), (0, "devil-1"))
    assert state["battleground"] == "raptor"
    assert state["revealed"] == ["dog-2", "falling-star-2", "raptor-8"]


def test_the_devil_on_an_empty_stack_keeps_the_clan():
    hands = [["devil-1"], [], [], [], [], []]
    state = build(hands, top="eagle-2", stack=("falling-star-1", "falling-star-2", "devil-2"), size=10)
    assert len(state["stack"]) == 3
    state = play(state, (0, "devil-1"))
    assert state["stack"] == []
    assert state["battleground"] == "eagle"
    assert any(e["e"] == "stack_empty" for e in state["events"])
    assert_conserved(state)


def falling_star_second():
    return build(
        [["eagle-5", "eagle-6"], ["falling-star-1", "dog-4"], ["frog-10", "raptor-2"]],
        top="dog-2",
    )


def test_a_divine_may_only_be_played_when_you_cannot_follow():
    state = build([["eagle-5", "eagle-6"], ["eagle-9", "devil-1"]], top="dog-2")
    state = play(state, (0, "eagle-5"))
    assert GAME.legal_moves(state, 1) == [{"type": "play", "card": "eagle-9"}]


def test_the_falling_star_player_chooses_the_clan_before_the_others_discard():
    state = play(falling_star_second(), (0, "eagle-5"), (1, "falling-star-1"))
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 0)["pending"] == {"kind": "choose_clan", "cause": "falling_star"}
    assert len(GAME.legal_moves(state, 1)) == 4
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 2, {"type": "discard", "card": "frog-10"})
    state = play(state, (1, {"type": "choose_clan", "clan": "raptor"}))
    assert state["battleground"] == "raptor"
    assert GAME.to_act(state) == [2]
    state = play(state, (2, "frog-10"))
    assert trick_winner(state) == 1
    assert GAME.to_act(state) == [1]


def test_the_falling_star_may_keep_the_same_clan():
    state = play(falling_star_second(), (0, "eagle-5"), (1, "falling-star-1"))
    state = play(state, (1, {"type": "choose_clan", "clan": "dog"}))
    assert state["battleground"] == "dog"


def test_the_chosen_clan_holds_for_the_next_tricks():
    state = play(falling_star_second(), (0, "eagle-5"), (1, "falling-star-1"))
    state = play(state, (1, {"type": "choose_clan", "clan": "raptor"}), (2, "frog-10"))
    state = play(state, (1, "dog-4"), (2, "raptor-2"), (0, "eagle-6"))
    assert trick_winner(state) == 2


def test_a_falling_star_on_the_last_trick_asks_no_choice():
    state = build([["eagle-5"], ["falling-star-1"], ["frog-10"]], top="dog-2", round_no=10)
    state = play(state, (0, "eagle-5"), (1, "falling-star-1"))
    assert GAME.to_act(state) == [2]
    assert state["pending"]["kind"] == "discard"


def test_a_second_divine_in_the_trick_is_ignored():
    state = build(
        [["falling-star-1", "eagle-5"], ["devil-1", "dog-4"], ["frog-10", "raptor-2"]],
        top="dog-2",
        stack=("frog-7",),
    )
    state = play(state, (0, "falling-star-1"), (0, {"type": "choose_clan", "clan": "eagle"}))
    state = play(state, (1, "devil-1"), (2, "raptor-2"))
    assert trick_winner(state) == 0
    assert state["revealed"] == ["dog-2"]
    assert state["battleground"] == "eagle"


def test_the_battleground_cannot_trump_a_divine():
    state = build(
        [["eagle-5", "eagle-6"], ["falling-star-1", "dog-4"], ["dog-emperor", "raptor-2"]], top="dog-2"
    )
    state = play(state, (0, "eagle-5"), (1, "falling-star-1"), (1, {"type": "choose_clan", "clan": "dog"}))
    state = play(state, (2, "dog-emperor"))
    assert trick_winner(state) == 1
