"""A deck-building game that lives only in the test suite: "Toy Decks", registered the way a real deck-building
game is, to show the platform's deck pages serve a game by its registration alone.

Its table is dealt as Toy High Card (tests/toy/__init__.py); what it adds is ``players_bring_decks`` and a
``Decks`` entry: its rules side (``RULES``: a deck is exactly four of the six cards ``t1``..``t6``, at most one
copy of each; two starters; a deck code ``TD-`` followed by the codes), its builder side (``BUILDER``: the
catalog, its one filter, a deck's make-up) and its templates (tests/toy/templates/toydeck/decks/).
``registered()`` adds it for a test and takes it away after.
"""

from __future__ import annotations

import copy
import types
from contextlib import contextmanager

from rules import registry
from tables import games
from tables.games import Decks, GamePlugin
from tests.toy import BOTS, DECK, HERE, ToyHighCard

SIZE = 4
CATALOG = [{"code": code, "name": f"Toy {code[1:]}", "high": int(code[1:]) > 3} for code in DECK]
BY_CODE = {card["code"]: card for card in CATALOG}
STARTERS = [
    {"code": "low", "name": "Low", "cards": ["t1", "t2", "t3", "t4"]},
    {"code": "high", "name": "High", "cards": ["t3", "t4", "t5", "t6"]},
]


class ToyDecks(ToyHighCard):
    slug = "toydeck"
    title = "Toy Decks"
    players_bring_decks = True


def validate_deck(codes) -> list[str]:
    problems = []
    if len(codes) != SIZE:
        problems.append(f"A deck holds exactly {SIZE} cards.")
    unknown = sorted({c for c in codes if c not in BY_CODE})
    if unknown:
        problems.append("Unknown cards: " + ", ".join(unknown))
    if len(set(codes)) < len(codes):
        problems.append("A card may be in a deck once.")
    return problems


def decode_deck(text):
    if not isinstance(text, str) or not text.startswith("TD-"):
        raise ValueError("A toy deck code starts with TD-.")
    return [c for c in text[3:].split(".") if c]


RULES = types.SimpleNamespace(
    validate_deck=validate_deck,
    starter_decks=lambda: copy.deepcopy(STARTERS),
    decode_deck=decode_deck,
)


def filter_catalog(params):
    clean = {"high": params.get("high") if params.get("high") in ("yes", "no") else ""}
    cards = [dict(card) for card in CATALOG]
    if clean["high"]:
        cards = [card for card in cards if card["high"] == (clean["high"] == "yes")]
    return cards, clean


def deck_summary(cards):
    problems = validate_deck(list(cards))
    return {
        "rows": [{"code": c, "card": BY_CODE.get(c)} for c in cards],
        "count": len(cards),
        "size": SIZE,
        "problems": problems,
        "legal": not problems,
        "code": "TD-" + ".".join(cards) if cards else "",
    }


BUILDER = types.SimpleNamespace(
    catalog_size=lambda: len(CATALOG),
    is_card=lambda code: code in BY_CODE,
    unsavable=lambda cards: None if len(cards) <= SIZE else f"At most {SIZE} cards.",
    filter_catalog=filter_catalog,
    catalog_filters=lambda: {"high": [("yes", "High cards"), ("no", "Low cards")]},
    deck_summary=deck_summary,
)

GAME = ToyDecks()
PLUGIN = GamePlugin(
    slug="toydeck",
    board="toy/board.html",
    card="toy/_card.html",
    rules_page="toy/rules.html",
    tags="table_tags",
    css="toy/toy.css",
    decks=Decks(rules=RULES, builder=BUILDER, templates="toydeck/decks/"),
)


@contextmanager
def registered(settings):
    """Toy Decks registered on both sides, its templates and stylesheet found, for the time of a test."""
    engine = copy.deepcopy(settings.TEMPLATES)
    engine[0]["DIRS"] = [*engine[0]["DIRS"], HERE / "templates"]
    settings.TEMPLATES = engine
    settings.STATICFILES_DIRS = [*getattr(settings, "STATICFILES_DIRS", []), HERE / "static"]
    registry.register(GAME, bots=BOTS)
    games.register(PLUGIN)
    try:
        yield PLUGIN
    finally:
        games.unregister(PLUGIN.slug)
        registry.unregister(GAME.slug)
