"""The Cosplay bots: the strong bot's rollouts find casual play's move from the state alone
(``rollout_move``), which must be the very move casual play picks among every legal move, in every
kind of position; choices between seats break ties in turn order, never by seat number."""

from __future__ import annotations

import random

from rules.cosplay import GAME
from rules.cosplay.bots import casual_from, in_turn_order, rollout_move
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


def test_tied_drama_victims_go_in_turn_order_from_the_next_player():
    # every score is 0 at the start: the tie goes to the player after the bot, whatever its seat
    for seat, victim in ((0, 1), (1, 2), (2, 0)):
        state = GAME.setup(players=3, seed=1)
        state["active"] = seat
        state["pending"] = {"kind": "drama", "seat": seat, "n": 1, "source": "c04-star-pirate-queen"}
        assert rollout_move(state, seat, random.Random(0)) == {"type": "target", "seat": victim}
        assert casual_over_legal_moves(state, seat) == {"type": "target", "seat": victim}


def test_strong_candidates_naming_a_seat_are_put_in_turn_order():
    moves = [
        {"type": "end_turn"},
        {"type": "drama", "seat": 0, "pay": []},
        {"type": "drama", "seat": 1, "pay": []},
        {"type": "drama", "seat": 3, "pay": []},
        {"type": "poach", "seat": 0, "card": "c01-neon-ronin", "with": "st-passion", "pay": []},
        {"type": "poach", "seat": 3, "card": "c02-pixel-witch", "with": "st-passion", "pay": []},
    ]
    assert in_turn_order(moves, 2, 4) == [
        {"type": "end_turn"},
        {"type": "drama", "seat": 3, "pay": []},
        {"type": "drama", "seat": 0, "pay": []},
        {"type": "drama", "seat": 1, "pay": []},
        {"type": "poach", "seat": 3, "card": "c02-pixel-witch", "with": "st-passion", "pay": []},
        {"type": "poach", "seat": 0, "card": "c01-neon-ronin", "with": "st-passion", "pay": []},
    ]
