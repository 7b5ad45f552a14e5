"""How a Cosmic Crowns card is drawn: its label, glyph and colours (display only; the rules live in rules/)."""

from django import template
from django.utils.translation import get_language

from rules.cosmic_crowns import view
from rules.cosmic_crowns.cards import CARDS

register = template.Library()

GLYPHS = {
    "emperor": "crown",
    "general": "star",
    "assassin": "dagger",
    "thief": "mask",
    "falling_star": "falling_star",
    "devil": "devil",
}


@register.filter
def cc_card(code):
    card = CARDS.get(code)
    if card is None:
        return None
    kind = card["kind"]
    corner = {
        "emperor": "E",
        "general": "G",
        "assassin": "1",
        "thief": "0",
        "falling_star": "★",
        "devil": "D",
    }.get(kind, str(card["value"]))
    stars = card["value"] - 10 if kind == "general" else 0
    return {
        "code": code,
        "clan": card["clan"] or "divine",
        "kind": kind,
        "name": card["name"],
        "corner": corner,
        "glyph": card["clan"] if kind == "soldier" else GLYPHS[kind],
        "stars": [42 - 9 * (stars - 1) + 18 * i for i in range(stars)],  # x of each star, centred
        "value": card["value"],
    }


@register.filter
def clan_name(clan):
    """The clan's name in the page's language (the engine's words: Eagle / Aigle)."""
    return view.clan_name(clan, (get_language() or "en").split("-")[0])
