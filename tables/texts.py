"""Words the platform shows about the games, in the reader's language.

The engines (rules/, no Django) name their options in English; these are the catalogue entries for
those names and for a few values pages print as they are (option choices, bot levels), so that a
template may translate them with ``{% translate value %}``. A game's short description for the lobby is
the Game's own ``blurb``, per language.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy, gettext_noop

from rules import registry

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
    gettext_noop("House rule: a card taken from the discard may not be thrown back that turn"),
    gettext_noop("House rule: sudden end (the game ends with the turn that reaches the end)"),
    # Table statuses (tables.models.Table.STATUSES)
    gettext_noop("Open"),
    gettext_noop("Playing"),
    gettext_noop("Finished"),
    gettext_noop("Aborted"),
]


MOVE_TIMES = {  # the clock choices offered when creating a table (seconds per move), and their words
    None: gettext_lazy("No limit"),
    120: gettext_lazy("2 minutes per move"),
    600: gettext_lazy("10 minutes per move"),
    3600: gettext_lazy("1 hour per move"),
    12 * 3600: gettext_lazy("12 hours per move"),
    24 * 3600: gettext_lazy("1 day per move"),
    3 * 24 * 3600: gettext_lazy("3 days per move"),
}


def blurb(slug: str) -> str:
    """The game's short description in the active language (each Game carries its own, per language)."""
    texts = registry.games()[slug].blurb if slug in registry.games() else {}
    return texts.get(translation.get_language(), texts.get("en", ""))
