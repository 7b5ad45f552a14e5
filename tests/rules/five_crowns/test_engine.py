"""The Five Crowns engine: set-up, turns, going out, last turns, scoring, piles, views, log."""

from __future__ import annotations

import copy
import json

import pytest

from rules import IllegalMove
from rules.five_crowns import GAME
from rules.five_crowns.cards import card_name
from rules.five_crowns.engine import round_log, wild_rank
from tests.rules.five_crowns.helpers import assert_conserved, assert_no_leak, crafted

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


def play(state, seat, move):
    return GAME.apply(state, seat, move)


# --- Set-up ---------------------------------------------------------------------------------


def test_it_describes_itself():
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == ("five_crowns", "Five Crowns", 2, 8)
    assert GAME.options == {
        "keep_taken": {
            "type": "bool",
            "default": False,
            "house_rule": True,
            "label": "House rule: a card taken from the discard may not be thrown back that turn",
        }
    }


@pytest.mark.parametrize("players", range(2, 9))
def test_it_deals_three_cards_each_and_turns_one_up_in_round_one(players):
    state = GAME.setup(players=players, seed=1)
    assert_conserved(state)
    assert [len(h) for h in state["hands"]] == [3] * players
    assert len(state["discard"]) == 1
    assert len(state["stock"]) == 116 - 3 * players - 1
    view = GAME.view(state, 0)
    assert (view["round"], view["wild_rank"], view["dealer"], view["phase"]) == (1, 3, 0, "draw")
    assert view["to_act"] == GAME.to_act(state) == [1]
    assert view["turn"] == 1, "the first turn has begun"


def test_it_refuses_bad_player_counts_and_options():
    for players in (1, 9):
        with pytest.raises(ValueError):
            GAME.setup(players=players, seed=1)
    with pytest.raises(ValueError):
        GAME.setup(players=3, seed=1, options={"decks": 3})


def test_it_makes_the_wild_rank_the_round_size():
    assert [wild_rank(r) for r in range(1, 12)] == list(range(3, 14))


# --- A turn ---------------------------------------------------------------------------------


def test_it_lets_a_player_draw_from_the_stock_then_discard():
    state = crafted(
        hands=[["3-star"] * 1, ["5-heart", "9-club", "K-spade"], ["4-star"]],
        stock=["Q-club", "J-club"],
        discard=["8-heart"],
    )
    assert GAME.legal_moves(state, 1) == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]
    state = play(state, 1, {"type": "draw", "source": "stock"})
    assert "J-club" in state["hands"][1] and state["stock"] == ["Q-club"]
    assert GAME.view(state, 1)["drawn"] == "J-club"
    assert GAME.view(state, 2)["drawn"] is None
    state = play(state, 1, {"type": "discard", "card": "K-spade"})
    assert state["discard"][-1] == "K-spade" and state["turn"] == 2 and state["phase"] == "draw"


def test_it_lets_a_player_take_the_discard_top():
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []],
        stock=["Q-club", "J-club"],
        discard=["7-star", "8-heart"],
    )
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert "8-heart" in state["hands"][1] and state["discard"] == ["7-star"]
    assert GAME.view(state, 0)["taken_from_discard"] == "8-heart"


def test_it_lets_a_player_throw_back_the_card_just_taken_from_the_discard():
    """Rulebook 004: « Chaque joueur commence par prendre une carte du dessus de la pioche ou du dessus
    de la défausse, puis rejette une sur la défausse » — any card, the one just taken included."""
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club"], discard=["7-star", "8-heart"]
    )
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert {"type": "discard", "card": "8-heart"} in GAME.legal_moves(state, 1)
    state = play(state, 1, {"type": "discard", "card": "8-heart"})
    assert state["discard"] == ["7-star", "8-heart"] and state["hands"][1] == ["5-heart", "9-club", "K-spade"]


