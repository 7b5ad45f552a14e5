"""Bot accounts in browsers, at a phone's width and a desktop's, in English and in French: the profile's
"Make this a bot account", then the BOT badge on the seat chip, the player page and the bot accounts'
leaderboard. Each page passes axe-core with no serious violation and fits the screen."""

import re

import pytest

from tests.e2e.conftest import shot, sign_up, unique
from tests.e2e.test_club import CASES, fits, no_grave_violation, person  # noqa: F401 (person: a fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width, lang", CASES[:2])
def test_a_person_makes_a_bot_account_and_it_is_flagged_everywhere(server, person, width, lang):  # noqa: F811
    page = person(width, lang)
    name = unique("bot")
    sign_up(page, server, name)
    page.goto(f"{server.url}/accounts/profile/")
    fits(page)
    no_grave_violation(page, "profile")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#bot-account button")
    page.wait_for_selector("#bot-account .bot-badge")
    fits(page)
    no_grave_violation(page, "profile, a bot account")
    shot(page, f"bot-01-profile-{width}-{lang}")

    page.goto(f"{server.url}/games/cosmic_crowns/new/")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    page.click("form.card-form button")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    chip = page.locator(f".seat-chip[data-u='{name}']")
    assert chip.locator(".bot-badge").count() == 1
    assert page.locator(".seat-chip .bot-badge").count() == 1  # (the site's own bot is not a bot account)
    fits(page, ".table-status")
    no_grave_violation(page, "table")
    shot(page, f"bot-02-table-{width}-{lang}")

    page.goto(f"{server.url}/players/{name}/")
    assert page.locator("h1 .bot-badge").count() == 1
    fits(page)
    no_grave_violation(page, "player page")
    shot(page, f"bot-03-player-{width}-{lang}")

    page.goto(f"{server.url}/leaderboards/cosmic_crowns/?bots=1")
    assert page.locator(".board-tabs [aria-current=page]").count() == 1
    fits(page)
    no_grave_violation(page, "bot accounts' leaderboard")
    shot(page, f"bot-04-leaderboard-{width}-{lang}")
