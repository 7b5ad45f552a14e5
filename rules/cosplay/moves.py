"""Cosplay moves: the one validator (``check_move``) and the moves on offer (``candidate_moves``).

Both read the same helpers, so the page offers exactly what ``apply`` accepts.
"""

from __future__ import annotations

import functools

from rules.core import IllegalMove, each_language, require
from rules.cosplay import effects as fx
from rules.cosplay.cards import CARDS, card_name, where_name
from rules.cosplay.payments import (
    assist_entry,
    canonical_payment,
    check_payment,
    cost_mods,
    payment_rows,
)

ZONES = 6
PAYABLE_KIND = {"character": "character", "equipment": "equipment"}
CHOICE_MOVE = {"drama": "target", "trash": "trash", "clear": "clear"}
PREPARATION, RECRUITMENT = "preparation", "recruitment"
# Moves that leave the preparation phase open: placing cards from hand (phase 1's own move),
# attaching equipment in the assistance zone, and answering a choice a placed card's Support asked.
PREPARATION_MOVES = frozenset({"place", "attach", *CHOICE_MOVE.values()})
# The kinds of card that may be placed from the hand into the assistance zone.
PLACEABLE = ("character", "equipment", "objective")


def sudden_end(state: dict) -> bool:
    """The house rule ``sudden_end``: the game ends with the turn that reaches the end, instead of the
    round being played out so that every player has had as many turns (RULINGS). A state saved before
    the option's name changed holds ``finish_round`` (false: the sudden end, then the default), and one
    saved before any option existed holds neither and played the sudden end."""
    opts = state["options"]
    if "sudden_end" in opts:
        return bool(opts["sudden_end"])
    return not opts.get("finish_round", False)


def round_ender(state: dict) -> int:
    """The seat whose turn ends a round (seat 0 always plays first)."""
    return state["players"] - 1


def last_round(state: dict) -> bool:
    """The end is reached (RULINGS): the library could not refill the zones, or no objective remains
    (a pile fulfilled this turn is not empty yet: it refills at the end of the turn, unless it closes).
    The game then ends with the round's last turn, or with the turn that reached it under ``sudden_end``."""
    return state["short"] or not any(p["card"] or p["done"] for p in state["objectives"])


def _int(value, message: str) -> int:
    require(isinstance(value, int) and not isinstance(value, bool), message)
    return value


def _opponent(state: dict, seat: int, value) -> int:
    target = _int(value, "Name another player's seat.")
    require(0 <= target < state["players"] and target != seat, "Name another player's seat.")
    return target


def ability_of(code: str) -> dict | None:
    return CARDS[code]["ability"]


@functools.cache  # a card's ability never changes: worked out once per code
def is_poacher(code: str) -> bool:
    ability = ability_of(code)
    return bool(ability) and any(e["effect"] == "poach" for e in ability["effects"])


@functools.cache
def activatable(code: str) -> bool:
    ability = ability_of(code)
    return bool(ability) and ability["kind"] in ("discard", "sacrifice") and not is_poacher(code)


def own_card_place(state: dict, seat: int, code) -> str | None:
    """Where ``seat`` has ``code`` ready to use: "hand", "assist" (face up, not attached) or None."""
    if not isinstance(code, str):
        return None
    me = state["seats"][seat]
    if code in me["hand"]:
        return "hand"
    entry = assist_entry(state, seat, code)
    if entry is not None and entry["up"]:
        return "assist"
    return None


def fits(state: dict, seat: int, equip: str, char: str) -> bool:
    """Encumbrance: each item on a character allows at most its own number of items there (None: no limit)."""
    entry = assist_entry(state, seat, char)
    items = [*entry["equip"], equip]
    return all(CARDS[e]["encumbrance"] is None or len(items) <= CARDS[e]["encumbrance"] for e in items)


