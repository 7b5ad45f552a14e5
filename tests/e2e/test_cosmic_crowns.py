"""Two people in two browsers play a whole Easy-mode Cosmic Crowns game through the UI, live."""

import re

from tests.e2e.conftest import seq_of, shot, sign_up, unique, wait_for_seq


def test_two_players_play_a_whole_easy_game_live(server, new_page):
    alice, bob = new_page(1280), new_page(390, 844)
    for page in (alice, bob):  # a move that cannot be taken back asks first: they answer yes
        page.on("dialog", lambda dialog: dialog.accept())
    a_name, b_name = unique("alice"), unique("bob")
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)

    alice.goto(f"{server.url}/games/cosmic_crowns/new/")
    alice.select_option("select[name=players]", "2")
    alice.select_option("select[name=mode]", "easy")
    alice.click("form.card-form button")
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = alice.url
    assert alice.locator("input.invite").input_value().endswith(table_url.split(server.url)[1])
    shot(alice, "cc-01-open-table")

    bob.goto(table_url)
    with bob.expect_navigation():  # the action answers htmx with a refresh
        bob.click("text=Join this table")
    bob.wait_for_selector(f".seat-chip.me >> text={b_name}")
    # Alice's page learns of Bob live, without reloading, and her Start button comes alive.
    alice.wait_for_selector(f".seat-chip >> text={b_name}")
    with alice.expect_navigation():  # the action answers htmx with a refresh
        alice.click("button:has-text('Start')")
    alice.wait_for_selector(".cc-board")
    bob.wait_for_selector(".cc-board")  # live, no reload
    shot(alice, "cc-02-started-desktop")
    shot(bob, "cc-02-started-phone")

    pages = {a_name: alice, b_name: bob}
    moves = 0
    while True:
        status = alice.locator("section.table-status").get_attribute("data-status")
        if status == "finished":
            break
        seq = seq_of(alice)
        mover = None
        for page in pages.values():
            wait_for_seq(page, seq)
            if page.locator("[data-move]").count():
                mover = page
                break
        assert mover is not None, "the game is on but nobody has a move to make"
        playable = mover.locator("button.card-button.playable")
        other_buttons = mover.locator(".cc-prompt.mine button[data-move]")
        button = other_buttons.first if other_buttons.count() else playable.first
        try:
            button.click()
        except Exception:
            shot(mover, "cc-failed-click")
            print(
                button.evaluate(
                    "b => { const r = b.getBoundingClientRect(); const e = document.elementFromPoint(r.x + r.width/2, r.y + r.height/2); return JSON.stringify([r.x, r.y, r.width, r.height, window.scrollY]) + (e ? e.outerHTML.slice(0, 400) : 'none'); }"
                )
            )
            raise
        moves += 1
        for page in pages.values():
            wait_for_seq(page, seq + 1)  # both pages move on: the other one over the WebSocket
        if moves == 12:
            shot(alice, "cc-03-mid-game-desktop")
            shot(bob, "cc-03-mid-game-phone")
        assert moves < 400
    for page in pages.values():
        page.wait_for_selector("text=Final scores")
        assert not page.errors, page.errors
    shot(alice, "cc-04-finished-desktop")
    shot(bob, "cc-04-finished-phone")
    assert moves >= 55  # 10 + 9 + ... + 1 tricks of two cards, at the least

    alice.goto(f"{server.url}/history/")
    assert alice.locator(f"text={b_name}").count() >= 1
    shot(alice, "cc-05-history")
