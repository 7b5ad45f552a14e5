"""What a seat may see, and the move log's lines.

``build_view(state, seat)`` returns (keys are stable; the board template reads them):

- ``hand``: the viewer's own card codes (absent for a spectator).
- ``zones``: recruitment zones 1..6, a code or null each.
- ``zone_costs``: the cost of each zone's card for the active player now (after Influence,
  discounts and surcharge), ``{"badass", "kawaii", "craft", "any"}`` or null.
- ``objectives``: one entry per pile, ``{"level", "card", "cost"}`` or null (fulfilled this turn,
  or closed after level 3).
- ``objective_decks``: cards left per level, ``{"1": n, "2": n, "3": n}``.
- ``influences``: codes whose Influence is active now.
- ``scores``: projected score per seat (objective points + 1 per full 10 of recruitment cost owned).
- ``score_parts``: per seat ``{"vp": objective points, "cost": recruitment cost owned, "bonus": cost // 10}``.
- ``library``: cards left in the library; ``graveyard``: ``{"count", "top"}``;
  ``drama``: the Drama reserve, ``{"count", "top", "cost"}`` (a face-up pile).
- ``seats``: per seat ``{"seat", "hand_size", "reserve", "discard": {"count", "top"},
  "assist": [{"card", "equip": [codes], "combo": bool, "points": {res: n} or null}] (face-up cards;
  ``points`` is what a face-up character pays with, equipment and duo/trio bonus included; null for
  cards that cannot pay), "face_down": n,
  "objectives": n fulfilled, "turns": n}``; the owner's own entry also has ``face_down_cards``
  (their own face-down codes) and ``discard_cards`` (the whole discard, for trashing).
- the shared keys: ``seat`` (the viewer, None for a spectator), ``players``, ``to_act`` (the seat
  awaited, [] once over), ``over``, ``result`` (None until over), ``hand_sizes`` (per seat), ``turn``
  (the turn counter, from 1), ``phase`` ("preparation": phase 1, cards from hand may be placed;
  "recruitment": phase 2; "over"),
- ``drawn``: for a seat's own view, the cards of its hand drawn during its turn (placed at its
  next preparation phase at the earliest; [] when it is not the viewer's turn).
- ``turn_state``: the active player's ``{"bonus": {res: n}, "discount": {what: n}, "surcharge", "fatigue"}``.
- ``points``: for the viewer, the points their hand and face-up assistance cards plus the bonus
  could pay now, ``{"badass", "kawaii", "craft", "wild"}`` (absent for a spectator).
- ``pending``: the choice awaited, ``{"kind": "drama"|"trash"|"clear", "seat", "n", "source"}`` or null
  (``source`` is null for others when the card that asks lies face down, e.g. just recruited).
- ``needs``: for the active seat only (absent otherwise), what each payable action still needs after
  the turn's bonus points: ``{"zones": [need or null] * 6, "objectives": [need or null],
  "drama": need or null, "poach": {"<seat>": {code: need}}}``, a need being
  ``{"badass", "kawaii", "craft", "any"}`` (the payment UI's tally; the engine still judges the move).
- once over, ``result``: ``{"scores", "winners"}``.
"""

from __future__ import annotations

from rules.cosplay.cards import CARDS, RESOURCES, show_amounts
from rules.cosplay.moves import PAYABLE_KIND
from rules.cosplay.payments import (
    _apply_bonus,
    combo_active,
    effective_cost,
    entry_points,
    influences,
    payers,
)
from rules.cosplay.scoring import score, score_parts, winners


def _seat_view(state: dict, s: int, viewer: int | None) -> dict:
    me = state["seats"][s]
    out = {
        "seat": s,
        "hand_size": len(me["hand"]),
        "reserve": len(me["reserve"]),
        "discard": {"count": len(me["discard"]), "top": me["discard"][-1] if me["discard"] else None},
        "assist": [
            {
                "card": e["card"],
                "equip": list(e["equip"]),
                "combo": combo_active(state, s, e["card"]),
                "points": entry_points(state, s, e) if CARDS[e["card"]]["kind"] == "character" else None,
            }
            for e in me["assist"]
            if e["up"]
        ],
        "face_down": sum(1 for e in me["assist"] if not e["up"]),
        "objectives": score_parts(state, s)[2],
        "turns": state["turns"][s],
    }
    if viewer == s:
        out["face_down_cards"] = [e["card"] for e in me["assist"] if not e["up"]]
        out["discard_cards"] = list(me["discard"])
    return out


