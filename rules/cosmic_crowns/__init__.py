"""Cosmic Crowns: a trick-taking game of four clans and Divine cards (2–6 players)."""

from rules.cosmic_crowns.cards import CARDS, CLANS, DECK, catalog
from rules.cosmic_crowns.engine import GAME, CosmicCrowns

__all__ = ["CARDS", "CLANS", "DECK", "GAME", "CosmicCrowns", "catalog"]
