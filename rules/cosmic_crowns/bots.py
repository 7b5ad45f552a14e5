"""Cosmic Crowns bots: a casual trick-taker, and a determinized Monte Carlo search.

The strong search samples hidden cards with ``rules.cosmic_crowns.sampling.determinize``.
"""

from __future__ import annotations

import random

from rules.bots.search import flat_monte_carlo
from rules.cosmic_crowns.cards import CARDS, CLANS, trick_winner
from rules.cosmic_crowns.engine import GAME
from rules.cosmic_crowns.sampling import determinize

__all__ = ["casual", "determinize", "strong"]

SAMPLES = 12
ROLLOUT_MOVES = 400


# --- the casual policy --------------------------------------------------------------------


def _facts(src: dict, seat: int, is_state: bool) -> dict:
    """The few facts the casual policy reads, from a view or (in rollouts) a state."""
    if is_state:
        return {
            "hand": src["hands"][seat],
            "trick": src["trick"],
            "battleground": src["battleground"],
            "divine": src["divine"],
            "crowns": src["crowns"],
            "tricks": src["tricks"],
            "bids": src["bids"],
            "hard": src["options"]["mode"] == "hard" and not src["tie_brawl"],
            "players": src["players"],
        }
    return {
        "hand": src["hand"],
        "trick": src["trick"],
        "battleground": src["battleground"],
        "divine": src["divine_winner"],
        "crowns": src["crowns"],
        "tricks": src["tricks"],
        "bids": src["bids"],
        "hard": src["mode"] == "hard" and not src["tie_brawl"],
        "players": src["players"],
    }


def _would_win(f: dict, seat: int, card: str) -> bool:
    if CARDS[card]["divine"]:
        return f["divine"] is None
    trick = [*f["trick"], {"seat": seat, "card": card, "how": "play"}]
    return trick_winner(trick, f["battleground"], f["divine"]) == seat


def _cheapness(f: dict, card: str) -> tuple:
    """Order for dumping: Thief first (it steals a crown), then low off-clan cards; Divines last."""
    c = CARDS[card]
    return (c["divine"], c["clan"] == f["battleground"], c["value"])


def _strength(f: dict, card: str) -> float:
    """About how many tricks ``card`` takes, for a Hard-mode bid. Fitted on 5,400 casual bids (2-4
    players): a Divine card takes one; a Battleground card is a trump, the higher the surer; a high
    card of another clan wins about one deal in as many as there are players; in a 2-player deal
    even a low card sometimes wins (the other player had to follow with a lower one)."""
    c = CARDS[card]
    if c["divine"]:
        return 1.0
    if c["clan"] == f["battleground"]:
        return min(1.0, 0.2 + 0.07 * c["value"])
    if c["value"] >= 10:
        return 1.1 / f["players"]
    return 0.1 if f["players"] == 2 else 0.0


def _choose_play(f: dict, seat: int, cards: list[str]) -> str:
    want = True
    if f["hard"] and f["bids"][seat] is not None and f["tricks"][seat] >= f["bids"][seat]:
        want = False
    winners = [c for c in cards if _would_win(f, seat, c)]
    if not want:
        losers = [c for c in cards if c not in winners]
        if losers:
            return max(losers, key=lambda c: (not CARDS[c]["divine"], CARDS[c]["value"]))
        return min(cards, key=lambda c: _cheapness(f, c))
    if not f["trick"]:
        strong = [c for c in cards if CARDS[c]["clan"] == f["battleground"] and CARDS[c]["value"] >= 12]
        if strong:
            return max(strong, key=lambda c: CARDS[c]["value"])
        return min(cards, key=lambda c: _cheapness(f, c))
    plain = [c for c in winners if not CARDS[c]["divine"]]
    if plain:
        return min(plain, key=lambda c: (c.endswith("thief") is False, _cheapness(f, c)))
    return min(cards, key=lambda c: _cheapness(f, c))


def casual_from(f: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    kind = moves[0]["type"]
    if kind == "play":
        card = _choose_play(f, seat, [m["card"] for m in moves])
        return {"type": "play", "card": card}
    if kind == "discard":
        card = min((m["card"] for m in moves), key=lambda c: _cheapness(f, c))
        return {"type": "discard", "card": card}
    if kind == "choose_clan":

        def weight(clan):
            return sum(CARDS[c]["value"] for c in f["hand"] if CARDS[c]["clan"] == clan)

        clan = max(CLANS, key=lambda c: (weight(c), -CLANS.index(c)))
        return {"type": "choose_clan", "clan": clan}
    if kind == "bid":
        expect = round(sum(_strength(f, c) for c in f["hand"]))
        return min(moves, key=lambda m: (abs(m["tricks"] - expect), m["tricks"]))
    if kind == "assassinate":
        return max(moves, key=lambda m: (f["crowns"][m["target"]], -m["target"]))
    if kind == "steal":
        return max(
            moves, key=lambda m: (-1 if m["from"] is None else f["crowns"][m["from"]], -(m["from"] or 0))
        )
    return moves[0]


def casual(view: dict, moves: list[dict], rng: random.Random, seat: int) -> dict:
    return casual_from(_facts(view, seat, False), seat, moves, rng)


def rollout_policy(state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    return casual_from(_facts(state, seat, True), seat, moves, rng)


# --- the strong search ----------------------------------------------------------------------


def evaluate(state: dict, seat: int) -> float:
    crowns = state["crowns"]
    others = max(c for s, c in enumerate(crowns) if s != seat)
    value = crowns[seat] - others
    if state["over"]:
        value += 20 if seat in state["winners"] else -20
    return value


def strong(view: dict, moves: list[dict], rng: random.Random, seat: int, samples: int | None = None) -> dict:
    if len(moves) == 1:
        return moves[0]
    start = (view["round"], view["tie_brawl"])

    def stop(state):
        return (state["round"], state["tie_brawl"]) != start

    dets = [determinize(view, rng, seat) for _ in range(samples or SAMPLES)]
    return flat_monte_carlo(
        GAME, seat, moves, dets, rng, evaluate, policy=rollout_policy, stop=stop, max_moves=ROLLOUT_MOVES
    )
