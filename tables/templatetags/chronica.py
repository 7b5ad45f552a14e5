"""How a Chronica Universalis card and board are drawn (display only; the rules live in rules/chronica)."""

from __future__ import annotations

from django import template
from django.utils.text import slugify

from rules.chronica import cards as C

register = template.Library()

DOMAIN_LABELS = {C.E: "Érudition", C.P: "Prestige", C.G: "Guerre"}
DOMAIN_SHORT = {C.E: "É", C.P: "P", C.G: "G"}
ERA_SHORT = {
    "Antiquité": "Ant.",
    "Haut Moyen Âge": "HMA",
    "Moyen Âge": "MA",
    "Renaissance": "Ren.",
    "Temps modernes": "TM",
}
KIND_LABELS = {C.CHAR: "Character", C.BUILD: "Building"}


def card_info(code) -> dict | None:
    card = C.CARD_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        return None
    return {
        "code": code,
        "name": card["name"],
        "kind": card["kind"],
        "kind_label": KIND_LABELS[card["kind"]],
        "class": card["class"],
        "category": card["category"],
        "category_name": C.CATEGORIES[card["category"]],
        "era": card["era"],
        "era_key": slugify(card["era"]),
        "era_short": ERA_SHORT[card["era"]],
        "preferred": card["preferred"],
        "preferred_label": DOMAIN_LABELS[card["preferred"]],
        "values": [
            {
                "domain": d,
                "label": DOMAIN_LABELS[d],
                "short": DOMAIN_SHORT[d],
                "value": card["values"][d],
                "preferred": d == card["preferred"],
                "y": 22 + 19 * k,
            }
            for k, d in enumerate(C.DOMAINS)
        ],
        "art": f"art-{card['kind']}-{card['category']}",
        # The tooltip tells what the face shows only as colours and letters (the name and class are text).
        "title": (
            f"{C.CATEGORIES[card['category']]}: Érudition {card['values'][C.E]}, "
            f"Prestige {card['values'][C.P]}, Guerre {card['values'][C.G]}; "
            f"prefers {DOMAIN_LABELS[card['preferred']]}"
        ),
    }


@register.filter
def cu_card(code):
    return card_info(code)


@register.filter
def cu_power(code):
    """The card's special power in the reader's language ("" for a card without one)."""
    from django.utils.translation import get_language

    from rules.chronica import powers as P

    pw = P.POWERS.get(code) if isinstance(code, str) else None
    return P.text(pw, "fr" if (get_language() or "en").startswith("fr") else "en") if pw else ""


@register.filter
def cu_pair(building, character):
    """The cards of a slot, building first (for listing their powers)."""
    return [c for c in (building, character) if c]


@register.filter
def cu_name(code):
    card = C.CARD_BY_CODE.get(code) if isinstance(code, str) else None
    return card["name"] if card else code


@register.simple_tag
def cu_provinces(view, viewer):
    """Provinces in drawing order: opponents first (frontier row at the bottom, facing down the table),
    then the viewer's (or seat 0's for a spectator) at the bottom with its frontier row on top."""
    n = view["players"]
    me = viewer if viewer is not None else 0
    order = [(me + k) % n for k in range(1, n)] + [me]
    out = []
    for s in order:
        bottom = s == me
        slots = []
        for i in range(8):
            slot = view["provinces"][s][i]
            slots.append(
                {
                    "i": i,
                    "frontier": i < 4,
                    "label": f"Frontier {i + 1}" if i < 4 else f"Hinterland {i - 3}",
                    "building": slot["building"] if slot else None,
                    "character": slot["character"] if slot else None,
                    "guest": view["guests"][s][i],
                    "protected": view["protected"][s][i] and slot is not None,
                    "empty": slot is None,
                }
            )
        frontier, hinterland = slots[:4], slots[4:]
        out.append(
            {
                "seat": s,
                "mine": viewer is not None and s == viewer,
                "bottom": bottom,
                "rows": [frontier, hinterland] if bottom else [hinterland, frontier],
            }
        )
    return out


@register.filter
def cu_backs(n):
    """At most 8 face-down cards drawn for a hand of n."""
    try:
        return range(min(int(n), 8))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def cu_draw(moves, code):
    """The legal move taking ``code`` from the river, if any."""
    for m in moves or []:
        if m.get("type") == "draw" and m.get("source") == "river" and m.get("card") == code:
            return m
    return None


@register.filter
def cu_signed(n):
    """An honour change as shown: +2, −3, ±0."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


@register.filter
def cu_trend(n, whose=None):
    """The colour class of an honour change: good news is "up" (an opponent's loss is good news)."""
    good = -n if whose == "opponent" else n
    return "up" if good > 0 else "down" if good < 0 else "even"


@register.filter
def cu_at(names, seat):
    """names[seat], the seat given as an int or a string (JSON keys)."""
    try:
        return names[int(seat)]
    except (TypeError, ValueError, IndexError):
        return ""