def check_move(state: dict, seat: int, move: dict) -> dict:
    """The one validator: returns what the move does, or raises IllegalMove."""
    kind = move["type"]
    pending = state["pending"]
    # the words of a refusal (card names in every language) are worked out only when it is raised
    if pending is not None:
        if kind != CHOICE_MOVE[pending["kind"]]:
            raise IllegalMove(
                "First finish the choice asked by {card}.", card=each_language(card_name, pending["source"])
            )
    else:
        require(kind not in CHOICE_MOVE.values(), "Nothing asks for that choice now.")
    me = state["seats"][seat]

    if kind == "end_turn":
        return {}

    if kind == "place":
        code = move.get("card")
        require(isinstance(code, str) and code in me["hand"], "Place a card from your hand.")
        if CARDS[code]["kind"] not in PLACEABLE:
            raise IllegalMove(
                "{card} cannot go into the assistance zone.", card=each_language(card_name, code)
            )
        require(
            state["phase"] == PREPARATION,
            "Cards from your hand go into the assistance zone during the preparation phase only, "
            "before you recruit, use an ability or send Drama.",
        )
        if code in state["tp"]["drawn"]:
            raise IllegalMove(
                "{card} was drawn this turn: it can go into the assistance zone at your next preparation phase.",
                card=each_language(card_name, code),
            )
        return {"card": code}

    if kind == "attach":
        code, to = move.get("card"), move.get("to")
        entry = assist_entry(state, seat, code) if isinstance(code, str) else None
        require(
            entry is not None and entry["up"] and CARDS[code]["kind"] == "equipment",
            "Attach a face-up equipment card of your assistance zone.",
        )
        host = assist_entry(state, seat, to) if isinstance(to, str) else None
        require(
            host is not None and host["up"] and CARDS[to]["kind"] == "character",
            "Attach it to a face-up character of your assistance zone.",
        )
        if not fits(state, seat, code, to):
            raise IllegalMove(
                "{host} cannot carry {card} too (encumbrance).",
                host=each_language(card_name, to),
                card=each_language(card_name, code),
            )
        return {"card": code, "to": to}

    if kind == "activate":
        code = move.get("card")
        where = own_card_place(state, seat, code)
        require(
            where is not None, "Activate a card from your hand or a face-up card of your assistance zone."
        )
        if not activatable(code):
            raise IllegalMove("{card} has no ability you can activate.", card=each_language(card_name, code))
        return {"card": code, "where": where}

    if kind == "recruit":
        zone = _int(move.get("zone"), "Name a recruitment zone, 1 to 6.")
        require(1 <= zone <= ZONES and state["zones"][zone - 1], "That recruitment zone is empty.")
        code = state["zones"][zone - 1]
        what = CARDS[code]["kind"]
        plan = check_payment(state, seat, what, CARDS[code]["cost"], move.get("pay"))
        return {"card": code, "zone": zone, "plan": plan}

    if kind == "objective":
        pile = _int(move.get("pile"), "Name an objective pile.")
        require(
            0 <= pile < len(state["objectives"]) and state["objectives"][pile]["card"],
            "That objective pile is empty.",
        )
        code = state["objectives"][pile]["card"]
        plan = check_payment(state, seat, "objective", CARDS[code]["cost"], move.get("pay"))
        return {"card": code, "pile": pile, "plan": plan}

    if kind == "drama":
        target = _opponent(state, seat, move.get("seat"))
        require(state["drama"], "The Drama reserve is empty.")
        plan = check_payment(state, seat, "drama", CARDS[state["drama"][-1]]["cost"], move.get("pay"))
        return {"target": target, "plan": plan}

    if kind == "poach":
        victim = _opponent(state, seat, move.get("seat"))
        code = move.get("card")
        entry = assist_entry(state, victim, code) if isinstance(code, str) else None
        require(
            entry is not None and entry["up"] and CARDS[code]["kind"] in PAYABLE_KIND,
            "Poach a face-up character or equipment card of that player's assistance zone.",
        )
        enabler = move.get("with")
        where = own_card_place(state, seat, enabler)
        require(
            where is not None and is_poacher(enabler),
            "Poaching needs La Passion or a card with a poach ability.",
        )
        plan = check_payment(
            state, seat, CARDS[code]["kind"], CARDS[code]["cost"], move.get("pay"), exclude=[enabler]
        )
        return {"card": code, "victim": victim, "with": enabler, "where": where, "plan": plan}

    if kind == "target":
        target = _opponent(state, seat, move.get("seat"))
        return {"target": target}

    if kind == "trash":
        code = move.get("card")
        if code is None:
            return {"card": None}
        where = move.get("from")
        require(where in ("hand", "discard"), 'Trash from "hand" or "discard".')
        if not (isinstance(code, str) and code in me[where]):
            raise IllegalMove("That card is not in your {where}.", where=each_language(where_name, where))
        return {"card": code, "from": where}

    if kind == "clear":
        zone = move.get("zone")
        if zone is None:
            return {"zone": None}
        zone = _int(zone, "Name a recruitment zone, 1 to 6.")
        require(1 <= zone <= ZONES and state["zones"][zone - 1], "That recruitment zone is empty.")
        return {"zone": zone}

    raise IllegalMove("Unknown move type {kind}.", kind=repr(kind))


