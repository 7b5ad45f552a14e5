"""The Five Crowns strong bot: its look-ahead helper and a few positions with a clear answer."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules.five_crowns import GAME, sampling
from rules.five_crowns import bots as five_crowns
from rules.five_crowns.cards import full_deck
from rules.five_crowns.melds import min_penalty, min_penalty_after_drops
from tests.rules.five_crowns.brute import brute_min_penalty


def _by_brute_force(cards: list[str], wild: int, drops: int, lowest=brute_min_penalty) -> int:
    return min(
        lowest([c for i, c in enumerate(cards) if i not in aside], wild)
        for aside in combinations(range(len(cards)), drops)
    )


def _hands(seed: int, count: int, sizes: range):
    """Random hands, half of them from two suits and the Jokers so that they meld often."""
    rnd = random.Random(seed)
    deck = full_deck()
    narrow = [c for c in deck if c == "joker" or c.endswith(("-heart", "-star"))]
    for k in range(count):
        n = rnd.choice(sizes)
        cards = rnd.sample(narrow if k % 2 else deck, n)
        yield cards, rnd.randint(3, 13), rnd.randint(0, min(3, n))


def test_drops_agree_with_the_brute_force_reference():
    for cards, wild, drops in _hands(11, 300, range(1, 8)):
        assert min_penalty_after_drops(cards, wild, drops) == _by_brute_force(cards, wild, drops), (
            cards,
            wild,
            drops,
        )


def test_drops_agree_with_min_penalty_on_bigger_hands():
    for cards, wild, drops in _hands(12, 150, range(8, 16)):
        drops = min(drops, 2)
        expected = _by_brute_force(cards, wild, drops, lowest=min_penalty)
        assert min_penalty_after_drops(cards, wild, drops) == expected, (cards, wild, drops)


def test_no_drop_is_min_penalty_and_every_drop_leaves_nothing():
    for cards, wild, _drops in _hands(13, 100, range(1, 14)):
        assert min_penalty_after_drops(cards, wild, 0) == min_penalty(cards, wild)
        assert min_penalty_after_drops(cards, wild, len(cards)) == 0
    with pytest.raises(ValueError):
        min_penalty_after_drops(["3-heart"], 5, 2)


def test_drops_must_all_be_used():
    # Two melds of three and a sixth card to drop: it cannot go out (the rest would be a pair).
    cards = ["3-heart", "4-heart", "5-heart", "9-star", "9-club", "9-spade"]
    assert min_penalty(cards, 13) == 0
    assert min_penalty_after_drops(cards, 13, 1) == 7  # set aside 5-heart: 3 + 4 left over
    assert min_penalty_after_drops(cards, 13, 3) == 0


def _position(hand: list[str], round_number: int = 1, top: str = "8-club") -> tuple[dict, list[dict], int]:
    """Round ``round_number``, seat 0 to discard from ``hand`` (it drew from the stock)."""
    state = GAME.setup(players=2, seed=3)
    state["round"] = round_number
    state["dealer"] = 1
    state["turn"] = 0
    state["phase"] = "discard"
    state["hands"][0] = list(hand)
    state["drawn"] = hand[-1]
    state["discard"] = [top]
    return GAME.view(state, 0), GAME.legal_moves(state, 0), 0


def test_strong_keeps_a_pair_that_can_go_out_over_the_lowest_penalty_now():
    # Round 1, 3s wild: throwing a Queen leaves the lowest penalty now (casual does), but the
    # two Queens go out with any Queen or wild drawn next; 4-club and 5-diamond never meld.
    view, moves, seat = _position(["Q-heart", "Q-spade", "4-club", "5-diamond"])
    assert five_crowns.casual(view, moves, random.Random(1), seat)["card"].startswith("Q-")
    for seed in range(3):
        move = five_crowns.strong(view, moves, random.Random(seed), seat, samples=40)
        assert move["type"] == "discard" and not move["card"].startswith("Q-"), move


def test_strong_never_hands_over_a_wild_when_it_goes_out():
    view, moves, seat = _position(["7-heart", "8-heart", "9-heart", "joker"])
    assert {m["card"] for m in moves if m["type"] == "go_out"} >= {"joker", "9-heart"}
    assert five_crowns.strong(view, moves, random.Random(1), seat) == {"type": "go_out", "card": "9-heart"}


def test_strong_takes_the_discard_that_lets_it_go_out():
    state = GAME.setup(players=2, seed=3)
    state.update({"round": 1, "dealer": 1, "turn": 0, "phase": "draw"})
    state["hands"][0] = ["7-heart", "8-heart", "K-spade"]
    state["discard"] = ["9-heart"]
    move = five_crowns.strong(GAME.view(state, 0), GAME.legal_moves(state, 0), random.Random(1), 0)
    assert move == {"type": "draw", "source": "discard"}


def test_look_ahead_scores_going_out_the_hazard_and_the_penalty_kept():
    wild = 13  # round 11: Kings wild
    hand = ["7-heart", "8-heart", "3-club"]  # the bot holds these after discarding
    hazard = 0.25
    # No draw left: the lowest penalty after the discard still due.
    assert five_crowns._ahead(hand, [], wild, 1, hazard) == min_penalty_after_drops(hand, wild, 1) == 10
    # Drawing 9-heart lets it go out (7-8-9, 3-club discarded): worth GO_OUT_VALUE unless an
    # opponent went out first (chance ``hazard``); then it keeps the lowest penalty after that draw, 0.
    assert five_crowns._ahead(hand, ["9-heart", "5-spade"], wild, 0, hazard) == pytest.approx(
        -(1 - hazard) * five_crowns.GO_OUT_VALUE
    )
    # A useless first draw: with chance ``hazard`` the round ends after it (7 + 3 + 5 kept, the
    # 8 discarded: 15); otherwise the round is taken to end after the second draw (3 + 5 + 4: 12).
    assert min_penalty_after_drops([*hand, "5-spade"], wild, 1) == 15
    assert min_penalty_after_drops([*hand, "5-spade", "4-diamond"], wild, 2) == 12
    value = five_crowns._ahead(hand, ["5-spade", "4-diamond"], wild, 0, hazard)
    assert value == pytest.approx(hazard * 15 + (1 - hazard) * 12)


def test_it_reads_the_discard_pile_and_the_cards_a_rival_took_from_the_round_log():
    state = GAME.setup(players=2, seed=21)
    me, rival = state["turn"], 1 - state["turn"]
    state = GAME.apply(state, me, {"type": "draw", "source": "stock"})
    mine = state["hands"][me][0]
    state = GAME.apply(state, me, {"type": "discard", "card": mine})
    state = GAME.apply(state, rival, {"type": "draw", "source": "discard"})
    gone = next(c for c in state["hands"][rival] if c != mine)
    state = GAME.apply(state, rival, {"type": "discard", "card": gone})
    view = GAME.view(state, me)
    pile, known = sampling.public(view)
    assert pile == state["discard"] and len(pile) == 2  # the turned-up card, then the rival's discard
    assert known[rival] == {mine: 1} and not known[me]
    hidden = sampling.unseen(view, me)
    assert len(hidden) == 116 - len(view["hand"]) - 2 - 1
    for _ in range(5):
        det = sampling.determinize(view, random.Random(_), me)
        assert det["discard"] == state["discard"] and mine in det["hands"][rival]
    # A view without a log (a game saved before it existed) falls back to the top card alone.
    view["round_log"] = []
    assert sampling.public(view)[0] is None
    assert len(sampling.unseen(view, me)) == 116 - len(view["hand"]) - 1
