"""Cosplay Team Battle: the engine (rulebook 003 as fixed by RULINGS.md).

State (a plain dict, besides BaseGame's seed/draws/players/options):

- ``library``: codes, top first; ``zones``: recruitment zones 1..6 (index 0 = zone 1), code or None;
  ``graveyard``: codes, top last; ``drama``: the Drama reserve, top last.
- ``objectives``: one pile each: ``{"level", "card" (code or None), "done"}``; ``obj_decks``: the
  shuffled objective decks by level ("1", "2", "3"), top first.
- ``seats``: per seat ``hand``, ``reserve`` (top first), ``discard`` (top last) and ``assist``:
  a list of ``{"card", "up", "equip": [codes]}`` (equipment attached to a character sits in its
  ``equip``; an unattached equipment is an entry of its own).
- ``active``, ``turn`` (1, 2, ... over the whole game), ``turns`` (per seat), ``tp`` (the turn's bonus
  points, discounts, surcharge, fatigue), ``queue`` (effects waiting to run), ``pending`` (a choice
  awaited from the active seat), ``short`` (the library could not refill the zones), ``over``,
  ``events`` (what the last move did, for ``narrate``).

Payments name cards by code: ``"pay": ["st-badass", "st-badass", "c07-chrome-samurai"]``. A code
is looked up in the payer's hand first, then among the face-up cards of their assistance zone;
starter copies are interchangeable, and every other card exists once, so a code names one card.
A character named from the assistance zone pays with its attached equipment and its duo/trio bonus.
"""

from __future__ import annotations

import functools

from rules import core
from rules.core import IllegalMove, require
from rules.cosplay import effects as fx
from rules.cosplay.cards import (
    CARDS,
    DRAMA_CODES,
    LIBRARY,
    OBJECTIVE_LEVELS,
    RESOURCES,
    STARTER_DECK,
    show_amounts,
)
from rules.cosplay.effects import event

HAND_SIZE = 5
ZONES = 6
PAYABLE_KIND = {"character": "character", "equipment": "equipment"}
CHOICE_MOVE = {"drama": "target", "trash": "trash", "clear": "clear"}


def fresh_turn() -> dict:
    return {"bonus": {r: 0 for r in RESOURCES}, "discount": {}, "surcharge": 0, "fatigue": 0}


# --- Costs and points ----------------------------------------------------------------------


def influences(state: dict) -> list[str]:
    """Cards whose Influence is active now: in a recruitment zone or on an objective pile."""
    out = [c for c in state["zones"] if c]
    out += [p["card"] for p in state["objectives"] if p["card"]]
    return [c for c in out if CARDS[c]["ability"] and CARDS[c]["ability"]["kind"] == "influence"]


def cost_mods(state: dict) -> list[tuple[str, str, int]]:
    """The cost changes in force now, in order, as ``(what, res, delta)`` (from ``influences``)."""
    return [
        (item["args"]["what"], item["args"]["res"], item["args"]["delta"])
        for code in influences(state)
        for item in CARDS[code]["ability"]["effects"]
        if item["effect"] == "cost_mod"
    ]


def effective_cost(state: dict, what: str, base: dict, mods: list | None = None) -> dict:
    """The cost of a card of kind ``what`` (character, equipment, objective, drama) for the active seat now.

    ``mods``: ``cost_mods(state)``, when the caller prices several cards of one state."""
    get = base.get
    cost = {
        "badass": get("badass", 0),
        "kawaii": get("kawaii", 0),
        "craft": get("craft", 0),
        "any": get("any", 0),
    }
    for mod_what, res, delta in cost_mods(state) if mods is None else mods:
        if mod_what != what:
            continue
        if delta < 0:
            cost[res] = max(0, cost[res] + delta)
        elif cost[res] > 0 or res == "any":
            cost[res] += delta
    discount = state["tp"]["discount"]
    off = discount.get(what, 0) + discount.get("any", 0) if discount else 0
    while off > 0 and any(cost.values()):
        if cost["any"]:
            key = "any"
        else:
            key = max(RESOURCES, key=lambda r: (cost[r], -RESOURCES.index(r)))
        cost[key] -= 1
        off -= 1
    cost["any"] += state["tp"]["surcharge"]
    return cost


