"""Melds: the lowest penalty of a hand, the arrangement that reaches it, and going out.

Why the search only looks at the natural cards
----------------------------------------------
Jokers and wild-rank cards (the wilds) stand for any card. Once at least one meld is on the
table, any further wild can join a meld for free: a book takes any number of cards, a run
shorter than 11 cards grows at one end, and a run of all 11 ranks splits into two
overlapping runs (3..8 and 8..13) with one more card. Three wilds also make a meld alone.
So the lowest penalty is

    (penalty of all naturals) - (largest penalty of a set S of naturals that melds with at
    most W wilds), plus the wilds' own penalty only when S is empty and W < 3.

``_best(mask, k, ...)`` finds that largest melded penalty by an exact memoised search: take
the lowest natural x; it is left over, or it is in a book with some of the other cards of its
rank, or it is the lowest natural of a run. In a run the search always takes the next
natural of the suit when the hand has one (a solution that fills that rank with a wild
instead can swap the natural in and move the wild to where the natural was), so a run is
fixed by its top rank. A run of span s with c naturals costs max(3, s) - c wilds; a book of
c naturals costs max(0, 3 - c). Before the search, naturals that can only meld alone (see
``_isolated``) are set aside: the best of them take two wilds each.

``min_penalty_after_drops`` (for the bots) runs the same search where a natural may also be
discarded: the lowest penalty left once exactly d cards of a hand are set aside.
"""

from __future__ import annotations

from itertools import product

from rules.five_crowns.cards import CARDS, JOKER, RANK_LABEL, SUITS, penalty, sort_key

# A natural card is the field of 4 bits at 4 * id of a mask, id = (rank - 3) * 5 + suit, holding
# how many copies the hand has; the lowest set bit is then the lowest-ranked natural.
_NSUITS = len(SUITS)
_FIELD = 4
_MAX_COPIES = (1 << _FIELD) - 1
_MEMO: dict[tuple[int, int], int] = {}
_MEMO_LIMIT = 400_000
_GO_OUT: dict[tuple, tuple] = {}
_GO_OUT_LIMIT = 20_000


def _split(cards: list[str], wild_rank: int) -> tuple[list[int], list[str]]:
    """(sorted ids of the naturals, wild codes); ValueError on anything that is not a card."""
    if not isinstance(cards, (list, tuple)):
        raise ValueError("cards must be a list of card codes")
    naturals = []
    wilds = []
    for code in cards:
        try:
            rank, suit = CARDS[code]
        except (KeyError, TypeError):
            raise ValueError(f"not a Five Crowns card: {code!r}") from None
        if code == JOKER or rank == wild_rank:
            wilds.append(code)
        else:
            naturals.append((rank - 3) * _NSUITS + suit)
    naturals.sort()
    return naturals, wilds


def _mask(ids: list[int]) -> int:
    mask = 0
    for i in ids:
        mask += 1 << (_FIELD * i)
        if (mask >> (_FIELD * i)) & _MAX_COPIES == 0:
            raise ValueError("too many copies of one card")
    return mask


def _count(mask: int, i: int) -> int:
    return (mask >> (_FIELD * i)) & _MAX_COPIES


def _best(mask: int, k: int, n: int, total: int) -> int:
    """Largest total penalty of the naturals in ``mask`` (n cards, penalty ``total``) that
    meld with at most ``k`` wilds."""
    if n == 0 or k >= 2 * n:
        return total  # every natural can take two wilds of its own
    key = (mask, k)
    found = _MEMO.get(key)
    if found is not None:
        return found
    best = 0
    for _kind, _used, cost, rest, gain, count, dropped in _options(mask, k):
        value = gain + _best(rest, k - cost, n - count, total - dropped)
        if value > best:
            best = value
            if best == total:
                break
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = best
    return best


