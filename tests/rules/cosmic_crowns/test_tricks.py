"""Leading clan, follow rule, trick winner, crowns, dealer rotation."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import CARDS, GAME
from rules.cosmic_crowns.cards import RANKS

from .helpers import assert_conserved, build, play, trick_winner


def three_players(top="dog-2"):
    return build(
        [["eagle-5", "frog-3"], ["eagle-9", "dog-4"], ["frog-10", "raptor-2"]],
        top=top,
    )


def test_the_dealer_leads_the_first_trick():
    state = three_players()
    assert GAME.to_act(state) == [0]
    view = GAME.view(state, 0)
    assert view["pending"] == {"kind": "play"}
    assert view["to_act"] == [0] and view["turn"] == 1


def test_the_turned_up_card_sets_the_battleground_clan():
    state = three_players(top="raptor-7")
    assert state["battleground"] == "raptor"
    assert GAME.view(state, None)["battleground_card"] == "raptor-7"


def test_the_first_card_sets_the_leading_clan():
    state = play(three_players(), (0, "eagle-5"))
    assert GAME.view(state, 1)["leading_clan"] == "eagle"


def test_it_refuses_a_card_off_the_leading_clan_when_you_can_follow():
    state = play(three_players(), (0, "eagle-5"))
    assert GAME.legal_moves(state, 1) == [{"type": "play", "card": "eagle-9"}]
    with pytest.raises(IllegalMove, match="follow the Leading clan"):
        GAME.apply(state, 1, {"type": "play", "card": "dog-4"})


def test_a_player_who_cannot_follow_may_play_any_card():
    state = play(three_players(), (0, "eagle-5"), (1, "eagle-9"))
    cards = {m["card"] for m in GAME.legal_moves(state, 2)}
    assert cards == {"frog-10", "raptor-2"}


def test_the_highest_leading_clan_card_wins_without_battleground_cards():
    state = play(three_players(), (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert trick_winner(state) == 1
    assert state["crowns"] == [0, 1, 0]
    assert state["tricks"] == [0, 1, 0]


def test_any_battleground_card_beats_the_leading_clan():
    state = play(three_players(top="raptor-7"), (0, "eagle-5"), (1, "eagle-9"), (2, "raptor-2"))
    assert trick_winner(state) == 2


def test_a_card_of_a_third_clan_never_wins():
    state = build([["eagle-2"], ["frog-emperor"], ["dog-3"]], top="raptor-7")
    state = play(state, (0, "eagle-2"), (1, "frog-emperor"), (2, "dog-3"))
    assert trick_winner(state) == 0


def test_the_winner_leads_the_next_trick():
    state = play(three_players(), (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 1)["leader"] == 1


def test_play_goes_clockwise_from_the_leader():
    state = play(three_players(), (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    state = play(state, (1, "dog-4"))
    assert GAME.to_act(state) == [2]
    state = play(state, (2, "raptor-2"))
    assert GAME.to_act(state) == [0]


@pytest.mark.parametrize("i", range(len(RANKS) - 1))
def test_ranks_go_thief_assassin_soldiers_generals_emperor(i):
    low, high = f"eagle-{RANKS[i][0]}", f"eagle-{RANKS[i + 1][0]}"
    assert CARDS[low]["value"] < CARDS[high]["value"]
    for first, second in ((low, high), (high, low)):
        state = build([[first], [second]], top="dog-2")
        state = play(state, (0, first))
        if GAME.to_act(state) == [1]:  # an Assassin lead plays the only other card by itself
            state = play(state, (1, second))
        assert trick_winner(state) == (0 if first == high else 1)


def test_the_emperor_is_highest_and_the_thief_lowest():
    assert CARDS["frog-emperor"]["value"] == 14
    assert (
        CARDS["frog-g3"]["value"]
        > CARDS["frog-g2"]["value"]
        > CARDS["frog-g1"]["value"]
        > CARDS["frog-10"]["value"]
    )
    assert CARDS["frog-assassin"]["value"] == 1
    assert CARDS["frog-thief"]["value"] == 0


def test_a_round_ends_when_the_hands_are_empty_and_the_next_dealer_deals_one_card_fewer():
    state = build([["eagle-5"], ["eagle-9"], ["frog-10"]], top="dog-2", size=1, round_no=3)
    state = play(state, (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert state["round"] == 4
    assert state["round_size"] == 7
    assert state["dealer"] == 1
    assert [len(h) for h in state["hands"]] == [7, 7, 7]
    assert state["crowns"] == [0, 1, 0]
    assert state["tricks"] == [0, 0, 0]
    assert GAME.view(state, 0)["last_round"]["last_trick_winner"] == 1
    assert_conserved(state)


def test_the_new_dealer_leads_the_new_round():
    state = build([["eagle-5"], ["eagle-9"], ["frog-10"]], top="dog-2", size=1, round_no=3)
    state = play(state, (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    if state["pending"]["kind"] == "play":
        assert GAME.to_act(state) == [1]
        assert state["leader"] == 1


def test_the_crown_pile_never_runs_out():
    state = build([["eagle-5"], ["eagle-9"]], top="dog-2", size=1, crowns=[500, 500])
    state = play(state, (0, "eagle-5"), (1, "eagle-9"))
    assert state["crowns"] == [500, 501]
