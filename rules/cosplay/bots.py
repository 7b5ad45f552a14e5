"""Cosplay Team Battle bots: a greedy casual shopper and a determinized Monte Carlo search.

Casual: place what it can during the preparation phase, fulfil the richest objective it can pay
for, else recruit the card with the most points for its cost, attach equipment, then end the turn.
Strong: every candidate move is played on several determinized states and followed by casual play until the end of
the bot's next turn; the move with the best average score margin wins.

``determinize(view, rng, seat)`` (the hidden cards dealt at random, consistent with the view) lives in
``rules.cosplay.sampling``, next to the state schema it rebuilds.
"""

from __future__ import annotations

import random

from rules.bots.search import flat_monte_carlo
from rules.cosplay import effects as fx
from rules.cosplay.cards import CARDS
from rules.cosplay.engine import GAME
from rules.cosplay.moves import PLACEABLE, PREPARATION, fits
from rules.cosplay.payments import canonical_payment, cost_mods, payment_rows
from rules.cosplay.sampling import determinize
from rules.cosplay.scoring import score

SAMPLES = 4
ROLLOUT_MOVES = 60


# --- casual ----------------------------------------------------------------------------------


def _value(code: str) -> float:
    card = CARDS[code]
    return sum(card["points"].values()) + 0.25 * sum(card["cost"].values())


# worked out once per card for the rollouts: casual play's value of a card, its printed cost in points
VALUE = {code: _value(code) for code in CARDS}
TOTAL = {code: sum(card["cost"].values()) for code, card in CARDS.items()}


def after(seat: int, other: int, players: int) -> int:
    """How many turns after ``seat``'s ``other`` plays (1: next). Choices between seats break ties
    by it, the same for every seat: breaking them by seat number sent every tied Drama to seat 0."""
    return (other - seat) % players


def in_turn_order(moves: list[dict], seat: int, players: int) -> list[dict]:
    """``moves`` with those that name another seat (Drama, its victim, poaching) put in turn order
    from ``seat``'s next player, each kind of move keeping its places in the list."""
    places = [i for i, m in enumerate(moves) if "seat" in m]
    first: dict[str, int] = {}
    for i in places:
        first.setdefault(moves[i]["type"], i)
    named = sorted(
        (moves[i] for i in places), key=lambda m: (first[m["type"]], after(seat, m["seat"], players))
    )
    out = list(moves)
    for i, m in zip(places, named, strict=True):
        out[i] = m
    return out


