"""Tournaments in browsers, at a phone's width and a desktop's, in English and in French: a person opens a
Swiss tournament through the form, another joins from a second browser (the first sees it live), the creator
starts it, both go to their tournament table, one plays a move there and both concede to the bots, and the
tournament page kept open in another tab shows the standings and the next round arrive by themselves, and its
"Go to your table" then leads to the new round's table. Each page passes axe-core with no serious violation and
fits the screen."""

import re

import pytest

from tests.e2e.conftest import shot, sign_up, unique
from tests.e2e.test_axe import grave_violations
from tests.e2e.test_play_now import click_a_move

CASES = [(390, "fr"), (1280, "en"), (390, "en"), (1280, "fr")]


@pytest.fixture
def person(new_page):
    def make(width: int, lang: str):
        locale = "fr-FR" if lang == "fr" else "en-US"
        page = new_page(width, 844 if width < 600 else 900, locale=locale, timeout=20000)
        page.on("dialog", lambda dialog: dialog.accept())  # "Concede this game?": yes
        return page

    return make


def checked(page, name: str) -> None:
    found = grave_violations(page)
    assert not found, f"{name}: {found}"
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className)"""
    )
    assert not wide, f"{name}: wider than the screen: {wide}"


def games_of(page, name: str) -> str:
    return page.locator(f"tr[data-player='{name}'] td").nth(4).inner_text()


@pytest.mark.parametrize("width, lang", CASES)
def test_a_tournament_is_opened_joined_played_and_followed_live(server, person, width, lang):
    alice, bob = person(width, lang), person(width, lang)
    a_name, b_name = unique("ta"), unique("tb")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    tag = f"{width}-{lang}"

    alice.goto(f"{server.url}/tournaments/")
    checked(alice, "list")
    shot(alice, f"tour-list-{tag}")
    alice.goto(f"{server.url}/tournaments/new/?game=cosmic_crowns")
    checked(alice, "form")
    shot(alice, f"tour-new-{tag}")
    alice.check("input[name=format][value=swiss]")
    alice.select_option("select[name=rounds]", "3")
    alice.select_option("select[name=table_size]", "2")
    alice.select_option("select[name=move_time]", "600")
    alice.fill("textarea[name=description]", "Friday night duels")
    alice.click("form.tournament-form button")
    alice.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    url = alice.url
    alice.wait_for_selector(f"tr[data-player='{a_name}']")
    alice.wait_for_function("() => document.querySelector('[ws-connect]') !== null")

    bob.goto(url)
    checked(bob, "tournament, open")
    bob.click(".tournament-actions form[action$='/join/'] button")
    bob.wait_for_selector(f"tr[data-player='{b_name}']")
    alice.wait_for_selector(f"tr[data-player='{b_name}']")  # live, without reloading
    shot(alice, f"tour-open-{tag}")

    alice.click(".tournament-actions form[action$='/start/'] button")
    alice.wait_for_selector(".tournament-round a[href^='/tables/']")
    watcher = alice.context.new_page()  # the tournament page stays open in another tab
    watcher.goto(url)
    watcher.wait_for_selector(".tournament-round a[href^='/tables/']")
    checked(watcher, "tournament, running")
    shot(watcher, f"tour-running-{tag}")
    assert games_of(watcher, a_name) == "0"
    first = watcher.get_attribute("[data-next-table]", "href")

    for page in (alice, bob):
        page.goto(url)
        page.click("[data-next-table]")
        page.wait_for_selector("section.table-status[data-status=playing]")
    mover = next(p for p in (alice, bob) if p.locator("[data-move]:visible").count())
    click_a_move(mover)  # one move of a tournament table played in the browser
    shot(mover, f"tour-table-{tag}")
    for page in (alice, bob):  # a bot finishes the game for each
        page.goto(page.url)  # (the board as it stands: a live frame may be replacing the button)
        page.click("button[hx-post$='/concede/']")
        page.wait_for_selector("button[hx-post$='/concede/']", state="detached")
    # The tournament page, left alone, shows the table's result in the standings and the next round.
    watcher.wait_for_function(
        "name => document.querySelector(`tr[data-player='${name}'] td:nth-child(5)`)?.textContent.trim() === '1'",
        arg=a_name,
        timeout=60000,
    )
    points = sorted(
        watcher.locator(f"tr[data-player='{n}'] td.points").inner_text() for n in (a_name, b_name)
    )
    assert points == ["0", "1"] or points == ["0,5", "0,5"] or points == ["0.5", "0.5"]
    watcher.wait_for_selector(".tournament-round:nth-of-type(1) h2", state="attached")
    assert watcher.locator(".tournament-round").count() == 2  # round 2 began by itself
    checked(watcher, "tournament, round 2")
    # Its "Go to your table" now leads to alice's round-2 table, fetched for her when the round arrived.
    second = (
        watcher.locator(".tournament-round").first.locator("a[href^='/tables/']").first.get_attribute("href")
    )
    assert second != first
    watcher.wait_for_selector(f"[data-next-table][href='{second}']")
    watcher.click("[data-next-table]")
    watcher.wait_for_url(re.compile(re.escape(second) + "$"))
    shot(watcher, f"tour-standings-{tag}")
