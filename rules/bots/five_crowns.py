"""Five Crowns bots: a greedy casual player, and a strong player that looks two draws ahead.

``determinize(view, rng)`` deals the cards the seat cannot see (the rest of the other hands,
the stock) at random from the 116-card deck minus the cards it can locate: its hand, the
discard pile and the cards another player took from the discard and still holds, all read
from the round's public log (``public``).

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
from collections import Counter

from rules.five_crowns.cards import JOKER, full_deck, is_wild, penalty, sort_key
from rules.five_crowns.melds import min_penalty, min_penalty_after_drops

SAMPLES = 40  # sequences of next draws sampled from the unseen cards (the same for every choice)
DEPTH = 2  # draws each sequence looks ahead
SHORTLIST = 8  # discards looked ahead from, the lowest penalty now first
HAZARD = 0.15  # chance one opponent goes out before each of my next turns
GO_OUT_VALUE = 25.0  # what going out is worth: about the penalty the opponent is left with


# --- determinization --------------------------------------------------------------------


def public(view: dict) -> tuple[list[str] | None, list[Counter]]:
    """What the round's log says: the discard pile, bottom first (None if the log does not
    account for it, as in a game saved before the log existed), and per seat the cards it is
    known to hold (taken from the discard and not discarded since)."""
    pile: list[str] = []
    known = [Counter() for _ in range(view["players"])]
    for event in view.get("round_log", []):
        act, card = event["act"], event.get("card")
        if act == "take":
            if pile:
                pile.pop()
            known[event["seat"]][card] += 1
        elif act == "rebuild":
            pile = pile[-1:]
        elif card is not None:
            pile.append(card)
            if act != "turn_up" and known[event["seat"]][card]:
                known[event["seat"]][card] -= 1
    top = pile[-1] if pile else None
    if len(pile) != view["discard_size"] or top != view["discard_top"]:
        return None, known
    return pile, known


def unseen(view: dict, seat: int, facts: tuple | None = None) -> list[str]:
    """The cards ``seat`` cannot locate, as a multiset list in a fixed order: not in its hand,
    not in the discard pile, not known to be in another hand (``facts``: ``public(view)`` if
    the caller has it already)."""
    pile, known = facts or public(view)
    left = Counter(full_deck())
    left.subtract(view["hand"])
    if pile is None:
        pile = [view["discard_top"]] if view["discard_top"] is not None else []
    left.subtract(pile)
    for s, cards in enumerate(known):
        if s != seat:
            left.subtract(cards)
    out = []
    for code in sorted(left):
        out.extend([code] * left[code])
    return out


def determinize(view: dict, rng: random.Random, seat: int | None = None) -> dict:
    """A full engine state that gives ``view`` for its seat, the hidden cards dealt at random."""
    seat = view["turn"] if seat is None else seat
    n = view["players"]
    facts = public(view)
    pile, known = facts
    pool = unseen(view, seat, facts)
    rng.shuffle(pool)
    turn = view["turn"]
    hands: list[list[str]] = [[] for _ in range(n)]
    for s in range(n):
        if s == seat:
            hands[s] = list(view["hand"])
            continue
        hand = list(known[s].elements())
        while len(hand) < view["hand_sizes"][s]:
            hand.append(pool.pop())
        hands[s] = sorted(hand, key=sort_key)
    if pile is None:  # no log: the cards under the top are some of the unseen ones
        under = [pool.pop() for _ in range(max(0, view["discard_size"] - 1))]
        pile = under + ([view["discard_top"]] if view["discard_top"] is not None else [])
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
        "discard": pile,
        "taken": view["taken_from_discard"],
        "drawn": drawn,
        "went_out": view["went_out"],
        "final_turns": list(view["final_turns"]),
        "scores": list(view["scores"]),
        "sheet": [list(row) for row in view["sheet"]],
        "last_round": view["last_round"],
        "log": [dict(event) for event in view.get("round_log", [])],
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


def _lowest_after_discard(cards: list[str], wild: int, keep: str) -> int:
    """The lowest penalty left after any one discard from ``cards`` but ``keep`` (the card just taken
    from the discard). With no card kept, that is ``min_penalty_after_drops(cards, wild, 1)``."""
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
        take_now = _lowest_after_discard([*hand, top], wild, keep=top)
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