def candidate_moves(state: dict, seat: int) -> list[dict]:
    """Every kind of move available, with one canonical payment per payable action."""
    pending = state["pending"]
    if pending is not None:
        if pending["kind"] == "drama":
            return [{"type": "target", "seat": s} for s in range(state["players"]) if s != seat]
        if pending["kind"] == "trash":
            return [{"type": "trash", "card": None}] + [
                {"type": "trash", "card": c, "from": w} for w, c in fx.trash_options(state, seat)
            ]
        return [{"type": "clear", "zone": None}] + [
            {"type": "clear", "zone": z + 1} for z in range(ZONES) if state["zones"][z]
        ]

    me = state["seats"][seat]
    moves: list[dict] = []
    in_hand = sorted(set(me["hand"]))
    if state["phase"] == PREPARATION:
        for code in in_hand:
            if CARDS[code]["kind"] in PLACEABLE and code not in state["tp"]["drawn"]:
                moves.append({"type": "place", "card": code})
    up_chars = [e["card"] for e in me["assist"] if e["up"] and CARDS[e["card"]]["kind"] == "character"]
    for entry in me["assist"]:
        if entry["up"] and CARDS[entry["card"]]["kind"] == "equipment":
            for char in up_chars:
                if fits(state, seat, entry["card"], char):
                    moves.append({"type": "attach", "card": entry["card"], "to": char})
    for code in in_hand + [e["card"] for e in me["assist"] if e["up"]]:
        if activatable(code):
            moves.append({"type": "activate", "card": code})
    # worked out once for every price below
    rows, mods = payment_rows(state, seat), cost_mods(state)
    for z, code in enumerate(state["zones"]):
        if code:
            pay = canonical_payment(
                state, seat, CARDS[code]["kind"], CARDS[code]["cost"], rows=rows, mods=mods
            )
            if pay is not None:
                moves.append({"type": "recruit", "zone": z + 1, "pay": pay})
    for i, pile in enumerate(state["objectives"]):
        if pile["card"]:
            pay = canonical_payment(
                state, seat, "objective", CARDS[pile["card"]]["cost"], rows=rows, mods=mods
            )
            if pay is not None:
                moves.append({"type": "objective", "pile": i, "pay": pay})
    if state["drama"]:
        pay = canonical_payment(state, seat, "drama", CARDS[state["drama"][-1]]["cost"], rows=rows, mods=mods)
        if pay is not None:
            moves += [{"type": "drama", "seat": s, "pay": pay} for s in range(state["players"]) if s != seat]
    enablers = [c for c in in_hand if is_poacher(c)]
    enablers += [e["card"] for e in me["assist"] if e["up"] and is_poacher(e["card"])]
    if enablers:
        enabler = enablers[0]
        rows = payment_rows(state, seat, exclude=[enabler])
        for victim in range(state["players"]):
            if victim == seat:
                continue
            for entry in state["seats"][victim]["assist"]:
                code = entry["card"]
                if entry["up"] and CARDS[code]["kind"] in PAYABLE_KIND:
                    pay = canonical_payment(
                        state, seat, CARDS[code]["kind"], CARDS[code]["cost"], rows=rows, mods=mods
                    )
                    if pay is not None:
                        moves.append(
                            {"type": "poach", "seat": victim, "card": code, "with": enabler, "pay": pay}
                        )
    moves.append({"type": "end_turn"})
    return moves
