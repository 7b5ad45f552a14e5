"""Random playouts: the perft of card games. Shared by every engine's tests."""

from __future__ import annotations

import json
import random

from rules.core import Game


def random_playout(game: Game, players: int, seed: int, options: dict | None = None, max_moves: int = 20000):
    """Play random legal moves from setup to the end (or ``max_moves``).

    Returns ``(states, log)``: every state reached, and the log of ``(seat, move)``.
    Checks on every step that each awaited seat has a legal move and that ``apply``
    leaves its input untouched.
    """
    rnd = random.Random(seed)
    state = game.setup(players=players, seed=seed, options=options or {})
    states = [state]
    log = []
    for _ in range(max_moves):
        if game.is_over(state):
            assert game.to_act(state) == []
            break
        seats = game.to_act(state)
        assert seats, "a game that is not over awaits somebody"
        seat = rnd.choice(seats)
        moves = game.legal_moves(state, seat)
        assert moves, f"seat {seat} is awaited but has no legal move"
        move = rnd.choice(moves)
        before = json.dumps(game.dump(state), sort_keys=True)
        state = game.apply(state, seat, move)
        assert json.dumps(game.dump(states[-1]), sort_keys=True) == before, "apply changed its input"
        states.append(state)
        log.append((seat, move))
    return states, log


def replay(game: Game, players: int, seed: int, options: dict | None, log) -> dict:
    state = game.setup(players=players, seed=seed, options=options or {})
    for seat, move in log:
        state = game.apply(state, seat, move)
    return state


def canonical(game: Game, state) -> str:
    return json.dumps(game.dump(state), sort_keys=True)
