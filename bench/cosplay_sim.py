"""Cosplay Team Battle: seeded self-play to tune the card set.

    .venv/bin/python bench/cosplay_sim.py [--games 1000] [--policy casual|strong|greedy|random] [--players 2,3,4]

Plays ``--games`` seeded games for each player count and prints the average game length (turns
per player, moves), objective completion (level-3 objectives fulfilled per game: issue #13 asks
for at least 1), every seat's win share against a fair share (a shared win counts a fraction to
each winner; issue #13 asks for every seat within 5 points), how games end, the score spread and
how often each card is recruited. ``casual`` and ``strong`` are the site's bots (rules.bots),
deciding from their seat's view; ``greedy`` and ``random`` read the state. Cost measured on the
shared 2-core machine: a casual game takes about 20 ms of CPU, a strong one about 2.6 s (1,000 games
per player count with the strong bots: over two CPU hours).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.bots import choose  # noqa: E402
from rules.cosplay import GAME  # noqa: E402
from rules.cosplay.cards import CARDS, LIBRARY  # noqa: E402
from rules.cosplay.scoring import score  # noqa: E402


def _cost(code: str) -> int:
    return sum(CARDS[code]["cost"].values())


def greedy(state: dict, seat: int, moves: list[dict], rnd: random.Random) -> dict:
    """Place and attach everything, use Discard abilities, fulfil, poach, recruit the dearest, send Drama."""
    by_type: dict[str, list[dict]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    scores = [score(state, s) for s in range(state["players"])]
    if "target" in by_type:
        return max(by_type["target"], key=lambda m: (scores[m["seat"]], -m["seat"]))
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
        return max(by_type["drama"], key=lambda m: (scores[m["seat"]], -m["seat"]))
    return {"type": "end_turn"}


def random_policy(state, seat, moves, rnd):
    return rnd.choice(moves)


def bot(level: str):
    def policy(state, seat, moves, rnd):
        return choose("cosplay", GAME.view(state, seat), moves, level, rnd.getrandbits(32), seat=seat)

    return policy


POLICIES = {"greedy": greedy, "random": random_policy, "casual": bot("casual"), "strong": bot("strong")}


def play(players: int, seed: int, policy) -> dict:
    rnd = random.Random(seed)
    state = GAME.setup(players=players, seed=seed)
    moves = 0
    recruited: Counter = Counter()
    objectives: Counter = Counter()
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
        if moves > 20000:
            raise RuntimeError("game did not end")
    result = GAME.result(state)
    reason = next(e["reason"] for e in state["events"] if e["kind"] == "over")
    return {
        "turns": state["turn"] / players,
        "moves": moves,
        "recruited": recruited,
        "objectives": objectives,
        "scores": result["scores"],
        "winners": result["winners"],
        "reason": reason,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="casual")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    args = parser.parse_args()
    policy = POLICIES[args.policy]
    total_recruited: Counter = Counter()
    games = 0
    for players in [int(p) for p in args.players.split(",")]:
        runs = [play(players, seed, policy) for seed in range(args.games)]
        games += len(runs)
        for r in runs:
            total_recruited.update(r["recruited"])
        objectives = Counter()
        for r in runs:
            objectives.update(r["objectives"])
        spreads = [max(r["scores"]) - min(r["scores"]) for r in runs]
        tops = [max(r["scores"]) for r in runs]
        reasons = Counter(r["reason"] for r in runs)
        shared = sum(1 for r in runs if len(r["winners"]) > 1)
        seat_wins = Counter(w for r in runs for w in r["winners"])
        print(f"== {players} players, {len(runs)} games, {args.policy} ==")
        print(
            f"turns per player: mean {statistics.mean(r['turns'] for r in runs):.1f}"
            f" (min {min(r['turns'] for r in runs):.1f}, max {max(r['turns'] for r in runs):.1f});"
            f" moves per game: mean {statistics.mean(r['moves'] for r in runs):.0f}"
        )
        print(
            "objectives fulfilled per game: "
            + ", ".join(f"level {lv} {objectives[lv] / len(runs):.2f}" for lv in (1, 2, 3))
            + f" (of {players + 1} piles)"
        )
        print(f"end: {dict(reasons)}; shared wins: {shared}; wins by seat: {dict(sorted(seat_wins.items()))}")
        share = Counter()
        for r in runs:
            for w in r["winners"]:
                share[w] += 1 / len(r["winners"])
        fair = 100 / players
        shares = [100 * share[s] / len(runs) for s in range(players)]
        worst = max(abs(x - fair) for x in shares)
        print(
            "win share by seat: "
            + ", ".join(f"seat {s} {x:.1f}%" for s, x in enumerate(shares))
            + f" (fair {fair:.1f}%; farthest {worst:.1f} points off: {'within' if worst <= 5 else 'OUTSIDE'} ±5)"
        )
        level3 = objectives[3] / len(runs)
        print(
            f"level-3 objectives fulfilled per game: {level3:.2f} ({'at least' if level3 >= 1 else 'BELOW'} 1)"
        )
        print(
            f"winning score: mean {statistics.mean(tops):.1f}; spread (best - worst): mean {statistics.mean(spreads):.1f},"
            f" min {min(spreads)}, max {max(spreads)}"
        )
    print(f"== recruitment per game over all {games} games (recruit + poach) ==")
    rows = sorted(LIBRARY, key=lambda c: -total_recruited[c])
    for code in rows:
        print(f"{code:28} cost {_cost(code):2}  {total_recruited[code] / games:.2f}")
    never = [c for c in LIBRARY if total_recruited[c] == 0]
    print("never recruited:", never or "none")


if __name__ == "__main__":
    main()