def assist_entry(state: dict, seat: int, code: str) -> dict | None:
    for entry in state["seats"][seat]["assist"]:
        if entry["card"] == code:
            return entry
    return None


def combo_active(state: dict, seat: int, code: str) -> bool:
    combo = CARDS[code]["combo"]
    if not combo:
        return False
    up = {e["card"] for e in state["seats"][seat]["assist"] if e["up"]}
    return all(p in up for p in combo["partners"])


def entry_points(state: dict, seat: int, entry: dict) -> dict:
    """What a face-up character of the assistance zone gives: its points, its equipment's, its combo's."""
    total = dict(CARDS[entry["card"]]["points"])
    for extra in [CARDS[e]["points"] for e in entry["equip"]] + (
        [CARDS[entry["card"]]["combo"]["bonus"]] if combo_active(state, seat, entry["card"]) else []
    ):
        for k, v in extra.items():
            total[k] = total.get(k, 0) + v
    return total


def _apply_bonus(need: dict, bonus: dict) -> tuple[dict, dict]:
    """Bonus points of the turn cover the cost first; returns the remaining need and the bonus used."""
    need = dict(need)
    used = dict.fromkeys(RESOURCES, 0)
    if not (bonus["badass"] or bonus["kawaii"] or bonus["craft"]):
        return need, used  # no bonus point this turn (most of the time)
    for r in RESOURCES:
        take = min(bonus[r], need[r])
        used[r] += take
        need[r] -= take
    for r in RESOURCES:
        take = min(bonus[r] - used[r], need["any"])
        used[r] += take
        need["any"] -= take
    return need, used


def useful(need: dict, vec: dict) -> bool:
    """Whether a card's points ``vec`` help pay ``need`` at all."""
    points = (vec.get("badass", 0), vec.get("kawaii", 0), vec.get("craft", 0), vec.get("wild", 0))
    return _useful(need["badass"], need["kawaii"], need["craft"], need["any"], *points, any(vec.values()))


def _useful(nb: int, nk: int, nc: int, na: int, b: int, k: int, c: int, w: int, nonzero: bool) -> bool:
    """``useful`` for a need and points given as numbers (``nonzero``: the card has any point at all)."""
    if w or na > 0:
        return nonzero
    return (b > 0 and nb > 0) or (k > 0 and nk > 0) or (c > 0 and nc > 0)


def payers(state: dict, seat: int, exclude: list[str] = ()) -> list[tuple[str, str, dict]]:
    """Every card ``seat`` could pay with now: (code, "hand" | "assist", points), one row per copy."""
    me = state["seats"][seat]
    left = list(exclude)
    out = []
    for code in me["hand"]:
        if code in left:
            left.remove(code)
            continue
        if CARDS[code]["kind"] in ("starter", "character"):
            out.append((code, "hand", CARDS[code]["points"]))
    for entry in me["assist"]:
        if entry["card"] in left:
            left.remove(entry["card"])
            continue
        if entry["up"] and CARDS[entry["card"]]["kind"] == "character":
            out.append((entry["card"], "assist", entry_points(state, seat, entry)))
    return out


def resolve_payment(state: dict, seat: int, pay, exclude: list[str] = ()) -> list[tuple[str, str, dict]]:
    """The cards ``pay`` names, or IllegalMove."""
    require(isinstance(pay, list), "A payment is a list of card codes.")
    me = state["seats"][seat]
    hand = list(me["hand"])
    for code in exclude:
        if code in hand:
            hand.remove(code)
    taken_assist: set[str] = set(exclude)
    out = []
    for code in pay:
        require(isinstance(code, str) and code in CARDS, f"Unknown card in the payment: {code!r}.")
        name = CARDS[code]["name"]
        kind = CARDS[code]["kind"]
        if code in hand:
            hand.remove(code)
            require(kind != "equipment", f"{name} must be attached to a character before it can pay.")
            require(kind in ("starter", "character"), f"{name} cannot pay for anything.")
            out.append((code, "hand", CARDS[code]["points"]))
            continue
        entry = assist_entry(state, seat, code)
        require(entry is not None and code not in taken_assist, f"You have no {name} to pay with.")
        require(entry["up"], f"{name} is still face down.")
        require(kind != "equipment", f"{name} must be attached to a character before it can pay.")
        require(kind == "character", f"{name} cannot pay for anything.")
        taken_assist.add(code)
        out.append((code, "assist", entry_points(state, seat, entry)))
    return out


