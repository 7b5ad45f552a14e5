"""Five Crowns bots: a greedy casual player, and a strong player that looks one turn ahead.

``determinize(view, rng)`` deals the cards the seat cannot see (the other hands, the stock, the
discard pile under its top card) at random from the 116-card deck minus the cards it can see:
its hand, the discard's top card, and a card another player has just taken from the discard.

The strong player samples the card it would draw next from those unseen cards (the stock is a
random part of them) and keeps the discard, or makes the draw, that leaves the lowest expected
penalty after its next turn, mixed with the penalty it would hold right now (someone may go out).
"""

from __future__ import annotations

import random
from collections import Counter

from rules.five_crowns.cards import JOKER, full_deck, is_wild, penalty, sort_key
from rules.five_crowns.melds import min_penalty

SAMPLES = 60  # cards sampled for the next draw
SHORTLIST = 20  # discards the strong player looks ahead from
NOW_WEIGHT = 0.0  # weight of the penalty held now against the expected penalty after next turn


# --- determinization --------------------------------------------------------------------


def unseen(view: dict, seat: int) -> list[str]:
    """The cards ``seat`` cannot locate, as a multiset list in a fixed order."""
    left = Counter(full_deck())
    left.subtract(view["hand"])
    if view["discard_top"] is not None:
        left[view["discard_top"]] -= 1
    taken = view["taken_from_discard"]
    if taken is not None and view["turn"] != seat:
        left[taken] -= 1
    out = []
    for code in sorted(left):
        out.extend([code] * left[code])
    return out


def determinize(view: dict, rng: random.Random, seat: int | None = None) -> dict:
    """A full engine state that gives ``view`` for its seat, the hidden cards dealt at random."""
    seat = view["turn"] if seat is None else seat
    n = view["players"]
    pool = unseen(view, seat)
    rng.shuffle(pool)
    turn = view["turn"]
    hands: list[list[str]] = [[] for _ in range(n)]
    for s in range(n):
        if s == seat:
            hands[s] = list(view["hand"])
            continue
        want = view["hand_sizes"][s]
        hand = []
        taken = view["taken_from_discard"]
        if taken is not None and s == turn:
            hand.append(taken)
        while len(hand) < want:
            hand.append(pool.pop())
        hands[s] = sorted(hand, key=sort_key)
    under = [pool.pop() for _ in range(max(0, view["discard_size"] - 1))]
    discard = under + ([view["discard_top"]] if view["discard_top"] is not None else [])
    stock = pool[: view["stock_size"]]
    over = view["over"]
    drawn = None
    if not over and view["phase"] == "discard":
        if turn == seat:
            drawn = view.get("drawn")
        else:
            drawn = view["taken_from_discard"] or rng.choice(hands[turn])
    return {
        "seed": rng.getrandbits(48),
        "draws": 0,
        "players": n,
        "options": {},
        "round": view["round"],
        "dealer": view["dealer"],
        "turn": view["turn"],
        "phase": view["phase"],
        "hands": hands,
        "stock": stock,
        "discard": discard,
        "taken": view["taken_from_discard"],
        "drawn": drawn,
        "went_out": view["went_out"],
        "final_turns": list(view["final_turns"]),
        "scores": list(view["scores"]),
        "sheet": [list(row) for row in view["sheet"]],
        "last_round": view["last_round"],
    }


# --- shared helpers ------------------------------------------------------------------------


def _without(cards: list[str], code: str) -> list[str]:
    out = list(cards)
    out.remove(code)
    return out


def _best_discard_value(cards: list[str], wild: int, keep: str | None = None) -> int:
    """The penalty left after the discard the casual policy would make from ``cards`` (never ``keep``)."""
    options = [code for code in dict.fromkeys(cards) if code != keep]
    if not options:
        return min_penalty(cards, wild)
    return min_penalty(_without(cards, min(options, key=lambda c: _discard_key(cards, c, wild))), wild)


