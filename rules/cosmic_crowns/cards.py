"""Cosmic Crowns card data: one table of the 64 cards (CONTRACTS §1, RULINGS).

A clan card is ``CLAN-RANK`` (``eagle-7``, ``frog-g2``, ``dog-emperor``, ``raptor-assassin``,
``eagle-thief``); the four Divine cards are ``falling-star-1``, ``falling-star-2``,
``devil-1`` and ``devil-2``. There is one copy of each card.
"""

from __future__ import annotations

CLANS = ("eagle", "frog", "dog", "raptor")
CLAN_NAMES = {"eagle": "Eagle", "frog": "Frog", "dog": "Dog", "raptor": "Raptor"}

# (rank code, kind, value, display name); value orders the cards of one clan, highest wins.
RANKS = (
    ("thief", "thief", 0, "Thief"),
    ("assassin", "assassin", 1, "Assassin"),
    *((str(v), "soldier", v, str(v)) for v in range(2, 11)),
    ("g1", "general", 11, "General 1★"),
    ("g2", "general", 12, "General 2★"),
    ("g3", "general", 13, "General 3★"),
    ("emperor", "emperor", 14, "Emperor"),
)

DIVINES = (
    ("falling-star-1", "falling_star", "Falling Star"),
    ("falling-star-2", "falling_star", "Falling Star"),
    ("devil-1", "devil", "Devil"),
    ("devil-2", "devil", "Devil"),
)


def _table() -> dict[str, dict]:
    cards: dict[str, dict] = {}
    for code, kind, name in DIVINES:
        cards[code] = {"code": code, "clan": None, "kind": kind, "value": 15, "divine": True, "name": name}
    for clan in CLANS:
        for rank, kind, value, label in RANKS:
            code = f"{clan}-{rank}"
            cards[code] = {
                "code": code,
                "clan": clan,
                "kind": kind,
                "value": value,
                "divine": False,
                "name": f"{CLAN_NAMES[clan]} {label}",
            }
    return cards


CARDS: dict[str, dict] = _table()
DECK: tuple[str, ...] = tuple(CARDS)
assert len(DECK) == 64


def name(code: str) -> str:
    return CARDS[code]["name"]


def round_sizes(reverse: bool) -> list[int]:
    """Cards dealt each round: 10 down to 1, then (reverse variant) 1 up to 10."""
    down = list(range(10, 0, -1))
    return down + list(range(1, 11)) if reverse else down


def leading_clan(trick: list[dict]) -> str | None:
    """The clan of the trick's first card (None for an empty trick or a Divine card's lead)."""
    return CARDS[trick[0]["card"]]["clan"] if trick else None


def trick_winner(trick: list[dict], battleground: str | None, divine: int | None) -> int | None:
    """Who wins ``trick`` as it stands: the seat of the first Divine card (``divine``), else the
    highest Battleground card, else the highest card of the Leading clan; discards never count.
    None while no card counts yet."""
    if divine is not None:
        return divine
    counted = [e for e in trick if e["how"] != "discard"]
    for clan in (battleground, leading_clan(trick)):
        same = [e for e in counted if CARDS[e["card"]]["clan"] == clan]
        if same:
            return max(same, key=lambda e: CARDS[e["card"]]["value"])["seat"]
    return None


def sort_key(code: str) -> tuple[int, int]:
    """Display order in a hand: Divine cards first, then clan by clan, highest first."""
    card = CARDS[code]
    if card["divine"]:
        return (0, DECK.index(code))
    return (1 + CLANS.index(card["clan"]), -card["value"])


def catalog() -> list[dict]:
    """Every card as a dict (code, name, clan, kind, value, divine)."""
    return [dict(card) for card in CARDS.values()]