def test_a_hand_that_already_melds_takes_the_discard_and_goes_out_by_throwing_it_back():
    """Rulebook 004: « Après avoir pris une carte de la pioche ou de la défausse, si un joueur peut
    organiser toutes les cartes de sa main en suites ou familles, tout en gardant une carte à
    rejeter, il étale ses combinaisons sur la table et rejette une carte sur la défausse »."""
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []], stock=["Q-club"], discard=["7-star", "K-spade"]
    )
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert GAME.legal_moves(state, 1)[-1] == {"type": "go_out", "card": "K-spade"}
    assert GAME.view(state, 1)["go_out"]["discard"] == "K-spade"
    state = play(state, 1, {"type": "go_out", "card": "K-spade"})
    assert state["went_out"] == 1 and state["discard"][-1] == "K-spade"


def test_the_house_rule_refuses_throwing_back_the_card_just_taken_with_a_clear_message():
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []],
        stock=["Q-club"],
        discard=["7-star", "K-spade"],
        options={"keep_taken": True},
    )
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert GAME.view(state, 1)["keep_taken"] is True
    assert GAME.view(state, 1)["go_out"] is None, "the only way out is throwing back the King"
    for kind in ("discard", "go_out"):
        assert {"type": kind, "card": "K-spade"} not in GAME.legal_moves(state, 1)
        with pytest.raises(IllegalMove, match="House rule: you may not throw back the card you just took"):
            play(state, 1, {"type": kind, "card": "K-spade"})


def test_the_house_rule_refuses_the_twin_of_the_card_just_taken():
    hands = [[], ["K-spade", "9-club", "5-heart"], []]
    state = crafted(hands=hands, stock=["Q-club"], discard=["K-spade"], options={"keep_taken": True})
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert state["hands"][1].count("K-spade") == 2
    with pytest.raises(IllegalMove, match="House rule"):
        play(state, 1, {"type": "discard", "card": "K-spade"})


def test_the_house_rule_lets_a_hand_of_only_that_card_discard_it():
    state = crafted(
        hands=[[], ["joker"] * 3, []],
        stock=["Q-club"],
        discard=["7-star", "joker"],
        options={"keep_taken": True},
    )
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert {"type": "discard", "card": "joker"} in GAME.legal_moves(state, 1)


def test_the_house_rule_is_a_true_or_false_option():
    assert GAME.setup(players=2, seed=1)["options"] == {"keep_taken": False}
    with pytest.raises(ValueError, match="keep_taken"):
        GAME.setup(players=2, seed=1, options={"keep_taken": "yes"})


def test_it_allows_discarding_a_card_drawn_from_the_stock():
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club", "J-club"], discard=["8-heart"]
    )
    state = play(state, 1, {"type": "draw", "source": "stock"})
    state = play(state, 1, {"type": "discard", "card": "J-club"})
    assert state["discard"][-1] == "J-club"


def test_it_refuses_a_move_out_of_turn():
    state = GAME.setup(players=3, seed=2)
    with pytest.raises(IllegalMove, match="not your turn"):
        play(state, 0, {"type": "draw", "source": "stock"})
    assert GAME.legal_moves(state, 0) == []


def test_it_refuses_discarding_before_drawing_and_drawing_twice():
    state = GAME.setup(players=3, seed=2)
    card = state["hands"][1][0]
    with pytest.raises(IllegalMove, match="Draw a card first"):
        play(state, 1, {"type": "discard", "card": card})
    state = play(state, 1, {"type": "draw", "source": "stock"})
    with pytest.raises(IllegalMove, match="now discard"):
        play(state, 1, {"type": "draw", "source": "stock"})


@pytest.mark.parametrize(
    "move",
    [
        {},
        {"type": 3},
        {"type": "draw"},
        {"type": "draw", "source": "pile"},
        {"type": "draw", "source": ["stock"]},
        {"type": "draw", "source": None},
        {"type": "fly"},
        "draw",
        None,
        [],
    ],
)
def test_it_refuses_malformed_draws(move):
    state = GAME.setup(players=3, seed=2)
    with pytest.raises(IllegalMove):
        play(state, 1, move)


