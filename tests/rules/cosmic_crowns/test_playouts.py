"""Seeded random playouts: the perft of card games (every player count and option)."""

import json
import random
from collections import Counter

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME
from tests.rules.playout import canonical, random_playout

from .helpers import assert_conserved, assert_no_leak

OPTIONS = [
    {},
    {"mode": "hard"},
    {"reverse": True},
    {"mode": "hard", "reverse": True},
]

SEEN = Counter()


def check_step(state, rnd):
    assert_conserved(state)
    assert_no_leak(state)
    hands = [len(h) for h in state["hands"]]
    if not state["tie_brawl"] and not GAME.is_over(state):
        assert max(hands) - min(hands) <= 1, "each player plays exactly one card per trick"
    for seat in GAME.to_act(state):
        moves = GAME.legal_moves(state, seat)
        assert moves
        for move in rnd.sample(moves, min(2, len(moves))):
            after = GAME.apply(state, seat, move)
            assert_conserved(after)
    for seat in range(state["players"]):
        if seat not in GAME.to_act(state):
            assert GAME.legal_moves(state, seat) == []
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert canonical(GAME, loaded) == canonical(GAME, state)
    for seat in (None, *range(state["players"])):
        assert GAME.view(loaded, seat) == GAME.view(state, seat)


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("options", OPTIONS, ids=["easy", "hard", "easy-reverse", "hard-reverse"])
def test_a_full_playout_keeps_every_invariant(players, options):
    seed = 100 * players + OPTIONS.index(options)
    states, log = random_playout(GAME, players, seed, options)
    final = states[-1]
    assert GAME.is_over(final)
    rnd = random.Random(seed)
    for state in states:
        check_step(state, rnd)
    for _seat, move in log:
        SEEN[move["type"]] += 1
    result = GAME.result(final)
    assert result["scores"] == final["crowns"]
    assert len(result["winners"]) == 1
    rounds = 20 if options.get("reverse") else 10
    deals = sum(1 for s in states[1:] for e in s["events"] if e["e"] == "deal") + 1
    assert deals == rounds + (1 if final["tie_brawl"] else 0)


@pytest.mark.parametrize("players", range(2, 7))
def test_many_quick_playouts_end_with_a_sole_winner(players):
    events = Counter()
    for seed in range(8):
        options = OPTIONS[seed % 4]
        states, log = random_playout(GAME, players, 1000 + seed, options)
        final = states[-1]
        assert GAME.is_over(final)
        assert_conserved(final)
        result = GAME.result(final)
        if final["tie_brawl"]:
            assert final["brawl_tied"] and len(final["brawl_tied"]) > 1
        else:
            assert result["winners"] == [max(range(players), key=lambda s: final["crowns"][s])]
            assert final["crowns"].count(max(final["crowns"])) == 1
        for state in states[1:]:
            events.update(e["e"] for e in state["events"])
        for _seat, move in log:
            events[move["type"]] += 1
    kinds = ["play", "discard", "choose_clan", "trick", "reveal", "assassinated", "steal"]
    if players > 2:  # with two players there is never more than one victim to choose
        kinds += ["assassinate"]
    for kind in kinds:
        assert events[kind], f"no {kind} in the playouts"


def test_a_tie_brawl_happens_in_some_playouts():
    for seed in range(40):
        states, _ = random_playout(GAME, 2 + seed % 5, 5000 + seed, OPTIONS[seed % 2])
        if states[-1]["tie_brawl"]:
            assert GAME.result(states[-1])["winners"] == [states[-1]["last_round"]["last_trick_winner"]]
            return
    pytest.fail("no tie brawl in 40 playouts")


def test_random_garbage_moves_are_refused_cleanly_all_game_long():
    rnd = random.Random(9)
    states, _ = random_playout(GAME, 4, 77, {"mode": "hard"})
    garbage = [
        {"type": "play", "card": None},
        {"type": "discard", "card": "devil-3"},
        {"type": "bid", "tricks": 11},
        {"type": "bid", "tricks": "1"},
        {"type": "choose_clan", "clan": "Frog"},
        {"type": "assassinate", "target": "2"},
        {"type": "assassinate", "target": 99},
        {"type": "steal", "from": -1},
        {"type": "steal"},
        {"type": "play", "card": {"code": "eagle-5"}},
    ]
    for state in rnd.sample(states[:-1], 60):
        for seat in range(4):
            for move in garbage:
                if seat in GAME.to_act(state) and move in GAME.legal_moves(state, seat):
                    continue
                with pytest.raises(IllegalMove):
                    GAME.apply(state, seat, move)
