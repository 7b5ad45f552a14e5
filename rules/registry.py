"""{slug: Game} for every game the engines implement."""

from __future__ import annotations

import importlib

from rules.core import Game

# Package name == slug. A package that does not exist yet is simply not listed.
_PACKAGES = ("cosmic_crowns", "five_crowns", "chronica", "cosplay")
_games: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    global _games
    if _games is None:
        found: dict[str, Game] = {}
        for name in _PACKAGES:
            module_name = f"rules.{name}"
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name == module_name:
                    continue
                raise
            found[module.GAME.slug] = module.GAME
        _games = found
    return dict(_games)


def get(slug: str) -> Game:
    try:
        return games()[slug]
    except KeyError:
        raise KeyError(f"no game {slug!r}") from None
