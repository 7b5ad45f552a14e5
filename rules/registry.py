"""{slug: Game} for every game the engines implement, and each game's bots.

A game's rules side registers itself by being a package of ``rules/`` whose ``__init__.py`` names ``GAME``
(its engine, a ``rules.core.Game``) and ``BOTS`` (a module with ``casual(view, legal_moves, rng, seat)``
and ``strong(...)``, or None: its tables then take only random bots). Nothing here names a game: adding
``rules/<slug>/`` is enough. ``register``/``unregister`` add and remove a game by hand (a test's toy game).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

from rules.core import Game

_games: dict[str, Game] | None = None
_bots: dict[str, ModuleType | None] = {}


def _discover() -> dict[str, Game]:
    """The games of the packages of rules/ that name a ``GAME``, in the order of their package names."""
    found: dict[str, Game] = {}
    here = [str(Path(__file__).parent)]  # rules/ itself (importing the package from here would be a circle)
    for info in sorted(pkgutil.iter_modules(here), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"rules.{info.name}")
        game = getattr(module, "GAME", None)
        if game is None:
            continue  # a package of helpers (rules.bots), not a game
        found[game.slug] = game
        _bots[game.slug] = getattr(module, "BOTS", None)
    return found


def games() -> dict[str, Game]:
    global _games
    if _games is None:
        _games = _discover()
    return dict(_games)


def get(slug: str) -> Game:
    try:
        return games()[slug]
    except KeyError:
        raise KeyError(f"no game {slug!r}") from None


def bots(slug: str) -> ModuleType | None:
    """The bots of a game (its ``BOTS``): None when it has none beyond random play; KeyError for no game."""
    get(slug)
    return _bots.get(slug)


def register(game: Game, bots: ModuleType | None = None) -> Game:
    """Add a game that is not a package of rules/ (ValueError if its slug is taken); returns it."""
    if game.slug in games():
        raise ValueError(f"a game {game.slug!r} is already registered")
    _games[game.slug] = game
    _bots[game.slug] = bots
    return game


def unregister(slug: str) -> None:
    """Remove a game added with ``register`` (KeyError for no game)."""
    get(slug)
    del _games[slug]
    _bots.pop(slug, None)
