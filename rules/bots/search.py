"""What every bot shares: determinized (information-set) Monte Carlo.

The search never sees the true state. It samples complete states consistent with the bot's
view (``determinize``), plays each candidate move on every sample, continues with a simple
policy for a few moves (a rollout), scores the result, and keeps the move with the best
total. The same samples and the same rollout seeds are used for every candidate (common random
numbers), so the comparison measures the moves rather than the luck of the samples.

Everything is driven by a local ``random.Random`` seeded by the caller: the same view, moves
and seed give the same choice. Budgets are counts (samples, rollout lengths), never a clock.
Each candidate is tried on the engine's ``mutable_copy`` of a sample (copy-on-write, no deep copy),
changed in place by ``apply_in_place``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

State = dict[str, Any]
Move = dict[str, Any]


def step(game, state: State, seat: int, move: Move) -> None:
    """Apply ``move`` to ``state`` in place (the bot owns its sampled states, so no copy is needed).

    The engine's ``apply_in_place``: ``apply``'s guards and checks, without its copy.
    """
    game.apply_in_place(state, seat, move)


Policy = Callable[[State, int, list[Move], random.Random], Move]
# A policy that finds its move from the state alone, without the list of legal moves (cheaper where
# listing every move costs more than finding the one the policy wants).
StatePolicy = Callable[[State, int, random.Random], Move]


def rollout(
    game,
    state: State,
    policy: Policy | None,
    rng: random.Random,
    stop: Callable[[State], bool],
    max_moves: int,
    state_policy: StatePolicy | None = None,
) -> None:
    """Play ``policy`` (or ``state_policy``) for every seat, in place, until ``stop(state)``, the end,
    or ``max_moves``."""
    for _ in range(max_moves):
        if game.is_over(state) or stop(state):
            return
        seats = game.to_act(state)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if state_policy is not None:
            move = state_policy(state, seat, rng)
        else:
            move = policy(state, seat, game.legal_moves(state, seat), rng)
        step(game, state, seat, move)


def flat_monte_carlo(
    game,
    seat: int,
    candidates: list[Move],
    samples: list[State],
    rng: random.Random,
    evaluate: Callable[[State, int], float],
    policy: Policy | None = None,
    stop: Callable[[State], bool] | None = None,
    max_moves: int = 0,
    state_policy: StatePolicy | None = None,
) -> Move:
    """The candidate with the best summed ``evaluate`` over ``samples`` (ties: the earlier candidate).

    Each candidate is played on a copy of each sample, then (when ``policy`` or ``state_policy`` is
    given) a rollout of at most ``max_moves`` moves follows, with a seed shared by all candidates of
    that sample.
    """
    playout = (policy is not None or state_policy is not None) and max_moves > 0
    totals = [0.0] * len(candidates)
    for sample in samples:
        roll_seed = rng.getrandbits(32)
        for i, move in enumerate(candidates):
            state = game.mutable_copy(sample)
            step(game, state, seat, move)
            if playout:
                rollout(
                    game,
                    state,
                    policy,
                    random.Random(roll_seed),
                    stop or (lambda s: False),
                    max_moves,
                    state_policy,
                )
            totals[i] += evaluate(state, seat)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