def check_payment(state: dict, seat: int, what: str, base: dict, pay, exclude: list[str] = ()) -> dict:
    """Validate a payment for one card; returns the plan that ``pay_for`` carries out."""
    need, used = _apply_bonus(effective_cost(state, what, base), state["tp"]["bonus"])
    items = resolve_payment(state, seat, pay, exclude)
    # a message is written only for a payment that fails (show_amounts costs more than the checks)
    for code, _where, vec in items:
        if not useful(need, vec):
            raise IllegalMove(
                f"{CARDS[code]['name']} gives no point this payment can use "
                f"({show_amounts(vec)} for {show_amounts(need)})."
            )
    if not covers(need, [v for _c, _w, v in items]):
        raise IllegalMove(f"Not enough points: {show_amounts(need)} still needed after your bonus points.")
    return {"what": what, "items": [(c, w) for c, w, _v in items], "bonus": used}


def canonical_payment(
    state: dict,
    seat: int,
    what: str,
    base: dict,
    exclude: list[str] = (),
    rows: tuple[list[tuple], list[int]] | None = None,
    mods: list | None = None,
) -> list[str] | None:
    """A least-wasteful payment (greedy: starters first, then hand characters, then the assistance zone), or None.

    ``rows`` (``payment_rows(state, seat, exclude)``) and ``mods`` (``cost_mods(state)``) may be given
    when the caller prices several cards of one state (``candidate_moves``)."""
    need, _used = _apply_bonus(effective_cost(state, what, base, mods), state["tp"]["bonus"])
    return _least_payment(
        need["badass"],
        need["kawaii"],
        need["craft"],
        need["any"],
        payment_rows(state, seat, exclude) if rows is None else rows,
    )


def _least_payment(
    nb: int, nk: int, nc: int, na: int, payment: tuple[list[tuple], list[int]]
) -> list[str] | None:
    """``canonical_payment`` for a need of ``(badass, kawaii, craft, any)`` points from ``payment_rows``."""
    rows, reach = payment
    if _lacking(nb, nk, nc, na, *reach):
        # not even all the cards together pay (more points never lack more): the usual answer
        return None
    rows = [r for r in rows if _useful(nb, nk, nc, na, *r[3:8])]
    total = [0, 0, 0, 0]
    for r in rows:
        total = [total[0] + r[3], total[1] + r[4], total[2] + r[5], total[3] + r[6]]
    if _lacking(nb, nk, nc, na, *total):
        return None

    chosen: list = []
    have = [0, 0, 0, 0]
    ordered = rows  # payment_rows sorted them by rank: filtering keeps that order
    lack = _lacking(nb, nk, nc, na, 0, 0, 0, 0)
    for row in ordered:
        if lack == 0:
            break
        after = _lacking(
            nb, nk, nc, na, have[0] + row[3], have[1] + row[4], have[2] + row[5], have[3] + row[6]
        )
        if after < lack:
            chosen.append(row)
            have = [have[0] + row[3], have[1] + row[4], have[2] + row[5], have[3] + row[6]]
            lack = after
    for row in ordered:
        if lack == 0:
            break
        if not any(r is row for r in chosen):
            chosen.append(row)
            have = [have[0] + row[3], have[1] + row[4], have[2] + row[5], have[3] + row[6]]
            lack = _lacking(nb, nk, nc, na, *have)
    for row in sorted(chosen, key=lambda r: (-r[8][1], -r[8][0])):
        rest = [have[0] - row[3], have[1] - row[4], have[2] - row[5], have[3] - row[6]]
        if _lacking(nb, nk, nc, na, *rest) == 0:
            chosen = [r for r in chosen if r is not row]
            have = rest
    return [r[0] for r in chosen]