@pytest.mark.parametrize(
    "move",
    [
        {"type": "discard"},
        {"type": "discard", "card": None},
        {"type": "discard", "card": ["5-heart"]},
        {"type": "discard", "card": {"x": 1}},
        {"type": "discard", "card": "11-heart"},
        {"type": "discard", "card": "5-moon"},
        {"type": "go_out"},
        {"type": "go_out", "card": 7},
        {"type": "draw", "source": "stock"},
        {"type": "end_round"},
    ],
)
def test_it_refuses_malformed_discards(move):
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club", "J-club"], discard=["8-heart"]
    )
    state = play(state, 1, {"type": "draw", "source": "stock"})
    with pytest.raises(IllegalMove):
        play(state, 1, move)


def test_it_refuses_a_card_not_in_hand():
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club", "J-club"], discard=["8-heart"]
    )
    state = play(state, 1, {"type": "draw", "source": "stock"})
    with pytest.raises(IllegalMove, match="not in your hand"):
        play(state, 1, {"type": "discard", "card": "3-star"})


# --- Going out --------------------------------------------------------------------------------


def test_it_lets_a_player_go_out_on_the_very_first_turn():
    state = crafted(
        hands=[
            ["3-star", "K-club", "Q-club"],
            ["5-heart", "6-heart", "7-heart"],
            ["J-star", "9-club", "4-spade"],
        ],
        stock=["Q-diamond"],
        discard=["8-club"],
    )
    state = play(state, 1, {"type": "draw", "source": "stock"})
    assert {"type": "go_out", "card": "Q-diamond"} in GAME.legal_moves(state, 1)
    hint = GAME.view(state, 1)["go_out"]
    assert hint == {
        "discard": "Q-diamond",
        "melds": [{"kind": "run", "cards": ["5-heart", "6-heart", "7-heart"]}],
    }
    assert GAME.view(state, 2)["go_out"] is None
    assert "go_out" not in GAME.view(state, None)
    state = play(state, 1, {"type": "go_out", "card": "Q-diamond"})
    view = GAME.view(state, 0)
    assert view["went_out"] == 1 and view["final_turns"] == [2, 0] and view["to_act"] == [2]
    assert view["turn"] == 2, "seat 1's turn was the first; seat 2's has begun"


def test_it_previews_what_each_way_of_going_out_would_lay():
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []], stock=["Q-diamond"], discard=["8-club"]
    )
    assert GAME.preview(state, 1, {"type": "draw", "source": "stock"}) is None
    state = play(state, 1, {"type": "draw", "source": "stock"})
    go_outs = [m for m in GAME.legal_moves(state, 1) if m["type"] == "go_out"]
    assert go_outs == [{"type": "go_out", "card": "Q-diamond"}]
    assert GAME.preview(state, 1, go_outs[0]) == {
        "discard": "Q-diamond",
        "melds": [{"kind": "run", "cards": ["5-heart", "6-heart", "7-heart"]}],
    }
    assert GAME.preview(state, 1, {"type": "discard", "card": "5-heart"}) is None
    assert GAME.preview(state, 1, {"type": "go_out", "card": "5-heart"}) is None  # not a way out
    assert GAME.preview(state, 0, {"type": "go_out", "card": "Q-diamond"}) is None  # not their turn
    assert GAME.preview(state, 1, {"type": "go_out", "card": ["x"]}) is None


def test_it_refuses_going_out_when_the_rest_does_not_meld():
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "9-heart"], []], stock=["Q-diamond"], discard=["8-club"]
    )
    state = play(state, 1, {"type": "draw", "source": "stock"})
    assert not [m for m in GAME.legal_moves(state, 1) if m["type"] == "go_out"]
    with pytest.raises(IllegalMove, match="cannot go out"):
        play(state, 1, {"type": "go_out", "card": "Q-diamond"})


