"""Chronica bots: a greedy casual player and a strong player that also weighs the reply.

Both judge a position by victory points and honour (``evaluate``). The casual player takes the
move with the best immediate result (honour gained in an Action, a slot filled, honour lost
avoided). The strong player shortlists its best moves, plays each on several determinized
states, lets the opponent(s) answer greedily with the cards they might hold, and keeps the move
with the best average outcome (trying no further deal once ``BUDGET`` positions have been
judged, which caps the think time in wide 3-4 player positions); it also values honour more than
the casual player does (a seat at 0 honour loses whatever its victory points), which is most of
its edge.

A power's choice (the opponent a Disgrace hits, the wandering character an Exile sends home) goes the way
the judging says, and between equals against the opponent who stands best (``_leader``); taking an
opponent's last honour counts as the end of the game it is.

The hidden cards are dealt at random by ``rules.chronica.sampling.determinize``, next to the engine's
state schema.
"""

from __future__ import annotations

import json
import random

from rules.chronica import cards as C
from rules.chronica.board import SLOTS
from rules.chronica.engine import GAME
from rules.chronica.sampling import determinize

SAMPLES = 4
SHORTLIST = 10
PLIES = 1  # turns played greedily after the bot's move (1: the opponent's reply)
# Positions judged per decision, at most: the deals are tried one after the other, every shortlisted
# move on each, and the search stops before a deal that would go over (the first deal is always
# tried). Replies in 3-4 player positions can be wide; this caps the think time, not the typical one.
BUDGET = 8000
# Worth of one honour point and of each point under 4 (one victory point is worth 3). The casual
# player's weights are fixed; the strong player values honour, its life, more.
CASUAL_WEIGHTS = (1.2, 2.5)
HONOUR_WEIGHT = 5.0
DANGER_WEIGHT = 6.0
CHOICES = ("disgrace", "exile")  # the move fields a power's choice adds


# --- judging a position ------------------------------------------------------------------


def evaluate(state: dict, seat: int, weights: tuple[float, float] = CASUAL_WEIGHTS) -> float:
    """Victory points and honour, mine against the best opponent's; a finished game counts most."""
    vps = GAME.victory_points(state)
    if state["phase"] == "over":
        winners = GAME.result(state)["winners"]
        if seat in winners:
            return 1000.0 / len(winners) + vps[seat]
        return -1000.0 + vps[seat]

    others = [_worth(state, s, weights, vps) for s in range(state["players"]) if s != seat]
    return _worth(state, seat, weights, vps) - max(others)


def _worth(state: dict, s: int, weights: tuple[float, float], vps: list[int]) -> float:
    """How well seat ``s`` stands: victory points, honour (and the danger under 4), hand, shielded slots."""
    h = state["honour"][s]
    danger = max(0, 4 - h) * weights[1]
    prov = state["provinces"][s]
    shielded = sum(1 for i in range(4, SLOTS) if prov[i] is not None and prov[i - 4] is not None)
    return 3.0 * vps[s] + weights[0] * h - danger + 0.3 * len(state["hands"][s]) + 0.4 * shielded


def _leader(state: dict, seat: int) -> int:
    """The opponent who stands best (``_worth``), the first by seat on a tie."""
    vps = GAME.victory_points(state)
    opponents = [s for s in range(state["players"]) if s != seat]
    return max(opponents, key=lambda s: (_worth(state, s, CASUAL_WEIGHTS, vps), -s))


def _after(state: dict, seat: int, move: dict) -> dict:
    return GAME.apply(state, seat, move)


def _quick(move: dict, state: dict, seat: int) -> float:
    """Small preferences between otherwise equal moves (keep the stronger cards in hand)."""
    if move["type"] == "pass" and move.get("discard"):
        return -0.01 * max(C.CARD_BY_CODE[move["discard"]]["values"].values())
    bonus = 0.0
    if "disgrace" in move or "exile" in move:  # a power's choice: against the leading opponent
        hit = move["disgrace"] if "disgrace" in move else move["exile"]["seat"]
        bonus = 1.0 if hit == _leader(state, seat) else 0.0
    if move["type"] == "action" and move.get("reinforce"):
        return bonus - 0.5  # a reinforcement spends a second card
    return bonus


