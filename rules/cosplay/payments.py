"""Cosplay payments: what a card costs now, who can pay, checking a payment, the least-wasteful one.

Payments name cards by code: ``"pay": ["st-badass", "st-badass", "c07-chrome-samurai"]``. A code
is looked up in the payer's hand first, then among the face-up cards of their assistance zone;
starter copies are interchangeable, and every other card exists once, so a code names one card.
A character named from the assistance zone pays with its attached equipment and its duo/trio bonus.
"""

from __future__ import annotations

from typing import NoReturn

from rules.core import IllegalMove, each_language, require
from rules.cosplay.cards import CARDS, RESOURCES, card_name, show_amounts

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
        require(
            isinstance(code, str) and code in CARDS, "Unknown card in the payment: {code}.", code=repr(code)
        )
        kind = CARDS[code]["kind"]
        if code in hand:
            hand.remove(code)
            if kind not in ("starter", "character"):
                _cannot_pay(code, kind)
            out.append((code, "hand", CARDS[code]["points"]))
            continue
        entry = assist_entry(state, seat, code)
        if entry is None or code in taken_assist:
            raise IllegalMove("You have no {card} to pay with.", card=each_language(card_name, code))
        if not entry["up"]:
            raise IllegalMove("{card} is still face down.", card=each_language(card_name, code))
        if kind != "character":
            _cannot_pay(code, kind)
        taken_assist.add(code)
        out.append((code, "assist", entry_points(state, seat, entry)))
    return out


def _cannot_pay(code: str, kind: str) -> NoReturn:
    """Refuse a card named in a payment that does not pay (equipment pays through its character).
    A refusal's words are worked out only when it is raised: payments are checked at every move."""
    name = each_language(card_name, code)
    require(kind != "equipment", "{card} must be attached to a character before it can pay.", card=name)
    raise IllegalMove("{card} cannot pay for anything.", card=name)


def check_payment(state: dict, seat: int, what: str, base: dict, pay, exclude: list[str] = ()) -> dict:
    """Validate a payment for one card; returns the plan that ``pay_for`` carries out."""
    need, used = _apply_bonus(effective_cost(state, what, base), state["tp"]["bonus"])
    items = resolve_payment(state, seat, pay, exclude)
    # a message is written only for a payment that fails (show_amounts costs more than the checks)
    for code, _where, vec in items:
        if not useful(need, vec):
            raise IllegalMove(
                "{card} gives no point this payment can use ({points} for {need}).",
                card=each_language(card_name, code),
                points=each_language(show_amounts, vec),
                need=each_language(show_amounts, need),
            )
    if not covers(need, [v for _c, _w, v in items]):
        raise IllegalMove(
            "Not enough points: {need} still needed after your bonus points.",
            need=each_language(show_amounts, need),
        )
    return {
        "what": what,
        "items": [(c, w) for c, w, _v in items],
        "bonus": used,
        "need": need,
        "exclude": list(exclude),
    }


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
    if rows is None:
        rows = payment_rows(state, seat, exclude)
    elif exclude:
        rows = _without(rows, exclude)
    return _least_payment(need["badass"], need["kawaii"], need["craft"], need["any"], rows)


def _without(payment: tuple[list[tuple], list[int]], exclude: list[str]) -> tuple[list[tuple], list[int]]:
    """``payment_rows`` less one row per code of ``exclude`` (a hand copy before an assistance one,
    as ``payers`` leaves them out), with the summed points worked out again."""
    rows, _reach = payment
    left = list(rows)
    for code in exclude:
        matches = [r for r in left if r[0] == code]
        if matches:
            drop = next((r for r in matches if r[1] == "hand"), matches[0])
            left = [r for r in left if r is not drop]
    reach = [sum(r[i] for r in left) for i in (3, 4, 5, 6)]
    return left, reach


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