def casual_from(
    zones: list, piles: list, hand: list[str], seat: int, scores: list[int], moves: list[dict]
) -> dict:
    kind = moves[0]["type"]
    if kind == "target":
        return max(moves, key=lambda m: (scores[m["seat"]], -after(seat, m["seat"], len(scores))))
    if kind == "trash":
        dramas = [m for m in moves if m["card"] and CARDS[m["card"]]["kind"] == "drama"]
        return dramas[0] if dramas else moves[0]
    if kind == "clear":
        return moves[0]
    by_type: dict[str, list[dict]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    # Placing is offered only in the preparation phase, which the first recruitment ends: place
    # first (a placed card frees a place in the hand and stays ready in the assistance zone).
    if "place" in by_type:
        return by_type["place"][0]
    if "objective" in by_type:
        return max(by_type["objective"], key=lambda m: (CARDS[piles[m["pile"]]]["vp"], -m["pile"]))
    if "recruit" in by_type:
        return max(by_type["recruit"], key=lambda m: (_value(zones[m["zone"] - 1]), -m["zone"]))
    if "attach" in by_type:
        return by_type["attach"][0]
    return by_type["end_turn"][0]


def casual(view: dict, moves: list[dict], rng: random.Random, seat: int) -> dict:
    piles = [p["card"] if p else None for p in view["objectives"]]
    return casual_from(view["zones"], piles, view["hand"], seat, view["scores"], moves)


def rollout_move(state: dict, seat: int, rng: random.Random) -> dict:
    """Casual play's move (``casual_from`` over ``candidate_moves``, reading the full state) found
    from the state alone: the same move, without listing every legal move and pricing every card;
    only the cards casual play would take, best first, are priced, until one is payable. A test
    holds the two equal."""
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "drama":
            scores = [score(state, s) for s in range(state["players"])]
            n = state["players"]
            target = max((s for s in range(n) if s != seat), key=lambda s: (scores[s], -after(seat, s, n)))
            return {"type": "target", "seat": target}
        if pending["kind"] == "trash":
            for where, code in fx.trash_options(state, seat):
                if CARDS[code]["kind"] == "drama":
                    return {"type": "trash", "card": code, "from": where}
            return {"type": "trash", "card": None}
        return {"type": "clear", "zone": None}
    me = state["seats"][seat]
    if state["phase"] == PREPARATION:
        for code in sorted(set(me["hand"])):
            if CARDS[code]["kind"] in PLACEABLE and code not in state["tp"]["drawn"]:
                return {"type": "place", "card": code}
    rows, mods = payment_rows(state, seat), cost_mods(state)
    # No payment can cover more points than all the payers give: a card dearer than that, even
    # after every bonus point, discount and lowered cost of the turn, is not priced at all.
    tp = state["tp"]
    reach = sum(rows[1]) + sum(tp["bonus"].values()) + sum(tp["discount"].values())
    reach += sum(-delta for _w, _r, delta in mods if delta < 0)
    piles = sorted(
        (i for i, p in enumerate(state["objectives"]) if p["card"]),
        key=lambda i: -CARDS[state["objectives"][i]["card"]]["vp"],
    )
    for i in piles:
        code = state["objectives"][i]["card"]
        if TOTAL[code] > reach:
            continue
        pay = canonical_payment(state, seat, "objective", CARDS[code]["cost"], rows=rows, mods=mods)
        if pay is not None:
            return {"type": "objective", "pile": i, "pay": pay}
    zones = sorted(
        (z for z, code in enumerate(state["zones"]) if code), key=lambda z: -VALUE[state["zones"][z]]
    )
    for z in zones:
        code = state["zones"][z]
        if TOTAL[code] > reach:
            continue
        pay = canonical_payment(state, seat, CARDS[code]["kind"], CARDS[code]["cost"], rows=rows, mods=mods)
        if pay is not None:
            return {"type": "recruit", "zone": z + 1, "pay": pay}
    up_chars = [e["card"] for e in me["assist"] if e["up"] and CARDS[e["card"]]["kind"] == "character"]
    for entry in me["assist"]:
        if entry["up"] and CARDS[entry["card"]]["kind"] == "equipment":
            for char in up_chars:
                if fits(state, seat, entry["card"], char):
                    return {"type": "attach", "card": entry["card"], "to": char}
    return {"type": "end_turn"}


# --- strong ----------------------------------------------------------------------------------


def _strength(state: dict, s: int) -> float:
    """Points the seat's own cards could pay with (its engine), a small tie-breaker."""
    me = state["seats"][s]
    total = 0
    for code in me["hand"] + me["reserve"] + me["discard"]:
        total += sum(CARDS[code]["points"].values())
    for entry in me["assist"]:
        for code in [entry["card"], *entry["equip"]]:
            total += sum(CARDS[code]["points"].values())
    return total


def evaluate(state: dict, seat: int) -> float:
    n = state["players"]
    scores = [score(state, s) for s in range(n)]
    worth = [scores[s] + 0.1 * _strength(state, s) for s in range(n)]
    value = worth[seat] - max(worth[s] for s in range(n) if s != seat)
    if state["over"]:
        winners = GAME.result(state)["winners"]
        value += 30 if seat in winners else -30
    return value


def strong(view: dict, moves: list[dict], rng: random.Random, seat: int, samples: int | None = None) -> dict:
    if len(moves) == 1:
        return moves[0]
    n = view["players"]
    horizon = view["turn"] + n + 1  # the end of the bot's next turn

    def stop(state):
        return state["turn"] >= horizon

    dets = [determinize(view, rng, seat) for _ in range(samples or SAMPLES)]
    # ties between candidates go to the earlier one: seats in turn order, not by number
    return flat_monte_carlo(
        GAME,
        seat,
        in_turn_order(moves, seat, n),
        dets,
        rng,
        evaluate,
        stop=stop,
        max_moves=ROLLOUT_MOVES,
        state_policy=rollout_move,
    )
