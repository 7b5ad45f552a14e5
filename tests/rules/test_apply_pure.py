"""``apply`` is pure in every game: over whole seeded random playouts, no state is ever changed by a
later move, neither the state a move is applied to nor any earlier one (copy-on-write shares
structures between states, so a move that changed a shared list would show in an older state)."""

from __future__ import annotations

import json
import random

import pytest

from rules import registry

CASES = [
    (slug, players, seed)
    for slug, game in sorted(registry.games().items())
    for players in sorted(
        {game.min_players, 4 if game.max_players >= 4 else game.max_players, game.max_players}
    )
    for seed in (0, 1)
]


def snapshot(state) -> str:
    """The raw state as JSON text (a state is plain JSON data, shared structures included)."""
    return json.dumps(state)


@pytest.mark.parametrize(("slug", "players", "seed"), CASES, ids=[f"{s}-{p}p-seed{n}" for s, p, n in CASES])
def test_apply_never_changes_a_state_it_was_given_or_any_earlier_state(slug, players, seed):
    game = registry.get(slug)
    rnd = random.Random(seed)
    state = game.setup(players=players, seed=seed, options={})
    history = [(state, snapshot(state))]
    for _ in range(5000):
        if game.is_over(state):
            break
        seat = rnd.choice(game.to_act(state))
        moves = game.legal_moves(state, seat)
        given, before = state, history[-1][1]
        # a move that is not chosen is tried too: it must leave the state alone just the same
        game.apply(given, seat, rnd.choice(moves))
        state = game.apply(given, seat, rnd.choice(moves))
        assert state is not given
        assert snapshot(given) == before, "apply changed its input"
        history.append((state, snapshot(state)))
    assert game.is_over(state)
    for old, taken in history:
        assert snapshot(old) == taken, "a later move changed an earlier state"
