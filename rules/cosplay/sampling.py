"""Cosplay hidden-state sampling: a full engine state consistent with one seat's view.

``determinize(view, rng, seat)`` rebuilds the hidden cards from everything the view shows: the
unseen cards (all cards minus those in sight) fill the objective decks (by level), the Drama
reserve under its top card, the library, the face-down assistance cards, then the hands,
reserves, discards and graveyard; a few swaps then make each seat's projected score and
objective count match the view. Two facts the view does not carry are guessed: the effects
still queued behind a pending choice (none), and whether an empty objective pile was fulfilled
this turn (it then refills at the end of the turn) or is closed: the bot assumes fulfilled.
The bots' strong level plays candidate moves on such samples (``rules.cosplay.bots``).
"""

from __future__ import annotations

import random
from collections import Counter

from rules.cosplay.cards import CARDS, DRAMA_CODES, LIBRARY, OBJECTIVE_LEVELS, STARTER_DECK
from rules.cosplay.scoring import WORTH, score_parts

REPAIR_TRIES = 200


def _in_sight(view: dict, seat: int) -> list[str]:
    out = [c for c in view["zones"] if c]
    out += [p["card"] for p in view["objectives"] if p]
    if view["graveyard"]["top"]:
        out.append(view["graveyard"]["top"])
    if view["drama"]["top"]:
        out.append(view["drama"]["top"])
    for s, sv in enumerate(view["seats"]):
        for entry in sv["assist"]:
            out += [entry["card"], *entry["equip"]]
        if s == seat:
            out += sv["face_down_cards"] + sv["discard_cards"]
        elif sv["discard"]["top"]:
            out.append(sv["discard"]["top"])
    out += view["hand"]
    return out


def _cls(code: str) -> str:
    card = CARDS[code]
    if card["kind"] == "objective":
        return f"objective{card['level']}"
    if card["kind"] in ("character", "equipment"):
        return "library"
    return card["kind"]


def determinize(view: dict, rng: random.Random, seat: int | None = None) -> dict:
    """A full engine state that gives ``view`` for its seat, the hidden cards dealt at random."""
    n = view["players"]
    if seat is None:
        seat = view["seat"] if view["seat"] is not None else (view["to_act"] or [0])[0]
    left = Counter(LIBRARY + DRAMA_CODES + STARTER_DECK * n)
    for level in (1, 2, 3):
        left.update(OBJECTIVE_LEVELS[level])
    left.subtract(_in_sight(view, seat))
    pool: dict[str, list[str]] = {}
    for code in sorted(left):
        pool.setdefault(_cls(code), []).extend([code] * max(0, left[code]))
    for cards in pool.values():
        rng.shuffle(cards)

    def take(classes: tuple[str, ...], k: int) -> list[str]:
        out = []
        for cls in classes:
            while len(out) < k and pool.get(cls):
                out.append(pool[cls].pop())
        for cls in sorted(pool):  # only if the view were inconsistent
            while len(out) < k and pool[cls]:
                out.append(pool[cls].pop())
        return out

    obj_decks = {
        str(level): take((f"objective{level}",), view["objective_decks"][str(level)]) for level in (1, 2, 3)
    }
    drama = take(("drama",), max(0, view["drama"]["count"] - 1))
    if view["drama"]["top"]:
        drama.append(view["drama"]["top"])
    library = take(("library",), view["library"])
    seats = []
    for s, sv in enumerate(view["seats"]):
        up = [{"card": e["card"], "up": True, "equip": list(e["equip"])} for e in sv["assist"]]
        if s == seat:
            down = list(sv["face_down_cards"])
            seats.append({"hand": list(view["hand"]), "reserve": [], "discard": list(sv["discard_cards"])})
        else:
            shown = sum(1 for e in sv["assist"] if CARDS[e["card"]]["kind"] == "objective")
            hidden_obj = max(0, min(sv["face_down"], sv["objectives"] - shown))
            down = take(("objective3", "objective2", "objective1"), hidden_obj)
            down += take(("library",), sv["face_down"] - hidden_obj)
            seats.append({"hand": [], "reserve": [], "discard": []})
        seats[-1]["assist"] = up + [{"card": c, "up": False, "equip": []} for c in down]
    rest = ("drama", "library", "objective1", "objective2", "objective3", "starter")
    for s, sv in enumerate(view["seats"]):
        me = seats[s]
        # A seat's hidden cards are mostly its own starters: deal those first.
        seen = list(view["hand"]) + list(sv["discard_cards"]) if s == seat else [sv["discard"]["top"]]
        starters = Counter(STARTER_DECK)
        starters.subtract(c for c in seen if c)
        mine = []
        for code in sorted(starters):
            for _ in range(max(0, starters[code])):
                if code in pool.get("starter", []):
                    pool["starter"].remove(code)
                    mine.append(code)
        rng.shuffle(mine)
        need = sv["reserve"] + (0 if s == seat else sv["hand_size"] + max(0, sv["discard"]["count"] - 1))
        extra = mine[need:]
        pool.setdefault("starter", []).extend(extra)
        hidden = mine[:need] + take(rest, need - len(mine[:need]))
        rng.shuffle(hidden)
        me["reserve"] = hidden[: sv["reserve"]]
        if s != seat:
            me["hand"] = hidden[sv["reserve"] : sv["reserve"] + sv["hand_size"]]
            under = hidden[sv["reserve"] + sv["hand_size"] :]
            me["discard"] = under + ([sv["discard"]["top"]] if sv["discard"]["top"] else [])
    graveyard = take(("library", "starter"), max(0, view["graveyard"]["count"] - 1))
    if view["graveyard"]["top"]:
        graveyard.append(view["graveyard"]["top"])
    piles = []
    for p in view["objectives"]:
        if p:
            piles.append({"level": p["level"], "card": p["card"], "done": False})
        else:
            level = 2 if obj_decks["3"] else 3
            piles.append({"level": level, "card": None, "done": True})
    pending = dict(view["pending"]) if view["pending"] else None
    ts = view["turn_state"]
    state = {
        "seed": rng.getrandbits(48),
        "draws": 0,
        "players": n,
        "options": {"sudden_end": view["sudden_end"]},
        "library": library,
        "zones": list(view["zones"]),
        "graveyard": graveyard,
        "drama": drama,
        "obj_decks": obj_decks,
        "objectives": piles,
        "seats": seats,
        "active": view["to_act"][0] if view["to_act"] else seat,
        "turn": view["turn"],
        "phase": "recruitment" if view["over"] else view["phase"],
        "turns": [sv["turns"] for sv in view["seats"]],
        "tp": {
            "bonus": dict(ts["bonus"]),
            "discount": dict(ts["discount"]),
            "surcharge": ts["surcharge"],
            "fatigue": ts["fatigue"],
            "drawn": list(view["drawn"]) if view.get("drawn") else [],
        },
        "queue": [],
        "pending": pending,
        "short": view["short"],
        "over": view["over"],
        "events": [],
    }
    _repair(state, view, seat, rng)
    if pending is not None and pending["source"] is None:
        hidden = [e["card"] for e in seats[pending["seat"]]["assist"] if not e["up"]]
        pending["source"] = hidden[0] if hidden else "st-passion"
    return state


