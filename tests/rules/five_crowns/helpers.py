"""Shared helpers for the Five Crowns tests: crafted states, invariants, policies."""

from __future__ import annotations

import json
import random
from collections import Counter

from rules.five_crowns import GAME
from rules.five_crowns.cards import CARDS, full_deck, penalty
from rules.five_crowns.engine import round_log, wild_rank
from rules.five_crowns.melds import go_out_cards, min_penalty

DECK = Counter(full_deck())


def crafted(
    players: int = 3, hands=None, stock=None, discard=None, turn=None, round_number=1, seed=5, options=None
) -> dict:
    """A fresh game with some hands and piles set by hand (cards are not conserved)."""
    state = GAME.setup(players=players, seed=seed, options=options)
    state["round"] = round_number
    state["dealer"] = (round_number - 1) % players
    state["turn"] = (state["dealer"] + 1) % players if turn is None else turn
    if hands is not None:
        state["hands"] = [list(h) for h in hands]
    if stock is not None:
        state["stock"] = list(stock)
    if discard is not None:
        state["discard"] = list(discard)
        before = (state["turn"] - 1) % players
        state["log"] = [{"act": "turn_up", "card": c} for c in discard[:1]]
        state["log"] += [{"act": "discard", "seat": before, "card": c} for c in discard[1:]]
    return state


def where_cards_are(state: dict) -> Counter:
    found = Counter(state["stock"]) + Counter(state["discard"])
    for hand in state["hands"]:
        found += Counter(hand)
    return found


def assert_conserved(state: dict) -> None:
    assert where_cards_are(state) == DECK
    assert sum(where_cards_are(state).values()) == 116


def codes_in(value) -> set[str]:
    """Every card code anywhere in a JSON value (as a whole string or a dict key)."""
    found = set()
    if isinstance(value, str):
        if value in CARDS:
            found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= codes_in(key) | codes_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= codes_in(item)
    return found


def visible_codes(state: dict, seat: int | None) -> set[str]:
    """Codes ``seat`` may see: its own hand, the discard top, the last round's laid cards, the
    card the player to act took from the discard (everyone saw it taken), and every card of the
    round's public log (turned up, taken or discarded in sight of all: test_engine checks that
    the log holds only those)."""
    visible = set()
    if seat is not None:
        visible |= set(state["hands"][seat])
    if state["discard"]:
        visible.add(state["discard"][-1])
    if state["taken"]:
        visible.add(state["taken"])
    if state["last_round"]:
        visible |= codes_in(state["last_round"])
    visible |= codes_in(round_log(state))
    return visible


def assert_no_leak(state: dict) -> None:
    for seat in [*range(state["players"]), None]:
        view = GAME.view(state, seat)
        json.dumps(view)
        assert codes_in(view) <= visible_codes(state, seat), seat
        text = json.dumps(view)
        for secret in ('"seed"', '"draws"', '"stock"'):
            assert secret not in text
        assert ("hand" in view) == (seat is not None)
        assert view["hand_sizes"] == [len(h) for h in state["hands"]]


def scrambled(state: dict, seat: int, rnd: random.Random) -> dict:
    """The same state as ``seat`` knows it: other hands and the stock dealt anew from their cards."""
    other = dict(state)
    hidden = list(state["stock"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden += hand
    rnd.shuffle(hidden)
    other["hands"] = []
    for s, hand in enumerate(state["hands"]):
        if s == seat:
            other["hands"].append(list(hand))
        else:
            other["hands"].append(sorted(hidden[: len(hand)]))
            hidden = hidden[len(hand) :]
    other["stock"] = hidden
    if state["turn"] != seat:
        other["drawn"] = None
    return other


def smart_move(state: dict, seat: int) -> dict:
    """Go out when possible; draw the discard top if it lowers the penalty; discard the card whose
    loss leaves the lowest penalty."""
    wild = wild_rank(state["round"])
    hand = state["hands"][seat]
    moves = GAME.legal_moves(state, seat)
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        if top and {"type": "draw", "source": "discard"} in moves and state["stock"]:
            with_top = min(
                min_penalty([*hand, top][:i] + [*hand, top][i + 1 :], wild) for i in range(len(hand))
            )
            if with_top < min_penalty(hand, wild):
                return {"type": "draw", "source": "discard"}
        return moves[0]
    outs = [m for m in moves if m["type"] == "go_out"]
    if outs:
        return outs[0]

    def left_after(move):
        rest = list(hand)
        rest.remove(move["card"])
        return (min_penalty(rest, wild), -penalty(move["card"], wild))

    return min((m for m in moves if m["type"] == "discard"), key=left_after)


__all__ = ["GAME", "go_out_cards"]
