"""Cosplay Team Battle: seeded self-play to tune the card set (issue #13).

    .venv/bin/python bench/cosplay_sim.py                      # 100 strong-bot games per player count
    .venv/bin/python bench/cosplay_sim.py --games 1000 --first-seed 1000 --jobs 2
    .venv/bin/python bench/cosplay_sim.py --policy casual --players 4 --cards

Plays ``--games`` seeded games (game i uses seed first-seed + i) for each player count, over
``--jobs`` processes, every seat played by the same policy, and prints per player count: the CPU
time per game, game length (turns per player, moves, whose turn was the last), objectives
fulfilled per level (issue #13 asks for at least 1 of level 3 per game), how games end, Drama
received per seat, every seat's win share against a fair share with its 95% interval (a shared win
counts a fraction to each winner; issue #13 asks for every seat within 5 points of fair) and the
score spread; then a table of the aims, and with ``--cards`` how often each card is recruited.
``casual`` and ``strong`` are the site's bots (rules.bots), deciding from their seat's view;
``greedy`` and ``random`` read the state. ``--end`` chooses how the game ends: ``played-out`` (the rules: once
the end is reached, the round is played out, so every seat has as many turns), ``sudden`` (the house rule
``sudden_end``: the game ends with the turn that reaches the end), or ``both`` (the default: each player
count is played both ways, and the aims table has a row for each).

Cost on the shared 2-core machine: a casual game takes about 10 ms of CPU, a strong one 0.55 s (2
players), 0.8 s (3) and 1.1 s (4); before the strong bot's rollouts found casual play's move from
the state (the same decisions) it took 2.6 s. ``make bench`` runs the default 100 games per player
count under both ends (about 8 CPU minutes): seat shares are then +-8 to +-10 points wide, so judge the aims on 1,000.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.bots import choose  # noqa: E402
from rules.cosplay import GAME  # noqa: E402
from rules.cosplay.bots import after  # noqa: E402
from rules.cosplay.cards import CARDS, LIBRARY  # noqa: E402
from rules.cosplay.scoring import score  # noqa: E402

GAMES = 100


def _cost(code: str) -> int:
    return sum(CARDS[code]["cost"].values())


def greedy(state: dict, seat: int, moves: list[dict], rnd: random.Random) -> dict:
    """Place and attach everything, use Discard abilities, fulfil, poach, recruit the dearest, send Drama."""
    by_type: dict[str, list[dict]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    scores = [score(state, s) for s in range(state["players"])]
    n = state["players"]
    if "target" in by_type:
        return max(by_type["target"], key=lambda m: (scores[m["seat"]], -after(seat, m["seat"], n)))
    if "trash" in by_type:
        for m in by_type["trash"]:
            if m["card"] and CARDS[m["card"]]["kind"] == "drama":
                return m
        for m in by_type["trash"]:
            if m["card"] in ("st-badass", "st-kawaii", "st-craft"):
                return m
        return {"type": "trash", "card": None}
    if "clear" in by_type:
        options = [m for m in by_type["clear"] if m["zone"]]
        if options:
            return max(options, key=lambda m: (_cost(state["zones"][m["zone"] - 1]), m["zone"]))
        return by_type["clear"][0]
    for kind in ("place", "attach"):
        if kind in by_type:
            return by_type[kind][0]
    for m in by_type.get("activate", []):
        if CARDS[m["card"]]["ability"]["kind"] == "discard":
            return m
    if "objective" in by_type:
        return max(by_type["objective"], key=lambda m: CARDS[state["objectives"][m["pile"]]["card"]]["vp"])
    poaches = [m for m in by_type.get("poach", []) if _cost(m["card"]) >= 5]
    if poaches:
        return max(poaches, key=lambda m: _cost(m["card"]))
    if "recruit" in by_type:
        return max(by_type["recruit"], key=lambda m: (_cost(state["zones"][m["zone"] - 1]), m["zone"]))
    late = len(state["library"]) < 8
    for m in by_type.get("activate", []):
        if late:
            return m
    if "drama" in by_type:
        return max(by_type["drama"], key=lambda m: (scores[m["seat"]], -after(seat, m["seat"], n)))
    return {"type": "end_turn"}


def random_policy(state, seat, moves, rnd):
    return rnd.choice(moves)


def bot(level: str):
    def policy(state, seat, moves, rnd):
        return choose("cosplay", GAME.view(state, seat), moves, level, rnd.getrandbits(32), seat=seat)

    return policy


POLICIES = {"greedy": greedy, "random": random_policy, "casual": bot("casual"), "strong": bot("strong")}


def play(args: tuple[int, int, str] | tuple[int, int, str, dict]) -> dict:
    """One seeded game (with the table ``options``, if given), every seat played by ``policy_name``;
    its CPU time is measured around it."""
    players, seed, policy_name, *rest = args
    options = rest[0] if rest else None
    policy = POLICIES[policy_name]
    started = time.process_time()
    rnd = random.Random(seed)
    state = GAME.setup(players=players, seed=seed, options=options)
    moves = 0
    recruited: Counter = Counter()
    objectives: Counter = Counter()
    drama: Counter = Counter()
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        move = policy(state, seat, GAME.legal_moves(state, seat), rnd)
        state = GAME.apply(state, seat, move)
        moves += 1
        for ev in state["events"]:
            if ev["kind"] in ("recruit", "poach"):
                recruited[ev["card"]] += 1
            if ev["kind"] == "objective":
                objectives[CARDS[ev["card"]]["level"]] += 1
            if ev["kind"] == "drama":
                drama[ev["target_seat"]] += 1
        if moves > 20000:
            raise RuntimeError("game did not end")
    result = GAME.result(state)
    reason = next(e["reason"] for e in state["events"] if e["kind"] == "over")
    return {
        "turns": state["turn"] / players,
        "last": state["active"],
        "moves": moves,
        "recruited": recruited,
        "objectives": objectives,
        "drama": drama,
        "scores": result["scores"],
        "winners": result["winners"],
        "reason": reason,
        "cpu": time.process_time() - started,
    }


def seat_shares(runs: list[dict], players: int) -> list[float]:
    """Every seat's share of the wins, in percent (a shared win counts a fraction to each winner)."""
    share = Counter()
    for r in runs:
        for w in r["winners"]:
            share[w] += 1 / len(r["winners"])
    return [100 * share[s] / len(runs) for s in range(players)]


