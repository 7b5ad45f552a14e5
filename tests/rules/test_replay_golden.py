"""Stored games replay to the same states: seeded random walks hashed against the engines' recorded output.

Tables store a seed and a move log, and a snapshot (``dump``) of the state; both must keep meaning the
same thing when an engine is made faster. ``golden_walks.json`` holds, for fixed seeded random walks in
every game, player count and option, the SHA-256 of every dump (byte for byte, and with sorted keys) and
of what a player was offered at each step (seats awaited, legal moves in order, the mover's view). It was
recorded with the engines before copy-on-write (commit ``dbece0f``); regenerate it only for a deliberate
rules change: ``python -m tests.rules.test_replay_golden``.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random

import pytest

from rules import registry

GOLDEN = pathlib.Path(__file__).with_name("golden_walks.json")
SEEDS = (0, 1)
CONFIGS = {
    "cosmic_crowns": [
        (players, options)
        for players in (2, 4, 6)
        for options in ({}, {"mode": "hard"}, {"reverse": True}, {"mode": "hard", "reverse": True})
    ],
    "five_crowns": [(players, {}) for players in (2, 3, 5, 8)],
    "chronica": [(players, options) for players in (2, 3, 4) for options in ({}, {"shared_deck": True})],
    "cosplay": [(players, options) for players in (2, 3, 4) for options in ({}, {"sudden_end": True})],
}
MAX_MOVES = 5000  # every walk here ends before that; Five Crowns' take about 3,000
VIEWED_MOVES = 400  # the mover's view is hashed for the first moves only (Five Crowns' views are slow)


def walk(slug: str, players: int, options: dict, seed: int) -> dict:
    game = registry.get(slug)
    rnd = random.Random(seed)
    state = game.setup(players=players, seed=seed, options=options)
    dumps, ordered, offered = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    moves_made = 0
    while True:
        data = game.dump(state)
        dumps.update(json.dumps(data).encode())
        ordered.update(json.dumps(data, sort_keys=True).encode())
        if game.is_over(state) or moves_made == MAX_MOVES:
            break
        seats = game.to_act(state)
        seat = rnd.choice(seats)
        moves = game.legal_moves(state, seat)
        view = game.view(state, seat) if moves_made < VIEWED_MOVES else None
        offered.update(json.dumps([seats, seat, moves, view], sort_keys=True).encode())
        state = game.apply(state, seat, rnd.choice(moves))
        moves_made += 1
    return {
        "moves": moves_made,
        "over": game.is_over(state),
        "dumps": dumps.hexdigest(),
        "sorted_dumps": ordered.hexdigest(),
        "offered": offered.hexdigest(),
    }


def cases() -> list[tuple[str, int, dict, int]]:
    return [
        (slug, players, options, seed)
        for slug, configs in CONFIGS.items()
        for players, options in configs
        for seed in SEEDS
    ]


def key(slug: str, players: int, options: dict, seed: int) -> str:
    return f"{slug} {players}p {json.dumps(options, sort_keys=True)} seed {seed}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("slug", "players", "options", "seed"), cases(), ids=[key(*case) for case in cases()]
)
def test_a_seeded_walk_gives_the_recorded_dumps_moves_and_views(slug, players, options, seed):
    expected = json.loads(GOLDEN.read_text())[key(slug, players, options, seed)]
    assert walk(slug, players, options, seed) == expected


def test_every_game_has_recorded_walks():
    assert set(CONFIGS) == set(registry.games())


if __name__ == "__main__":
    GOLDEN.write_text(
        json.dumps({key(*case): walk(*case) for case in cases()}, indent=1, sort_keys=True) + "\n"
    )
