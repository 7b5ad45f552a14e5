"""How a Cosplay Team Battle card is drawn: motif, palette, cost pips, points (display only; rules live in rules/)."""

from __future__ import annotations

import json
from collections import Counter

from django import template
from django.utils.translation import get_language, gettext, pgettext

from rules.cosplay import view
from rules.cosplay.cards import CARDS, describe
from tables.templatetags.table_tags import card_ids

register = template.Library()

# The resources as printed (the same in French); "wild" and "any" are words, translated when shown (_label).
RESOURCE_LABEL = {
    "badass": "BADASS",
    "kawaii": "KAWAII",
    "craft": "CRAFT",
    "wild": "wild",
    "any": "any",
}
PRINTED_RESOURCES = {"badass", "kawaii", "craft"}
ORDER = ("badass", "kawaii", "craft", "any", "wild")
KIND_LABEL = {
    "discard": "Discard",
    "influence": "Influence",
    "recruit": "Recruit",
    "sacrifice": "Sacrifice",
    "support": "Support",
}
# The same words in French (rulebook 003), for the palette CSS's ``:lang(fr)`` rules.
KIND_LABEL_FR = {
    "discard": "Défausse",
    "influence": "Influence",
    "recruit": "Recrutement",
    "sacrifice": "Sacrifice",
    "support": "Soutien",
}

# The motif drawn for each card (a symbol of static/img/cosplay/sprite.svg), chosen from its ``art`` hint.
MOTIFS = {
    "c01-neon-ronin": "sword",
    "c02-pixel-witch": "hat",
    "c03-mecha-pilot": "robot",
    "c04-star-pirate-queen": "planet",
    "c05-kaiju-tamer": "flame",
    "c06-magical-idol": "wand",
    "c07-chrome-samurai": "helmet",
    "c08-dungeon-bard": "note",
    "c09-starship-medic": "plus",
    "c10-velvet-vampire": "moon",
    "c11-pastel-ninja": "star",
    "c12-robot-barista": "cup",
    "c13-zombie-cheerleader": "heart",
    "c14-laser-paladin": "shield",
    "c15-moon-bunny": "moon",
    "c16-brass-aviator": "wing",
    "c17-frost-sorceress": "snowflake",
    "c18-wasteland-rider": "gear",
    "c19-candy-lich": "skull",
    "c20-dragon-knight": "helmet",
    "c21-ghost-maid": "ghost",
    "c22-cosmic-cowboy": "star",
    "c23-tea-android": "cup",
    "c24-sky-corsair": "wing",
    "c25-rune-smith": "flame",
    "c26-shadow-fox": "mask",
    "c27-arcade-champion": "bolt",
    "c28-nebula-empress": "crown",
    "c29-bubblegum-berserker": "sword",
    "c30-clockwork-fairy": "gear",
    "c31-thunder-wrestler": "bolt",
    "c32-plush-summoner": "heart",
    "c33-desert-gunslinger": "gun",
    "c34-sakura-swordmaid": "flower",
    "c35-void-hacker": "eye",
    "c36-carnival-jester": "mask",
    "c37-crystal-golem": "crystal",
    "c38-retro-racer": "helmet",
    "c39-starlight-diva": "mic",
    "c40-talent-scout": "camera",
    "e01-foam-greatsword": "sword",
    "e02-led-wings": "wing",
    "e03-power-armour": "shield",
    "e04-pastel-wig": "wig",
    "e05-velvet-cape": "wing",
    "e06-prop-blaster": "gun",
    "e07-glitter-kit": "star",
    "e08-convention-badge": "ticket",
    "e09-sewing-machine": "scissors",
    "e10-colour-lenses": "eye",
    "e11-resin-crown": "crown",
    "e12-hot-glue-gun": "drop",
    "st-badass": "fist",
    "st-kawaii": "heart",
    "st-craft": "scissors",
    "st-passion": "flame",
    "dr-01": "wig",
    "dr-02": "drop",
    "dr-03": "ticket",
    "dr-04": "scissors",
    "dr-05": "moon",
    "dr-06": "drop",
    "dr-07": "drop",
    "dr-08": "bolt",
    "dr-09": "camera",
    "dr-10": "eye",
    "dr-11": "flame",
    "dr-12": "ghost",
    "dr-13": "ticket",
    "dr-14": "skull",
    "dr-15": "bolt",
    "dr-16": "scissors",
    "dr-17": "drop",
    "dr-18": "shield",
    "dr-19": "mic",
    "dr-20": "mask",
    "ob1-first-con": "ticket",
    "ob1-hallway-shoot": "camera",
    "ob1-workshop": "scissors",
    "ob1-group-selfie": "camera",
    "ob1-panel-debut": "mic",
    "ob1-fan-meetup": "flower",
    "ob2-masquerade": "mask",
    "ob2-charity-stream": "heart",
    "ob2-abroad-shoot": "planet",
    "ob2-viral-tutorial": "film",
    "ob2-stage-duet": "mic",
    "ob2-guest-judge": "star",
    "ob3-world-final": "trophy",
    "ob3-museum": "crown",
    "ob3-legendary-build": "shield",
    "ob3-hall-of-fame": "star",
    "ob3-grand-masquerade": "mask",
    "ob3-documentary": "film",
}