def report(players: int, runs: list[dict], policy: str, wall: float) -> tuple[float, float]:
    """Print one player count's figures; returns (farthest seat from fair, level-3 objectives per game)."""
    n = len(runs)
    objectives = Counter()
    for r in runs:
        objectives.update(r["objectives"])
    spreads = [max(r["scores"]) - min(r["scores"]) for r in runs]
    tops = [max(r["scores"]) for r in runs]
    reasons = Counter(r["reason"] for r in runs)
    shared = sum(1 for r in runs if len(r["winners"]) > 1)
    fair = 100 / players
    shares = seat_shares(runs, players)
    worst = max(abs(x - fair) for x in shares)
    # a seat's share over n games: 95% interval of +-1.96 standard errors
    margin = 196 * math.sqrt(fair / 100 * (1 - fair / 100) / n)
    cpu = statistics.mean(r["cpu"] for r in runs)
    level3 = objectives[3] / n
    print(f"== {players} players, {n} games, {policy} ({cpu:.2f} s of CPU per game, {wall:.0f} s wall) ==")
    print(
        f"turns per player: mean {statistics.mean(r['turns'] for r in runs):.1f}"
        f" (min {min(r['turns'] for r in runs):.1f}, max {max(r['turns'] for r in runs):.1f});"
        f" moves per game: mean {statistics.mean(r['moves'] for r in runs):.0f};"
        f" the last turn was seat "
        + ", ".join(f"{s}'s {100 * sum(r['last'] == s for r in runs) / n:.0f}%" for s in range(players))
    )
    print(
        "objectives fulfilled per game: "
        + ", ".join(f"level {lv} {objectives[lv] / n:.2f}" for lv in (1, 2, 3))
        + f" (of {players + 1} piles)"
    )
    drama = Counter()
    for r in runs:
        drama.update(r["drama"])
    print(
        f"end: {dict(reasons)}; shared wins: {shared}; Drama received per game: "
        + ", ".join(f"seat {s} {drama[s] / n:.2f}" for s in range(players))
    )
    print(
        "win share by seat: "
        + ", ".join(f"seat {s} {x:.1f}%" for s, x in enumerate(shares))
        + f" (fair {fair:.1f}%, 95% interval +-{margin:.1f}; farthest {worst:.1f} points off:"
        + f" {'within' if worst <= 5 else 'OUTSIDE'} +-5)"
    )
    print(f"level-3 objectives fulfilled per game: {level3:.2f} ({'at least' if level3 >= 1 else 'BELOW'} 1)")
    print(
        f"winning score: mean {statistics.mean(tops):.1f}; spread (best - worst): mean {statistics.mean(spreads):.1f},"
        f" min {min(spreads)}, max {max(spreads)}"
    )
    return worst, level3


# How a game may end: its options, and its name in the tables.
ENDS = {
    "played-out": ({}, "round played out (the rules)"),
    "sudden": ({"sudden_end": True}, "sudden end (house rule)"),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=GAMES, help="games per player count")
    parser.add_argument("--first-seed", type=int, default=0, help="game i uses seed first-seed + i")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="strong")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--cards", action="store_true", help="also print how often each card is recruited")
    parser.add_argument(
        "--end",
        choices=sorted(ENDS) + ["both"],
        default="both",
        help="how the game ends: the round played out (the rules), the sudden end (house rule), or both",
    )
    args = parser.parse_args()
    ends = list(ENDS) if args.end == "both" else [args.end]
    total_recruited: Counter = Counter()
    games = 0
    summary = []
    seeds = range(args.first_seed, args.first_seed + args.games)
    with Pool(args.jobs) as pool:
        for end in ends:
            print(f"=== {ENDS[end][1]} ===")
            for players in [int(p) for p in args.players.split(",")]:
                started = time.perf_counter()
                jobs = [(players, seed, args.policy, ENDS[end][0]) for seed in seeds]
                runs = pool.map(play, jobs, chunksize=4)
                games += len(runs)
                for r in runs:
                    total_recruited.update(r["recruited"])
                worst, level3 = report(players, runs, args.policy, time.perf_counter() - started)
                summary.append((end, players, seat_shares(runs, players), worst, level3))
    print(f"== issue #13 aims ({args.policy} bots, seeds {seeds.start}-{seeds.stop - 1}) ==")
    print("| end | players | win share by seat (fair) | farthest from fair | level-3 objectives per game |")
    print("|---|---|---|---|---|")
    for end, players, shares, worst, level3 in summary:
        row = " / ".join(f"{x:.1f}" for x in shares)
        print(f"| {ENDS[end][1]} | {players} | {row} ({100 / players:.1f}) | {worst:.1f} | {level3:.2f} |")
    if args.cards:
        print(f"== recruitment per game over all {games} games (recruit + poach) ==")
        for code in sorted(LIBRARY, key=lambda c: -total_recruited[c]):
            print(f"{code:28} cost {_cost(code):2}  {total_recruited[code] / games:.2f}")
        never = [c for c in LIBRARY if total_recruited[c] == 0]
        print("never recruited:", never or "none")


if __name__ == "__main__":
    main()
