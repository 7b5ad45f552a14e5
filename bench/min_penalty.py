"""Time rules.five_crowns.min_penalty over seeded random 14-card hands with up to 6 wilds.

Run from the repository root:  python bench/min_penalty.py [hands] [seed]
Prints the median, p99 and worst time per hand in milliseconds.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.five_crowns.cards import full_deck, is_wild  # noqa: E402
from rules.five_crowns.melds import _MEMO, min_penalty  # noqa: E402

REPEATS = 3


def random_hand(rnd: random.Random, size: int = 14, max_wilds: int = 6) -> tuple[list[str], int]:
    """A hand of ``size`` cards from the 116-card deck holding 0..max_wilds wilds, and its wild rank."""
    wild_rank = rnd.randint(3, 13)
    deck = full_deck()
    wild_pool = [c for c in deck if is_wild(c, wild_rank)]
    natural_pool = [c for c in deck if not is_wild(c, wild_rank)]
    wilds = rnd.randint(0, min(max_wilds, size))
    hand = rnd.sample(wild_pool, wilds) + rnd.sample(natural_pool, size - wilds)
    rnd.shuffle(hand)
    return hand, wild_rank


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    rnd = random.Random(seed)
    hands = [random_hand(rnd) for _ in range(count)]
    times = []
    first = []
    for hand, wild_rank in hands:
        runs = []
        for _ in range(REPEATS):
            _MEMO.clear()  # time every hand from a cold cache
            start = time.perf_counter()
            min_penalty(hand, wild_rank)
            runs.append((time.perf_counter() - start) * 1000)
        times.append(min(runs))  # the best of a few cold runs filters out scheduler noise
        first.append(runs[0])
    print(f"min_penalty over {count} random 14-card hands (up to 6 wilds), cold cache")
    for label, sample in ((f"best of {REPEATS} runs", times), ("single run", first)):
        sample.sort()
        median = sample[len(sample) // 2]
        p99 = sample[min(len(sample) - 1, int(len(sample) * 0.99))]
        print(f"{label:>15}: median {median:.3f} ms   p99 {p99:.3f} ms   worst {sample[-1]:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