def amounts_list(values: dict | None) -> list[dict]:
    """``{"badass": 3, "any": 2}`` -> ``[{"res": "badass", "n": 3, "label": "BADASS"}, ...]`` in a fixed order."""
    values = values or {}
    return [{"res": k, "n": values[k], "label": _label(k)} for k in ORDER if values.get(k)]


def _label(res: str) -> str:
    if res in PRINTED_RESOURCES:
        return RESOURCE_LABEL[res]
    return pgettext("cosplay", "wild") if res == "wild" else pgettext("cosplay", "any")


def _text(values: dict) -> str:
    return " + ".join(f"{a['n']} {a['label']}" for a in amounts_list(values)) or gettext("nothing")


def _lang() -> str:
    return (get_language() or "en").split("-")[0]


def _kind_label(kind: str) -> str:
    return (KIND_LABEL_FR if _lang() == "fr" else KIND_LABEL)[kind]


@register.filter
def cp_card(code):
    card = CARDS.get(code)
    if card is None:
        return None
    ability = card["ability"]
    lang = _lang()
    text = describe(code, lang)
    # The tooltip spells out what the face shows as coloured numbers (the name and text are on the card).
    parts = [gettext("costs %(cost)s") % {"cost": _text(card["cost"])}] if card["cost"] else []
    if card["points"]:
        parts.append(gettext("gives %(points)s") % {"points": _text(card["points"])})
    if card["kind"] == "objective":
        parts.append(
            gettext("level %(level)s, %(vp)s objective points")
            % {"level": card.get("level"), "vp": card["vp"]}
        )
    title = "; ".join(parts) or card["name"]
    body = text
    prefix = f"{_kind_label(ability['kind'])}\u00a0: " if ability and lang == "fr" else ""
    if ability and not prefix:
        prefix = f"{KIND_LABEL[ability['kind']]}: "
    if prefix and text.startswith(prefix):
        body = text[len(prefix) :]  # the kind is drawn by the palette CSS (.act-<kind> .cp-text::before)
    return {
        "code": code,
        "name": card["name"],
        "kind": card["kind"],
        "motif": MOTIFS.get(code, "star"),
        "cost": amounts_list(card["cost"]),
        "points": amounts_list(card["points"]),
        "points_json": cp_json(card["points"]),
        "ability_kind": ability["kind"] if ability else None,
        "ability_label": _kind_label(ability["kind"]) if ability else None,
        "text": text,
        "body": body,
        "vp": card.get("vp"),
        "level": card.get("level"),
        "title": title,
    }


@register.filter
def cp_name(code):
    card = CARDS.get(code)
    return card["name"] if card else ""


@register.filter
def cp_gives(code):
    """The printed points of a card (to tell when a character with equipment or a combo gives more)."""
    card = CARDS.get(code)
    return card["points"] if card else {}


@register.filter
def cp_counted(codes):
    """``["st-badass", "st-kawaii", "st-badass"]`` -> ``[("st-badass", 2), ("st-kawaii", 1)]`` (first-seen order)."""
    return list(Counter(codes).items())


@register.filter
def cp_amounts(values):
    return amounts_list(values)


@register.filter
def cp_json(value):
    """A JSON string for a data attribute (points, needs: public numbers, never card codes of hidden cards)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@register.filter
def cp_total(values):
    return sum((values or {}).values())


@register.filter
def cp_key(mapping, key):
    """mapping[str(key)] (JSON dicts have string keys)."""
    try:
        return mapping.get(str(key))
    except AttributeError:
        return None


@register.filter
def cp_others(view, viewer):
    """The other seats' views, in turn order starting after the viewer (every seat for a spectator)."""
    seats = view["seats"]
    if viewer is None:
        return list(seats)
    n = len(seats)
    return [seats[(viewer + i) % n] for i in range(1, n)]


