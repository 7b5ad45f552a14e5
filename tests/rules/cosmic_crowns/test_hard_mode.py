"""Hard mode: bids, the last bidder's restriction, scoring; the rulebook's examples."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME

from .helpers import build, play

HARD = {"mode": "hard"}


def bid(n):
    return {"type": "bid", "tricks": n}


def test_rulebook_example_1_two_players_ten_cards_the_dealer_bids_5_the_other_may_not_bid_5():
    state = GAME.setup(players=2, seed=1, options=HARD)
    while state["pending"]["kind"] == "choose_clan":  # a Divine turned up: settle the clan first
        state = GAME.apply(state, GAME.to_act(state)[0], {"type": "choose_clan", "clan": "dog"})
    assert state["round_size"] == 10 and GAME.to_act(state) == [0]
    state = GAME.apply(state, 0, bid(5))
    allowed = [m["tricks"] for m in GAME.legal_moves(state, 1)]
    assert 5 not in allowed
    assert allowed == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]
    with pytest.raises(IllegalMove, match="may not bid 5"):
        GAME.apply(state, 1, bid(5))


def test_rulebook_example_2_four_players_bids_8_1_1_the_last_may_not_bid_0():
    state = build([[], [], [], []], top="eagle-2", size=10, options=HARD)
    state = play(state, (0, bid(8)), (1, bid(1)), (2, bid(1)))
    allowed = [m["tricks"] for m in GAME.legal_moves(state, 3)]
    assert 0 not in allowed
    assert allowed == list(range(1, 11))
    with pytest.raises(IllegalMove, match="may not bid 0"):
        GAME.apply(state, 3, bid(0))
    state = GAME.apply(state, 3, bid(2))
    assert state["bids"] == [8, 1, 1, 2]


def test_bidding_starts_with_the_dealer_and_goes_clockwise():
    state = build([[], [], [], []], top="eagle-2", size=3, dealer=2, options=HARD)
    order = []
    for n in (0, 0, 0, 0):
        seat = GAME.to_act(state)[0]
        order.append(seat)
        assert GAME.view(state, None)["pending"]["kind"] == "bid"
        state = GAME.apply(state, seat, bid(n if len(order) < 4 else 1))
    assert order == [2, 3, 0, 1]
    assert state["pending"] == {"kind": "play", "seats": [2]}


def test_earlier_bidders_may_bid_anything_from_0_to_the_round_size():
    state = build([[], []], top="eagle-2", size=4, options=HARD)
    assert [m["tricks"] for m in GAME.legal_moves(state, 0)] == [0, 1, 2, 3, 4]


def test_it_refuses_a_bid_out_of_range_or_not_a_number():
    state = build([[], []], top="eagle-2", size=4, options=HARD)
    for bad in (-1, 5, True, "2", 1.0, None):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, bid(bad))


def test_it_refuses_a_play_before_the_bids_are_in():
    state = build([["eagle-5"], ["dog-4"]], top="frog-2", options=HARD)
    with pytest.raises(IllegalMove, match="You must bid"):
        GAME.apply(state, 0, {"type": "play", "card": "eagle-5"})


def test_the_view_shows_bids_as_they_come():
    state = build([[], [], []], top="eagle-2", size=3, options=HARD)
    assert GAME.view(state, 1)["bids"] == [None, None, None]
    state = play(state, (0, bid(2)))
    assert GAME.view(state, 1)["bids"] == [2, None, None]


def two_tricks(bids, crowns=(0, 0, 0)):
    """Seat 0 wins both tricks (Battleground Dog), seats 1 and 2 win none."""
    state = build(
        [["dog-emperor", "dog-g3"], ["eagle-2", "eagle-3"], ["frog-2", "frog-3"]],
        top="dog-2",
        options=HARD,
        crowns=list(crowns),
    )
    state = play(state, *((s, bid(b)) for s, b in enumerate(bids)))
    state = play(state, (0, "dog-emperor"))
    assert state["crowns"] == list(crowns)
    state = play(state, (1, "eagle-2"), (2, "frog-2"))
    assert state["crowns"] == list(crowns), "trick crowns are counted, not taken"
    assert state["tricks"] == [1, 0, 0]
    return play(state, (0, "dog-g3"), (1, "eagle-3"), (2, "frog-3"))


def test_an_exact_bid_scores_bid_plus_one_and_a_missed_bid_nothing():
    state = two_tricks([2, 1, 0], crowns=(3, 3, 3))
    assert state["last_round"]["gains"] == [3, 0, 1]
    expected = [6, 3, 4]
    for event in state["events"]:
        if event["e"] == "robbed" and event["lost"]:  # the next round turned up a Thief
            expected[event["seat"]] -= 1
    assert state["crowns"] == expected


def test_a_zero_bid_with_zero_tricks_scores_one_crown():
    state = two_tricks([1, 0, 0])
    assert state["last_round"]["gains"] == [0, 1, 1]
    assert state["last_round"]["tricks"] == [2, 0, 0]
    assert state["last_round"]["bids"] == [1, 0, 0]


def test_a_thief_steal_acts_on_totals_immediately_in_hard_mode():
    state = build(
        [["eagle-thief", "eagle-2"], ["frog-3", "frog-4"], ["dog-4", "dog-5"]],
        top="raptor-2",
        options=HARD,
        crowns=[0, 2, 0],
    )
    state = play(state, (0, bid(0)), (1, bid(0)), (2, bid(0)), (0, "eagle-thief"))
    assert state["crowns"] == [1, 1, 0]
    state = play(state, (1, "frog-3"), (2, "dog-4"))
    assert state["crowns"] == [1, 1, 0]
    assert state["tricks"] == [1, 0, 0]


def test_easy_mode_has_no_bids():
    state = build([["eagle-5"], ["dog-4"]], top="frog-2")
    assert state["pending"]["kind"] == "play"
    assert GAME.view(state, 0)["bids"] == [None, None]
