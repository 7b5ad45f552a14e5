"""The generated part of static/css/games/cosplay.css: each card's palette, keyed by its code (a frame then
carries no per-card style), and the word that opens an ability's text in each language.

Named by the Cosplay registration (tables/games/cosplay.py, ``generated_css``); ``manage.py game_css`` writes
it into the stylesheet and ``manage.py game_css --check`` (and tests/tables/test_game_plugins.py) says whether
the stylesheet holds it as the catalogue gives it.
"""

from __future__ import annotations

from rules.cosplay.cards import CARDS
from tables.templatetags.cosplay import KIND_LABEL, KIND_LABEL_FR

# The palette of each colour a card's ``art`` hint names.
COLOURS = {
    "magenta": "#d6249f",
    "cyan": "#22c7e0",
    "black": "#1c1a22",
    "lilac": "#c8a2e8",
    "lime": "#9bdc3a",
    "charcoal": "#36393f",
    "orange": "#f28c28",
    "steel": "#7d8a99",
    "white": "#f6f3ee",
    "teal": "#1f9e96",
    "gold": "#e3b23c",
    "deep navy": "#1b2447",
    "moss green": "#6b8e3a",
    "rust": "#b5532a",
    "smoke grey": "#8c8c8c",
    "pink": "#ff7eb6",
    "silver": "#c4cad2",
    "crimson": "#c0182c",
    "amber": "#ffb000",
    "brown": "#7a4e2d",
    "forest green": "#2f6b3b",
    "mint": "#8fe3c6",
    "red": "#e0342f",
    "burgundy": "#7a1631",
    "ivory": "#f4efdc",
    "baby blue": "#9cc9f5",
    "peach": "#ffc2a0",
    "cream": "#f3e6c8",
    "coffee brown": "#5b3a29",
    "acid green": "#a6e22e",
    "purple": "#7a3fb0",
    "grey": "#8a8f98",
    "royal blue": "#2a4bd7",
    "pale yellow": "#f7eea0",
    "night blue": "#18224d",
    "brass": "#c39b3c",
    "sky blue": "#7cc3ef",
    "ice blue": "#a8e4f7",
    "indigo": "#3b2f8f",
    "sand": "#dcc58f",
    "bone white": "#efe6d2",
    "violet": "#8a4fd8",
    "emerald": "#1f9d5a",
    "bronze": "#a8702f",
    "pale cyan": "#b8f0f4",
    "denim blue": "#3d5a8a",
    "starfield": "#141b3a",
    "porcelain white": "#f7f4f2",
    "rose": "#e26d8d",
    "cloud white": "#eef2f6",
    "iron grey": "#55595f",
    "ember orange": "#ff6a1a",
    "blue": "#2f6fdc",
    "moonlight": "#dfe6ff",
    "neon pink": "#ff2e93",
    "yellow": "#ffd23f",
    "deep purple": "#3b1660",
    "starlight": "#fff6c9",
    "bubblegum pink": "#ff8ac7",
    "copper": "#c46b3a",
    "electric yellow": "#ffe600",
    "pastel rainbow": "#ffc6e0",
    "ochre": "#c98a2b",
    "turquoise": "#2ec4b6",
    "sun white": "#fffbe6",
    "cherry pink": "#f25f8a",
    "neon green": "#39ff88",
    "checkered black": "#222222",
    "amethyst": "#9b5de5",
    "slate": "#5a6470",
    "glowing white": "#fbfbff",
    "racing red": "#d7191c",
    "chrome": "#d9dde3",
    "midnight blue": "#15194a",
    "beige": "#d9c8a9",
    "hot pink": "#ff3fa4",
    "foam yellow": "#f5e26b",
    "pale blue": "#bfe0ff",
    "glow": "#fffacd",
    "gunmetal": "#3b4148",
    "pastel pink": "#ffc1dc",
    "wine red": "#7b1f3a",
    "rose gold": "#e0a899",
    "holo rainbow": "#b5f2ff",
    "clear": "#e8f6fb",
    "ruby": "#d3124e",
    "hot red": "#ff2a2a",
    "lavender": "#c7b3f5",
    "sickly green": "#9ab84a",
    "navy": "#1f2b57",
    "tan": "#cfa574",
    "neon red": "#ff2b48",
    "skin tone": "#e8b692",
    "wood brown": "#8b5a2b",
    "denim": "#41618f",
    "green": "#3ba55c",
    "rainbow": "#ff9f1c",
    "sepia": "#8c6a43",
    "marble": "#e6e3dc",
    "deep blue": "#163a82",
}


def palette(art: str) -> list[str]:
    names = [n.strip() for n in art.rsplit(";", 1)[-1].split(",")]
    out = [COLOURS.get(n, "#8a8f98") for n in names]
    while len(out) < 3:
        out.append("#1c1a22" if len(out) == 2 else "#f6f3ee")
    return out[:3]


PALETTE_START = (
    "/* Card palettes and ability words: generated from the catalogue by manage.py game_css"
    " (tables/games/cosplay_css.py) */"
)
PALETTE_END = "/* End of the generated rules */"


def palette_css() -> str:
    """The palette rules of every card, keyed by its code (``.cp-card[data-card="…"]{--p1:…;--p2:…;--p3:…}``),
    and the word that opens an ability's text (``.act-support .cp-text::before{content:"Support: "}``)."""
    rules = [f'.act-{kind} .cp-text::before{{content:"{label}: "}}' for kind, label in KIND_LABEL.items()]
    rules += [
        f':lang(fr) .act-{kind} .cp-text::before{{content:"{label}\\a0: "}}'
        for kind, label in KIND_LABEL_FR.items()
    ]
    for code in sorted(CARDS):
        p1, p2, p3 = palette(CARDS[code]["art"])
        rules.append(f'.cp-card[data-card="{code}"]{{--p1:{p1};--p2:{p2};--p3:{p3}}}')
    return "\n".join([PALETTE_START, *rules, PALETTE_END])
