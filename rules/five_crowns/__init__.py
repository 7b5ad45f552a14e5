"""Five Crowns: rummy over 11 rounds with a changing wild rank (rulebook 004, RULINGS.md).

The registration of the game's rules side (rules.registry reads it): ``GAME``, the engine, and ``BOTS``, its
bots.
"""

from rules.five_crowns import bots as BOTS
from rules.five_crowns.engine import GAME, FiveCrowns
from rules.five_crowns.melds import arrange, go_out_arrangement, min_penalty

__all__ = ["BOTS", "GAME", "FiveCrowns", "arrange", "go_out_arrangement", "min_penalty"]
