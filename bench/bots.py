"""Bot strength and speed: strong vs casual, casual vs random, over seeded 2-player games.

    .venv/bin/python bench/bots.py                 # 1000 games per pairing, every game, all cores
    .venv/bin/python bench/bots.py --games 20 --game five_crowns --jobs 2
    .venv/bin/python bench/bots.py --game cosmic_crowns --option mode=hard   # a variant
    .venv/bin/python bench/bots.py --game five_crowns --first-seed 1000      # other deals

For each game and pairing, the two levels swap seats every game (game i uses seed
first-seed + i). A win is a game the first level wins and the second does not; a shared win
counts half. The 95% interval is the share +- 1.96 standard errors: with 200 games it is about
+-6 points wide (Five Crowns, strong vs casual: 68.8% on seeds 0-199, 74.2% on 2000-2599), too
wide to judge a 70% aim, so the default is 1000 games (about +-3 points).

Thinking time is measured around each ``choose`` call, as wall time
(``time.perf_counter``) and as the process's CPU time (``time.process_time``, the fairer figure
on a busy machine); the bots themselves never read the clock.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import registry  # noqa: E402
from rules.bots import choose  # noqa: E402

SLUGS = tuple(registry.games())  # every registered game
PAIRINGS = (("strong", "casual"), ("casual", "random"))


def play(args: tuple[str, str, str, int, dict]) -> dict:
    """One game: ``first`` level against ``second``; seats alternate with the seed."""
    slug, first, second, seed, options = args
    game = registry.get(slug)
    levels = [first, second] if seed % 2 == 0 else [second, first]
    state = game.setup(players=2, seed=seed, options=options)
    times: dict[str, list[float]] = {first: [], second: []}
    cpu: dict[str, list[float]] = {first: [], second: []}
    count = 0
    while not game.is_over(state) and count < 20000:
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        view = game.view(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        move = choose(slug, view, moves, levels[seat], seed * 100003 + count, seat=seat)
        times[levels[seat]].append(time.perf_counter() - t0)
        cpu[levels[seat]].append(time.process_time() - c0)
        state = game.apply(state, seat, move)
        count += 1
    winners = game.result(state)["winners"] if game.is_over(state) else []
    mine = [levels[s] for s in winners]
    if first in mine and second in mine:
        score = 0.5
    elif first in mine:
        score = 1.0
    else:
        score = 0.0
    return {
        "score": score,
        "times": times,
        "cpu": cpu,
        "moves": count,
        "scores": game.result(state)["scores"],
    }


def summarise(slug: str, first: str, second: str, results: list[dict]) -> None:
    n = len(results)
    wins = sum(r["score"] for r in results)
    share = wins / n
    spread = statistics.pstdev(r["score"] for r in results) / n**0.5  # standard error of the share
    print(
        f"  {first} vs {second}: {first} scores {wins:g}/{n} = {100 * share:.1f}% "
        f"(95% interval {100 * (share - 1.96 * spread):.1f}-{100 * (share + 1.96 * spread):.1f}%)"
    )


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    if value in ("true", "false"):
        return key, value == "true"
    return key, int(value) if value.isdigit() else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--game", choices=SLUGS, help="one game only")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: one per core)"
    )
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--pairing", choices=["strong-casual", "casual-random"], help="one pairing only")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option, e.g. mode=hard"
    )
    args = parser.parse_args()
    options = dict(_option(text) for text in args.option)
    slugs = [args.game] if args.game else list(SLUGS)
    pairings = [p for p in PAIRINGS if args.pairing in (None, f"{p[0]}-{p[1]}")]
    start = time.perf_counter()
    pool = Pool(args.jobs) if args.jobs > 1 else None
    for slug in slugs:
        t0 = time.perf_counter()
        shown = "".join(f", {k}={v}" for k, v in options.items())
        print(f"{slug} ({args.games} games per pairing{shown})")
        think: dict[str, list[float]] = {}
        think_cpu: dict[str, list[float]] = {}
        for first, second in pairings:
            jobs = [
                (slug, first, second, seed, options)
                for seed in range(args.first_seed, args.first_seed + args.games)
            ]
            results = pool.map(play, jobs, chunksize=1) if pool else [play(j) for j in jobs]
            summarise(slug, first, second, results)
            for r in results:
                for level, ts in r["times"].items():
                    think.setdefault(level, []).extend(ts)
                for level, ts in r["cpu"].items():
                    think_cpu.setdefault(level, []).extend(ts)
        for level in ("strong", "casual", "random"):
            ts = think.get(level)
            if ts:
                cs = think_cpu[level]
                print(
                    f"  think {level:6}: mean {1000 * statistics.fmean(ts):8.2f} ms, "
                    f"median {1000 * statistics.median(ts):8.2f} ms, max {1000 * max(ts):8.1f} ms "
                    f"(CPU: mean {1000 * statistics.fmean(cs):.2f} ms, median {1000 * statistics.median(cs):.2f} ms) "
                    f"over {len(ts)} moves"
                )
        print(f"  wall {time.perf_counter() - t0:.1f} s")
    if pool:
        pool.close()
    print(f"total wall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
