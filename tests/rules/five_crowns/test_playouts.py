"""Seeded playouts: conservation, no leaks, dump/load, determinism, every legal move accepted."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalMove
from rules.five_crowns import GAME
from tests.rules.five_crowns.helpers import assert_conserved, assert_no_leak, scrambled, smart_move
from tests.rules.playout import canonical, random_playout, replay

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]

GARBAGE = [
    {},
    {"type": None},
    {"type": "draw", "source": 1},
    {"type": "draw", "source": "hand"},
    {"type": "discard", "card": "2-heart"},
    {"type": "discard", "card": ["joker"]},
    {"type": "go_out", "card": None},
    {"type": "go_out"},
    {"type": "play", "card": "joker"},
]


def check_step(state: dict, rnd: random.Random) -> None:
    assert_conserved(state)
    assert_no_leak(state)
    seat = rnd.randrange(state["players"])
    assert GAME.view(scrambled(state, seat, rnd), seat) == GAME.view(state, seat)
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert canonical(GAME, loaded) == canonical(GAME, state)
    for s in range(state["players"]):
        assert GAME.legal_moves(loaded, s) == GAME.legal_moves(state, s)
    if GAME.is_over(state):
        return
    (actor,) = GAME.to_act(state)
    moves = GAME.legal_moves(state, actor)
    for move in rnd.sample(moves, min(2, len(moves))):
        after = GAME.apply(state, actor, move)
        assert canonical(GAME, GAME.apply(loaded, actor, move)) == canonical(GAME, after)
        for viewer in (actor, (actor + 1) % state["players"], None):
            lines = GAME.narrate(state, actor, move, after, NAMES, viewer)
            assert lines and all(isinstance(line, str) for line in lines)
    for move in GARBAGE:
        with pytest.raises(IllegalMove):
            GAME.apply(state, actor, move)
    for other in range(state["players"]):
        if other != actor:
            with pytest.raises(IllegalMove):
                GAME.apply(state, other, moves[0])


@pytest.mark.parametrize("players", range(2, 9))
def test_random_playouts_keep_every_invariant(players):
    for seed in range(2):
        states, log = random_playout(GAME, players, seed=100 * players + seed, max_moves=150)
        rnd = random.Random(seed)
        for state in states[::3]:
            check_step(state, rnd)
        assert canonical(GAME, replay(GAME, players, 100 * players + seed, {}, log)) == canonical(
            GAME, states[-1]
        )


def never_go_out(state: dict, rnd: random.Random) -> tuple[int, dict]:
    (seat,) = GAME.to_act(state)
    moves = [m for m in GAME.legal_moves(state, seat) if m["type"] != "go_out"]
    return seat, rnd.choice(moves)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_a_round_nobody_ends_survives_thousands_of_moves_and_stock_rebuilds(players):
    rnd = random.Random(players)
    state = GAME.setup(players=players, seed=players)
    for _ in range(9):  # play into round 10 or 11 by going out at once when possible
        while state["round"] < 10:
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, smart_move(state, seat))
    rebuilds = 0
    for step in range(2500):
        seat, move = never_go_out(state, rnd)
        before = state
        state = GAME.apply(state, seat, move)
        if state["round"] == before["round"] and state["draws"] > before["draws"]:
            rebuilds += 1  # the discard went under a new stock, all but its top card
            top = move["card"] if move["type"] == "discard" else before["discard"][-1]
            assert state["discard"] == [top]
            assert len(state["stock"]) > 0
        if step % 50 == 0:
            assert_conserved(state)
            assert_no_leak(state)
    assert_conserved(state)
    assert rebuilds >= 2
    assert state["round"] in (10, 11) and not GAME.is_over(state)


@pytest.mark.parametrize("players", [2, 4, 7, 8])
def test_a_full_game_of_eleven_rounds_ends_with_the_lowest_total_winning(players):
    state = GAME.setup(players=players, seed=40 + players)
    log = []
    rounds_seen = {1}
    for _ in range(20000):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        move = smart_move(state, seat)
        state = GAME.apply(state, seat, move)
        log.append((seat, move))
        rounds_seen.add(state["round"])
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert rounds_seen == set(range(1, 12))
    assert len(state["sheet"]) == 11
    assert state["scores"] == [sum(row[s] for row in state["sheet"]) for s in range(players)]
    result = GAME.result(state)
    assert result["scores"] == state["scores"]
    assert result["winners"] == [s for s in range(players) if state["scores"][s] == min(state["scores"])]
    assert all(0 in row for row in state["sheet"])  # somebody went out every round
    assert_conserved(state)
    assert_no_leak(state)
    assert canonical(GAME, replay(GAME, players, 40 + players, {}, log)) == canonical(GAME, state)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=5, max_size=60))
def test_any_sequence_of_legal_moves_keeps_the_cards_and_the_secrets(players, seed, picks):
    state = GAME.setup(players=players, seed=seed)
    for pick in picks:
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, moves[pick % len(moves)])
        assert_conserved(state)
    assert_no_leak(state)