def _options(mask: int, k: int):
    """Every way to place the lowest natural x of ``mask`` with at most ``k`` wilds:
    (kind, ids used, wilds cost, rest mask, penalty melded, cards used, penalty removed).
    Melds come first."""
    x = ((mask & -mask).bit_length() - 1) // _FIELD
    row, suit = divmod(x, _NSUITS)
    rank = row + 3
    rest = mask - (1 << (_FIELD * x))
    # Runs with x as the lowest natural, taking each next natural of the suit.
    gaps = 0
    taken = [x]
    gain = rank
    remaining = rest
    for q in range(rank + 1, 14):
        i = x + (q - rank) * _NSUITS
        if not _count(remaining, i):
            gaps += 1
            if gaps > k:
                break
            continue
        taken.append(i)
        gain += q
        remaining -= 1 << (_FIELD * i)
        span = q - rank + 1
        cost = gaps + (3 - span if span < 3 else 0)
        if cost <= k:
            yield ("run", tuple(taken), cost, remaining, gain, len(taken), gain)
    # Books with other cards of the same rank: how many of each suit (x's own suit first).
    base = row * _NSUITS
    counts = [_count(rest, base + s) for s in range(suit, _NSUITS)]
    if any(counts):
        for chosen in product(*(range(c + 1) for c in counts)):
            size = sum(chosen) + 1
            cost = 3 - size if size < 3 else 0
            if size == 1 or cost > k:
                continue
            used = [x]
            left = rest
            for offset, how_many in enumerate(chosen):
                i = x + offset
                used += [i] * how_many
                left -= how_many << (_FIELD * i)
            yield ("book", tuple(used), cost, left, rank * size, size, rank * size)
    if k >= 2:
        yield ("run", (x,), 2, rest, rank, 1, rank)  # x with two wilds (a run or a book, alike)
    yield ("left", (x,), 0, rest, 0, 1, rank)


