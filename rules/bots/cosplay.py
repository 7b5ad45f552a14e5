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
from rules.cosplay import GAME
from rules.cosplay.cards import CARDS
from rules.cosplay.sampling import determinize
from rules.cosplay.scoring import score

SAMPLES = 4
ROLLOUT_MOVES = 60


# --- casual ----------------------------------------------------------------------------------


def _value(code: str) -> float:
    card = CARDS[code]
    return sum(card["points"].values()) + 0.25 * sum(card["cost"].values())


def casual_from(
    zones: list, piles: list, hand: list[str], seat: int, scores: list[int], moves: list[dict]
) -> dict:
    kind = moves[0]["type"]
    if kind == "target":
        return max(moves, key=lambda m: (scores[m["seat"]], -m["seat"]))
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


def rollout_policy(state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    piles = [p["card"] for p in state["objectives"]]
    scores = [score(state, s) for s in range(state["players"])]
    return casual_from(state["zones"], piles, state["seats"][seat]["hand"], seat, scores, moves)


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
    return flat_monte_carlo(
        GAME, seat, moves, dets, rng, evaluate, policy=rollout_policy, stop=stop, max_moves=ROLLOUT_MOVES
    )
