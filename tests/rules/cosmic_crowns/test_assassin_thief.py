"""The Assassin and the Thief played in a trick."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME

from .helpers import assert_conserved, build, play, trick_winner


def four_players(top="eagle-6", seat2=("raptor-emperor", "raptor-g3")):
    return build(
        [["dog-assassin", "eagle-3"], ["dog-5", "frog-2"], list(seat2), ["dog-9", "eagle-4"]],
        top=top,
        stack=("frog-7",),
    )


def test_the_assassin_names_a_player_who_has_not_played():
    state = play(four_players(), (0, "dog-assassin"))
    assert GAME.to_act(state) == [0]
    assert GAME.view(state, 3)["pending"]["kind"] == "assassinate"
    assert [m["target"] for m in GAME.legal_moves(state, 0)] == [1, 2, 3]


def test_it_refuses_to_assassinate_yourself_or_a_player_who_has_played():
    state = build(
        [["eagle-3", "eagle-4"], ["eagle-assassin", "dog-5"], ["eagle-9", "frog-2"], ["dog-9", "eagle-5"]],
        top="raptor-6",
    )
    state = play(state, (0, "eagle-3"), (1, "eagle-assassin"))
    assert [m["target"] for m in GAME.legal_moves(state, 1)] == [2, 3]
    for target in (0, 1, 7):
        with pytest.raises(IllegalMove, match="has not played"):
            GAME.apply(state, 1, {"type": "assassinate", "target": target})


def test_a_random_card_of_the_victim_is_played_for_them_and_they_lose_their_turn():
    state = play(four_players(), (0, "dog-assassin"), (0, {"type": "assassinate", "target": 2}))
    entry = state["trick"][1]
    assert entry["seat"] == 2 and entry["how"] == "assassinated"
    assert entry["card"] in ("raptor-emperor", "raptor-g3")
    assert len(state["hands"][2]) == 1
    assert GAME.to_act(state) == [1]
    state = play(state, (1, "dog-5"))
    assert GAME.to_act(state) == [3]
    state = play(state, (3, "dog-9"))
    assert trick_winner(state) == 3
    assert_conserved(state)


def test_the_assassinated_card_ignores_the_follow_rule_and_is_ranked_normally():
    state = play(four_players(top="raptor-6"), (0, "dog-assassin"), (0, {"type": "assassinate", "target": 2}))
    state = play(state, (1, "dog-5"), (3, "dog-9"))
    assert trick_winner(state) == 2


def test_an_assassinated_divine_wins_and_its_owner_makes_the_choice():
    state = play(
        four_players(seat2=("falling-star-1", "falling-star-2")),
        (0, "dog-assassin"),
        (0, {"type": "assassinate", "target": 2}),
    )
    assert GAME.to_act(state) == [2]
    assert state["pending"]["kind"] == "choose_clan"
    state = play(state, (2, {"type": "choose_clan", "clan": "frog"}))
    assert GAME.to_act(state) == [1, 3]
    state = play(state, (3, "dog-9"), (1, "dog-5"))
    assert trick_winner(state) == 2


def test_an_assassinated_devil_reveals_for_its_owner():
    state = play(
        four_players(seat2=("devil-1", "devil-2")),
        (0, "dog-assassin"),
        (0, {"type": "assassinate", "target": 2}),
    )
    assert state["battleground"] == "frog"
    assert GAME.to_act(state) == [1, 3]


def test_an_assassinated_assassin_or_thief_has_no_effect():
    state = play(
        four_players(seat2=("raptor-assassin", "raptor-thief")),
        (0, "dog-assassin"),
        (0, {"type": "assassinate", "target": 2}),
    )
    assert state["pending"] == {"kind": "play", "seats": [1]}
    assert state["crowns"] == [0, 0, 0, 0]


def test_an_assassin_played_last_is_just_a_one():
    state = build([["dog-5", "dog-6"], ["dog-assassin", "eagle-2"]], top="frog-3")
    state = play(state, (0, "dog-5"), (1, "dog-assassin"))
    assert trick_winner(state) == 0
    assert any(e["e"] == "no_victim" for e in state["events"])


def test_an_assassin_with_a_single_possible_victim_strikes_by_itself():
    state = build(
        [["eagle-5", "eagle-6"], ["eagle-assassin", "dog-2"], ["frog-10", "frog-9"]], top="raptor-3"
    )
    state = play(state, (0, "eagle-5"), (1, "eagle-assassin"))
    assert [e["how"] for e in state["last_trick"]["cards"]] == ["play", "play", "assassinated"]
    assert trick_winner(state) == 0


def test_an_assassin_lead_sets_its_clan_as_leading_clan():
    state = play(four_players(), (0, "dog-assassin"))
    assert GAME.view(state, 1)["leading_clan"] == "dog"


def thief_state(crowns, top="raptor-2"):
    return build(
        [["eagle-thief", "eagle-2"], ["frog-3", "frog-4"], ["dog-4", "dog-5"]], top=top, crowns=crowns
    )


def test_the_thief_chooses_whom_to_rob_among_players_with_crowns():
    state = play(thief_state([0, 2, 1]), (0, "eagle-thief"))
    assert GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [{"type": "steal", "from": 1}, {"type": "steal", "from": 2}]
    state = play(state, (0, {"type": "steal", "from": 1}))
    assert state["crowns"] == [1, 1, 1]


def test_it_refuses_to_rob_a_player_without_crowns_or_the_pile_when_someone_has_one():
    state = play(thief_state([0, 2, 1]), (0, "eagle-thief"))
    for bad in (0, 5, None, "1"):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, {"type": "steal", "from": bad})


def test_a_thief_that_wins_the_trick_also_takes_the_trick_crown():
    state = play(thief_state([0, 2, 1]), (0, "eagle-thief"), (0, {"type": "steal", "from": 2}))
    state = play(state, (1, "frog-3"), (2, "dog-4"))
    assert trick_winner(state) == 0
    assert state["crowns"] == [2, 2, 0]


def test_a_thief_with_a_single_victim_steals_by_itself():
    state = play(thief_state([0, 3, 0]), (0, "eagle-thief"))
    assert state["crowns"] == [1, 2, 0]
    assert GAME.to_act(state) == [1]


def test_a_thief_takes_from_the_pile_when_nobody_else_has_a_crown():
    state = play(thief_state([0, 0, 0]), (0, "eagle-thief"))
    assert state["crowns"] == [1, 0, 0]
    state = play(thief_state([4, 0, 0]), (0, "eagle-thief"))
    assert state["crowns"] == [5, 0, 0]


def test_a_beaten_thief_keeps_the_stolen_crown():
    state = play(thief_state([0, 3, 0], top="dog-9"), (0, "eagle-thief"), (1, "frog-3"), (2, "dog-4"))
    assert trick_winner(state) == 2
    assert state["crowns"] == [1, 2, 1]


def test_a_discarded_thief_or_assassin_does_nothing():
    state = build(
        [["devil-1", "eagle-2"], ["eagle-thief", "frog-4"], ["dog-assassin", "dog-5"]],
        top="raptor-2",
        crowns=[1, 1, 1],
    )
    state = play(state, (0, "devil-1"), (1, "eagle-thief"), (2, "dog-assassin"))
    assert state["crowns"] == [2, 1, 1]
