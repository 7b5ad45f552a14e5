"""Hand-built Chronica positions for rule tests."""

from __future__ import annotations

from rules.chronica import GAME
from rules.chronica.cards import CARD_BY_CODE


def board(players=2, hands=None, provinces=None, honour=None, current=0, shared=False, decks=None):
    """A state in the play phase with the given hands and provinces.

    ``provinces``: {seat: {slot: (building, character) or (building, character, guest)}}.
    Decks stay as dealt (they only feed draws).
    """
    options = {"shared_deck": True} if shared else ({"decks": decks} if decks else {})
    state = GAME.setup(players=players, seed=7, options=options)
    state["phase"] = "play"
    state["mulligan_turn"] = players
    state["current"] = current
    state["turn"] = 1
    for seat, hand in (hands or {}).items():
        state["hands"][seat] = list(hand)
    for seat, slots in (provinces or {}).items():
        for i, cards in slots.items():
            building, character, *rest = cards
            state["provinces"][seat][i] = {
                "building": building,
                "character": character,
                "guest": rest[0] if rest else None,
            }
    if honour is not None:
        state["honour"] = list(honour)
    return state


def all_cards(state) -> list[str]:
    """Every card of the game, wherever it is (for conservation checks)."""
    out = []
    if state["shared"]:
        out += state["pile"] + state["river"]
    else:
        for deck in state["decks"]:
            out += deck
    for seat in range(state["players"]):
        out += state["hands"][seat] + state["discards"][seat]
        for slot in state["provinces"][seat]:
            if slot is not None:
                out += [c for c in (slot["building"], slot["character"]) if c]
    return sorted(out)


def codes_in(obj) -> set[str]:
    """Every card code appearing anywhere in a JSON-like value (keys and strings)."""
    found = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found |= codes_in(k) | codes_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= codes_in(v)
    elif isinstance(obj, str) and obj in CARD_BY_CODE:
        found.add(obj)
    return found


def visible_to(state, seat) -> set[str]:
    """The card codes ``seat`` (None: spectator) may see."""
    out = set()
    if seat is not None:
        out |= set(state["hands"][seat])
    for s in range(state["players"]):
        out |= set(state["discards"][s])
        for slot in state["provinces"][s]:
            if slot is not None:
                out |= {c for c in (slot["building"], slot["character"]) if c}
    if state["shared"]:
        out |= set(state["river"])
    return out
