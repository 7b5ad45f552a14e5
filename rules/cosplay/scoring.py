"""Cosplay scoring: objective points plus 1 per full 10 of recruitment cost owned; ties to more objectives."""

from __future__ import annotations

from rules.cosplay.cards import CARDS


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


def winners(state: dict, scores: list[int]) -> list[int]:
    """Most points; ties go to more objectives fulfilled, then are shared."""
    best = max(scores)
    tied = [s for s in range(state["players"]) if scores[s] == best]
    counts = {s: score_parts(state, s)[2] for s in tied}
    most = max(counts.values())
    return [s for s in tied if counts[s] == most]
