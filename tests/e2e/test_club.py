"""The club in browsers, at a phone's width and a desktop's, in English and in French: a challenge sent from a
player page and accepted in another browser, the Live now page updating by itself, and a block hiding a
person's chat. Each new page passes axe-core with no serious violation."""

import re

import pytest

from tests.e2e.conftest import shot, sign_up, unique
from tests.e2e.test_axe import grave_violations

CASES = [(390, "fr"), (1280, "en"), (390, "en"), (1280, "fr")]


@pytest.fixture
def person(new_page):
    """person(width, lang) -> a page in a browser context of its own, reading ``lang``."""

    def make(width: int, lang: str):
        locale = "fr-FR" if lang == "fr" else "en-US"
        return new_page(width, 844 if width < 600 else 900, locale=locale, timeout=20000)

    return make


def no_grave_violation(page, name: str) -> None:
    found = grave_violations(page)
    assert not found, f"{name}: {found}"


def fits(page, within: str = "main") -> None:
    """Nothing of the page (or of the part ``within``) reaches past the screen's right edge."""
    wide = page.evaluate(
        """sel => [...document.querySelectorAll(sel + ' *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className)""",
        within,
    )
    assert not wide, wide


@pytest.mark.parametrize("width, lang", CASES)
def test_a_challenge_sent_from_a_player_page_is_accepted_in_another_browser(server, person, width, lang):
    alice, bob = person(width, lang), person(width, lang)
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    assert bob.locator("html").get_attribute("lang") == lang
    bob.wait_for_selector("[hx-ext=ws] #your-turn-badge", state="attached")  # his badge listens, on the lobby

    alice.goto(f"{server.url}/players/{b_name}/")
    alice.wait_for_selector(f"[data-presence='{b_name}'].on")  # he is online: a page of his is open
    fits(alice)
    no_grave_violation(alice, "player page")
    shot(alice, f"club-01-player-{width}-{lang}")
    alice.click(f"a[href='/players/{b_name}/challenge/']")
    alice.wait_for_selector("form.challenge-form")
    alice.wait_for_load_state()  # (site.js, deferred, listens for the choice once the page has loaded)
    with alice.expect_navigation():
        alice.select_option("select[name=game]", "five_crowns")  # the form follows the game chosen
    alice.wait_for_selector("form.challenge-form input[name=game][value=five_crowns]", state="attached")
    alice.select_option("form.challenge-form select[name=players]", "2")
    alice.select_option("form.challenge-form select[name=move_time]", "86400")
    fits(alice)
    no_grave_violation(alice, "challenge form")
    shot(alice, f"club-02-challenge-form-{width}-{lang}")
    with alice.expect_navigation():
        alice.click("form.challenge-form button")
    assert alice.url == f"{server.url}/players/{b_name}/"
    assert alice.locator(".messages li.success").count() == 1

    # Bob is told live: his badge counts the challenge and a toast says so.
    bob.wait_for_function("() => document.getElementById('your-turn-badge').dataset.challenges === '1'")
    toast = bob.locator("#toast")
    assert toast.text_content() == toast.get_attribute("data-challenged")
    bob.goto(f"{server.url}/your-turn/")
    challenge = bob.locator("#challenges-received li.challenge")
    assert challenge.count() == 1 and a_name in challenge.text_content()
    fits(bob)
    no_grave_violation(bob, "your turn with a challenge")
    shot(bob, f"club-03-challenged-{width}-{lang}")
    with bob.expect_navigation():
        bob.click("#challenges-received form[action$='/accept/'] button")
    assert re.search(r"/tables/\d+/$", bob.url)
    bob.wait_for_selector("section.table-status[data-status=playing]")
    table_url = bob.url
    alice.wait_for_function(  # she is told at once, on the page she is on
        "name => document.getElementById('toast').textContent.includes(name)", arg=b_name
    )
    bob.wait_for_selector(f".seat-chip[data-u='{a_name}'] .face img.avatar")  # faces on the seat chips
    shot(bob, f"club-04-accepted-table-{width}-{lang}")

    # Alice's challenge now leads to the table.
    alice.goto(f"{server.url}/your-turn/")
    assert alice.locator(f"#challenges-sent a[href='{table_url.removeprefix(server.url)}']").count() == 1
    alice.goto(table_url)
    alice.wait_for_selector("section.table-status[data-status=playing]")
    alice.wait_for_selector(f".seat-chip[data-u='{b_name}'] .presence.on")  # he is at the table
    assert not alice.errors and not bob.errors


