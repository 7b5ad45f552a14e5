"""Cosmic Crowns: a trick-taking game of four clans and Divine cards (2–6 players).

The registration of the game's rules side (rules.registry reads it): ``GAME``, the engine, and ``BOTS``, its
bots.
"""

from rules.cosmic_crowns import bots as BOTS
from rules.cosmic_crowns.cards import CARDS, CLANS, DECK, catalog
from rules.cosmic_crowns.engine import GAME, CosmicCrowns

__all__ = ["BOTS", "CARDS", "CLANS", "DECK", "GAME", "CosmicCrowns", "catalog"]