def test_it_lets_a_player_go_out_with_wilds_of_the_round():
    # Round 5: 7s are wild, so 9 7 J of hearts is a run (rulebook example).
    hands = [
        ["3-star"] * 7,
        ["9-heart", "7-club", "J-heart", "K-spade", "K-club", "K-heart", "4-club"],
        ["3-star"] * 7,
    ]
    state = crafted(hands=hands, stock=["10-heart"], discard=["8-club"], round_number=5)
    assert state["turn"] == 2  # round 5 of 3 players: seat 1 deals, seat 2 starts
    state["turn"] = 1
    state = play(state, 1, {"type": "draw", "source": "stock"})
    assert {m["card"] for m in GAME.legal_moves(state, 1) if m["type"] == "go_out"} == {"4-club"}


def test_it_gives_every_other_player_exactly_one_more_turn_then_scores():
    hands = [
        ["K-club", "K-spade", "4-heart"],  # seat 0 (dealer)
        ["5-heart", "6-heart", "7-heart"],  # seat 1 goes out
        ["J-star", "J-club", "joker"],  # seat 2 will lay a book of Jacks
    ]
    state = crafted(hands=hands, stock=["3-diamond", "9-star", "Q-spade", "Q-diamond"], discard=["8-club"])
    state = play(state, 1, {"type": "draw", "source": "stock"})
    state = play(state, 1, {"type": "go_out", "card": "Q-diamond"})
    assert GAME.to_act(state) == [2]
    state = play(state, 2, {"type": "draw", "source": "stock"})  # Q-spade
    state = play(state, 2, {"type": "discard", "card": "Q-spade"})
    assert GAME.to_act(state) == [0]
    assert GAME.view(state, 0)["final_turns"] == [0]
    state = play(state, 0, {"type": "draw", "source": "stock"})  # 9-star
    before = copy.deepcopy(state)
    state = play(state, 0, {"type": "discard", "card": "9-star"})
    # Round scored: seat 0 keeps K K 4 (30), seat 1 out (0), seat 2 J J joker (0).
    assert state["sheet"] == [[30, 0, 0]]
    assert state["scores"] == [30, 0, 0]
    last = GAME.view(state, 2)["last_round"]
    assert last["round"] == 1 and last["wild_rank"] == 3 and last["went_out"] == 1
    assert last["laid"][0] == {"melds": [], "leftover": ["4-heart", "K-club", "K-spade"], "penalty": 30}
    assert last["laid"][1]["melds"] == [{"kind": "run", "cards": ["5-heart", "6-heart", "7-heart"]}]
    assert last["laid"][2] == {
        "melds": [{"kind": "book", "cards": ["J-star", "J-club", "joker"]}],
        "leftover": [],
        "penalty": 0,
    }
    # The next round started by itself: 4 cards, 4s wild, seat 1 deals, seat 2 starts.
    view = GAME.view(state, 0)
    assert (view["round"], view["wild_rank"], view["dealer"], view["to_act"], view["phase"]) == (
        2,
        4,
        1,
        [2],
        "draw",
    )
    assert view["turn"] == 4, "three turns in round 1 (seats 1, 2, 0), then round 2's first"
    assert view["hand_sizes"] == [4, 4, 4] and view["went_out"] is None and view["final_turns"] == []
    assert_conserved(state)
    lines = GAME.narrate(before, 0, {"type": "discard", "card": "9-star"}, state, NAMES, None)
    assert lines[0] == "alice discarded 9 of stars"
    assert lines[1] == "Round 1 scored: alice 30, bob 0, carol 0"
    assert (
        lines[2]
        == f"Round 2: 4 cards each, 4s are wild; bob deals and turns up {card_name(state['discard'][0])}"
    )