def payment_rows(state: dict, seat: int, exclude: list[str] = ()) -> tuple[list[tuple], list[int]]:
    """``payers`` with what ``canonical_payment`` reads of each, worked out once: the rows
    ``(code, where, points, badass, kawaii, craft, wild, any point at all, rank)``, where rank orders
    the greedy choice (starters first, then hand characters, then the assistance zone; fewer points,
    then the code), in rank order, and the summed ``[badass, kawaii, craft, wild]`` of them all."""
    out = []
    reach = [0, 0, 0, 0]
    for code, where, vec in payers(state, seat, exclude):
        group = {"starter": 0, "character": 2}[CARDS[code]["kind"]] + (1 if vec.get("wild") else 0)
        rank = (group + (2 if where == "assist" else 0), sum(vec.values()), code)
        out.append(
            (
                code,
                where,
                vec,
                vec.get("badass", 0),
                vec.get("kawaii", 0),
                vec.get("craft", 0),
                vec.get("wild", 0),
                any(vec.values()),
                rank,
            )
        )
        reach = [reach[0] + out[-1][3], reach[1] + out[-1][4], reach[2] + out[-1][5], reach[3] + out[-1][6]]
    out.sort(key=lambda r: r[8])  # stable: equal ranks keep the order of ``payers``
    return out, reach


def _lacking(nb: int, nk: int, nc: int, na: int, b: int, k: int, c: int, w: int) -> int:
    """``shortfall`` of a need ``(badass, kawaii, craft, any)`` given the summed points."""
    deficit = spare = 0
    if b < nb:
        deficit += nb - b
    else:
        spare += b - nb
    if k < nk:
        deficit += nk - k
    else:
        spare += k - nk
    if c < nc:
        deficit += nc - c
    else:
        spare += c - nc
    wild_short = deficit - w
    free = spare + w - deficit
    any_short = na - free if free > 0 else na
    return (wild_short if wild_short > 0 else 0) + (any_short if any_short > 0 else 0)


def shortfall(need: dict, vectors: list[dict]) -> int:
    """How many points the cards still lack (0: they cover the cost)."""
    b = k = c = w = 0
    for v in vectors:
        b += v.get("badass", 0)
        k += v.get("kawaii", 0)
        c += v.get("craft", 0)
        w += v.get("wild", 0)
    return _lacking(need["badass"], need["kawaii"], need["craft"], need["any"], b, k, c, w)


def covers(need: dict, vectors: list[dict]) -> bool:
    return shortfall(need, vectors) == 0


def pay_for(state: dict, seat: int, plan: dict) -> None:
    """Carry out a checked payment: cards to the discard, bonus spent, discounts and surcharge used up."""
    me = state["seats"][seat]
    for code, where in plan["items"]:
        if where == "hand":
            me["hand"].remove(code)
            me["discard"].append(code)
        else:
            entry = assist_entry(state, seat, code)
            me["assist"].remove(entry)
            me["discard"].extend([code, *entry["equip"]])
    for r in RESOURCES:
        state["tp"]["bonus"][r] -= plan["bonus"][r]
    state["tp"]["discount"].pop(plan["what"], None)
    state["tp"]["discount"].pop("any", None)
    state["tp"]["surcharge"] = 0


# --- Scores ----------------------------------------------------------------------------------


def owned(state: dict, seat: int) -> list[str]:
    me = state["seats"][seat]
    out = me["hand"] + me["reserve"] + me["discard"]
    for entry in me["assist"]:
        out += [entry["card"], *entry["equip"]]
    return out


def score_parts(state: dict, seat: int) -> tuple[int, int, int]:
    """(objective points, recruitment cost of owned characters and equipment, objectives fulfilled)."""
    vp = cost = count = 0
    for code in owned(state, seat):
        card = CARDS[code]
        if card["kind"] == "objective":
            vp += card["vp"]
            count += 1
        elif card["kind"] in ("character", "equipment"):
            cost += sum(card["cost"].values())
    return vp, cost, count


def score(state: dict, seat: int) -> int:
    vp, cost, _count = score_parts(state, seat)
    return vp + cost // 10


