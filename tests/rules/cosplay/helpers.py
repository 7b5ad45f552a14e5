"""Builders for hand-made Cosplay states (cards are moved, never invented, so they stay conserved)."""

from __future__ import annotations

import json
from collections import Counter

from rules.cosplay import GAME
from rules.cosplay.cards import CARDS, DRAMA_CODES, LIBRARY, OBJECTIVE_LEVELS, STARTER_DECK


def new(players: int = 2, seed: int = 1, options: dict | None = None) -> dict:
    return GAME.setup(players=players, seed=seed, options=options)


def all_cards(state: dict) -> Counter:
    """Every card in the game, wherever it is."""
    found = Counter(state["library"]) + Counter(state["graveyard"]) + Counter(state["drama"])
    found += Counter(c for c in state["zones"] if c)
    found += Counter(p["card"] for p in state["objectives"] if p["card"])
    for deck in state["obj_decks"].values():
        found += Counter(deck)
    for me in state["seats"]:
        found += Counter(me["hand"]) + Counter(me["reserve"]) + Counter(me["discard"])
        for entry in me["assist"]:
            found += Counter([entry["card"], *entry["equip"]])
    return found


def full_set(players: int) -> Counter:
    levels = [c for lv in (1, 2, 3) for c in OBJECTIVE_LEVELS[lv]]
    return Counter(LIBRARY) + Counter(DRAMA_CODES) + Counter(levels) + Counter(STARTER_DECK * players)


def take(state: dict, code: str, seat: int | None = None) -> None:
    """Remove one copy of ``code`` from wherever it is (starters: from ``seat``'s own cards)."""
    if CARDS[code]["kind"] == "starter":
        me = state["seats"][seat]
        for where in ("reserve", "discard", "hand"):
            if code in me[where]:
                me[where].remove(code)
                return
        raise AssertionError(f"seat {seat} has no spare {code}")
    for pile in (state["library"], state["graveyard"], state["drama"]):
        if code in pile:
            pile.remove(code)
            return
    for z, c in enumerate(state["zones"]):
        if c == code:
            state["zones"][z] = None
            return
    for p in state["objectives"]:
        if p["card"] == code:
            p["card"] = None
            return
    for deck in state["obj_decks"].values():
        if code in deck:
            deck.remove(code)
            return
    for me in state["seats"]:
        for where in ("hand", "reserve", "discard"):
            if code in me[where]:
                me[where].remove(code)
                return
        for entry in list(me["assist"]):
            if entry["card"] == code:
                me["assist"].remove(entry)
                me["discard"].extend(entry["equip"])
                return
            if code in entry["equip"]:
                entry["equip"].remove(code)
                return
    raise AssertionError(f"{code} not found")


def set_hand(state: dict, seat: int, codes: list[str]) -> None:
    """Make ``seat``'s hand exactly ``codes``; the old hand goes back under the reserve."""
    me = state["seats"][seat]
    old, me["hand"] = me["hand"], []
    me["reserve"].extend(old)
    for code in codes:
        take(state, code, seat)
        me["hand"].append(code)


def to_assist(state: dict, seat: int, code: str, up: bool = True, equip: list[str] = ()) -> None:
    take(state, code, seat)
    for e in equip:
        take(state, e, seat)
    state["seats"][seat]["assist"].append({"card": code, "up": up, "equip": list(equip)})


def to_zone(state: dict, zone: int, code: str) -> None:
    old = state["zones"][zone - 1]
    take(state, code)
    if old:
        state["library"].append(old)
    state["zones"][zone - 1] = code


def to_pile(state: dict, pile: int, code: str) -> None:
    old = state["objectives"][pile]["card"]
    take(state, code)
    if old:
        state["obj_decks"][str(CARDS[old]["level"])].append(old)
    state["objectives"][pile]["card"] = code
    state["objectives"][pile]["level"] = CARDS[code]["level"]


def codes_in(obj) -> Counter:
    """Every card code appearing anywhere in a JSON-able value."""
    text = json.dumps(obj)
    return Counter(c for c in CARDS if f'"{c}"' in text)


def clear_influences(state: dict) -> None:
    """Put every Influence card of the zones back in the library (objectives: back in their deck)."""
    for z, c in enumerate(state["zones"]):
        if c and CARDS[c]["ability"] and CARDS[c]["ability"]["kind"] == "influence":
            state["library"].append(c)
            state["zones"][z] = None
    for p in state["objectives"]:
        c = p["card"]
        if c and CARDS[c]["ability"] and CARDS[c]["ability"]["kind"] == "influence":
            state["obj_decks"][str(CARDS[c]["level"])].append(c)
            p["card"] = None