def test_it_lets_a_player_in_the_last_turns_lay_everything_without_changing_who_went_out():
    hands = [
        ["K-club", "K-spade", "K-heart"],
        ["5-heart", "6-heart", "7-heart"],
        ["J-star", "4-club", "9-spade"],
    ]
    state = crafted(hands=hands, stock=["3-diamond", "9-star", "Q-diamond"], discard=["8-club"])
    state = play(state, 1, {"type": "draw", "source": "stock"})
    state = play(state, 1, {"type": "go_out", "card": "Q-diamond"})
    state = play(state, 2, {"type": "draw", "source": "stock"})
    state = play(state, 2, {"type": "discard", "card": "9-star"})
    state = play(state, 0, {"type": "draw", "source": "stock"})
    state = play(state, 0, {"type": "go_out", "card": "3-diamond"})
    assert state["last_round"]["went_out"] == 1
    assert state["sheet"] == [[0, 0, 4 + 9 + 11]]


def test_it_ends_the_game_after_eleven_rounds_and_lowest_total_wins_ties_share():
    # Round 11: Kings are wild.
    hands = [
        "4-heart 4-club 5-spade 6-spade 8-diamond 9-diamond 10-spade J-heart Q-club 3-star 3-club 3-diamond 5-club".split(),
        "4-heart 5-heart 6-heart 7-heart 8-heart 9-heart 10-heart J-heart Q-heart 3-club 3-spade 3-heart K-club".split(),
        "4-star 4-diamond 5-star 5-club 6-star 6-club 7-star 7-club 8-star 8-club 9-star 9-club 10-club".split(),
    ]
    state = crafted(
        hands=hands,
        stock=["J-diamond", "J-diamond", "Q-spade", "Q-diamond"],
        discard=["8-club"],
        round_number=11,
    )
    state["scores"] = [100, 60, 75]
    state["sheet"] = [[0, 0, 0]] * 10
    assert state["turn"] == 2  # round 11 of 3 players: seat 1 deals
    state["turn"] = 1
    state = play(state, 1, {"type": "draw", "source": "stock"})  # Q-diamond
    state = play(state, 1, {"type": "go_out", "card": "Q-diamond"})
    state = play(state, 2, {"type": "draw", "source": "stock"})  # Q-spade
    state = play(state, 2, {"type": "discard", "card": "Q-spade"})
    state = play(state, 0, {"type": "draw", "source": "stock"})  # J-diamond
    before = copy.deepcopy(state)
    state = play(state, 0, {"type": "discard", "card": "J-diamond"})
    assert GAME.is_over(state) and GAME.to_act(state) == []
    penalties = state["sheet"][-1]
    assert penalties[1] == 0
    assert GAME.result(state) == {
        "scores": state["scores"],
        "winners": [s for s in range(3) if state["scores"][s] == min(state["scores"])],
    }
    assert GAME.view(state, 0)["over"] is True and GAME.view(state, 0)["to_act"] == []
    assert GAME.view(state, 0)["result"] == GAME.result(state)
    assert GAME.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        play(state, 0, {"type": "draw", "source": "stock"})
    lines = GAME.narrate(before, 0, {"type": "discard", "card": "J-diamond"}, state, NAMES, 1)
    assert lines[-1].startswith("Game over: ")


def test_it_shares_the_win_between_equal_lowest_totals():
    state = GAME.setup(players=3, seed=4)
    state["phase"] = "over"
    state["scores"] = [80, 80, 95]
    assert GAME.result(state) == {"scores": [80, 80, 95], "winners": [0, 1]}
    assert GAME.view(state, None)["winners"] == [0, 1]


# --- The piles ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, stock", [(7, 24), (8, 11)])
def test_it_leaves_few_cards_in_the_stock_of_the_last_round_with_7_or_8_players(players, stock):
    # Rulebook annotation 6: with 7 players the last round's stock is small; with 8 it runs out.
    state = GAME.setup(players=players, seed=3)
    state["round"] = 10
    GAME._deal(state)
    assert state["round"] == 11 and len(state["stock"]) == stock
    assert_conserved(state)


