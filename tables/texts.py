"""Words the platform shows about the games, in the reader's language.

The engines (rules/, no Django) name their options in English; these are the catalogue entries for
those names and for a few values pages print as they are (option choices, bot levels), so that a
template may translate them with ``{% translate value %}``. A game's short description for the lobby
lives here too: it is the club's text, not the rules'.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, gettext_noop

BLURBS = {
    "cosmic_crowns": gettext_lazy(
        "Tricks with four clans and two Divine cards: follow the Leading clan, trump with the "
        "Battleground clan, and collect the most Cosmic Crowns over ten rounds."
    ),
    "five_crowns": gettext_lazy(
        "Rummy in eleven rounds with five suits and a wild rank that changes every round: "
        "go out first and keep your penalty low."
    ),
    "chronica": gettext_lazy(
        "Bring your own deck of 30 historical characters and buildings, build your province "
        "and spend your Honour on Actions against your opponents."
    ),
    "cosplay": gettext_lazy(
        "Deck building: recruit cosplayers, equip them and fulfil objectives to field the most "
        "prestigious team."
    ),
}

# The engines' option labels and choices, and the bot levels, as pages show them.
WORDS = [
    gettext_noop("Mode"),
    gettext_noop("easy"),
    gettext_noop("hard"),
    gettext_noop("Reverse variant (then 1 to 10 cards)"),
    gettext_noop("Shared deck and river"),
    gettext_noop("Special powers"),
    gettext_noop("Decks (one list of 30 card codes per seat)"),
    gettext_noop("casual"),
    gettext_noop("strong"),
    gettext_noop("reverse"),
    # Table statuses (tables.models.Table.STATUSES)
    gettext_noop("Open"),
    gettext_noop("Playing"),
    gettext_noop("Finished"),
    gettext_noop("Aborted"),
]


def blurb(slug: str) -> str:
    return BLURBS.get(slug, "")
