"""Shared helpers for the bot tests: short games between bots, and card counting."""

from __future__ import annotations

import json
from collections import Counter

from rules import registry
from rules.bots import choose

SLUGS = tuple(registry.games())


def play_bots(slug: str, levels: list[str], seed: int, max_moves: int, options: dict | None = None):
    """Play ``max_moves`` moves (or to the end) with one bot level per seat; check every choice."""
    game = registry.get(slug)
    state = game.setup(players=len(levels), seed=seed, options=options or {})
    states = [state]
    for count in range(max_moves):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        view = game.view(state, seat)
        move = choose(slug, view, moves, levels[seat], seed * 1000 + count)
        assert move in moves, (slug, levels[seat], move)
        state = game.apply(state, seat, move)
        states.append(state)
    return states


def same_json(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def cosmic_cards(state: dict) -> Counter:
    out = Counter(c for h in state["hands"] for c in h)
    out.update(state["stack"])
    out.update(state["revealed"])
    out.update(e["card"] for e in state["trick"])
    out.update(state["spent"])
    return out


def five_crowns_cards(state: dict) -> Counter:
    out = Counter(c for h in state["hands"] for c in h)
    out.update(state["stock"])
    out.update(state["discard"])
    return out


def cosplay_cards(state: dict) -> Counter:
    out = Counter(state["library"] + [z for z in state["zones"] if z] + state["graveyard"] + state["drama"])
    out.update(p["card"] for p in state["objectives"] if p["card"])
    for deck in state["obj_decks"].values():
        out.update(deck)
    for me in state["seats"]:
        out.update(me["hand"] + me["reserve"] + me["discard"])
        for entry in me["assist"]:
            out.update([entry["card"], *entry["equip"]])
    return out


def chronica_cards(state: dict) -> Counter:
    """Per-seat ownership is not tracked by the engine: count every card in hands, decks, piles."""
    out = Counter(c for h in state["hands"] for c in h)
    for d in state["discards"]:
        out.update(d)
    for d in state.get("decks", []):
        out.update(d)
    out.update(state.get("pile", []))
    out.update(state.get("river") or [])
    for prov in state["provinces"]:
        for slot in prov:
            if slot:
                out.update(c for c in (slot["building"], slot["character"]) if c)
    return out


CARD_COUNTS = {
    "cosmic_crowns": cosmic_cards,
    "five_crowns": five_crowns_cards,
    "chronica": chronica_cards,
    "cosplay": cosplay_cards,
}
