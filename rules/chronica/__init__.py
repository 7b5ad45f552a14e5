"""Chronica Universalis (slug "chronica"): the engine, the card catalog and deck helpers (CONTRACTS §1).

cards.py (the card table, decks), board.py (reading the state: the eligibility rules shared by move
generation and the checks), engine.py (the Game), view.py (views, words for the events), sampling.py
(hidden cards dealt at random to match a view, for the bots), bots.py (the bots).

The registration of the game's rules side (rules.registry reads it): ``GAME``, the engine, and ``BOTS``, its
bots.
"""

from rules.chronica import bots as BOTS
from rules.chronica.cards import decode_deck, encode_deck, starter_decks, validate_deck
from rules.chronica.engine import GAME
from rules.chronica.powers import catalog

preview = GAME.preview

__all__ = [
    "BOTS",
    "GAME",
    "catalog",
    "decode_deck",
    "encode_deck",
    "preview",
    "starter_decks",
    "validate_deck",
]
