"""Cosplay scoring: objective points plus 1 per full 10 of recruitment cost owned; ties to more objectives."""

from __future__ import annotations

from rules.cosplay.cards import CARDS


def _worth(card: dict) -> tuple[int, int, int]:
    """What one card adds to ``score_parts``."""
    if card["kind"] == "objective":
        return card["vp"], 0, 1
    if card["kind"] in ("character", "equipment"):
        return 0, sum(card["cost"].values()), 0
    return 0, 0, 0


# worked out once per card: scoring runs in every simulated move of the bots
WORTH = {code: _worth(card) for code, card in CARDS.items()}


def score_parts(state: dict, seat: int) -> tuple[int, int, int]:
    """(objective points, recruitment cost of owned characters and equipment, objectives fulfilled)."""
    me = state["seats"][seat]
    vp = cost = count = 0
    for pile in (me["hand"], me["reserve"], me["discard"]):
        for code in pile:
            v, c, n = WORTH[code]
            vp += v
            cost += c
            count += n
    for entry in me["assist"]:
        v, c, n = WORTH[entry["card"]]
        vp += v
        cost += c
        count += n
        for code in entry["equip"]:
            cost += WORTH[code][1]
    return vp, cost, count


def score(state: dict, seat: int) -> int:
    vp, cost, _count = score_parts(state, seat)
    return vp + cost // 10


def winners(state: dict, scores: list[int]) -> list[int]:
    """Most points; ties go to more objectives fulfilled, then are shared."""
    best = max(scores)
    tied = [s for s in range(state["players"]) if scores[s] == best]
    counts = {s: score_parts(state, s)[2] for s in tied}
    most = max(counts.values())
    return [s for s in tied if counts[s] == most]