def test_it_rebuilds_the_stock_from_the_discard_keeping_its_top_card():
    state = GAME.setup(players=4, seed=6)
    # Move the whole stock but one card under the discard.
    state["discard"] = state["stock"][:-1] + state["discard"]
    state["stock"] = state["stock"][-1:]
    top = state["discard"][-1]
    size = len(state["discard"])
    before = state
    state = play(state, 1, {"type": "draw", "source": "stock"})
    assert state["discard"] == [top]
    assert len(state["stock"]) == size - 1
    assert_conserved(state)
    lines = GAME.narrate(before, 1, {"type": "draw", "source": "stock"}, state, NAMES, 2)
    assert lines == ["bob drew from the stock", "The discard was shuffled into a new stock"]


def test_it_rebuilds_the_stock_after_a_discard_when_it_was_empty():
    state = crafted(hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=[], discard=["7-star", "8-heart"])
    state = play(state, 1, {"type": "draw", "source": "discard"})
    assert state["stock"] == [] and state["discard"] == ["7-star"]
    state = play(state, 1, {"type": "discard", "card": "K-spade"})
    assert state["stock"] == ["7-star"] and state["discard"] == ["K-spade"]


def test_it_ends_the_round_if_both_piles_are_empty():
    hands = [
        ["K-club", "K-spade", "4-heart"],
        ["5-heart", "6-heart", "7-heart"],
        ["J-star", "4-club", "9-spade"],
    ]
    state = crafted(hands=hands, stock=[], discard=[])
    assert GAME.legal_moves(state, 1) == [{"type": "end_round"}]
    with pytest.raises(IllegalMove, match="empty"):
        play(state, 1, {"type": "draw", "source": "stock"})
    before = state
    state = play(state, 1, {"type": "end_round"})
    assert state["sheet"] == [[30, 0, 24]] and state["round"] == 2
    assert (
        GAME.narrate(before, 1, {"type": "end_round"}, state, NAMES, 0)[0]
        == "Both piles are empty: the round ends"
    )


def test_it_refuses_ending_the_round_while_cards_remain():
    state = GAME.setup(players=3, seed=2)
    assert {"type": "end_round"} not in GAME.legal_moves(state, 1)
    with pytest.raises(IllegalMove):
        play(state, 1, {"type": "end_round"})


# --- Views and the log ------------------------------------------------------------------------


def test_it_shows_each_seat_only_its_own_hand():
    state = GAME.setup(players=4, seed=9)
    for seat in range(4):
        assert GAME.view(state, seat)["hand"] == state["hands"][seat]
    assert "hand" not in GAME.view(state, None)
    assert_no_leak(state)


def test_it_keeps_the_documented_view_keys():
    state = GAME.setup(players=3, seed=9)
    keys = {
        "seat", "players", "to_act", "turn", "over", "result", "hand_sizes",
        "round", "rounds", "wild_rank", "wild_label", "dealer", "phase",
        "stock_size", "discard_size", "discard_top", "taken_from_discard", "keep_taken", "round_log", "went_out",
        "final_turns", "scores", "sheet", "last_round", "winners",
    }  # fmt: skip
    assert set(GAME.view(state, None)) == keys
    assert set(GAME.view(state, 0)) == keys | {"hand", "drawn", "go_out"}
    json.dumps(GAME.view(state, 0))


def test_it_tells_only_the_drawer_which_card_came_from_the_stock():
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club", "J-club"], discard=["8-heart"]
    )
    after = play(state, 1, {"type": "draw", "source": "stock"})
    move = {"type": "draw", "source": "stock"}
    assert GAME.narrate(state, 1, move, after, NAMES, 1) == ["bob drew Jack of clubs from the stock"]
    assert GAME.narrate(state, 1, move, after, NAMES, 0) == ["bob drew from the stock"]
    assert GAME.narrate(state, 1, move, after, NAMES, None) == ["bob drew from the stock"]
    assert GAME.narrate(state, 1, move, after, NAMES, 1, "fr") == ["bob prend Valet de Trèfles de la pioche"]
    assert GAME.narrate(state, 1, move, after, NAMES, 2, "fr") == ["bob prend une carte de la pioche"]