@pytest.mark.parametrize("width, lang", [(390, "en"), (1280, "fr")])
def test_the_live_now_page_updates_and_counts_the_spectators(server, person, width, lang):
    host, watcher = person(1280, "en"), person(width, lang)
    h_name = unique("host")
    sign_up(host, server, h_name)
    sign_up(watcher, server, unique("watcher"))
    watcher.goto(f"{server.url}/live/")
    fits(watcher)
    no_grave_violation(watcher, "live now")

    host.goto(f"{server.url}/games/cosmic_crowns/new/")
    host.select_option("select[name=players]", "2")
    host.select_option("select[name=bots]", "1")
    host.select_option("select[name=move_time]", "86400")  # the bot never waits for the host: a slow game
    host.click("form.card-form button")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = re.search(r"/tables/(\d+)/$", host.url).group(1)
    row = f"#live-rows li.live-table[data-table='{table_id}']"
    watcher.wait_for_selector(row, timeout=20000)  # without reloading: the list polls itself
    assert h_name in watcher.locator(row).text_content()

    # A second tab of the watcher watches the game: the list counts one spectator.
    tab = watcher.context.new_page()
    tab.goto(f"{server.url}/tables/{table_id}/")
    tab.wait_for_selector("section.table-status[data-status=playing]")
    watcher.wait_for_function(
        "sel => /\\b1\\b/.test(document.querySelector(sel + ' .live-watchers').textContent)",
        arg=row,
        timeout=20000,
    )
    shot(watcher, f"club-05-live-now-{width}-{lang}")
    tab.close()
    watcher.wait_for_function(
        "sel => /\\b0\\b/.test(document.querySelector(sel + ' .live-watchers').textContent)",
        arg=row,
        timeout=20000,
    )
    assert not watcher.errors


@pytest.mark.parametrize("width, lang", [(1280, "en"), (390, "fr")])
def test_a_block_hides_the_blocked_persons_chat(server, person, width, lang):
    alice, bob, carol = person(width, lang), person(1280, "en"), person(1280, "en")
    a_name, b_name, c_name = unique("alice"), unique("bob"), unique("carol")
    for page, name in ((alice, a_name), (bob, b_name), (carol, c_name)):
        sign_up(page, server, name)
    alice.goto(f"{server.url}/games/cosmic_crowns/new/")
    alice.select_option("select[name=players]", "2")
    alice.click("form.card-form button")
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = alice.url
    bob.goto(table_url)
    with bob.expect_navigation():
        bob.click(".join-area form button, .join-area button")
    alice.wait_for_selector(f".seat-chip[data-u='{b_name}']")
    with alice.expect_navigation():
        alice.click("section.table-status .open-actions button:not(.ghost)")
    alice.wait_for_selector("section.table-status[data-status=playing]")
    carol.goto(table_url)  # a spectator, who blocks nobody

    bob.fill("input[name=text]", "before the block")
    bob.press("input[name=text]", "Enter")
    alice.wait_for_selector(".chat-line .chat-text:has-text('before the block')")

    # Alice blocks him from his page, in another tab: her table page, still open, stops showing his lines.
    other_tab = alice.context.new_page()
    other_tab.goto(f"{server.url}/players/{b_name}/")
    other_tab.once("dialog", lambda dialog: dialog.accept())
    with other_tab.expect_navigation():
        other_tab.click(f"form[action='/players/{b_name}/block/'] button")
    assert other_tab.locator(f"form[action='/players/{b_name}/block/'] input[name=undo]").count() == 1
    assert other_tab.locator(f"a[href='/players/{b_name}/challenge/']").count() == 0

    bob.fill("input[name=text]", "after the block")
    bob.press("input[name=text]", "Enter")
    carol.wait_for_selector(".chat-line .chat-text:has-text('after the block')")
    bob.wait_for_selector(".chat-line .chat-text:has-text('after the block')")
    alice.reload()
    alice.wait_for_selector("section.table-status[data-status=playing]")
    alice.wait_for_selector("#table-" + table_url.rstrip("/").rsplit("/", 1)[1] + "-chat")
    texts = alice.locator(".chat-line .chat-text").all_text_contents()
    assert "after the block" not in texts and "before the block" not in texts
    shot(alice, f"club-06-blocked-chat-{width}-{lang}")

    # The block is listed on her profile and lifted there; his lines show again.
    other_tab.goto(f"{server.url}/accounts/profile/")
    assert b_name in other_tab.locator(".blocked-list").text_content()
    fits(other_tab, "#club")  # (the profile's other sections are not the club's)
    no_grave_violation(other_tab, "profile")
    shot(other_tab, f"club-07-profile-{width}-{lang}")
    with other_tab.expect_navigation():
        other_tab.click(".blocked-list form button")
    assert other_tab.locator(".blocked-list li form").count() == 0
    alice.reload()
    alice.wait_for_selector(".chat-line .chat-text:has-text('after the block')")
    assert not alice.errors


@pytest.mark.parametrize("width, lang", [(390, "fr"), (1280, "en")])
def test_following_download_and_delete_pages(server, person, width, lang):
    alice, bob = person(width, lang), person(1280, "en")
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    alice.goto(f"{server.url}/players/{b_name}/")
    with alice.expect_navigation():
        alice.click(f"form[action='/players/{b_name}/follow/'] button")
    alice.goto(f"{server.url}/following/")
    assert alice.locator(f"li.person[data-person='{b_name}']").count() == 1
    fits(alice)
    no_grave_violation(alice, "following")
    shot(alice, f"club-08-following-{width}-{lang}")
    with alice.expect_download() as download:
        alice.goto(f"{server.url}/accounts/profile/")
        alice.click("a[href='/me/data/']")
    assert download.value.suggested_filename.endswith(".json")
    alice.goto(f"{server.url}/me/delete/")
    fits(alice)
    no_grave_violation(alice, "delete account")
    alice.fill("input[name=password]", "e2e-passphrase-31")
    with alice.expect_navigation():
        alice.click("form.card-form button")
    assert alice.url == f"{server.url}/"
    bob.goto(f"{server.url}/players/{a_name}/")
    assert bob.locator("h1").count() == 1 and a_name not in bob.locator("h1").text_content()  # 404 page