def _isolated(naturals: list[int]) -> tuple[list[int], list[int]]:
    """Split off the naturals that can only meld alone with two wilds.

    A natural with no other card of its rank and no card of its suit within 4 ranks never
    gains from sharing a meld: a run through it needs at least 4 wilds for the gap(s) at it,
    while laying it alone costs 2 and the parts of the run on either side at most 2 each.
    Returns (the other naturals' ids, the isolated naturals' penalties, highest first).
    """
    rows: dict[int, int] = {}
    for i in naturals:
        rows[i // _NSUITS] = rows.get(i // _NSUITS, 0) + 1
    core = []
    isolated = []
    for i in naturals:
        row, suit = divmod(i, _NSUITS)
        if rows[row] > 1 or any(
            j != i and j % _NSUITS == suit and abs(j // _NSUITS - row) <= 4 for j in naturals
        ):
            core.append(i)
        else:
            isolated.append(row + 3)
    isolated.sort(reverse=True)
    return core, isolated


def _melded_penalty(naturals: list[int], wilds: list[str]) -> tuple[int, int]:
    """(penalty of the naturals, largest melded part of it)."""
    total = sum(i // _NSUITS + 3 for i in naturals)
    k = len(wilds)
    core, isolated = _isolated(naturals)
    core_mask = _mask(core)
    core_total = total - sum(isolated)
    best = 0
    alone = 0
    for j in range(min(len(isolated), k // 2) + 1):
        if j:
            alone += isolated[j - 1]
        best = max(best, alone + _best(core_mask, k - 2 * j, len(core), core_total))
    return total, best


def min_penalty(cards: list[str], wild_rank: int) -> int:
    """The lowest penalty of ``cards`` once the best melds are laid (0: they all meld)."""
    naturals, wilds = _split(cards, wild_rank)
    total, melded = _melded_penalty(naturals, wilds)
    if melded == 0 and len(wilds) < 3:
        return total + sum(penalty(w, wild_rank) for w in wilds)
    return total - melded


def all_meld(cards: list[str], wild_rank: int) -> bool:
    """True when every card of ``cards`` can be laid in melds."""
    return min_penalty(cards, wild_rank) == 0


def go_out_cards(hand: list[str], wild_rank: int) -> list[str]:
    """The distinct cards whose discard leaves a hand that melds completely, in hand order."""
    key = (tuple(sorted(hand)), wild_rank)
    found = _GO_OUT.get(key)
    if found is None:
        found = ()
        # Leaving c out costs at most c's penalty, so only cards worth at least the whole
        # hand's penalty can be the discard: most hands need this one search only.
        floor = min_penalty(hand, wild_rank)
        seen = set()
        for i, code in enumerate(hand):
            if code in seen or penalty(code, wild_rank) < floor:
                continue
            seen.add(code)
            if all_meld(hand[:i] + hand[i + 1 :], wild_rank):
                found += (code,)
        if len(_GO_OUT) >= _GO_OUT_LIMIT:
            _GO_OUT.clear()
        _GO_OUT[key] = found
    order = {code: i for i, code in reversed(list(enumerate(hand)))}
    return sorted(found, key=order.__getitem__)


# --- The arrangement, for laying the cards and for the interface -----------------------


def _decode(i: int) -> str:
    row, suit = divmod(i, _NSUITS)
    return f"{RANK_LABEL[row + 3]}-{SUITS[suit]}"


def _plan(ids: list[int], k: int) -> list[tuple[str, tuple[int, ...], int]]:
    """The groups of one optimal solution of ``_best``: (kind, natural ids, wilds cost)."""
    mask = _mask(ids)
    n = len(ids)
    total = sum(i // _NSUITS + 3 for i in ids)
    groups = []
    while n:
        target = _best(mask, k, n, total)
        for kind, used, cost, rest, gain, count, dropped in _options(mask, k):
            if gain + _best(rest, k - cost, n - count, total - dropped) == target:
                if kind != "left":
                    groups.append((kind, used, cost))
                mask, k, n, total = rest, k - cost, n - count, total - dropped
                break
        else:  # pragma: no cover - _options holds the choice _best made
            raise AssertionError("no option reaches the best value")
    return groups


def _run_cards(naturals: tuple[int, ...], wilds: list[str], cost: int) -> list[str]:
    """Lay a run: naturals at their ranks, wilds in the gaps, then up (or down) to 3 cards."""
    ranks = [c // _NSUITS + 3 for c in naturals]
    low, high = ranks[0], ranks[-1]
    extra = cost - ((high - low + 1) - len(ranks))
    above = min(extra, 13 - high)
    below_ = extra - above
    by_rank = {c // _NSUITS + 3: _decode(c) for c in naturals}
    out = []
    pool = list(wilds)
    for q in range(low - below_, high + above + 1):
        out.append(by_rank[q] if q in by_rank else pool.pop())
    assert not pool and q <= 13 and low - below_ >= 3
    return out


def _absorb(melds: list[dict], wild: str, wild_rank: int) -> None:
    """Put one spare wild into an existing meld (a book, else a run end, else split a full run)."""
    for meld in melds:
        if meld["kind"] == "book":
            meld["cards"].append(wild)
            return
    for meld in melds:
        if len(meld["cards"]) < 11:
            # Grow at the top if the run does not reach the King, else at the bottom.
            if _run_top(meld["cards"], wild_rank) < 13:
                meld["cards"].append(wild)
            else:
                meld["cards"].insert(0, wild)
            return
    # Every meld is a run of all 11 ranks: split one into 3..8 and 8..13 with the spare wild.
    meld = melds[0]
    cards = meld["cards"]
    meld["cards"] = cards[:6]
    melds.append({"kind": "run", "cards": [wild, *cards[6:]]})


def _run_top(cards: list[str], wild_rank: int) -> int:
    """Top rank of a laid run (its first natural's rank plus its position)."""
    for i, code in enumerate(cards):
        rank = CARDS[code][0]
        if code != JOKER and rank != wild_rank:
            return rank + (len(cards) - 1 - i)
    return 13  # all wilds: treat as full at the top (it then grows downward)


def arrange(cards: list[str], wild_rank: int) -> dict:
    """The laid arrangement with the lowest penalty.

    Returns ``{"melds": [{"kind": "run" | "book", "cards": [codes]}], "leftover": [codes],
    "penalty": n}``. Runs list their cards in rank order, wilds where they stand.
    """
    naturals, wilds = _split(cards, wild_rank)
    total, melded = _melded_penalty(naturals, wilds)
    pool = sorted(wilds, key=lambda w: w == JOKER)  # lay wild-rank cards first, Jokers last
    melds: list[dict] = []
    leftover = []
    if melded == 0:
        leftover = [_decode(c) for c in naturals]
        if len(wilds) >= 3:
            melds.append({"kind": "book", "cards": list(wilds)})
        else:
            leftover += wilds
        leftover.sort(key=sort_key)
        score = sum(penalty(c, wild_rank) for c in leftover)
        return {"melds": melds, "leftover": leftover, "penalty": score}
    groups = _plan(naturals, len(wilds))
    counts: dict[int, int] = {}
    for _kind, nat, _cost in groups:
        for c in nat:
            counts[c] = counts.get(c, 0) + 1
    for c in naturals:
        if counts.get(c, 0):
            counts[c] -= 1
        else:
            leftover.append(_decode(c))
    for kind, nat, cost in groups:
        take = [pool.pop(0) for _ in range(cost)]
        if kind == "book":
            melds.append({"kind": "book", "cards": [_decode(c) for c in nat] + take})
        else:
            melds.append({"kind": "run", "cards": _run_cards(nat, take, cost)})
    for wild in pool:
        _absorb(melds, wild, wild_rank)
    leftover.sort(key=sort_key)
    assert total - melded == sum(penalty(c, wild_rank) for c in leftover)
    return {"melds": melds, "leftover": leftover, "penalty": total - melded}


def go_out_arrangement(hand: list[str], wild_rank: int, allowed: list[str] | None = None) -> dict | None:
    """A way to go out: ``{"discard": code, "melds": [...]}``, or None when there is none.

    Only discards among ``allowed`` (default: any card); prefers the highest penalty.
    """
    cards = [c for c in go_out_cards(hand, wild_rank) if allowed is None or c in allowed]
    if not cards:
        return None
    discard = max(cards, key=lambda c: penalty(c, wild_rank))
    rest = list(hand)
    rest.remove(discard)
    return {"discard": discard, "melds": arrange(rest, wild_rank)["melds"]}


# --- Setting cards aside: how good a hand is a few draws ahead (for the bots) ------------------

_NONE = -(1 << 30)  # no arrangement fits the constraints
_DROP_MEMO: dict[tuple[int, int, int, bool], int] = {}


def _best_drops(mask: int, k: int, e: int, need: bool, n: int, total: int) -> int:
    """Largest total penalty of the naturals in ``mask`` (n cards, penalty ``total``) that meld
    with at most ``k`` wilds or are set aside, exactly ``e`` of them set aside; ``need``: at
    least one natural must be in a meld. ``_NONE`` when no arrangement fits."""
    if e > n:
        return _NONE
    if k >= 2 * (n - e):  # every natural kept can take two wilds of its own
        return total if n > e or not need else _NONE
    key = (mask, k, e, need)
    found = _DROP_MEMO.get(key)
    if found is not None:
        return found
    best = _NONE
    for kind, _used, cost, rest, gain, count, dropped in _options(mask, k):
        if kind == "left":
            value = _best_drops(rest, k, e, need, n - 1, total - dropped)
            if e:
                value = max(value, dropped + _best_drops(rest, k, e - 1, need, n - 1, total - dropped))
        else:
            value = gain + _best_drops(rest, k - cost, e, False, n - count, total - dropped)
        if value > best:
            best = value
            if best == total:
                break
    if best < 0:
        best = _NONE
    if len(_DROP_MEMO) >= _MEMO_LIMIT:
        _DROP_MEMO.clear()
    _DROP_MEMO[key] = best
    return best


def min_penalty_after_drops(cards: list[str], wild_rank: int, drops: int) -> int:
    """The lowest penalty of ``cards`` once exactly ``drops`` of them are set aside and the
    best melds laid: ``min(min_penalty(rest) for every rest of len(cards) - drops cards)``.

    With one drop this is the lowest penalty a player can keep after drawing a card and
    discarding one (0: they can go out); with d drops, after d draws if the player knew them
    all in advance. It is the search of ``min_penalty`` where a natural may also be set aside,
    run once per number of wilds set aside (a kept wild needs a meld of naturals to join
    unless three or more wilds make a book alone).
    """
    naturals, wilds = _split(cards, wild_rank)
    if not 0 <= drops <= len(cards):
        raise ValueError("cannot set aside that many cards")
    k = len(wilds)
    values = sorted(
        [i // _NSUITS + 3 for i in naturals] + [penalty(w, wild_rank) for w in wilds], reverse=True
    )
    best = sum(values[drops:])  # no meld at all: set the highest cards aside
    mask = _mask(naturals)
    n = len(naturals)
    total = sum(i // _NSUITS + 3 for i in naturals)
    for w in range(min(drops, k) + 1):
        left = k - w  # the wilds kept: they need a meld of naturals unless they make a book alone
        melded = _best_drops(mask, left, drops - w, 1 <= left <= 2, n, total)
        if melded >= 0:
            best = min(best, total - melded)
    return best
