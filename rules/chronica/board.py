"""Chronica Universalis: what the board says, read from the state (no change to it).

The eligibility rules live here, one function per rule, and both sides use them: move generation
(``Chronica.legal_moves``) asks them which moves exist, and the checks (``Chronica.apply``) ask the
same function whether the move it was given is one of them, so the two cannot disagree.
"""

from __future__ import annotations

from rules.chronica import cards as C
from rules.chronica import powers as P
from rules.core import State

SLOTS = 8  # per province: 0-3 the frontier, i + 4 the hinterland slot behind slot i
FRONTIER = 4
MAX_HONOUR = 10

# The moves each phase allows; a move of another type is refused with the phase's own message.
PHASE_MOVES = {
    "mulligan": ("mulligan", "keep"),
    "play": ("build", "replace", "place", "action", "pass"),
    "fervour": ("build", "replace", "place", "action", "end_turn"),
    "draw": ("draw",),
}


# --- whose turn, the score -------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "mulligan":
        return [(state["first"] + state["mulligan_turn"]) % state["players"]]
    return [state["current"]]


def opponents(state: State, seat: int) -> list[int]:
    n = state["players"]
    return [(seat + k) % n for k in range(1, n)]


def victory_points(state: State) -> list[int]:
    """1 per non-empty slot, 3 per occupied building."""
    return [
        sum(3 if slot["building"] and slot["character"] else 1 for slot in prov if slot is not None)
        for prov in state["provinces"]
    ]


def result(state: State) -> dict:
    """Scores (victory points) and, once over, the winners: a seat at 0 honour loses whatever its points;
    ties go to more honour, then fewer cards in the discard."""
    scores = victory_points(state)
    if state["phase"] != "over":
        return {"scores": scores, "winners": []}
    n = state["players"]
    alive = [s for s in range(n) if state["honour"][s] > 0] or list(range(n))

    def key(s):
        return (scores[s], state["honour"][s], -len(state["discards"][s]))

    best = max(key(s) for s in alive)
    return {"scores": scores, "winners": [s for s in alive if key(s) == best]}


# --- the cards on the board --------------------------------------------------------------------


def in_play(state: State) -> set[str]:
    """Codes of every card in a province (a twin of one of them cannot be played)."""
    out = set()
    for prov in state["provinces"]:
        for slot in prov:
            if slot is not None:
                if slot["building"]:
                    out.add(slot["building"])
                if slot["character"]:
                    out.add(slot["character"])
    return out


def playable_hand(state: State, seat: int, kind: str | None = None) -> list[str]:
    """The cards of ``seat``'s hand that may be played now (of ``kind`` if given): no twin in play."""
    busy = in_play(state)
    return [
        c
        for c in state["hands"][seat]
        if c not in busy and (kind is None or C.CARD_BY_CODE[c]["kind"] == kind)
    ]


def protected(state: State, seat: int, i: int) -> bool:
    """A hinterland slot is protected while the frontier slot in front of it holds a card."""
    return i >= FRONTIER and state["provinces"][seat][i - FRONTIER] is not None


def is_wanderer(slot: dict | None) -> bool:
    """A lone character: a wandering character."""
    return slot is not None and bool(slot["character"]) and not slot["building"]


def can_build(slot: dict | None) -> bool:
    """A building goes on a free slot or under one of your wandering characters."""
    return slot is None or is_wanderer(slot)


def can_replace(slot: dict | None) -> bool:
    """A building from hand replaces one of your buildings."""
    return slot is not None and bool(slot["building"])


def can_place(slot: dict | None) -> bool:
    """A character goes on a free slot (it wanders) or into your unoccupied building."""
    return slot is None or (bool(slot["building"]) and not slot["character"])


def occupies(slot: dict | None) -> bool:
    """Whether building or placing on ``slot`` makes an occupied building (an opponent loses 1 honour)."""
    return slot is not None


def welcome_sources(state: State, seat: int) -> list[tuple[int, int]]:
    """(seat, slot) of every opponent's wandering character, which a building on a free slot may welcome."""
    return [
        (o, j)
        for o in opponents(state, seat)
        for j, slot in enumerate(state["provinces"][o])
        if is_wanderer(slot)
    ]


def action_part(state: State, seat: int, tseat: int, i: int) -> str | None:
    """What an Action by ``seat`` against slot ``i`` of ``tseat`` would target, or None if it cannot."""
    if tseat == seat:
        return None
    slot = state["provinces"][tseat][i]
    if slot is None or protected(state, tseat, i):
        return None
    if P.enabled(state) and P.shielded(state, tseat, i):  # a Sanctuary power (special powers on)
        return None
    return "building" if slot["building"] else "character"


def action_targets(state: State, seat: int) -> list[tuple[int, int, str]]:
    return [
        (o, j, part)
        for o in opponents(state, seat)
        for j in range(SLOTS)
        if (part := action_part(state, seat, o, j)) is not None
    ]


def own_characters(state: State, seat: int) -> list[int]:
    """Slots of ``seat``'s province holding one of their own characters (reinforcements from the province)."""
    return [
        i
        for i, slot in enumerate(state["provinces"][seat])
        if slot is not None and slot["character"] and slot["guest"] is None
    ]


def honour_losers(state: State, seat: int) -> list[int | None]:
    """Who may be named to lose 1 honour for a newly occupied building: implied (None) with two players."""
    opps = opponents(state, seat)
    return [None] if len(opps) == 1 else opps


# --- an Action's comparison -------------------------------------------------------------------


def clash(
    attack: list[str],
    defence: list[str],
    attacker_shares_category: bool = False,
    defence_bonus: dict[str, int] | None = None,
) -> dict:
    """Resolve one comparison: the attackers' summed values against the defenders' summed values.

    The domain is the defenders' preferred domain; when two defending cards prefer different
    domains, the one more favourable to the defender is used, unless the attacker shares the
    building's category (then the one more favourable to the attacker). ``defence_bonus`` ({domain: n},
    the defenders' Renown powers) adds to the defenders' values. Returns
    ``{"domain", "attack", "defence", "delta"}`` where delta = attack - defence.
    """
    att = {d: sum(C.CARD_BY_CODE[c]["values"][d] for c in attack) for d in C.DOMAINS}
    dfn = {d: sum(C.CARD_BY_CODE[c]["values"][d] for c in defence) for d in C.DOMAINS}
    for d, n in (defence_bonus or {}).items():
        dfn[d] += n
    domains: list[str] = []
    for code in defence:
        pref = C.CARD_BY_CODE[code]["preferred"]
        if pref not in domains:
            domains.append(pref)
    options = [(att[d] - dfn[d], d) for d in domains]
    if len(options) == 1:
        delta, domain = options[0]
    elif attacker_shares_category:
        delta, domain = max(options, key=lambda o: o[0])
    else:
        delta, domain = min(options, key=lambda o: o[0])
    return {"domain": domain, "attack": att[domain], "defence": dfn[domain], "delta": delta}