def _lowest_after_discard(cards: list[str], wild: int, keep: str | None = None) -> int:
    """The lowest penalty left after any one discard from ``cards`` (never ``keep``): strong's estimate."""
    best = None
    for code in dict.fromkeys(cards):
        if code == keep:
            continue
        value = min_penalty(_without(cards, code), wild)
        if best is None or value < best:
            best = value
            if best == 0:
                break
    return best if best is not None else min_penalty(cards, wild)


def _discard_key(cards: list[str], code: str, wild: int) -> tuple:
    """How good a discard is (lower is better). Never a wild while a natural card can go: a wild melds with
    anything later, and throwing it lets two casual bots pass it back and forth for ever."""
    return (is_wild(code, wild), min_penalty(_without(cards, code), wild), _discard_order(code, wild))


def _discard_order(code: str, wild: int) -> tuple:
    """Ties between equally good discards: keep wilds, throw the highest penalty first."""
    return (is_wild(code, wild), -penalty(code, wild))


# --- casual ----------------------------------------------------------------------------------


def casual(view: dict, moves: list[dict], rng: random.Random, seat: int) -> dict:
    wild = view["wild_rank"]
    hand = view["hand"]
    kinds = {m["type"] for m in moves}
    if "draw" in kinds:
        top = view["discard_top"]
        if top is not None and {"type": "draw", "source": "discard"} in moves:
            if top == JOKER or is_wild(top, wild):
                return {"type": "draw", "source": "discard"}
            if _best_discard_value([*hand, top], wild, keep=top) < min_penalty(hand, wild):
                return {"type": "draw", "source": "discard"}
        return moves[0]
    outs = [m for m in moves if m["type"] == "go_out"]
    if outs:
        return max(outs, key=lambda m: penalty(m["card"], wild))
    return _greedy_discard(hand, wild, moves)


def _greedy_discard(hand: list[str], wild: int, moves: list[dict]) -> dict:
    discards = [m for m in moves if m["type"] == "discard"]
    return min(discards, key=lambda m: _discard_key(hand, m["card"], wild))


# --- strong ----------------------------------------------------------------------------------


def strong(view: dict, moves: list[dict], rng: random.Random, seat: int, samples: int | None = None) -> dict:
    wild = view["wild_rank"]
    hand = view["hand"]
    pool = unseen(view, seat)
    draws = [pool[rng.randrange(len(pool))] for _ in range(samples or SAMPLES)] if pool else []
    kinds = {m["type"] for m in moves}
    last_turn = view["went_out"] is not None
    if "draw" in kinds:
        top = view["discard_top"]
        if top is None or {"type": "draw", "source": "discard"} not in moves:
            return moves[0]
        if is_wild(top, wild):
            return {"type": "draw", "source": "discard"}
        take = _lowest_after_discard([*hand, top], wild, keep=top)
        if not draws or {"type": "draw", "source": "stock"} not in moves:
            return {"type": "draw", "source": "discard"}
        stock = sum(_lowest_after_discard([*hand, c], wild) for c in draws) / len(draws)
        if take < stock:
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    outs = [m for m in moves if m["type"] == "go_out"]
    if outs:
        return max(outs, key=lambda m: penalty(m["card"], wild))
    discards = [m for m in moves if m["type"] == "discard"]
    if not last_turn:  # keep wilds while a natural card can go: they meld with anything later
        discards = [m for m in discards if not is_wild(m["card"], wild)] or discards
    now = {m["card"]: min_penalty(_without(hand, m["card"]), wild) for m in discards}
    ranked = sorted(discards, key=lambda m: (now[m["card"]], _discard_order(m["card"], wild)))
    if last_turn or not draws or len(ranked) == 1:
        return ranked[0]
    best, best_value = ranked[0], None
    for m in ranked[:SHORTLIST]:
        rest = _without(hand, m["card"])
        ahead = sum(_lowest_after_discard([*rest, c], wild) for c in draws) / len(draws)
        value = NOW_WEIGHT * now[m["card"]] + (1 - NOW_WEIGHT) * ahead
        if best_value is None or value < best_value:
            best, best_value = m, value
    return best
