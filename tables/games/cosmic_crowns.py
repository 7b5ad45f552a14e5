"""Cosmic Crowns on the platform (its rules side: rules/cosmic_crowns/)."""

from tables.games import GamePlugin

PLUGIN = GamePlugin(
    slug="cosmic_crowns",
    board="games/cosmic_crowns/board.html",
    card="games/cosmic_crowns/_card.html",
    zoom="games/cosmic_crowns/_zoom.html",
    rules_page="games/cosmic_crowns/rules.html",
    tags="cosmic_crowns",
    css="css/games/cosmic_crowns.css",
    art=("img/cosmic_crowns/sprite.svg",),
)
