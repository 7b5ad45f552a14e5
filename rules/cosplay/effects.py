"""Card effects: small named functions, looked up by the key written in the card table.

Each effect is ``fn(state, seat, args, source)``. An effect that needs a player's choice leaves a
``state["pending"]`` entry (answered by a move); the others act at once. Effects queued together
(one card's ability, or every Support card turning up) run in order through ``run_queue``.
"""

from __future__ import annotations

from rules import core
from rules.cosplay.cards import CARDS


def event(state: dict, _kind: str, **data) -> None:
    """Record what happened, as an event of ``rules.core`` (``kind``, then fields named by what they
    hold; ``to``: the seats that may read it); cleared at every move, read by ``Cosplay.events``."""
    state["events"].append({"kind": _kind, **data})


# --- Helpers shared by the engine and the effects ------------------------------------


def draw(state: dict, seat: int, n: int, reshuffle: bool) -> list[str]:
    """Draw up to ``n`` cards from the reserve; with ``reshuffle``, an empty reserve is rebuilt from the discard."""
    me = state["seats"][seat]
    drawn = []
    for _ in range(n):
        if not me["reserve"] and reshuffle and me["discard"]:
            me["reserve"] = core.shuffle(state, me["discard"])
            me["discard"] = []
            event(state, "reshuffle", seat=seat)
        if not me["reserve"]:
            break
        card = me["reserve"].pop(0)
        me["hand"].append(card)
        drawn.append(card)
    if drawn:
        # the others learn how many; only the drawer learns which
        others = [s for s in range(state["players"]) if s != seat]
        event(state, "drew", seat=seat, n=len(drawn), to=[*others, None])
        event(state, "drew_cards", seat=seat, cards=drawn, to=[seat])
    return drawn


def send_drama(state: dict, seat: int, target: int, paid: bool) -> None:
    card = state["drama"].pop()
    state["seats"][target]["discard"].append(card)
    event(state, "drama", seat=seat, target_seat=target, card=card, paid=paid)


def queue_ability(state: dict, seat: int, code: str, kind: str) -> None:
    """Queue the effects of ``code``'s ability if its activation kind is ``kind``."""
    ability = CARDS[code]["ability"]
    if ability and ability["kind"] == kind:
        for item in ability["effects"]:
            state["queue"].append(
                {"seat": seat, "effect": item["effect"], "args": item["args"], "source": code}
            )


def turn_up(state: dict, seat: int) -> list[str]:
    """Every face-down card of ``seat``'s assistance zone turns face up; Support abilities queue."""
    turned = []
    assist = state["seats"][seat]["assist"]
    for i, entry in enumerate(assist):
        if not entry["up"]:
            assist[i] = {**entry, "up": True}  # a new entry: states share entries (copy-on-write)
            turned.append(entry["card"])
    if turned:
        event(state, "turned_up", seat=seat, cards=turned)
    for code in turned:
        queue_ability(state, seat, code, "support")
    return turned


def run_queue(state: dict) -> None:
    while state["pending"] is None and state["queue"]:
        item = state["queue"].pop(0)
        EFFECTS[item["effect"]](state, item["seat"], item["args"], item["source"])


# --- The effects ------------------------------------------------------------------------


def _draw(state, seat, args, source):
    # Draws during a turn take what is left in the reserve; reshuffling waits for the end of the turn.
    # The cards drawn wait for the next preparation phase to be placed (their Support fires then).
    state["tp"]["drawn"].extend(draw(state, seat, args["n"], reshuffle=False))


def _gain(state, seat, args, source):
    state["tp"]["bonus"][args["res"]] += args["n"]
    event(state, "gain", seat=seat, res=args["res"], n=args["n"], source_card=source)


def _discount(state, seat, args, source):
    what = args["what"]
    state["tp"]["discount"][what] = state["tp"]["discount"].get(what, 0) + args["n"]
    event(state, "discount", seat=seat, what=what, n=args["n"], source_card=source)


def _drama(state, seat, args, source):
    n = min(args["n"], len(state["drama"]))
    opponents = [s for s in range(state["players"]) if s != seat]
    if n <= 0:
        return
    if len(opponents) == 1:
        for _ in range(n):
            send_drama(state, seat, opponents[0], paid=False)
        return
    state["pending"] = {"kind": "drama", "seat": seat, "n": n, "source": source}


def trash_options(state: dict, seat: int) -> list[tuple[str, str]]:
    me = state["seats"][seat]
    out = []
    for where in ("hand", "discard"):
        for code in sorted(set(me[where])):
            out.append((where, code))
    return out


def _trash(state, seat, args, source):
    if trash_options(state, seat):
        state["pending"] = {"kind": "trash", "seat": seat, "n": args["n"], "source": source}


def _clear(state, seat, args, source):
    if any(state["zones"]):
        state["pending"] = {"kind": "clear", "seat": seat, "n": 1, "source": source}


def _ready(state, seat, args, source):
    turn_up(state, seat)


def _passive(state, seat, args, source):
    """Poach is used through a poach move; cost changes are read while the card lies in a zone."""


EFFECTS = {
    "draw": _draw,
    "gain": _gain,
    "discount": _discount,
    "drama": _drama,
    "trash": _trash,
    "clear": _clear,
    "ready": _ready,
    "poach": _passive,
    "cost_mod": _passive,
}
