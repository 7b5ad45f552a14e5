"""Five Crowns on the platform (its rules side: rules/five_crowns/)."""

from tables.games import GamePlugin

PLUGIN = GamePlugin(
    slug="five_crowns",
    board="games/five_crowns/board.html",
    card="games/five_crowns/_card.html",
    zoom="games/five_crowns/_zoom.html",
    rules_page="games/five_crowns/rules.html",
    tags="five_crowns",
    css="css/games/five_crowns.css",
    js="js/games/five_crowns.js",
    art=("img/five_crowns/sprite.svg",),
)
