"""A social table in three browsers: an invitation by username reaches the invitee's badge and dashboard
live, two players chat live (text and a quick phrase), and a concession is told in the other's log."""

import re

from tests.e2e.conftest import shot, sign_up, unique


def has_text(page, selector: str, text: str, timeout: int = 10000) -> None:
    page.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some(e => e.textContent.includes(text))",
        arg=[selector, text],
        timeout=timeout,
    )


def test_chat_invite_and_concession_told_live(server, new_page):
    alice, bob, carol = new_page(1280), new_page(390, 844), new_page(1280)
    a_name, b_name, c_name = unique("alice"), unique("bob"), unique("carol")
    for page, name in ((alice, a_name), (bob, b_name), (carol, c_name)):
        sign_up(page, server, name)
    carol.goto(f"{server.url}/")  # her badge listens live

    alice.goto(f"{server.url}/games/cosmic_crowns/new/")
    alice.select_option("select[name=players]", "2")
    alice.click("form.card-form button")
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = alice.url
    assert alice.locator("input.invite").input_value() == table_url  # the full link, to paste anywhere
    assert alice.locator("text=sign up").count() == 0

    alice.fill("input[name=username]", c_name)
    alice.click("form.invite-form button")
    has_text(alice, ".invite-panel", f"{c_name} is invited")
    carol.wait_for_function("() => document.getElementById('your-turn-badge').dataset.count === '1'")
    assert (
        carol.locator("#toast").text_content() == "You are invited to a table: see Your turn."
    )  # not "your turn"
    carol.goto(f"{server.url}/your-turn/")
    assert carol.locator(f".invitation >> text=invited by {a_name}").count() == 1
    shot(carol, "social-01-invitation")

    bob.goto(table_url)
    with bob.expect_navigation():  # the action answers htmx with a refresh
        bob.click("text=Join this table")
    alice.wait_for_selector(f".seat-chip >> text={b_name}")
    with alice.expect_navigation():  # the action answers htmx with a refresh
        alice.click("button:has-text('Start')")
    alice.wait_for_selector(".cc-board")
    bob.wait_for_selector(".cc-board")

    bob.fill("input[name=text]", "hello <b>alice</b>")
    bob.press("input[name=text]", "Enter")
    has_text(alice, ".chat-line .chat-text", "hello <b>alice</b>")  # live, shown as text
    assert alice.locator(".chat-line b").count() == 0
    bob.wait_for_function("() => document.querySelector('input[name=text]').value === ''")
    alice.click("button[data-phrase=gg]")
    has_text(bob, ".chat-line .chat-text", "Good game")
    shot(alice, "social-02-chat-desktop")
    shot(bob, "social-02-chat-phone")

    # Carol watches: she may hide the chat (this browser keeps her choice), and a new line stays hidden.
    carol.goto(table_url)
    has_text(carol, ".chat-line .chat-text", "Good game")
    carol.click("button[data-chat-hide]")
    assert not carol.locator(".chat-log").is_visible()
    bob.click("button[data-phrase=thanks]")
    carol.reload()
    carol.wait_for_selector("button[data-chat-hide] >> text=Show the chat")
    carol.wait_for_timeout(300)  # (the socket's first frame swaps the panel in again meanwhile)
    assert not carol.locator(".chat-log").is_visible()
    carol.click("button[data-chat-hide]")
    has_text(carol, ".chat-line .chat-text", "Thanks")

    bob.once("dialog", lambda dialog: dialog.accept())
    with bob.expect_navigation():  # the action answers htmx with a refresh
        bob.click("button:has-text('Concede')")
    has_text(alice, ".move-log li.log-event", f"{b_name} conceded")  # live, in the log
    # The same log arriving again (a socket's refresh frame after a seat change) leaves every line in place,
    # events that share a position (both before the first move) included: each line has a key of its own.
    alice.evaluate(
        """() => {
        const html = document.querySelector(".move-log").outerHTML.replace("<aside ", '<aside hx-swap-oob="true" ');
        for (let i = 0; i < 2; i++) htmx.swap(document.createElement("div"), html, {swapStyle: "innerHTML"});
    }"""
    )
    events = alice.locator(".move-log li.log-event").all_inner_texts()
    assert events == [f"{b_name} took a seat.", f"{b_name} conceded: a bot plays their seat."], events
    shot(alice, "social-03-conceded")
    for page in (alice, bob, carol):
        assert not page.errors, page.errors
