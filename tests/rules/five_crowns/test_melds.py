"""min_penalty and arrange: rulebook examples, RULINGS penalties, and brute-force references (3 to 14 cards)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.five_crowns import arrange, min_penalty
from rules.five_crowns.cards import CARDS, full_deck, is_wild, penalty
from rules.five_crowns.melds import go_out_arrangement, go_out_cards
from tests.rules.five_crowns.brute import brute_min_penalty, is_meld, multiset_min_penalty

DECK = full_deck()


def random_hand(rnd: random.Random, size: int, max_wilds: int = 6) -> tuple[list[str], int]:
    wild_rank = rnd.randint(3, 13)
    wild_pool = [c for c in DECK if is_wild(c, wild_rank)]
    natural_pool = [c for c in DECK if not is_wild(c, wild_rank)]
    wilds = rnd.randint(0, min(max_wilds, size))
    return rnd.sample(wild_pool, wilds) + rnd.sample(natural_pool, size - wilds), wild_rank


def dense_hand(rnd: random.Random, size: int) -> tuple[list[str], int]:
    """Cards from one or two suits over a few ranks: many runs, books and duplicates."""
    wild_rank = rnd.randint(3, 13)
    suits = rnd.sample(range(5), rnd.randint(1, 2))
    low = rnd.randint(3, 9)
    high = low + rnd.randint(3, 6)
    pool = [
        c
        for c in DECK
        if c == "joker" or CARDS[c][0] == wild_rank or (CARDS[c][1] in suits and low <= CARDS[c][0] <= high)
    ]
    return rnd.sample(pool, min(size, len(pool))), wild_rank


def check_arrangement(hand: list[str], wild_rank: int) -> dict:
    """The laid arrangement is made of real melds, uses every card once and scores its leftovers."""
    laid = arrange(hand, wild_rank)
    for meld in laid["melds"]:
        assert is_meld(meld["cards"], wild_rank), meld
    used = [c for meld in laid["melds"] for c in meld["cards"]] + laid["leftover"]
    assert sorted(used) == sorted(hand)
    assert laid["penalty"] == sum(penalty(c, wild_rank) for c in laid["leftover"])
    assert laid["penalty"] == min_penalty(hand, wild_rank)
    return laid


# --- The rulebook's examples ------------------------------------------------------------


def test_it_accepts_the_rulebook_runs():
    assert min_penalty(["5-heart", "6-heart", "7-heart"], 3) == 0
    assert min_penalty(["9-spade", "10-spade", "J-spade", "Q-spade"], 3) == 0


def test_it_accepts_9_7_j_as_a_run_when_7s_are_wild():
    assert min_penalty(["9-heart", "7-club", "J-heart"], 7) == 0
    assert is_meld(["9-heart", "7-club", "J-heart"], 7)


def test_it_accepts_6_7_7_9_as_a_run_when_7s_are_wild():
    assert min_penalty(["6-diamond", "7-star", "7-spade", "9-diamond"], 7) == 0


def test_it_accepts_the_rulebook_books():
    assert min_penalty(["8-star", "8-heart", "8-club"], 3) == 0
    assert min_penalty(["K-star", "K-heart", "K-club", "K-spade"], 3) == 0


def test_it_accepts_8_q_q_as_a_book_when_8s_are_wild():
    assert min_penalty(["8-club", "Q-heart", "Q-spade"], 8) == 0


def test_it_accepts_any_number_of_wilds_in_a_meld_even_only_wilds():
    assert min_penalty(["joker", "joker", "5-club", "5-heart"], 3) == 0
    assert min_penalty(["joker", "3-heart", "3-club"], 3) == 0
    assert min_penalty(["joker", "joker", "joker", "joker", "9-heart"], 3) == 0


# --- What is not a meld -----------------------------------------------------------------


def test_it_refuses_a_run_of_mixed_suits():
    assert min_penalty(["5-heart", "6-heart", "7-club"], 3) == 18


def test_it_refuses_a_run_that_wraps_around():
    assert min_penalty(["Q-heart", "K-heart", "3-heart"], 9) == 28


def test_it_refuses_two_cards_and_a_gap_without_wild():
    assert min_penalty(["5-heart", "7-heart", "8-heart"], 3) == 20


def test_it_places_the_wild_below_a_run_that_ends_at_the_king():
    # Q K + wild: the wild goes below (J) since nothing is above the King.
    assert min_penalty(["Q-heart", "K-heart", "joker"], 3) == 0
    assert arrange(["Q-heart", "K-heart", "joker"], 3)["melds"] == [
        {"kind": "run", "cards": ["joker", "Q-heart", "K-heart"]}
    ]


# --- Penalties (RULINGS) ----------------------------------------------------------------


def test_it_scores_face_values_and_court_cards():
    assert min_penalty(["3-star", "10-heart", "J-club", "Q-spade", "K-diamond"], 5) == 3 + 10 + 11 + 12 + 13


def test_it_scores_a_wild_rank_card_20_and_a_joker_50_when_they_cannot_meld():
    assert min_penalty(["5-heart", "joker"], 5) == 70
    assert min_penalty(["5-heart"], 5) == 20
    assert min_penalty(["joker", "K-star", "3-heart"], 7) == 50 + 13 + 3  # K and 3 of two suits: no meld
    assert min_penalty(["J-club", "Q-heart", "K-star"], 3) == 11 + 12 + 13


def test_it_lays_a_spare_wild_on_an_existing_meld():
    assert min_penalty(["5-heart", "6-heart", "7-heart", "joker"], 3) == 0
    assert min_penalty(["3-heart", "3-club", "3-spade", "9-club"], 9) == 0


def test_it_melds_all_eleven_ranks_plus_spare_wilds():
    run = [f"{r}-heart" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    hand = run + ["joker", "joker"]
    assert min_penalty(hand, 7) == 0
    check_arrangement(hand, 7)


def test_it_finds_the_best_and_not_the_greedy_meld():
    # A greedy book of 5s would strand the 6 and 7 of hearts.
    hand = ["5-heart", "5-club", "5-spade", "6-heart", "7-heart", "joker"]
    assert min_penalty(hand, 3) == 0
    # 5h 6h 7h + 5c 5s: one meld only; keep the run, lose 10 (two 5s)... or the book and 13.
    assert min_penalty(["5-heart", "5-club", "5-spade", "6-heart", "7-heart"], 3) == 10


def test_it_rejects_something_that_is_not_a_card():
    with pytest.raises(ValueError):
        min_penalty(["11-heart"], 3)
    with pytest.raises(ValueError):
        min_penalty([None], 3)


# --- Against the brute force --------------------------------------------------------------


def test_it_matches_the_brute_force_on_random_hands_of_3_to_9_cards():
    rnd = random.Random(7)
    for _ in range(1500):
        hand, wild_rank = random_hand(rnd, rnd.randint(3, 9))
        assert min_penalty(hand, wild_rank) == brute_min_penalty(hand, wild_rank), (hand, wild_rank)


def test_it_matches_the_brute_force_on_dense_hands_of_3_to_9_cards():
    rnd = random.Random(8)
    for _ in range(1200):
        hand, wild_rank = dense_hand(rnd, rnd.randint(3, 9))
        assert min_penalty(hand, wild_rank) == brute_min_penalty(hand, wild_rank), (hand, wild_rank)


def test_the_multiset_reference_agrees_with_the_plain_brute_force():
    rnd = random.Random(12)
    for i in range(600):
        maker = dense_hand if i % 2 else random_hand
        hand, wild_rank = maker(rnd, rnd.randint(3, 8))
        assert multiset_min_penalty(hand, wild_rank) == brute_min_penalty(hand, wild_rank), (hand, wild_rank)


@pytest.mark.slow
def test_it_matches_the_brute_force_on_hands_of_10_to_14_cards():
    rnd = random.Random(9)
    for i in range(1000):
        maker = dense_hand if i % 2 else random_hand
        hand, wild_rank = maker(rnd, rnd.randint(10, 14))
        assert min_penalty(hand, wild_rank) == multiset_min_penalty(hand, wild_rank), (hand, wild_rank)


def test_it_lays_valid_arrangements_for_hands_of_3_to_14_cards():
    rnd = random.Random(10)
    for i in range(1500):
        maker = dense_hand if i % 2 else random_hand
        hand, wild_rank = maker(rnd, rnd.randint(3, 14))
        check_arrangement(hand, wild_rank)


def test_it_never_does_worse_than_leaving_a_card_or_splitting_a_hand():
    rnd = random.Random(11)
    for i in range(800):
        maker = dense_hand if i % 2 else random_hand
        hand, wild_rank = maker(rnd, rnd.randint(4, 14))
        whole = min_penalty(hand, wild_rank)
        cut = rnd.randint(1, len(hand) - 1)
        assert whole <= min_penalty(hand[:cut], wild_rank) + min_penalty(hand[cut:], wild_rank)
        assert whole <= min_penalty(hand[1:], wild_rank) + penalty(hand[0], wild_rank)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(DECK))), min_size=1, max_size=8), st.integers(3, 13))
def test_it_matches_the_brute_force_on_any_small_hand(hand, wild_rank):
    assert min_penalty(hand, wild_rank) == brute_min_penalty(hand, wild_rank)
    check_arrangement(hand, wild_rank)


# --- Going out -------------------------------------------------------------------------------


def test_it_lists_the_cards_whose_discard_lets_a_player_go_out():
    hand = ["5-heart", "6-heart", "7-heart", "K-club"]
    assert go_out_cards(hand, 3) == ["K-club"]
    assert go_out_cards(["5-heart", "6-heart", "7-heart", "8-heart"], 3) == ["5-heart", "8-heart"]
    assert go_out_cards(["5-heart", "6-heart", "9-club", "K-club"], 3) == []


def test_it_hints_the_go_out_with_the_highest_discard_allowed():
    hint = go_out_arrangement(["5-heart", "6-heart", "7-heart", "8-heart"], 3)
    assert hint["discard"] == "8-heart"
    assert hint["melds"] == [{"kind": "run", "cards": ["5-heart", "6-heart", "7-heart"]}]
    assert (
        go_out_arrangement(["5-heart", "6-heart", "7-heart", "8-heart"], 3, ["5-heart"])["discard"]
        == "5-heart"
    )
    assert go_out_arrangement(["5-heart", "6-heart", "9-club", "K-club"], 3) is None
