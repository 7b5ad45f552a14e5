"""Sampling the hidden state of a Cosmic Crowns game from one seat's view (for the bots' search).

``determinize(view, rng, seat)`` deals the cards the seat cannot see (the other hands, the
face-down stack, the finished tricks of the round other than the last one) at random, respecting
what the view shows: the hand sizes, the stack size, and the clans a player has shown to be void
in (they did not follow the Leading clan in the trick in progress or the last trick). It builds
the engine's state schema (``engine.py``'s docstring), so it lives next to it.
"""

from __future__ import annotations

import random

from rules.cosmic_crowns.cards import CARDS, DECK, sort_key


def _voids(view: dict) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    tricks = [view["trick"]]
    if view.get("last_trick"):
        tricks.append(view["last_trick"]["cards"])
    for trick in tricks:
        if not trick:
            continue
        lead = CARDS[trick[0]["card"]]["clan"]
        if lead is None:
            continue
        for entry in trick[1:]:
            if entry["how"] == "play" and CARDS[entry["card"]]["clan"] != lead:
                out.setdefault(entry["seat"], set()).add(lead)
    return out


def determinize(view: dict, rng: random.Random, seat: int | None = None) -> dict:
    """A full engine state that gives ``view`` for its seat, the hidden cards dealt at random."""
    seat = view["seat"] if seat is None else seat
    n = view["players"]
    hand = list(view["hand"])
    known = set(hand)
    known.update(e["card"] for e in view["trick"])
    known.update(view["revealed"])
    last = view.get("last_trick")
    seen_spent = [e["card"] for e in last["cards"]] if last else []
    known.update(seen_spent)
    unknown = [c for c in DECK if c not in known]
    rng.shuffle(unknown)
    voids = _voids(view)
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[seat] = hand
    others = [s for s in range(n) if s != seat]
    # Most constrained opponents first; a card a void opponent cannot hold goes to the next one.
    others.sort(key=lambda s: -len(voids.get(s, ())))
    pool = unknown
    for s in others:
        want = view["hand_sizes"][s]
        void = voids.get(s, set())
        fits = [c for c in pool if CARDS[c]["clan"] not in void]
        if len(fits) < want:
            fits = pool
        take = fits[:want]
        taken = set(take)
        hands[s] = take
        pool = [c for c in pool if c not in taken]
    stack = pool[: view["stack_size"]]
    spent = seen_spent + pool[view["stack_size"] :]
    pending = view["pending"]
    state_pending = None
    if pending is not None:
        state_pending = {"kind": pending["kind"], "seats": list(view["to_act"])}
        if "cause" in pending:
            state_pending["cause"] = pending["cause"]
    assassin_reveal = bool(
        pending is not None
        and pending["kind"] == "bid"
        and view["revealed"]
        and CARDS[view["revealed"][0]]["kind"] == "assassin"
        and not view["trick"]
    )
    return {
        "seed": rng.getrandbits(48),
        "draws": 0,
        "players": n,
        "options": {"mode": view["mode"], "reverse": view["reverse"]},
        "rounds": view["rounds"],
        "round": view["round"],
        "round_size": view["round_size"],
        "dealer": view["dealer"],
        "tie_brawl": view["tie_brawl"],
        "brawl_tied": list(view["brawl_tied"]),
        "hands": [sorted(h, key=sort_key) for h in hands],
        "stack": stack,
        "revealed": list(view["revealed"]),
        "battleground": view["battleground"],
        "trick": [dict(e) for e in view["trick"]],
        "leader": view["leader"],
        "divine": view["divine_winner"],
        "spent": spent,
        "crowns": list(view["crowns"]),
        "tricks": list(view["tricks"]),
        "bids": list(view["bids"]),
        "pending": state_pending,
        "assassin_reveal": assassin_reveal,
        "last_trick": (
            {"cards": [dict(e) for e in last["cards"]], "winner": last["winner"]} if last else None
        ),
        "last_round": dict(view["last_round"]) if view["last_round"] else None,
        "events": [],
        "over": view["over"],
        "winners": list(view["result"]["winners"]) if view.get("result") else [],
    }
