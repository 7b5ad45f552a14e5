"""Chronica Universalis: a full state (the shape engine.py describes) matching what one seat's view
shows, the hidden cards dealt at random. The strong bot plays its candidate moves on such states.

``determinize(view, rng)`` rebuilds the hidden cards: every seat's deck (order unknown, even the
viewer's own) and the other hands. A seat's deck list is not in the view: the sampling assumes the
ready-made starter deck the engine gives that seat when a table sets no decks, as long as every
card seen from that seat belongs to it; otherwise the unseen cards are drawn from the catalog
(distinct cards, none that seat has shown). In the shared-deck variant the unseen cards are the
catalog minus every card in sight.
"""

from __future__ import annotations

import random

from rules.chronica import cards as C


def _owned_in_sight(view: dict, s: int) -> list[str]:
    """Cards of seat ``s`` the view shows: discards, its own cards in provinces, its hand if known."""
    out = list(view["discards"][s])
    for t, prov in enumerate(view["provinces"]):
        for i, slot in enumerate(prov):
            if slot is None:
                continue
            guest = view["guests"][t][i]
            if t == s and slot["building"]:
                out.append(slot["building"])
            if slot["character"] and ((t == s and guest is None) or guest == s):
                out.append(slot["character"])
    if view.get("seat") == s and "hand" in view:
        out += view["hand"]
    return out


def _deck_guess(view: dict, s: int, hidden: int, rng: random.Random, seen: list[str]) -> list[str]:
    starter = C.STARTER_DECKS[s % len(C.STARTER_DECKS)]["cards"]
    shown = set(seen)
    if shown <= set(starter):
        rest = [c for c in starter if c not in shown]
    else:
        rest = [row[0] for row in C.CARDS if row[0] not in shown]
    rng.shuffle(rest)
    while len(rest) < hidden:  # only if the view is inconsistent with any 30-card deck
        rest.append(rng.choice([row[0] for row in C.CARDS]))
    return rest[:hidden]


def determinize(view: dict, rng: random.Random, seat: int | None = None) -> dict:
    """A full engine state that gives ``view`` for its seat, the hidden cards dealt at random."""
    seat = view["seat"] if seat is None else seat
    n = view["players"]
    shared = view["shared_deck"]
    hands: list[list[str]] = []
    decks: list[list[str]] = []
    if shared:
        sight = set(view["river"]) | set(view["hand"])
        for s in range(n):
            sight.update(_owned_in_sight(view, s))
        pool = [row[0] for row in C.CARDS if row[0] not in sight]
        rng.shuffle(pool)
        for s in range(n):
            if s == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append([pool.pop() for _ in range(view["hand_sizes"][s])])
        pile = pool[: view["pile_size"]]
    else:
        for s in range(n):
            hidden = view["deck_sizes"][s] + (0 if s == seat else view["hand_sizes"][s])
            cards = _deck_guess(view, s, hidden, rng, _owned_in_sight(view, s))
            if s == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append(cards[: view["hand_sizes"][s]])
                cards = cards[view["hand_sizes"][s] :]
            decks.append(cards)
    provinces = [
        [
            None
            if slot is None
            else {"building": slot["building"], "character": slot["character"], "guest": view["guests"][t][i]}
            for i, slot in enumerate(prov)
        ]
        for t, prov in enumerate(view["provinces"])
    ]
    phase = view["phase"]
    mull = view["mulligan"]
    state = {
        "seed": rng.getrandbits(48),
        "draws": 0,
        "players": n,
        "options": {"decks": None, "shared_deck": shared, **({"powers": True} if view.get("powers") else {})},
        "shared": shared,
        "hands": hands,
        "discards": [list(d) for d in view["discards"]],
        "honour": list(view["honour"]),
        "provinces": provinces,
        "phase": phase,
        "first": view["first"],
        # whose turn: the seat awaited once play began (the first player's during the mulligans and once over)
        "current": view["to_act"][0] if phase not in ("mulligan", "over") else view["first"],
        "turn": view["turn"],
        "mulligan_turn": (mull["seat"] - view["first"]) % n if phase == "mulligan" else n,
        "mulligans": list(mull["taken"]),
        "pending_draws": view["pending_draws"],
        "end_reason": view["end_reason"],
    }
    if view.get("extra_plays", 0) > 1:
        state["more_plays"] = view["extra_plays"] - 1
    if shared:
        state["pile"] = pile
        state["river"] = list(view["river"])
    else:
        state["decks"] = decks
    return state
