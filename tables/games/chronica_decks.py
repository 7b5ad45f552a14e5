"""Chronica Universalis' deck builder on the platform: the catalog's filters and sorts, a deck's make-up for the
editor, what may be saved. Its registration (tables/games/chronica.py) names this module as its
``Decks.builder``; the builder's pages (accounts/deck_views.py) ask it through the registry. Legality is always
rules.chronica.validate_deck's."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules.chronica as chronica
from accounts.preferences import in_words

# The domains (their keys as the cards hold them; their names in the reader's language: domain_labels()).
DOMAIN_LABELS = ("erudition", "prestige", "guerre")
SORTS = {
    "catalog": gettext_lazy("Catalog order"),
    "name": gettext_lazy("Name"),
    "best": gettext_lazy("Best value (any domain)"),
    "erudition": gettext_lazy("Erudition value"),
    "prestige": gettext_lazy("Prestige value"),
    "guerre": gettext_lazy("War value"),
}


def unsavable(cards: list[str]) -> str | None:
    """Why these cards cannot be saved as a deck (too many, or not catalog cards); None if they can be.
    An unfinished deck may be saved; a deck never holds more than the game's deck size of known cards."""
    size = chronica.cards.DECK_SIZE
    if len(cards) > size:
        return _("A deck holds at most %(size)d cards; this one has %(count)d. Remove some, then save.") % {
            "size": size,
            "count": len(cards),
        }
    unknown = sorted({c for c in cards if c not in chronica.cards.CARD_BY_CODE})
    if unknown:
        return _("Only catalog cards can be saved; remove: %(codes)s.") % {"codes": ", ".join(unknown[:5])}
    return None


def _lang() -> str:
    from django.utils.translation import get_language

    return "fr" if (get_language() or "en").startswith("fr") else "en"


def power_keywords() -> list[tuple[str, str]]:
    """(value, label) of the power filter: any power, no power, then each keyword in the reader's language."""
    from rules.chronica import powers as P

    k = 1 if _lang() == "fr" else 0
    return [("any", _("Has a power")), ("none", _("No power"))] + [
        (name, words[k]) for name, words in P.KEYWORDS.items()
    ]


def card_words() -> dict:
    """The card data's words in the reader's language: {"categories", "eras", "domains": {key: word}} (a card's
    name stays as printed; its category, era and domains are words of the page's language)."""
    from rules.chronica import cards as C
    from rules.chronica import powers as P

    lang = _lang()
    return {
        "categories": {key: P.CATEGORY_WORDS[lang][key] for key in C.CATEGORIES},
        "eras": {era: P.ERA_WORDS[lang][era] for era in C.ERAS},
        "domains": {key: P.DOMAIN_WORDS[lang][key] for key in DOMAIN_LABELS},
    }


def catalog_filters() -> dict:
    """The choices the catalog filter form offers."""
    words = card_words()
    return {
        "powers": power_keywords(),
        "kinds": [("character", _("Characters")), ("building", _("Buildings"))],
        "categories": list(words["categories"].items()),
        "eras": list(words["eras"].items()),
        "domains": list(words["domains"].items()),
        "sorts": list(SORTS.items()),
    }


