"""The Cosplay strong bot's rollouts find casual play's move from the state alone (``rollout_move``):
it must be the very move casual play picks among every legal move, in every kind of position."""

from __future__ import annotations

import random

from rules.bots.cosplay import casual_from, rollout_move
from rules.cosplay import GAME
from rules.cosplay.scoring import score


def casual_over_legal_moves(state: dict, seat: int) -> dict:
    piles = [p["card"] for p in state["objectives"]]
    scores = [score(state, s) for s in range(state["players"])]
    moves = GAME.legal_moves(state, seat)
    return casual_from(state["zones"], piles, state["seats"][seat]["hand"], seat, scores, moves)


def test_rollout_move_is_casual_plays_move_in_every_position():
    kinds = set()
    for players in (2, 3, 4):
        for seed in range(12):
            rng = random.Random(seed)
            state = GAME.setup(players=players, seed=seed)
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                expected = casual_over_legal_moves(state, seat)
                assert rollout_move(state, seat, rng) == expected, (players, seed, state["turn"])
                kinds.add(expected["type"])
                # mostly random moves (abilities, Drama, poaching: every kind of position), some casual
                moves = GAME.legal_moves(state, seat)
                move = expected if rng.random() < 0.4 else rng.choice(moves)
                state = GAME.apply(state, seat, move)
    assert {"place", "objective", "recruit", "attach", "end_turn", "target", "trash", "clear"} <= kinds
