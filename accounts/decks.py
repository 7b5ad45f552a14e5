"""Decks players bring to a table (Chronica Universalis): saved decks and the ready-made starters."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.limits import parse_id
from accounts.models import Deck
from accounts.preferences import in_words


def needs_deck(slug: str) -> bool:
    """Whether each player brings a deck of their own to this game's tables (the game says so)."""
    from rules import registry

    try:
        return registry.get(slug).players_bring_decks
    except (KeyError, TypeError):
        return False


def deck_rules(slug: str):
    """The rules package of a game whose players bring decks (its registration's ``decks.rules``): its
    ``validate_deck(codes)`` and ``starter_decks()`` judge and supply the decks."""
    from tables import games

    return games.plugin(slug).decks.rules


def _chronica():
    import rules.chronica as chronica

    return chronica


def deck_choices(user, slug: str) -> list[tuple[str, str]]:
    """(value, label) pairs for the join form: the player's saved legal decks, then the starters."""
    if not needs_deck(slug):
        return []
    rules = deck_rules(slug)
    choices = []
    if user is not None and user.is_authenticated:
        for deck in Deck.objects.filter(owner=user):
            if not rules.validate_deck(deck.cards):
                choices.append((f"deck:{deck.pk}", deck.name))
    for starter in rules.starter_decks():
        choices.append((f"starter:{starter['code']}", _("Starter: %(name)s") % {"name": starter["name"]}))
    return choices


def resolve_deck(user, slug: str, value) -> list[str] | None:
    """The card codes a join form's choice stands for; ValueError with a message for the player."""
    if not needs_deck(slug) or not value:
        return None
    kind, _sep, ref = str(value).partition(":")
    if kind == "starter":
        for starter in deck_rules(slug).starter_decks():
            if starter["code"] == ref:
                return starter["cards"]
    elif kind == "deck" and parse_id(ref) is not None:
        deck = Deck.objects.filter(pk=parse_id(ref), owner=user).first()
        if deck is not None:
            check_deck(slug, deck.cards)
            return list(deck.cards)
    raise ValueError(_("Choose one of your decks or a starter deck."))


def check_deck(slug: str, cards) -> None:
    """ValueError listing the deck's problems, if any (in the reader's language: the rules' problems are
    ``rules.core.Text`` sentences, worded by ``in_words``)."""
    if needs_deck(slug):
        problems = deck_rules(slug).validate_deck(cards)
        if problems:
            raise ValueError(" ".join(in_words(p) for p in problems))


def complete_decks(slug: str, decks: list) -> list:
    """Seats that brought no deck play a starter deck (seat i: starter i)."""
    if not needs_deck(slug):
        return decks
    starters = deck_rules(slug).starter_decks()
    return [deck if deck else starters[i % len(starters)]["cards"] for i, deck in enumerate(decks)]


# --- The deck builder's helpers (display and filtering only; legality is rules.chronica.validate_deck) ---

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
MAX_DRAFT = 120  # cards a draft may hold (a legal deck has 30; more is only a mistake to point out)
CODE_SHAPE = re.compile(r"[!-~]{1,40}")  # a card code: short printable ASCII, no space (CONTRACTS §1)


def shaped_codes(raw: list[str]) -> tuple[list[str], str | None]:
    """The entries of a posted card list that look like card codes (at most MAX_DRAFT); and a message
    when some were left out. Unknown but well-shaped codes stay, for the editor to point them out."""
    cards = [c.strip() for c in raw if c.strip()]
    kept = [c for c in cards if CODE_SHAPE.fullmatch(c)]
    error = None
    if len(kept) < len(cards):
        error = _("Some entries were not card codes (short ASCII words) and were left out.")
    return kept[:MAX_DRAFT], error


def unsavable(cards: list[str]) -> str | None:
    """Why these cards cannot be saved as a deck (too many, or not catalog cards); None if they can be.
    An unfinished deck may be saved; a deck never holds more than the game's deck size of known cards."""
    chronica = _chronica()
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

    chronica = _chronica()
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

    chronica = _chronica()
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
