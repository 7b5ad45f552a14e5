"""Chronica's special powers, balanced? Casual bots play seeded 2-player games with the powers on.

    .venv/bin/python bench/chronica_balance.py               # 1000 games, powers on
    .venv/bin/python bench/chronica_balance.py --games 200 --no-powers   # the base game, for comparison

Decks: each seat gets a random legal 30-card deck drawn from the whole catalogue (checked with
``rules.chronica.validate_deck``), a fresh pair per game. The starter decks would show only the 60
cards they hold, always together with the same 29 others; random decks put every card in about 38%
of decks, against every other card, so a card's presence can be compared with its absence.

Bots: the casual (greedy) bot on both seats, for speed (a game takes a fraction of a second; the
strong bot is about 50 times slower). The casual bot weighs honour and victory points, so it uses a
power whenever the resulting position evaluates better (it sees draws, honour, extra plays, bonuses).

Printed: the first player's win share (a shared win counts half), and for every card its effect on
its deck's win rate: win rate of the decks holding it minus that of the decks without it, in points,
with the number of decks holding it; the cards are sorted by that effect. The aims (issue #13): the
first player wins 45-55% of 2-player games and no card moves its deck's win rate by more than 10 points.

Measured (seeds 0-2999, 3,000 games, 134 s on one busy core): powers on, the first player wins 46.5%
(95% interval about 44.7-48.3) and the largest card effect is 5.3 points (Oppidum de Bibracte's
Sanctuary); seeds 3000-5999 gave 46.5% again and at most 7.7 points (Abbaye de Cluny's Sanctuary); the
base game without powers gives the first player 37.5% (2,000 games: the others' sixth
card). The tuning that got there, from a first draft at 43.1% with La Sorbonne at +13.2 points: La
Sorbonne draws on welcoming instead of at every turn's end; more Sanctuaries and stronger Renown
(defence helps the player who builds first); unconditional draws on arrival or on a won Action became
honour, and Legacy (on discard) draws and gains were raised, so a player whose cards are destroyed
keeps up; two Zeal-on-Triumph became Glory. Over 1,000 games a card's effect has a standard error of
about 2.3 points, so read single cards over 3,000.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.chronica import GAME, validate_deck  # noqa: E402
from rules.chronica.bots import casual  # noqa: E402
from rules.chronica.cards import CARDS, DECK_SIZE  # noqa: E402
from rules.chronica.powers import POWERS  # noqa: E402

CODES = [row[0] for row in CARDS]
AIM_FIRST = (45.0, 55.0)
AIM_CARD = 10.0


def random_deck(rng: random.Random) -> list[str]:
    deck = rng.sample(CODES, DECK_SIZE)
    assert validate_deck(deck) == []
    return deck


def play(args: tuple[int, bool]) -> dict:
    """One game on seed ``seed``: the two random decks, the first player, the winners."""
    seed, powers = args
    rng = random.Random(seed)
    decks = [random_deck(rng), random_deck(rng)]
    options = {"decks": decks, **({"powers": True} if powers else {})}
    state = GAME.setup(players=2, seed=seed, options=options)
    for _ in range(2000):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        move = casual(GAME.view(state, seat), GAME.legal_moves(state, seat), rng, seat)
        state = GAME.apply(state, seat, move)
    return {"decks": decks, "first": state["first"], "winners": GAME.result(state)["winners"]}


def share(winners: list[int], seat: int) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


def report(games: list[dict]) -> dict:
    first = 100.0 * sum(share(g["winners"], g["first"]) for g in games) / len(games)
    wins = {c: [0.0, 0] for c in CODES}  # decks holding the card: wins, count
    total_wins = 0.0
    for g in games:
        for seat, deck in enumerate(g["decks"]):
            w = share(g["winners"], seat)
            total_wins += w
            for c in deck:
                wins[c][0] += w
                wins[c][1] += 1
    decks = 2 * len(games)
    effect = {}
    for c, (w, n) in wins.items():
        if 0 < n < decks:
            effect[c] = 100.0 * (w / n - (total_wins - w) / (decks - n))
    return {"first": first, "effect": effect, "held": {c: wins[c][1] for c in CODES}}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-powers", action="store_true", help="the base game, for comparison")
    args = parser.parse_args()
    powers = not args.no_powers
    work = [(args.first_seed + i, powers) for i in range(args.games)]
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            games = pool.map(play, work, chunksize=8)
    else:
        games = [play(w) for w in work]
    took = time.perf_counter() - start
    out = report(games)
    print(f"{args.games} games, casual bots, random decks, powers {'on' if powers else 'off'}, {took:.0f} s")
    low, high = AIM_FIRST
    print(f"first player wins {out['first']:.1f}% (aim {low:.0f}-{high:.0f}%)")
    print("card effect on its deck's win rate (points, decks holding it), strongest first:")
    ranked = sorted(out["effect"].items(), key=lambda kv: -abs(kv[1]))
    for code, points in ranked:
        mark = "  OVER" if abs(points) > AIM_CARD else ""
        power = POWERS.get(code)
        what = f"{power['when']}/{power['do']}" if power else "-"
        print(f"  {points:+6.1f}  {out['held'][code]:5d}  {code:38s} {what}{mark}")
    worst = max(abs(p) for p in out["effect"].values())
    print(f"largest card effect {worst:.1f} points (aim at most {AIM_CARD:.0f})")


if __name__ == "__main__":
    main()
