"""The strong Chronica bot's think cap: a count of judged positions, never a clock."""

from __future__ import annotations

import random

from rules import registry
from rules.chronica import bots as chronica


def _wide_position():
    """A 4-player position in the play phase with many legal moves (found by random play)."""
    game = registry.get("chronica")
    rnd = random.Random(7)
    state = game.setup(players=4, seed=7, options={})
    best = None
    for _ in range(400):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        if state["phase"] == "play" and (best is None or len(moves) > len(best[2])):
            best = (state, seat, moves)
        state = game.apply(state, seat, rnd.choice(moves))
    return game, *best


def _judged(monkeypatch, game, state, seat, moves, budget):
    """How many positions ``strong`` judges with this budget, and the move it picks."""
    monkeypatch.setattr(chronica, "BUDGET", budget)
    count = [0]
    evaluate = chronica.evaluate

    def counting(*args, **kwargs):
        count[0] += 1
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(chronica, "evaluate", counting)
    move = chronica.strong(game.view(state, seat), moves, random.Random(1), seat, samples=6)
    monkeypatch.setattr(chronica, "evaluate", evaluate)
    return count[0], move


def test_the_budget_stops_the_search_after_the_deal_that_would_go_over(monkeypatch):
    game, state, seat, moves = _wide_position()
    assert len(moves) >= 40
    free, _ = _judged(monkeypatch, game, state, seat, moves, 10**9)
    capped, move = _judged(monkeypatch, game, state, seat, moves, len(moves) + 1)
    assert move in moves
    per_deal = (free - len(moves)) // 6  # six deals, each the same shortlist; a few more or less per deal
    assert capped < len(moves) + 2 * per_deal  # the first deal only
    assert free > capped + 3 * per_deal


def test_a_budget_that_fits_every_deal_changes_nothing(monkeypatch):
    game, state, seat, moves = _wide_position()
    free, free_move = _judged(monkeypatch, game, state, seat, moves, 10**9)
    roomy, roomy_move = _judged(monkeypatch, game, state, seat, moves, 10 * free)
    assert (roomy, roomy_move) == (free, free_move)