def filter_catalog(params) -> tuple[list[dict], dict]:
    """Catalog cards matching GET-style ``params`` (kind, category, era, domain, power, q, sort); and the cleaned
    params. Each card gains ``power_text``: its power's text in the reader's language ("" without one); the
    search also reads it."""
    from django.utils.text import slugify

    get = params.get
    clean = {
        "kind": get("kind") if get("kind") in ("character", "building") else "",
        "category": get("category") if get("category") in chronica.cards.CATEGORIES else "",
        "era": get("era") if get("era") in chronica.cards.ERAS else "",
        "domain": get("domain") if get("domain") in DOMAIN_LABELS else "",
        "power": get("power") if get("power") in dict(power_keywords()) else "",
        "q": (get("q") or "").strip()[:60],
        "sort": get("sort") if get("sort") in SORTS else "catalog",
    }
    cards = chronica.catalog()
    lang = _lang()
    for c in cards:
        c["power_text"] = c["power"]["texts"][lang] if c["power"] else ""
    power = clean["power"]
    if power == "any":
        cards = [c for c in cards if c["power"]]
    elif power == "none":
        cards = [c for c in cards if not c["power"]]
    elif power:
        cards = [c for c in cards if c["power"] and power in c["power"]["keywords"]]
    if clean["kind"]:
        cards = [c for c in cards if c["kind"] == clean["kind"]]
    if clean["category"]:
        cards = [c for c in cards if c["category"] == clean["category"]]
    if clean["era"]:
        cards = [c for c in cards if c["era"] == clean["era"]]
    if clean["domain"]:
        cards = [c for c in cards if c["preferred"] == clean["domain"]]
    if clean["q"]:
        needle = slugify(clean["q"])
        cards = [
            c
            for c in cards
            if needle in slugify(c["name"]) or needle in c["code"] or needle in slugify(c["power_text"])
        ]
    sort = clean["sort"]
    if sort == "name":
        cards.sort(key=lambda c: slugify(c["name"]))
    elif sort == "best":
        cards.sort(key=lambda c: (-max(c["values"].values()), slugify(c["name"])))
    elif sort in DOMAIN_LABELS:
        cards.sort(key=lambda c: (-c["values"][sort], slugify(c["name"])))
    return cards, clean


def deck_summary(cards) -> dict:
    """A deck's make-up for the editor: count, problems (from validate_deck), kinds, categories, domains, code."""
    from django.utils.text import slugify

    C = chronica.cards
    known = [c for c in cards if isinstance(c, str) and c in C.CARD_BY_CODE]
    count = len(cards)
    kinds = {"character": 0, "building": 0}
    words = card_words()
    categories = {key: 0 for key in C.CATEGORIES}
    domains = {key: 0 for key in DOMAIN_LABELS}
    for code in known:
        card = C.CARD_BY_CODE[code]
        kinds[card["kind"]] += 1
        categories[card["category"]] += 1
        domains[card["preferred"]] += 1
    try:
        deck_code = chronica.encode_deck(list(cards)) if cards else ""
    except ValueError:
        deck_code = ""
    scale = max(1, count)
    seen: set[str] = set()
    rows = []
    for code in cards:
        card = C.CARD_BY_CODE.get(code) if isinstance(code, str) else None
        rows.append({"code": code, "card": card, "twice": code in seen})
        seen.add(code)
    order = {key: k for k, key in enumerate(C.CATEGORIES)}
    rows.sort(
        key=lambda r: (
            r["card"] is None,
            r["card"] and r["card"]["kind"],
            r["card"] and order[r["card"]["category"]],
            r["card"] and slugify(r["card"]["name"]),
        )
    )
    return {
        "rows": rows,
        "count": count,
        "size": C.DECK_SIZE,
        "problems": [in_words(p) for p in chronica.validate_deck(list(cards))],
        "legal": not chronica.validate_deck(list(cards)),
        "kinds": [
            {
                "key": "character",
                "label": _("Characters"),
                "n": kinds["character"],
                "pct": 100 * kinds["character"] // scale,
            },
            {
                "key": "building",
                "label": _("Buildings"),
                "n": kinds["building"],
                "pct": 100 * kinds["building"] // scale,
            },
        ],
        "categories": [
            {"key": k, "label": words["categories"][k], "n": n, "pct": 100 * n // scale}
            for k, n in categories.items()
        ],
        "domains": [
            {"key": k, "label": words["domains"][k], "n": n, "pct": 100 * n // scale}
            for k, n in domains.items()
        ],
        "code": deck_code,
        "mix": " · ".join(f"{words['categories'][k]} {n}" for k, n in categories.items() if n),
    }


def catalog_size() -> int:
    """How many cards the catalog holds."""
    return len(chronica.catalog())


def is_card(code) -> bool:
    """Whether ``code`` is a catalog card's."""
    return isinstance(code, str) and code in chronica.cards.CARD_BY_CODE
