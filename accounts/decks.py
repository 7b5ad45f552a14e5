"""Decks players bring to a table, for every game whose registration builds decks (its ``Decks`` entry, in
tables/games/<slug>.py): saved decks, the ready-made starters, and which game the deck builder serves. Nothing
here names a game: the registry says which games build decks and how their decks are judged."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from accounts.limits import parse_id
from accounts.models import Deck
from accounts.preferences import in_words


def needs_deck(slug: str) -> bool:
    """Whether each player brings a deck of their own to this game's tables (the game says so)."""
    from rules import registry

    try:
        return registry.get(slug).players_bring_decks
    except (KeyError, TypeError):
        return False


def deck_games() -> list:
    """The registrations of the games whose players build decks, in the registry's order."""
    from tables import games

    return [entry for entry in games.plugins() if entry.decks is not None]


def deck_game(slug: str | None = None):
    """The registration of the deck-building game ``slug``; without a slug, the first deck-building game (the
    one the builder's pages without a game in their address serve). None when there is no such game."""
    found = deck_games()
    if slug is None:
        return found[0] if found else None
    return next((entry for entry in found if entry.slug == slug), None)


def deck_url(slug: str, name: str = "list", **kwargs) -> str:
    """The address of the deck builder's page ``name`` for the game ``slug``: the first deck-building game's
    pages keep their addresses without a game (/decks/…), any other's carry its slug (/decks/<slug>/…)."""
    from django.urls import reverse

    first = deck_game()
    if first is None or first.slug != slug:
        kwargs["game"] = slug
    return reverse(f"decks:{name}", kwargs=kwargs)


def deck_rules(slug: str):
    """The rules package of a game whose players bring decks (its registration's ``decks.rules``): its
    ``validate_deck(codes)`` and ``starter_decks()`` judge and supply the decks."""
    from tables import games

    return games.plugin(slug).decks.rules


def deck_choices(user, slug: str) -> list[tuple[str, str]]:
    """(value, label) pairs for the join form: the player's saved legal decks, then the starters."""
    if not needs_deck(slug):
        return []
    rules = deck_rules(slug)
    choices = []
    if user is not None and user.is_authenticated:
        for deck in Deck.objects.filter(owner=user, game=slug):
            if not rules.validate_deck(deck.cards):
                choices.append((f"deck:{deck.pk}", deck.name))
    for starter in rules.starter_decks():
        choices.append((f"starter:{starter['code']}", _("Starter: %(name)s") % {"name": starter["name"]}))
    return choices


def resolve_deck(user, slug: str, value) -> list[str] | None:
    """The card codes a join form's choice stands for; ValueError with a message for the player."""
    if not needs_deck(slug) or not value:
        return None
    kind, _sep, ref = str(value).partition(":")
    if kind == "starter":
        for starter in deck_rules(slug).starter_decks():
            if starter["code"] == ref:
                return starter["cards"]
    elif kind == "deck" and parse_id(ref) is not None:
        deck = Deck.objects.filter(pk=parse_id(ref), owner=user, game=slug).first()
        if deck is not None:
            check_deck(slug, deck.cards)
            return list(deck.cards)
    raise ValueError(_("Choose one of your decks or a starter deck."))


def check_deck(slug: str, cards) -> None:
    """ValueError listing the deck's problems, if any (in the reader's language: the rules' problems are
    ``rules.core.Text`` sentences, worded by ``in_words``)."""
    if needs_deck(slug):
        problems = deck_rules(slug).validate_deck(cards)
        if problems:
            raise ValueError(" ".join(in_words(p) for p in problems))


def complete_decks(slug: str, decks: list) -> list:
    """Seats that brought no deck play a starter deck (seat i: starter i)."""
    if not needs_deck(slug):
        return decks
    starters = deck_rules(slug).starter_decks()
    return [deck if deck else starters[i % len(starters)]["cards"] for i, deck in enumerate(decks)]


# --- What every deck builder's pages share (legality is the game's ``validate_deck``) ---

MAX_DRAFT = 120  # cards a draft may hold (more is only a mistake to point out)
CODE_SHAPE = re.compile(r"[!-~]{1,40}")  # a card code: short printable ASCII, no space (CONTRACTS §1)


def shaped_codes(raw: list[str]) -> tuple[list[str], str | None]:
    """The entries of a posted card list that look like card codes (at most MAX_DRAFT); and a message
    when some were left out. Unknown but well-shaped codes stay, for the editor to point them out."""
    cards = [c.strip() for c in raw if c.strip()]
    kept = [c for c in cards if CODE_SHAPE.fullmatch(c)]
    error = None
    if len(kept) < len(cards):
        error = _("Some entries were not card codes (short ASCII words) and were left out.")
    return kept[:MAX_DRAFT], error
