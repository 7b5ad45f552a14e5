"""Every game of rules.registry has one registration on the platform side (tables/games/<slug>.py) naming parts
that exist, and the generated part of each stylesheet is the one its registration generates."""

from __future__ import annotations

import io
import pathlib

import pytest
from django.contrib.staticfiles import finders
from django.core.management import CommandError, call_command
from django.template import engines

from rules import registry
from tables import games


@pytest.mark.parametrize("slug", list(registry.games()))
def test_every_game_has_a_registration_naming_parts_that_exist(slug):
    plugin = games.plugin(slug)
    assert plugin.engine is registry.get(slug) and plugin.bots is registry.bots(slug)
    for name in plugin.templates():
        engines["django"].get_template(name)
    for path in plugin.static_files():
        assert finders.find(path), path
    assert plugin.tags in engines["django"].engine.template_libraries
    if plugin.engine.players_bring_decks:
        assert plugin.decks is not None and plugin.decks.rules.starter_decks()


def test_the_registrations_and_the_engines_are_the_same_games_and_nothing_is_missing():
    assert [p.slug for p in games.plugins()] == list(registry.games())
    assert games.problems() == []


@pytest.mark.parametrize("slug", [p.slug for p in games.plugins() if p.generated_css])
def test_the_generated_rules_of_a_stylesheet_are_those_its_registration_generates(slug):
    plugin = games.plugin(slug)
    generated = plugin.generated_css()
    assert games.css_block(pathlib.Path(finders.find(plugin.css)).read_text(), generated) == generated
    call_command("game_css", "--check")  # and the command that writes them finds nothing to change


def test_the_css_command_writes_a_missing_or_stale_block_and_then_finds_it_current(
    tmp_path, settings, monkeypatch
):
    css = tmp_path / "gen" / "gen.css"
    css.parent.mkdir()
    css.write_text(".a { color: red; }\n")
    block = ["/* generated */\n.b{}\n/* end */"]
    plugin = games.GamePlugin(
        slug="gen",
        board="",
        card="",
        rules_page="",
        tags="",
        css="gen/gen.css",
        generated_css=lambda: block[0],
    )
    settings.STATICFILES_DIRS = [tmp_path]
    monkeypatch.setattr(games, "plugins", lambda: [plugin])
    with pytest.raises(CommandError, match="gen/gen.css"):
        call_command("game_css", "--check")
    call_command("game_css", stdout=io.StringIO())
    assert css.read_text() == ".a { color: red; }\n/* generated */\n.b{}\n/* end */\n"
    block[0] = "/* generated */\n.c{}\n/* end */"
    call_command("game_css", stdout=io.StringIO())
    assert css.read_text() == ".a { color: red; }\n/* generated */\n.c{}\n/* end */\n"
    call_command("game_css", "--check")