@register.filter
def cp_slots(seat_view):
    """A seat's assistance zone with an id for each card's slot, unique in the page, that stays with the card
    while it is there (a part of live frames: tables.frame_diff): ``[(entry, "t-a<seat>-<code>[-<copy>]")]``."""
    entries = seat_view["assist"]
    ids = card_ids([e["card"] for e in entries], f"a{seat_view['seat']}")
    return [(entry, ident) for entry, (_code, ident) in zip(entries, ids, strict=True)]


@register.filter
def cp_piles(view_):
    """The objective piles with an id for each pile's card (None for an empty pile), as ``cp_slots`` gives the
    assistance zones': ``[(pile or None, "t-o-<code>" or None)]``."""
    piles = view_["objectives"]
    ids = card_ids([pile["card"] if pile else None for pile in piles], "o")
    return [(pile, ident) for pile, (_code, ident) in zip(piles, ids, strict=True)]


@register.filter
def cp_ranking(view, names):
    """Seats from best to worst once the game is over: [{seat, name, score, vp, cost, winner}]."""
    result = view.get("result") or {}
    scores = result.get("scores") or view["scores"]
    winners = set(result.get("winners", []))
    order = sorted(range(len(scores)), key=lambda s: (s not in winners, -scores[s], s))
    parts = view["score_parts"]
    return [
        {
            "seat": s,
            "name": names[s],
            "score": scores[s],
            "vp": parts[s]["vp"],
            "cost": parts[s]["cost"],
            "bonus": parts[s]["bonus"],
            "winner": s in winners,
        }
        for s in order
    ]


@register.filter
def cp_printed(code):
    """The printed cost of a card as {badass, kawaii, craft, any} (to tell when the cost now differs)."""
    card = CARDS.get(code)
    cost = card["cost"] if card else {}
    return {k: cost.get(k, 0) for k in ("badass", "kawaii", "craft", "any")}


@register.filter
def cp_zone_name(zones, zone):
    """The name of the card in recruitment zone ``zone`` (1..6)."""
    try:
        return cp_name(zones[int(zone) - 1])
    except (IndexError, TypeError, ValueError):
        return ""


@register.filter
def cp_amounts_text(values):
    """``{"any": 3}`` -> "3 any" ("3 au choix"): an amount in words."""
    return _text(values)


@register.filter
def cp_what(what):
    """What a discount applies to, in the page's language (the engine's words): payment, character …"""
    return view.WHAT.get(_lang(), view.WHAT["en"]).get(what, what)


@register.simple_tag
def cp_ability_title(code):
    """The tooltip of a "Use ability" button: the ability's kind and where the card goes."""
    card = CARDS.get(code)
    if card is None or not card["ability"]:
        return ""
    kind = card["ability"]["kind"]
    if kind == "sacrifice":
        text = pgettext("ability", "%(kind)s: the card goes to your graveyard and gives no points")
    else:
        text = pgettext("ability", "%(kind)s: the card goes to your discard and gives no points")
    return text % {"kind": _kind_label(kind)}


@register.simple_tag
def cp_words():
    """The payment panel's words (static/js/games/cosplay.js), in the page's language: one JSON script per page.
    A plural is a pair (one, many) and ``zero_is_one`` tells which a count of 0 takes."""
    from django.utils.html import json_script
    from django.utils.translation import ngettext

    def plural(one, many):
        return [ngettext(one, many, 1), ngettext(one, many, 2)]

    words = {
        "excluded": gettext("ability: no points"),
        "pays": gettext("✓ pays"),
        "wild": _label("wild"),
        "any": _label("any"),
        "anyMix": gettext("any mix: {n}"),
        "free": gettext("Nothing left to pay: your bonus points and discounts cover it."),
        "missing": plural("Still missing {n} point.", "Still missing {n} points."),
        "covered": gettext("Covered."),
        "lost": plural("{n} surplus point will be lost.", "{n} surplus points will be lost."),
        "noWaste": gettext("No point wasted."),
        "costAfter": gettext("cost after your bonus: {cost}"),
        "nothing": gettext("nothing"),
        "noCard": gettext("No card chosen."),
        "payWith": plural("Pay with {n} card", "Pay with {n} cards"),
        "pay": gettext("Pay"),
        "suggested": gettext("Suggested payment"),
        "cancel": gettext("Cancel"),
        "hint": gettext(
            "Click cards in your hand and assistance zone to choose what pays (faded ones give no point this cost"
            " can use). A card used for an ability gives no points."
        ),
        "new": gettext("new"),
        "drawn": gettext("drawn"),
        "zero_is_one": ngettext("Pay with {n} card", "Pay with {n} cards", 0)
        == ngettext("Pay with {n} card", "Pay with {n} cards", 1),
    }
    return json_script(words, "cp-words")
