"""How a Chronica Universalis card and board are drawn (display only; the rules live in rules/chronica)."""

from __future__ import annotations

from django import template
from django.utils.text import capfirst, slugify
from django.utils.translation import get_language, gettext, pgettext

from rules.chronica import cards as C
from rules.chronica import powers as P
from rules.chronica import view as V
from tables.hyphens import soft_hyphens

register = template.Library()

# The card data's words in the reader's language (a card's name stays as printed): the domains' initials,
# the eras' abbreviations (the corner of a card), the categories, eras and classes.
DOMAIN_SHORT = {"en": {C.E: "E", C.P: "P", C.G: "W"}, "fr": {C.E: "É", C.P: "P", C.G: "G"}}
ERA_SHORT = {
    "en": {C.ANT: "Ant.", C.HMA: "EMA", C.MA: "MA", C.REN: "Ren.", C.TM: "Mod."},
    "fr": {C.ANT: "Ant.", C.HMA: "HMA", C.MA: "MA", C.REN: "Ren.", C.TM: "TM"},
}


def _lang() -> str:
    lang = (get_language() or "en").split("-")[0]
    return lang if lang in ERA_SHORT else "en"


def category_word(category: str) -> str:
    return P.CATEGORY_WORDS[_lang()][category]


def era_word(era: str) -> str:
    return P.ERA_WORDS[_lang()][era]


def class_word(name: str) -> str:
    return C.CLASS_WORDS.get(_lang(), {}).get(name, name)


def categories() -> list[tuple[str, str]]:
    """(key, name) of every category, in the table's order, in the reader's language."""
    return [(key, category_word(key)) for key in C.CATEGORIES]


def eras() -> list[tuple[str, str]]:
    """(key, name) of every era (the key is the printed French, as the cards hold it)."""
    return [(era, era_word(era)) for era in C.ERAS]


def domain_labels() -> dict:
    """The domains' names in the page's language (the engine's words: Erudition, Prestige, War / Érudition …)."""
    return V.DOMAIN_NAMES.get(_lang(), V.DOMAIN_NAMES["en"])


def kind_label(kind: str) -> str:
    return pgettext("chronica", "Character") if kind == C.CHAR else pgettext("chronica", "Building")


def card_info(code) -> dict | None:
    card = C.CARD_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        return None
    labels = domain_labels()
    lang = _lang()
    return {
        "code": code,
        "name": card["name"],
        "name_breaks": soft_hyphens(card["name"]),  # (where a small card may break it: tables.hyphens)
        "kind": card["kind"],
        "kind_label": kind_label(card["kind"]),
        "class": class_word(card["class"]),
        "category": card["category"],
        "category_name": category_word(card["category"]),
        "era": era_word(card["era"]),
        "era_key": slugify(ERA_SHORT["fr"][card["era"]]),  # the same in every language (a class name)
        "era_short": ERA_SHORT[lang][card["era"]],
        "preferred": card["preferred"],
        "preferred_label": labels[card["preferred"]],
        "values": [
            {
                "domain": d,
                "label": labels[d],
                "short": DOMAIN_SHORT[lang][d],
                "value": card["values"][d],
                "preferred": d == card["preferred"],
                "y": 22 + 19 * k,
            }
            for k, d in enumerate(C.DOMAINS)
        ],
        "art": f"art-{card['kind']}-{card['category']}",
        # The name is printed on the card (its text names it); the tooltip adds what the face shows only as
        # colours and figures.
        "title": gettext("%(category)s: %(values)s; prefers %(preferred)s")
        % {
            "category": category_word(card["category"]),
            "values": ", ".join(f"{labels[d]} {card['values'][d]}" for d in C.DOMAINS),
            "preferred": labels[card["preferred"]],
        },
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
    lang = _lang()
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
                    "label": capfirst(V.slot_name(i, lang)),
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


@register.simple_tag
def cu_words():
    """The move builder's words (static/js/games/chronica.js), in the page's language: one JSON script per
    page, never in a frame. ``{card}``, ``{slot}``, ``{seat}`` … are filled in by the script."""
    from django.utils.html import json_script

    lang = _lang()
    words = {
        "slots": [V.slot_name(i, lang) for i in range(8)],
        "seat": gettext("seat {n}"),
        "buildUnder": gettext("Build {card} under your {here} ({slot})"),
        "buildOn": gettext("Build {card} on your {slot}"),
        "andWelcome": gettext(" and welcome {owner}'s {card}"),
        "loses": gettext("{seat} loses 1 honour"),
        "disgrace": gettext("{seat} loses honour by the power"),
        "exile": gettext("{owner}'s {card} goes home by the power"),
        "replace": gettext("Replace your {old} with {card}"),
        "placeIn": gettext("Place {card} in your {here}"),
        "placeOn": gettext("Place {card} on your {slot} (wandering)"),
        "action": gettext("Action: {who} against {owner}'s {cards}"),
        "noReinforcement": gettext("No reinforcement"),
        "fromHand": gettext("+ {card} (from hand)"),
        "fromProvince": gettext("+ {card} (from your province)"),
        "welcome": gettext("Welcome {owner}'s {card}"),
        "justBuild": gettext("Just build"),
        "modeBuild": gettext("Build"),
        "modePlace": gettext("Place"),
        "modeAction": gettext("Action"),
        "noTarget": gettext("No target for this card now."),
        "cancel": gettext("Cancel"),
        "working": gettext("Working out the honour…"),
        "confirm": gettext("Confirm"),
        "back": gettext("Back"),
        "reinforce": gettext(
            "Reinforce the Action with a second character of yours? (Its values add; it is discarded too.)"
        ),
        "choose": gettext("Choose:"),
        "welcomeBadge": pgettext("badge", "welcome"),
        "exileBadge": pgettext("badge", "exile"),
        "chooseTarget": gettext(
            "Choose an opponent's card to target (highlighted). Locked cards are protected by the frontier card"
            " in front of them."
        ),
        "chooseSlot": gettext("Choose a slot of your province (highlighted)."),
        "labelReplace": pgettext("badge", "replace"),
        "labelBuildUnder": pgettext("badge", "build under"),
        "labelOccupy": pgettext("badge", "occupy"),
        "labelBuild": pgettext("badge", "build"),
        "labelPlace": pgettext("badge", "place"),
        "noPreview": gettext("The preview could not be loaded."),
    }
    return json_script(words, "cu-words")
