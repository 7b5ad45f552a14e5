"""Cosplay Team Battle on the platform (its rules side: rules/cosplay/)."""

from tables.games import GamePlugin
from tables.games.cosplay_css import palette_css

PLUGIN = GamePlugin(
    slug="cosplay",
    board="games/cosplay/board.html",
    card="games/cosplay/_card.html",
    rules_page="games/cosplay/rules.html",
    tags="cosplay",
    css="css/games/cosplay.css",
    js="js/games/cosplay.js",
    art=("img/cosplay/sprite.svg",),
    words="games/cosplay/_words.html",
    zoom="games/cosplay/_zoom.html",
    generated_css=palette_css,
)
