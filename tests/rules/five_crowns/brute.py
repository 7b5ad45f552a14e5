"""A brute-force reference for Five Crowns melds: slow, simple, obviously correct."""

from __future__ import annotations

from functools import cache
from itertools import product

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


def multiset_min_penalty(cards: list[str], wild_rank: int) -> int:
    """The same search over multisets, fast enough for 14 cards: the two copies of a card are one
    symbol with a count, and so are the wild-rank cards (any suit: each is wild and scores 20).
    Every sub-multiset of 3+ cards that ``is_meld`` accepts is a candidate meld."""

    def symbol(code: str) -> str:
        return "wild" if code != JOKER and is_wild(code, wild_rank) else code

    first: dict[str, str] = {}
    for code in sorted(cards):
        first.setdefault(symbol(code), code)
    kinds = sorted(first)
    have = tuple(sum(1 for c in cards if symbol(c) == k) for k in kinds)
    points = [penalty(first[k], wild_rank) for k in kinds]
    melds = []
    for counts in product(*(range(h + 1) for h in have)):
        if sum(counts) >= 3:
            group = [first[k] for k, n in zip(kinds, counts, strict=True) for _ in range(n)]
            if is_meld(group, wild_rank):
                melds.append(counts)

    @cache
    def best(rest: tuple[int, ...]) -> int:
        if not any(rest):
            return 0
        low = next(i for i, n in enumerate(rest) if n)  # this card is left over or in a meld
        alone = list(rest)
        alone[low] -= 1
        result = points[low] + best(tuple(alone))
        for meld in melds:
            if meld[low] and all(m <= r for m, r in zip(meld, rest, strict=True)):
                result = min(result, best(tuple(r - m for m, r in zip(meld, rest, strict=True))))
        return result

    return best(have)
