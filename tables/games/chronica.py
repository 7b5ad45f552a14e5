"""Chronica Universalis on the platform (its rules side: rules/chronica/; its deck builder's own parts:
tables/games/chronica_decks.py and templates/decks/, served by the platform's deck pages)."""

import rules.chronica
from tables.games import Decks, GamePlugin, chronica_decks

ART = ("honour", "lock", "lock-white") + tuple(
    f"{kind}-{category}"
    for kind in ("character", "building")
    for category in ("armes", "arts", "couronne", "foi", "savoir")
)

PLUGIN = GamePlugin(
    slug="chronica",
    board="games/chronica/board.html",
    card="games/chronica/_card.html",
    rules_page="games/chronica/rules.html",
    tags="chronica",
    css="css/games/chronica.css",
    js="js/games/chronica.js",
    art=("img/chronica/sprite.svg", *(f"img/chronica/art/{name}.svg" for name in ART)),
    words="games/chronica/_words.html",
    zoom="games/chronica/_zoom.html",
    preview="games/chronica/_preview.html",
    decks=Decks(rules=rules.chronica, builder=chronica_decks, templates="decks/"),
)