def greedy(state: dict, seat: int, moves: list[dict]) -> dict:
    """The move with the best immediate ``evaluate`` (the casual player's rule)."""
    if moves[0]["type"] in ("mulligan", "keep"):
        return {"type": "keep"}
    if moves[0]["type"] == "draw":
        return _pick_draw(moves)
    best, best_value = moves[0], None
    for move in moves:
        value = evaluate(_after(state, seat, move), seat) + _quick(move, state, seat)
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def _pick_draw(moves: list[dict]) -> dict:
    river = [m for m in moves if m.get("source") == "river"]
    if river:
        top = max(river, key=lambda m: max(C.CARD_BY_CODE[m["card"]]["values"].values()))
        if max(C.CARD_BY_CODE[top["card"]]["values"].values()) >= 6:
            return top
    return next(m for m in moves if m.get("source") == "pile")


def casual(view: dict, moves: list[dict], rng: random.Random, seat: int) -> dict:
    if moves[0]["type"] in ("mulligan", "keep", "draw"):
        return greedy({}, seat, moves)
    return greedy(determinize(view, rng, seat), seat, moves)


# --- strong --------------------------------------------------------------------------------


def _play_on(state: dict, seat: int, plies: int) -> int:
    """Greedy moves for everyone for ``plies`` more turns after the current one (and its draws).
    Returns how many positions the greedy choices judged."""
    last = state["turn"] + plies
    judged = 0
    for _ in range(12 * (plies + 1)):
        if GAME.is_over(state) or state["turn"] > last:
            break
        if state["turn"] == last and state["phase"] == "play" and GAME.to_act(state)[0] == seat:
            break
        actor = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, actor)
        judged += len(moves)
        GAME.apply_in_place(state, actor, greedy(state, actor, moves))
    return judged


def strong(view: dict, moves: list[dict], rng: random.Random, seat: int, samples: int | None = None) -> dict:
    if moves[0]["type"] in ("mulligan", "keep", "draw"):
        return greedy({}, seat, moves)
    dets = [determinize(view, rng, seat) for _ in range(samples or SAMPLES)]
    weights = (HONOUR_WEIGHT, DANGER_WEIGHT)
    first = [
        (evaluate(_after(dets[0], seat, m), seat, weights) + _quick(m, dets[0], seat), i)
        for i, m in enumerate(moves)
    ]
    # A power's choice (disgrace, exile) is judged at once, on the first deal: one variant of each move
    # goes on to the search, whose replies are too noisy to tell which opponent to hit.
    best_variant: dict[str, tuple[float, int]] = {}
    for value, i in first:
        key = json.dumps({k: v for k, v in moves[i].items() if k not in CHOICES}, sort_keys=True)
        if key not in best_variant or value > best_variant[key][0]:
            best_variant[key] = (value, i)
    first = sorted(best_variant.values(), key=lambda p: (-p[0], p[1]))
    shortlist = [moves[i] for _v, i in first[:SHORTLIST]]
    passes = [m for m in moves if m["type"] in ("pass", "end_turn")]
    if passes and not any(m["type"] in ("pass", "end_turn") for m in shortlist):
        shortlist.append(max(passes, key=lambda m: _quick(m, dets[0], seat)))
    totals = [0.0] * len(shortlist)
    spent = len(moves)
    for det in dets:
        cost = 0
        for i, move in enumerate(shortlist):
            state = _after(det, seat, move)
            cost += _play_on(state, seat, PLIES) + 1
            totals[i] += evaluate(state, seat, weights) + _quick(move, det, seat)
        spent += cost
        if spent + cost > BUDGET:  # one more deal like this one would go over
            break
    best = max(range(len(shortlist)), key=lambda i: (totals[i], -i))
    return shortlist[best]
