"""Five Crowns bots: a greedy casual player, and a strong player that looks two draws ahead.

The cards the seat cannot locate come from ``rules.five_crowns.sampling`` (``unseen``: the deck
minus its hand, the discard pile and the cards a rival took from the discard, read from the
round's public log; ``determinize`` deals them into a full state).

The strong player samples ``SAMPLES`` sequences of its next draws from those unseen cards (the
stock is a random part of them) and scores every choice on the same sequences (``_ahead``).
Before each of its next turns each opponent may go out (chance ``HAZARD``): the bot then draws
once more and keeps the lowest penalty it can. Otherwise, if its draw lets it lay everything,
it goes out, worth ``GO_OUT_VALUE`` (about the penalty the opponent is then left with); after
``DEPTH`` draws the round is taken to end with the penalty it holds. The penalty after d draws
is ``min_penalty_after_drops`` with d discards, as if the draws had been known when it
discarded: one exact search instead of a loop over every discard.

- Draw: a wild, or a card that lets it go out at once, is always taken from the discard;
  otherwise it takes the discard's top card when that scores better than a sampled stock card.
- Discard: the best score among the ``SHORTLIST`` discards that leave the lowest penalty now,
  never a wild while a natural card can go.
- It always goes out when it can, discarding its highest natural card that allows it (a wild
  would be the opponent's to take for its last turn).
- On its own last turn, after someone went out, it only compares the penalty it keeps after
  that one draw (the discard's top card against sampled stock cards) and discards to the
  lowest penalty.
"""

from __future__ import annotations

import random

from rules.five_crowns.cards import JOKER, is_wild, penalty
from rules.five_crowns.melds import min_penalty, min_penalty_after_drops
from rules.five_crowns.sampling import determinize, unseen

__all__ = ["casual", "determinize", "strong"]

SAMPLES = 40  # sequences of next draws sampled from the unseen cards (the same for every choice)
DEPTH = 2  # draws each sequence looks ahead
SHORTLIST = 8  # discards looked ahead from, the lowest penalty now first
HAZARD = 0.15  # chance one opponent goes out before each of my next turns
GO_OUT_VALUE = 25.0  # what going out is worth: about the penalty the opponent is left with


# --- shared helpers ------------------------------------------------------------------------


def _kept(view: dict, top: str) -> str | None:
    """The card that may not be thrown back once taken: the discard's top under the house rule."""
    return top if view["keep_taken"] else None


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


def _lowest_after_discard(cards: list[str], wild: int, keep: str | None) -> int:
    """The lowest penalty left after any one discard from ``cards`` but ``keep`` (the card just taken
    from the discard under the house rule; None: any card may go)."""
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
            if _best_discard_value([*hand, top], wild, keep=_kept(view, top)) < min_penalty(hand, wild):
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


def _ahead(cards: list[str], draws: list[str], wild: int, owed: int, hazard: float) -> float:
    """What holding ``cards`` is worth along one sequence of next draws (lower is better).

    ``owed``: discards still due before the first of ``draws`` (1 right after drawing, 0 after
    discarding). Before each of my next turns an opponent goes out with chance ``hazard``; I
    then draw once more and keep the lowest penalty left after the discards due, as if I had
    known the draws when I made them (``min_penalty_after_drops``). If that penalty is 0 I go
    out instead, worth ``-GO_OUT_VALUE``. After the last draw the round is taken to end.
    """
    if not draws:
        return min_penalty_after_drops(cards, wild, owed)
    value = 0.0
    alive = 1.0
    held = list(cards)
    last = len(draws) - 1
    for step, code in enumerate(draws):
        held.append(code)
        low = min_penalty_after_drops(held, wild, owed + step + 1)
        if step == last:
            return value + alive * low
        if low == 0:
            return value - alive * (1 - hazard) * GO_OUT_VALUE
        value += alive * hazard * low
        alive *= 1 - hazard
    return value


def _draw_sequences(pool: list[str], rng: random.Random, count: int) -> list[list[str]]:
    """``count`` sequences of DEPTH + 1 distinct unseen cards: the draw now, then the next ones."""
    return [rng.sample(pool, min(len(pool), DEPTH + 1)) for _ in range(count)]


def strong(view: dict, moves: list[dict], rng: random.Random, seat: int, samples: int | None = None) -> dict:
    wild = view["wild_rank"]
    hand = view["hand"]
    pool = unseen(view, seat)
    samples = samples or SAMPLES
    kinds = {m["type"] for m in moves}
    last_turn = view["went_out"] is not None
    hazard = 1 - (1 - HAZARD) ** (view["players"] - 1)  # any opponent may go out
    if "draw" in kinds:
        top = view["discard_top"]
        if top is None or {"type": "draw", "source": "discard"} not in moves:
            return moves[0]
        if is_wild(top, wild) or {"type": "draw", "source": "stock"} not in moves or not pool:
            return {"type": "draw", "source": "discard"}
        take_now = _lowest_after_discard([*hand, top], wild, keep=_kept(view, top))
        if last_turn:  # one draw left: compare the penalties it leaves
            draws = [pool[rng.randrange(len(pool))] for _ in range(samples)]
            stock = sum(min_penalty_after_drops([*hand, c], wild, 1) for c in draws) / len(draws)
            return {"type": "draw", "source": "discard" if take_now < stock else "stock"}
        if take_now == 0:
            return {"type": "draw", "source": "discard"}  # it goes out at once
        sequences = _draw_sequences(pool, rng, samples)
        take = sum(_ahead([*hand, top], seq[1:], wild, 1, hazard) for seq in sequences) / len(sequences)
        stock = 0.0
        for seq in sequences:
            drawn = [*hand, seq[0]]
            if min_penalty_after_drops(drawn, wild, 1) == 0:
                stock -= GO_OUT_VALUE
            else:
                stock += _ahead(drawn, seq[1:], wild, 1, hazard)
        stock /= len(sequences)
        return {"type": "draw", "source": "discard" if take < stock else "stock"}
    outs = [m for m in moves if m["type"] == "go_out"]
    if outs:  # going out scores 0; the discard is the opponent's to take: never a wild if avoidable
        return max(outs, key=lambda m: (not is_wild(m["card"], wild), penalty(m["card"], wild)))
    discards = [m for m in moves if m["type"] == "discard"]
    if not last_turn:  # keep wilds while a natural card can go: they meld with anything later
        discards = [m for m in discards if not is_wild(m["card"], wild)] or discards
    now = {m["card"]: min_penalty(_without(hand, m["card"]), wild) for m in discards}
    ranked = sorted(discards, key=lambda m: (now[m["card"]], _discard_order(m["card"], wild)))
    if last_turn or not pool or len(ranked) == 1:
        return ranked[0]
    sequences = _draw_sequences(pool, rng, samples)
    best, best_value = ranked[0], None
    for m in ranked[:SHORTLIST]:
        rest = _without(hand, m["card"])
        value = sum(_ahead(rest, seq[:DEPTH], wild, 0, hazard) for seq in sequences) / len(sequences)
        if best_value is None or value < best_value:
            best, best_value = m, value
    return best
