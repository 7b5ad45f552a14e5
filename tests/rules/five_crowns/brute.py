"""A brute-force reference for Five Crowns melds: slow, simple, obviously correct."""

from __future__ import annotations

from functools import cache

from rules.five_crowns.cards import CARDS, JOKER, penalty


def is_wild(code: str, wild_rank: int) -> bool:
    return code == JOKER or CARDS[code][0] == wild_rank


def is_meld(cards: tuple[str, ...] | list[str], wild_rank: int) -> bool:
    """3+ cards that are a book (naturals share a rank) or a run (naturals share a suit and
    fit, at distinct ranks, in some window of len(cards) consecutive ranks within 3..13)."""
    if len(cards) < 3:
        return False
    naturals = [CARDS[c] for c in cards if not is_wild(c, wild_rank)]
    if len({rank for rank, _ in naturals}) <= 1:
        return True  # a book (or only wilds)
    if len({suit for _, suit in naturals}) != 1:
        return False
    ranks = [rank for rank, _ in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    size = len(cards)
    for start in range(3, 14 - size + 1):
        if all(start <= r < start + size for r in ranks):
            return True
    return False


def brute_min_penalty(cards: list[str], wild_rank: int) -> int:
    """Try every way to split the hand into melds and leftovers."""

    @cache
    def best(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        result = penalty(first, wild_rank) + best(others)  # first is left over
        n = len(others)
        for bits in range(1, 1 << n):
            group = (first,) + tuple(others[i] for i in range(n) if bits >> i & 1)
            if len(group) >= 3 and is_meld(group, wild_rank):
                left = tuple(others[i] for i in range(n) if not bits >> i & 1)
                result = min(result, best(left))
        return result

    return best(tuple(sorted(cards)))
