"""Cosplay Team Battle (rulebook 003): the card list, the engine, the view and the bots.

The registration of the game's rules side (rules.registry reads it): ``GAME``, the engine, and ``BOTS``, its
bots.
"""

from rules.cosplay import bots as BOTS
from rules.cosplay.cards import CARDS, catalog, describe
from rules.cosplay.engine import GAME

__all__ = ["BOTS", "CARDS", "GAME", "catalog", "describe"]