ANY = None
FACE_DOWN = frozenset({"library", "objective1", "objective2", "objective3"})


def _hidden_slots(state: dict, s: int, seat: int) -> list[tuple]:
    """Places of ``s``'s cards the viewer cannot see: (container, key, classes it accepts or ANY)."""
    me = state["seats"][s]
    slots = [(me["reserve"], i, ANY) for i in range(len(me["reserve"]))]
    if s != seat:
        slots += [(me["hand"], i, ANY) for i in range(len(me["hand"]))]
        slots += [(me["discard"], i, ANY) for i in range(len(me["discard"]) - 1)]
        slots += [(e, "card", FACE_DOWN) for e in me["assist"] if not e["up"]]
    return slots


CLS = {code: _cls(code) for code in CARDS}


def _fits(slot: tuple, code: str) -> bool:
    return slot[2] is ANY or CLS[code] in slot[2]


def _repair(state: dict, view: dict, seat: int, rng: random.Random) -> None:
    """Swap hidden cards until every seat's objective points and owned cost match the view."""
    n = state["players"]
    outside = [(state["library"], i, frozenset({"library"})) for i in range(len(state["library"]))]
    grave = state["graveyard"]
    outside += [(grave, i, frozenset({"library", "starter"})) for i in range(len(grave) - 1)]
    for level in ("1", "2", "3"):
        deck = state["obj_decks"][level]
        outside += [(deck, i, frozenset({f"objective{level}"})) for i in range(len(deck))]
    slots = {s: _hidden_slots(state, s, seat) for s in range(n)}
    parts = view.get("score_parts")
    # every seat's (objective points, owned cost), kept up to date through the swaps: a swap moves
    # one card's worth from one seat to the other
    have = {s: list(score_parts(state, s)[:2]) for s in range(n)}

    def gap_at(s: int, vp: int, cost: int) -> int:
        if parts is None:
            return abs(vp + cost // 10 - view["scores"][s])
        return abs(vp - parts[s]["vp"]) + abs(cost - parts[s]["cost"])

    def gap_of(s: int) -> int:
        return gap_at(s, *have[s])

    def traded(s: int, lose: str, gain: str) -> tuple[int, int]:
        """Seat ``s``'s (objective points, owned cost) with card ``lose`` swapped for ``gain``."""
        (vp_lose, cost_lose, _), (vp_gain, cost_gain, _) = WORTH[lose], WORTH[gain]
        return have[s][0] - vp_lose + vp_gain, have[s][1] - cost_lose + cost_gain

    for s in range(n):
        mine = slots[s]
        if not mine or gap_of(s) == 0:
            continue
        others = [(slot, None) for slot in outside]
        others += [(slot, t) for t in range(n) if t != s for slot in slots[t]]
        for _ in range(REPAIR_TRIES):
            gap = gap_of(s)
            if gap == 0:
                break
            a = mine[rng.randrange(len(mine))]
            ca = a[0][a[1]]
            best = None
            for _k in range(24):
                b, owner = others[rng.randrange(len(others))]
                cb = b[0][b[1]]
                if ca == cb or not _fits(a, cb) or not _fits(b, ca):
                    continue
                after = gap_at(s, *traded(s, ca, cb))
                harm = owner is not None and gap_at(owner, *traded(owner, cb, ca)) > gap_of(owner)
                if not harm and after <= gap and (best is None or after < best[0]):
                    best = (after, b, owner)
            if best is not None:
                _after, b, owner = best
                cb = b[0][b[1]]
                have[s] = list(traded(s, ca, cb))
                if owner is not None:
                    have[owner] = list(traded(owner, cb, ca))
                a[0][a[1]], b[0][b[1]] = cb, ca