def test_it_narrates_taking_the_discard_and_going_out():
    state = crafted(hands=[[], ["5-heart", "6-heart", "7-heart"], []], stock=["Q-club"], discard=["K-heart"])
    after = play(state, 1, {"type": "draw", "source": "discard"})
    assert GAME.narrate(state, 1, {"type": "draw", "source": "discard"}, after, NAMES, 0) == [
        "bob took King of hearts from the discard"
    ]
    state, after = after, play(after, 1, {"type": "go_out", "card": "K-heart"})
    assert GAME.narrate(state, 1, {"type": "go_out", "card": "K-heart"}, after, NAMES, 2) == [
        "bob went out, discarding King of hearts",
        "Everyone else plays one last turn",
    ]


# --- The round's public log -----------------------------------------------------------------


def _public_events(before: dict, seat: int, move: dict, after: dict) -> list[dict]:
    """What everyone at the table saw this move do, worked out from the move alone."""
    kind = move["type"]
    if kind == "end_round":
        return []
    if kind == "draw" and move["source"] == "stock":
        events = [{"act": "draw", "seat": seat}]
    elif kind == "draw":
        events = [{"act": "take", "seat": seat, "card": before["discard"][-1]}]
    else:
        events = [{"act": kind, "seat": seat, "card": move["card"]}]
    if after["round"] == before["round"] and after["draws"] > before["draws"]:
        events.append({"act": "rebuild"})
    return events


@pytest.mark.parametrize("players", [2, 3, 5])
def test_it_logs_each_rounds_public_events_and_nothing_else(players):
    import random

    rnd = random.Random(players)
    state = GAME.setup(players=players, seed=40 + players)
    # A small stock so the discard is rebuilt into the stock within the round.
    state["discard"] = state["stock"][:-2] + state["discard"]
    state["stock"] = state["stock"][-2:]
    expected = [{"act": "turn_up", "card": round_log(state)[0]["card"]}]
    rounds = rebuilds = 0
    while state["round"] <= 3 and not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        outs = [m for m in moves if m["type"] == "go_out"]
        move = outs[0] if outs else rnd.choice(moves)
        after = play(state, seat, move)
        if after["round"] != state["round"]:
            rounds += 1
            expected = [{"act": "turn_up", "card": after["discard"][0]}]
        else:
            events = _public_events(state, seat, move, after)
            rebuilds += events[-1]["act"] == "rebuild"
            expected += events
        state = after
        assert round_log(state) == expected
        for viewer in [*range(players), None]:
            assert GAME.view(state, viewer)["round_log"] == expected
    assert rounds == 3 and rebuilds >= 1
    # A card drawn from the stock is never named; the pile is the log replayed.
    pile: list[str] = []
    for event in round_log(state):
        if event["act"] == "take":
            assert pile.pop() == event["card"]
        elif event["act"] == "rebuild":
            pile = pile[-1:]
        elif "card" in event:
            pile.append(event["card"])
    assert pile == state["discard"]


def test_it_loads_a_state_saved_before_the_turn_counter_and_the_house_rule_existed():
    state = GAME.setup(players=3, seed=3)
    for move in ({"type": "draw", "source": "stock"}, {"type": "discard", "card": None}):
        seat = state["turn"]
        if move["type"] == "discard":
            move = {"type": "discard", "card": state["hands"][seat][0]}
        state = play(state, seat, move)
    old = GAME.dump(state)
    del old["turns"]
    old["options"] = {}
    loaded = GAME.load(old)
    assert loaded["options"] == {"keep_taken": False}
    assert GAME.view(loaded, 0)["turn"] == 2 == GAME.view(state, 0)["turn"], "one turn played, the next begun"


def test_it_loads_a_state_saved_before_the_log_existed():
    state = GAME.setup(players=2, seed=3)
    del state["log"]
    assert GAME.view(state, 0)["round_log"] == []
    seat = state["turn"]
    state = play(state, seat, {"type": "draw", "source": "stock"})
    assert round_log(state) == [{"act": "draw", "seat": seat}]
    assert GAME.dump(state)["log"] == [{"act": "draw", "seat": seat}]
