"""Sampling the hidden state of a Five Crowns game from one seat's view (for the bots).

``public(view)`` reads the round's public log: the discard pile and the cards each seat is known
to hold (taken from the discard). ``unseen(view, seat)`` lists the cards the seat cannot locate;
``determinize(view, rng, seat)`` deals them at random into a full state of the engine's schema
(``engine.py``'s docstring), so this lives next to it.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.five_crowns.cards import full_deck, sort_key


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
    seat = view["seat"] if seat is None else seat
    n = view["players"]
    facts = public(view)
    pile, known = facts
    pool = unseen(view, seat, facts)
    rng.shuffle(pool)
    turn = view["to_act"][0] if view["to_act"] else None
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
        "options": {"keep_taken": view["keep_taken"]},
        "round": view["round"],
        "dealer": view["dealer"],
        "turn": turn,
        "turns": view["turn"],
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
