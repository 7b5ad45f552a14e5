"""How fast the four engines play: random playouts on one core, moves per second.

A move is what a playout does per step: ``to_act``, ``legal_moves`` of the seat to move, a random
legal move, ``apply``. Each game is measured at 2 players and at its most, over the same seeded
playouts (a new game from the next seed when one ends), twice in the same run: with the engines'
``apply`` (copy-on-write) and with a baseline ``apply`` that deep-copies the state and changes the
copy (what ``apply`` did before copy-on-write). Best of three tries each (the machine is shared).
Then the cost of one Five Crowns move early and late in a round (the round's log grows as it goes).

Run: python bench/engines.py [--moves N]
"""

import argparse
import copy
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from rules import registry  # noqa: E402


def deep_copy_apply(game):
    """The old ``apply``: a deep copy of the whole state, then the engine's in-place move."""

    def apply(state, seat, move):
        new = copy.deepcopy(state)
        game.apply_in_place(new, seat, move)
        return new

    return apply


def playouts(game, apply, players: int, moves: int) -> tuple[float, float]:
    """CPU and wall seconds for ``moves`` random moves, seeded playouts one after another."""
    seed = 0
    done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while done < moves:
        rnd = random.Random(seed)
        state = game.setup(players=players, seed=seed, options={})
        seed += 1
        while done < moves and not game.is_over(state):
            seat = rnd.choice(game.to_act(state))
            state = apply(state, seat, rnd.choice(game.legal_moves(state, seat)))
            done += 1
    return time.process_time() - cpu, time.perf_counter() - wall


def rates(game, apply, players: int, moves: int, tries: int) -> tuple[float, float]:
    """Moves per second, CPU and wall, each the best of ``tries``."""
    runs = [playouts(game, apply, players, moves) for _ in range(tries)]
    return moves / min(cpu for cpu, _wall in runs), moves / min(wall for _cpu, wall in runs)


def median_us(times: list[float]) -> str:
    return f"{statistics.median(times) * 1e6:.1f}" if times else "-"


def five_crowns_early_and_late(players: int, games: int, long_round: int = 1000, part: int = 250) -> None:
    """Microseconds of one ``apply`` early, midway and late in each Five Crowns round of ``long_round``
    moves or more (the same hand size throughout, the log growing): the medians of ``part`` moves.
    The deep copy is timed on every tenth move only (late in a long round it costs milliseconds)."""
    game = registry.get("five_crowns")
    old_apply = deep_copy_apply(game)
    print(
        f"\nFive Crowns, {players} players, seeds 0-{games - 1}: one apply early and late in every round of "
        f"{long_round}+ moves\n(median CPU µs of {part} moves; the deep copy measured on every tenth of them)"
    )
    print(f"{'seed':>4} {'round':>5} {'moves':>5} {'apply: first':>13} {'middle':>7} {'last':>7}", end="")
    print(f" {'deep-copy: first':>17} {'middle':>7} {'last':>7}")
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.setup(players=players, seed=seed, options={})
        timings: list[tuple[float, float | None]] = []
        while not game.is_over(state):
            seat = rnd.choice(game.to_act(state))
            move = rnd.choice(game.legal_moves(state, seat))
            old = None
            if len(timings) % 10 == 0:
                t0 = time.process_time()
                old_apply(state, seat, move)
                old = time.process_time() - t0
            t1 = time.process_time()
            after = game.apply(state, seat, move)
            timings.append((time.process_time() - t1, old))
            if after["round"] != state["round"] or game.is_over(after):
                n = len(timings)
                if n >= long_round:
                    cells = []
                    for what in (0, 1):
                        for start in (0, (n - part) // 2, n - part):
                            cells.append(
                                median_us([t[what] for t in timings[start : start + part] if t[what]])
                            )
                    print(
                        f"{seed:>4} {state['round']:>5} {n:>5} {cells[0]:>13} {cells[1]:>7} {cells[2]:>7}",
                        end="",
                    )
                    print(f" {cells[3]:>17} {cells[4]:>7} {cells[5]:>7}")
                timings = []
            state = after


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1500, help="moves per measurement (default 1500)")
    parser.add_argument("--games", type=int, default=2, help="Five Crowns games for early/late (default 2)")
    args = parser.parse_args()
    print(
        f"Random playouts on one core, {args.moves} moves per measurement: moves/s by CPU time (and wall clock),\n"
        "best of 3 tries with the engines' apply, of 2 with the deep-copying apply; at 2 players and at the most"
    )
    print(f"{'game':<14} {'players':>7} {'apply':>16} {'deep-copy apply':>16} {'ratio':>6}")
    for slug, game in registry.games().items():
        for players in (2, game.max_players):
            new = rates(game, game.apply, players, args.moves, tries=3)
            old = rates(game, deep_copy_apply(game), players, args.moves, tries=2)
            print(
                f"{slug:<14} {players:>7} {new[0]:>7,.0f} ({new[1]:>6,.0f}) {old[0]:>7,.0f} ({old[1]:>6,.0f}) "
                f"{new[0] / old[0]:>5.1f}x",
                flush=True,
            )
    five_crowns_early_and_late(players=4, games=args.games)


if __name__ == "__main__":
    main()
