"""Five Crowns cards as data: two decks of 5 suits x ranks 3..K, plus 6 Jokers (116 cards).

A code is ``RANK-SUIT`` (``10-heart``, ``K-star``) or ``joker``; the two copies of a card
share its code. Ranks count 3..13 (J=11, Q=12, K=13).
"""

from __future__ import annotations

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("star", "heart", "club", "spade", "diamond")
JOKER = "joker"
JOKERS = 6
COPIES = 2

RANK_VALUE = {label: value for value, label in enumerate(RANKS, start=3)}
RANK_LABEL = {value: label for label, value in RANK_VALUE.items()}
RANK_NAME = {11: "Jack", 12: "Queen", 13: "King"}
SUIT_NAME = {"star": "stars", "heart": "hearts", "club": "clubs", "spade": "spades", "diamond": "diamonds"}

# code -> (rank value, suit index); the Joker is (0, -1).
CARDS: dict[str, tuple[int, int]] = {JOKER: (0, -1)}
for _suit_index, _suit in enumerate(SUITS):
    for _label, _value in RANK_VALUE.items():
        CARDS[f"{_label}-{_suit}"] = (_value, _suit_index)

ROUNDS = 11


def wild_rank(round_number: int) -> int:
    """Round r deals r + 2 cards and the wild rank is that number (3 ... K=13)."""
    return round_number + 2


JOKER_PENALTY = 50
WILD_PENALTY = 20


def full_deck() -> list[str]:
    """All 116 codes, in a fixed order (shuffle it before dealing)."""
    deck = []
    for _ in range(COPIES):
        deck.extend(code for code in CARDS if code != JOKER)
    deck.extend([JOKER] * JOKERS)
    return deck


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CARDS


def is_wild(code: str, wild_rank: int) -> bool:
    return code == JOKER or CARDS[code][0] == wild_rank


def penalty(code: str, wild_rank: int) -> int:
    """Points a card scores when left in hand: face value, wild-rank card 20, Joker 50."""
    if code == JOKER:
        return JOKER_PENALTY
    rank = CARDS[code][0]
    return WILD_PENALTY if rank == wild_rank else rank


def sort_key(code: str) -> tuple[int, int]:
    """Hand order: by suit, then rank; Jokers last."""
    rank, suit = CARDS[code]
    return (suit if suit >= 0 else len(SUITS), rank)


def rank_name(rank: int) -> str:
    return RANK_NAME.get(rank, str(rank))


def card_name(code: str) -> str:
    """Readable English name: ``7 of hearts``, ``Queen of stars``, ``Joker``."""
    if code == JOKER:
        return "Joker"
    rank, suit = CARDS[code]
    return f"{rank_name(rank)} of {SUIT_NAME[SUITS[suit]]}"
