"""Cosplay Team Battle (rulebook 003): the card list, the engine and the view."""

from rules.cosplay.cards import CARDS, catalog, describe
from rules.cosplay.engine import Cosplay

GAME = Cosplay()

__all__ = ["CARDS", "GAME", "catalog", "describe"]