def _pending(state: dict, seat: int | None) -> dict | None:
    """The awaited choice; its source card is named only if the viewer may see it (not face down)."""
    pending = state["pending"]
    if pending is None:
        return None
    source = pending["source"]
    for s, me in enumerate(state["seats"]):
        for entry in me["assist"]:
            if entry["card"] == source and not entry["up"] and s != seat:
                source = None
    return {**pending, "source": source}


def _score_parts(state: dict, s: int) -> dict:
    vp, cost, _count = score_parts(state, s)
    return {"vp": vp, "cost": cost, "bonus": cost // 10}


def _needs(state: dict) -> dict:
    """What each payable action still needs after the active seat's bonus points."""

    def need(what: str, base: dict) -> dict:
        return _apply_bonus(effective_cost(state, what, base), state["tp"]["bonus"])[0]

    def card_need(code: str | None) -> dict | None:
        return need(CARDS[code]["kind"], CARDS[code]["cost"]) if code else None

    poach = {}
    for s, me in enumerate(state["seats"]):
        if s != state["active"]:
            poach[str(s)] = {
                e["card"]: card_need(e["card"])
                for e in me["assist"]
                if e["up"] and CARDS[e["card"]]["kind"] in PAYABLE_KIND
            }
    return {
        "zones": [card_need(c) for c in state["zones"]],
        "objectives": [
            need("objective", CARDS[p["card"]]["cost"]) if p["card"] else None for p in state["objectives"]
        ],
        "drama": need("drama", CARDS[state["drama"][-1]]["cost"]) if state["drama"] else None,
        "poach": poach,
    }


def build_view(state: dict, seat: int | None) -> dict:
    players = state["players"]
    zone_costs = [
        effective_cost(state, CARDS[c]["kind"], CARDS[c]["cost"]) if c else None for c in state["zones"]
    ]
    view = {
        "seat": seat,
        "players": players,
        "to_act": [] if state["over"] else [state["active"]],
        "over": state["over"],
        "result": None,
        "hand_sizes": [len(me["hand"]) for me in state["seats"]],
        "zones": list(state["zones"]),
        "zone_costs": zone_costs,
        "objectives": [
            {
                "level": p["level"],
                "card": p["card"],
                "cost": effective_cost(state, "objective", CARDS[p["card"]]["cost"]),
            }
            if p["card"]
            else None
            for p in state["objectives"]
        ],
        "objective_decks": {k: len(v) for k, v in state["obj_decks"].items()},
        "influences": influences(state),
        "scores": [score(state, s) for s in range(players)],
        "score_parts": [_score_parts(state, s) for s in range(players)],
        "library": len(state["library"]),
        "graveyard": {
            "count": len(state["graveyard"]),
            "top": state["graveyard"][-1] if state["graveyard"] else None,
        },
        "drama": {
            "count": len(state["drama"]),
            "top": state["drama"][-1] if state["drama"] else None,
            "cost": effective_cost(state, "drama", CARDS[state["drama"][-1]]["cost"])
            if state["drama"]
            else None,
        },
        "seats": [_seat_view(state, s, seat) for s in range(players)],
        "turn": state["turn"],
        "phase": "over" if state["over"] else state["phase"],
        "turn_state": {
            "bonus": dict(state["tp"]["bonus"]),
            "discount": dict(state["tp"]["discount"]),
            "surcharge": state["tp"]["surcharge"],
            "fatigue": state["tp"]["fatigue"],
        },
        "pending": _pending(state, seat),
    }
    if seat is not None:
        view["hand"] = list(state["seats"][seat]["hand"])
        # the viewer's own cards drawn this turn: they wait for the next preparation phase
        mine = seat == state["active"] and not state["over"]  # the turn's own figures are the viewer's
        view["drawn"] = list(state["tp"]["drawn"]) if mine else []
        points = {k: 0 for k in (*RESOURCES, "wild")}
        for _code, _where, vec in payers(state, seat):
            for k, v in vec.items():
                points[k] += v
        if mine:
            for r in RESOURCES:
                points[r] += state["tp"]["bonus"][r]
        view["points"] = points
        if mine:
            view["needs"] = _needs(state)
    if state["over"]:
        scores = view["scores"]
        view["result"] = {"scores": scores, "winners": winners(state, scores)}
    return view


# --- The move log ------------------------------------------------------------------------------


def _name(code: str) -> str:
    return CARDS[code]["name"]


def _names(codes: list[str]) -> str:
    return ", ".join(_name(c) for c in codes) if codes else "nothing"


def narrate(
    before: dict, seat: int, move: dict, after: dict, names: list[str], viewer: int | None
) -> list[str]:
    lines = []
    for ev in after.get("events", []):
        k = ev["k"]
        who = names[ev["seat"]] if "seat" in ev else ""
        if k == "place":
            lines.append(f"{who} placed {_name(ev['card'])} in their assistance zone")
        elif k == "attach":
            lines.append(f"{who} attached {_name(ev['card'])} to {_name(ev['to'])}")
        elif k == "activate":
            verb = "sacrificed" if ev["kind"] == "sacrifice" else "discarded"
            lines.append(f"{who} {verb} {_name(ev['card'])} for its ability")
        elif k == "recruit":
            lines.append(
                f"{who} recruited {_name(ev['card'])} from zone {ev['zone']} (paid with {_names(ev['pay'])})"
            )
        elif k == "objective":
            lines.append(
                f"{who} fulfilled {_name(ev['card'])} (+{CARDS[ev['card']]['vp']} objective points; paid with {_names(ev['pay'])})"
            )
        elif k == "poach":
            lines.append(
                f"{who} poached {_name(ev['card'])} from {names[ev['victim']]} with {_name(ev['enabler'])} (paid with {_names(ev['pay'])})"
            )
        elif k == "drama":
            lines.append(f"{who} sent Drama {_name(ev['card'])} to {names[ev['target']]}'s discard")
        elif k == "gain":
            lines.append(f"{who} gains {show_amounts({ev['res']: ev['n']})} this turn")
        elif k == "discount":
            lines.append(
                f"{who}'s next {'payment' if ev['what'] == 'any' else ev['what']} costs {ev['n']} less"
            )
        elif k == "draw":
            if viewer == ev["seat"]:
                lines.append(f"You drew {_names(ev['cards'])}")
            else:
                n = len(ev["cards"])
                lines.append(f"{who} drew {n} card{'s' if n > 1 else ''}")
        elif k == "reshuffle":
            lines.append(f"{who} reshuffled their discard into a new reserve")
        elif k == "trash":
            lines.append(f"{who} put {_name(ev['card'])} from their {ev['where']} into the graveyard")
        elif k == "clear":
            lines.append(f"{who} sent {_name(ev['card'])} from zone {ev['zone']} to the graveyard")
        elif k == "turned_up":
            lines.append(f"{who} turned up {_names(ev['cards'])}")
        elif k == "graveyard":
            lines.append(f"{_name(ev['card'])} left zone 6 for the graveyard")
        elif k == "refill":
            lines.append(f"New in the recruitment zones: {_names(ev['cards'])}")
        elif k == "short":
            lines.append("The library can no longer refill the recruitment zones")
        elif k == "new_objective":
            lines.append(f"Objective pile {ev['pile'] + 1}: {_name(ev['card'])} (level {ev['level']})")
        elif k == "closed_objective":
            lines.append(f"Objective pile {ev['pile'] + 1} is closed")
        elif k == "drama_back":
            lines.append(f"{who} returned {_names(ev['cards'])} to the Drama reserve")
        elif k == "turn":
            lines.append(f"{who}'s turn")
        elif k == "over":
            scores = [score(after, s) for s in range(after["players"])]
            won = winners(after, scores)
            board = ", ".join(f"{names[s]} {scores[s]}" for s in range(after["players"]))
            lines.append(
                f"Game over ({board}): {' and '.join(names[s] for s in won)} win{'s' if len(won) == 1 else ''}"
            )
    if move.get("type") == "end_turn":
        lines.insert(0, f"{names[seat]} ended their turn")
    if move.get("type") == "trash" and move.get("card") is None:
        lines.insert(0, f"{names[seat]} stopped putting cards into the graveyard")
    if move.get("type") == "clear" and move.get("zone") is None:
        lines.insert(0, f"{names[seat]} left the recruitment zones as they were")
    return lines