# --- Moves -----------------------------------------------------------------------------------


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
    if pending is not None:
        require(
            kind == CHOICE_MOVE[pending["kind"]],
            f"First finish the choice asked by {CARDS[pending['source']]['name']}.",
        )
    else:
        require(kind not in CHOICE_MOVE.values(), "Nothing asks for that choice now.")
    me = state["seats"][seat]

    if kind == "end_turn":
        return {}

    if kind == "place":
        code = move.get("card")
        require(isinstance(code, str) and code in me["hand"], "Place a card from your hand.")
        require(
            CARDS[code]["kind"] in ("character", "equipment", "objective"),
            f"{CARDS[code]['name']} cannot go into the assistance zone.",
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
        require(
            fits(state, seat, code, to),
            f"{CARDS[to]['name']} cannot carry {CARDS[code]['name']} too (encumbrance).",
        )
        return {"card": code, "to": to}

    if kind == "activate":
        code = move.get("card")
        where = own_card_place(state, seat, code)
        require(
            where is not None, "Activate a card from your hand or a face-up card of your assistance zone."
        )
        require(activatable(code), f"{CARDS[code]['name']} has no ability you can activate.")
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
        require(isinstance(code, str) and code in me[where], f"That card is not in your {where}.")
        return {"card": code, "from": where}

    if kind == "clear":
        zone = move.get("zone")
        if zone is None:
            return {"zone": None}
        zone = _int(zone, "Name a recruitment zone, 1 to 6.")
        require(1 <= zone <= ZONES and state["zones"][zone - 1], "That recruitment zone is empty.")
        return {"zone": zone}

    raise IllegalMove(f"Unknown move type: {kind}.")


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
    for code in in_hand:
        if CARDS[code]["kind"] in ("character", "equipment", "objective"):
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


# --- Carrying moves out ------------------------------------------------------------------------


def remove_own(state: dict, seat: int, code: str, where: str) -> list[str]:
    """Take ``code`` out of ``seat``'s hand or assistance zone; returns the equipment it carried."""
    me = state["seats"][seat]
    if where == "hand":
        me["hand"].remove(code)
        return []
    entry = assist_entry(state, seat, code)
    me["assist"].remove(entry)
    return list(entry["equip"])


def execute(state: dict, seat: int, move: dict, plan: dict) -> None:
    kind = move["type"]
    me = state["seats"][seat]
    if kind == "end_turn":
        end_turn(state)
        return
    if kind == "place":
        me["hand"].remove(plan["card"])
        me["assist"].append({"card": plan["card"], "up": True, "equip": []})
        event(state, "place", seat=seat, card=plan["card"])
        fx.queue_ability(state, seat, plan["card"], "support")
    elif kind == "attach":
        me["assist"].remove(assist_entry(state, seat, plan["card"]))
        host = assist_entry(state, seat, plan["to"])
        # a new entry: states share entries (copy-on-write)
        me["assist"][me["assist"].index(host)] = {**host, "equip": [*host["equip"], plan["card"]]}
        event(state, "attach", seat=seat, card=plan["card"], to=plan["to"])
    elif kind == "activate":
        code = plan["card"]
        equip = remove_own(state, seat, code, plan["where"])
        me["discard"].extend(equip)
        if CARDS[code]["ability"]["kind"] == "sacrifice":
            state["graveyard"].append(code)
        else:
            me["discard"].append(code)
        event(state, "activate", seat=seat, card=code, kind=CARDS[code]["ability"]["kind"])
        fx.queue_ability(state, seat, code, CARDS[code]["ability"]["kind"])
    elif kind == "recruit":
        pay_for(state, seat, plan["plan"])
        state["zones"][plan["zone"] - 1] = None
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(state, "recruit", seat=seat, card=plan["card"], zone=plan["zone"], pay=move["pay"])
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "objective":
        pay_for(state, seat, plan["plan"])
        pile = state["objectives"][plan["pile"]]
        pile["card"] = None
        pile["done"] = True
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(state, "objective", seat=seat, card=plan["card"], pile=plan["pile"], pay=move["pay"])
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "drama":
        pay_for(state, seat, plan["plan"])
        fx.send_drama(state, seat, plan["target"], paid=True)
    elif kind == "poach":
        enabler = plan["with"]
        equip = remove_own(state, seat, enabler, plan["where"])
        me["discard"].extend(equip)
        if CARDS[enabler]["ability"]["kind"] == "sacrifice":
            state["graveyard"].append(enabler)
        else:
            me["discard"].append(enabler)
        pay_for(state, seat, plan["plan"])
        victim = state["seats"][plan["victim"]]
        entry = assist_entry(state, plan["victim"], plan["card"])
        victim["assist"].remove(entry)
        victim["discard"].extend(entry["equip"])
        me["assist"].append({"card": plan["card"], "up": False, "equip": []})
        event(
            state,
            "poach",
            seat=seat,
            card=plan["card"],
            victim=plan["victim"],
            enabler=enabler,
            pay=move["pay"],
        )
        fx.queue_ability(state, seat, plan["card"], "recruit")
    elif kind == "target":
        fx.send_drama(state, seat, plan["target"], paid=False)
        pending = state["pending"]
        pending["n"] -= 1
        if pending["n"] <= 0 or not state["drama"]:
            state["pending"] = None
    elif kind == "trash":
        pending = state["pending"]
        if plan["card"] is None:
            state["pending"] = None
        else:
            me[plan["from"]].remove(plan["card"])
            if CARDS[plan["card"]]["kind"] == "drama":
                state["drama"].append(plan["card"])
            else:
                state["graveyard"].append(plan["card"])
            event(state, "trash", seat=seat, card=plan["card"], where=plan["from"])
            pending["n"] -= 1
            if pending["n"] <= 0 or not fx.trash_options(state, seat):
                state["pending"] = None
    elif kind == "clear":
        if plan["zone"] is not None:
            code = state["zones"][plan["zone"] - 1]
            state["zones"][plan["zone"] - 1] = None
            state["graveyard"].append(code)
            event(state, "clear", seat=seat, card=code, zone=plan["zone"])
        state["pending"] = None
    fx.run_queue(state)


def end_turn(state: dict) -> None:
    """The initialisation phase (steps 1-5), the end check, then the next player's preparation."""
    seat = state["active"]
    zones = state["zones"]
    # 1. The card in zone 6 goes to the graveyard.
    if zones[ZONES - 1]:
        state["graveyard"].append(zones[ZONES - 1])
        event(state, "graveyard", card=zones[ZONES - 1])
        zones[ZONES - 1] = None
    # 2. Cards slide towards zone 6, closing every gap, in order.
    cards = [c for c in zones if c]
    zones[:] = [None] * (ZONES - len(cards)) + cards
    # 3. Empty zones refill from the library, the highest first.
    new = []
    for z in range(ZONES - 1, -1, -1):
        if zones[z] is None:
            if state["library"]:
                zones[z] = state["library"].pop(0)
                new.append(zones[z])
            else:
                state["short"] = True
    if new:
        event(state, "refill", cards=new)
    if state["short"]:
        event(state, "short")
    # 4. Fulfilled objectives give way to the next level.
    for i, pile in enumerate(state["objectives"]):
        if pile["done"]:
            pile["done"] = False
            deck = state["obj_decks"].get(str(pile["level"] + 1), [])
            if pile["level"] < 3 and deck:
                pile["level"] += 1
                pile["card"] = deck.pop(0)
                event(state, "new_objective", pile=i, card=pile["card"], level=pile["level"])
            else:
                event(state, "closed_objective", pile=i)
    # 5. Draw up to five (fewer after a Drama's fatigue), reshuffling the discard if needed.
    me = state["seats"][seat]
    target = max(2, HAND_SIZE - state["tp"]["fatigue"])
    fx.draw(state, seat, max(0, target - len(me["hand"])), reshuffle=True)
    state["queue"] = []
    if state["short"] or not any(p["card"] for p in state["objectives"]):
        state["over"] = True
        event(state, "over", reason="library" if state["short"] else "objectives")
        return
    start_turn(state, (seat + 1) % state["players"])


def start_turn(state: dict, seat: int) -> None:
    """Preparation: face-down cards turn up, Drama in hand goes back to the reserve (with its sting)."""
    state["active"] = seat
    state["turn"] += 1
    state["turns"][seat] += 1
    state["tp"] = fresh_turn()
    event(state, "turn", seat=seat)
    fx.turn_up(state, seat)
    me = state["seats"][seat]
    back = [c for c in me["hand"] if CARDS[c]["kind"] == "drama"]
    for code in back:
        me["hand"].remove(code)
        state["drama"].append(code)
        sting = CARDS[code]["sting"]
        if sting == "tax":
            state["tp"]["surcharge"] += 1
        elif sting == "fatigue":
            state["tp"]["fatigue"] += 1
    if back:
        event(state, "drama_back", seat=seat, cards=back)
    fx.run_queue(state)


# --- The game ----------------------------------------------------------------------------------


class Cosplay(core.BaseGame):
    slug = "cosplay"
    title = "Cosplay Team Battle"
    min_players = 2
    max_players = 4
    options: dict = {}

    def _setup(self, state: dict) -> dict:
        players = state["players"]
        library = core.shuffle(state, LIBRARY)
        zones = [None] * ZONES
        for z in range(ZONES - 1, -1, -1):
            zones[z] = library.pop(0)
        decks = {str(level): core.shuffle(state, OBJECTIVE_LEVELS[level]) for level in (1, 2, 3)}
        piles = [{"level": 1, "card": decks["1"].pop(0), "done": False} for _ in range(players + 1)]
        seats = []
        for _ in range(players):
            reserve = core.shuffle(state, STARTER_DECK)
            seats.append(
                {"hand": reserve[:HAND_SIZE], "reserve": reserve[HAND_SIZE:], "discard": [], "assist": []}
            )
        state.update(
            {
                "library": library,
                "zones": zones,
                "graveyard": [],
                "drama": core.shuffle(state, DRAMA_CODES),
                "obj_decks": decks,
                "objectives": piles,
                "seats": seats,
                "active": 0,
                "turn": 1,
                "turns": [1] + [0] * (players - 1),
                "tp": fresh_turn(),
                "queue": [],
                "pending": None,
                "short": False,
                "over": False,
                "events": [],
            }
        )
        return state

    def to_act(self, state: dict) -> list[int]:
        return [] if state["over"] else [state["active"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if state["over"] or seat != state["active"]:
            return []
        return candidate_moves(state, seat)

    def mutable_copy(self, state: dict) -> dict:
        """Copy-on-write: every pile, seat, objective pile, the turn's points, the queue and the pending
        choice are copied (``_apply`` changes them in place); ``events`` (a move starts a new list),
        ``options``, the queued effects' dicts and the assistance zones' entries (never changed: turning
        a card up or attaching equipment puts a new entry in its place) are shared."""
        new = dict(state)
        for key in ("library", "zones", "graveyard", "drama", "turns", "queue"):
            new[key] = list(state[key])
        new["obj_decks"] = {level: list(deck) for level, deck in state["obj_decks"].items()}
        new["objectives"] = [dict(pile) for pile in state["objectives"]]
        new["seats"] = [
            {
                **me,
                "hand": list(me["hand"]),
                "reserve": list(me["reserve"]),
                "discard": list(me["discard"]),
                "assist": list(me["assist"]),
            }
            for me in state["seats"]
        ]
        tp = state["tp"]
        new["tp"] = {**tp, "bonus": dict(tp["bonus"]), "discount": dict(tp["discount"])}
        if state["pending"] is not None:
            new["pending"] = dict(state["pending"])
        return new

    def _apply(self, state: dict, seat: int, move: dict) -> None:
        state["events"] = []
        plan = check_move(state, seat, move)
        execute(state, seat, move, plan)

    def is_over(self, state: dict) -> bool:
        return state["over"]

    def result(self, state: dict) -> dict:
        scores = [score(state, s) for s in range(state["players"])]
        return {"scores": scores, "winners": winners(state, scores)}

    def view(self, state: dict, seat: int | None) -> dict:
        from rules.cosplay.view import build_view

        return build_view(state, seat)

    def narrate(self, before, seat, move, after, names, viewer):
        from rules.cosplay.view import narrate

        return narrate(before, seat, move, after, names, viewer)


def winners(state: dict, scores: list[int]) -> list[int]:
    """Most points; ties go to more objectives fulfilled, then are shared."""
    best = max(scores)
    tied = [s for s in range(state["players"]) if scores[s] == best]
    counts = {s: score_parts(state, s)[2] for s in tied}
    most = max(counts.values())
    return [s for s in tied if counts[s] == most]
