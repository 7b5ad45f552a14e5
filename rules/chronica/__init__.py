"""Chronica Universalis (slug "chronica"): the engine, the card catalog and deck helpers (CONTRACTS §1)."""

from rules.chronica.cards import catalog, decode_deck, encode_deck, starter_decks, validate_deck
from rules.chronica.engine import Chronica

GAME = Chronica()
preview = GAME.preview

__all__ = ["GAME", "catalog", "decode_deck", "encode_deck", "preview", "starter_decks", "validate_deck"]
