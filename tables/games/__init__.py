"""Each game's registration on the platform side: what the site needs of a game beyond its rules.

A game is two files of registration, one per side of the house:

- ``rules/<slug>/__init__.py`` names ``GAME`` (the engine) and ``BOTS`` (its bots): rules.registry finds it.
- ``tables/games/<slug>.py`` names ``PLUGIN = GamePlugin(...)``: its board and card templates, its rules page,
  its template tag library, its static files, and what else it has (the words its script shows, a card's
  text under its large view, a move's preview, deck building (``Decks``), generated CSS). This package finds it.

The platform asks ``plugin(slug)`` for any of these and never builds a path from a slug; ``plugins()`` lists
every game in the order of rules.registry. A test's toy game calls ``register``/``unregister``. The site's
system checks say at start-up when a registration names a template, a static file or a
tag library that is not there, or when an engine has no registration.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

from rules import registry


@dataclass(frozen=True)
class Decks:
    """Deck building, for a game whose players bring decks of their own (``engine.players_bring_decks``).

    The platform's deck pages (/decks/, accounts/deck_views.py) and the new-table form ask these and name no
    game: a game that builds decks needs only this entry."""

    # The game's rules package: validate_deck(codes) -> [problems], starter_decks() -> [{code, name, cards}],
    # decode_deck(text) -> codes (ValueError for a bad deck code).
    rules: ModuleType
    # The builder's platform side: catalog_size(), is_card(code), unsavable(cards) -> message | None,
    # filter_catalog(params) -> (cards, cleaned params), catalog_filters(), deck_summary(cards) -> dict.
    builder: ModuleType
    # The folder of its builder's templates: list.html, catalog.html (and _results.html for htmx),
    # editor.html (with a ``panel`` partial), starter.html.
    templates: str


@dataclass(frozen=True)
class GamePlugin:
    """Everything the platform needs of one game but its engine and bots (which it reads from rules.registry)."""

    slug: str
    board: str  # template: the board, with the table's context (view, legal_moves, names, …)
    card: str  # template: one card, from ``code`` and its look (extra_class, …); carries data-card="<code>"
    rules_page: str  # template: the rules, drawn inside tables/rules.html
    tags: str  # the template tag library its templates {% load %} (a module of an app's templatetags/)
    css: str  # static path of its stylesheet, loaded by its table and replay pages
    js: str | None = None  # static path of its script, if any
    art: tuple[str, ...] = ()  # static paths of its card art (sprites), which its templates draw
    words: str | None = None  # template: the words its script shows, once per page
    zoom: str | None = None  # template: a card's full text under its large view (else its name)
    preview: str | None = None  # template: what a move would do (with ``engine.preview``)
    decks: Decks | None = None
    # The generated part of its stylesheet, between a first and a last line that mark it in ``css``
    # (``manage.py game_css`` writes it; a test checks the stylesheet holds it).
    generated_css: Callable[[], str] | None = field(default=None, compare=False)

    @property
    def engine(self):
        return registry.get(self.slug)

    @property
    def bots(self):
        return registry.bots(self.slug)

    def templates(self) -> list[str]:
        named = [
            t for t in (self.board, self.card, self.rules_page, self.words, self.zoom, self.preview) if t
        ]
        if self.decks is not None:
            pages = ("list.html", "catalog.html", "_results.html", "editor.html", "starter.html")
            named += [f"{self.decks.templates}{page}" for page in pages]
        return named

    def static_files(self) -> list[str]:
        return [s for s in (self.css, self.js, *self.art) if s]


_plugins: dict[str, GamePlugin] | None = None


def _discover() -> dict[str, GamePlugin]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        plugin = getattr(importlib.import_module(f"{__name__}.{info.name}"), "PLUGIN", None)
        if plugin is not None:
            found[plugin.slug] = plugin
    return found


def _all() -> dict[str, GamePlugin]:
    global _plugins
    if _plugins is None:
        _plugins = _discover()
    return _plugins


def plugin(slug: str) -> GamePlugin:
    """The registration of a game (KeyError for a slug that has none)."""
    try:
        return _all()[slug]
    except (KeyError, TypeError):
        raise KeyError(f"no game {slug!r}") from None


def plugins() -> list[GamePlugin]:
    """Every game's registration, in the order of rules.registry (a game registered on one side only is left out)."""
    found = _all()
    return [found[slug] for slug in registry.games() if slug in found]


def register(plugin: GamePlugin) -> GamePlugin:
    """Add a registration that is not a module of this package (ValueError if its slug is taken)."""
    if plugin.slug in _all():
        raise ValueError(f"a game {plugin.slug!r} is already registered")
    _all()[plugin.slug] = plugin
    return plugin


def unregister(slug: str) -> None:
    plugin(slug)
    del _all()[slug]


def problems() -> list[str]:
    """What is wrong with the registrations: an engine without one, or one naming a missing part."""
    from django.contrib.staticfiles import finders
    from django.template import TemplateDoesNotExist, engines
    from django.template.loader import get_template

    out = []
    found = _all()
    for slug in registry.games():
        if slug not in found:
            out.append(f"The game {slug!r} has an engine but no tables/games/{slug}.py naming its PLUGIN.")
    libraries = engines["django"].engine.template_libraries
    for slug, entry in found.items():
        if slug not in registry.games():
            out.append(f"The game {slug!r} has a PLUGIN but no engine in rules.registry.")
        for name in entry.templates():
            try:
                get_template(name)
            except TemplateDoesNotExist:
                out.append(f"The game {slug!r} names the template {name!r}, which does not exist.")
        for path in entry.static_files():
            if finders.find(path) is None:
                out.append(f"The game {slug!r} names the static file {path!r}, which does not exist.")
        if entry.tags not in libraries:
            out.append(
                f"The game {slug!r} names the template tag library {entry.tags!r}, which does not exist."
            )
    return out


def css_block(css: str, generated: str) -> str:
    """The part of a stylesheet ``css`` that ``generated`` is written over: from its first line to its last
    (the marks it opens and closes with); empty when the stylesheet has none yet."""
    lines = generated.splitlines()
    start = css.find(lines[0])
    end = css.find(lines[-1], start + 1) if start >= 0 else -1
    return css[start : end + len(lines[-1])] if start >= 0 and end > start else ""


def check_plugins(app_configs=None, **kwargs):
    """Django system check (registered by tables.apps): each of ``problems()`` is an error at start-up."""
    from django.core.checks import Error

    return [Error(text, id="cardclub.E010") for text in problems()]
