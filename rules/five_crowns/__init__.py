"""Five Crowns: rummy over 11 rounds with a changing wild rank (rulebook 004, RULINGS.md)."""

from rules.five_crowns.engine import GAME, FiveCrowns
from rules.five_crowns.melds import arrange, go_out_arrangement, min_penalty

__all__ = ["GAME", "FiveCrowns", "arrange", "go_out_arrangement", "min_penalty"]
