"""A move clicked on the board travels over the table's socket (no HTTP post), and over HTTP once it is closed."""

import json

from tests.e2e.conftest import open_two_player_table, seq_of, sign_up, unique, wait_for_seq


def watch_moves(page):
    """The move posts this page makes over HTTP, and the messages it sends over its sockets."""
    page.posts, page.sent = [], []
    page.on(
        "request", lambda r: page.posts.append(r.url) if r.method == "POST" and "/move/" in r.url else None
    )
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: page.sent.append(payload)))


def the_mover(pages, seq):
    for page in pages:
        wait_for_seq(page, seq)
    for page in pages:
        if page.locator("[data-move]").count():
            return page
    raise AssertionError("the game is on but nobody has a move to make")


def click_a_move(page):
    others = page.locator(".cc-prompt.mine button[data-move]")
    (others.first if others.count() else page.locator("button.card-button.playable").first).click()


def test_a_move_clicked_on_the_board_goes_over_the_socket_and_over_http_without_it(server, new_page):
    alice, bob = new_page(1280), new_page(390, 844)
    a_name, b_name = unique("alice"), unique("bob")
    for page in (alice, bob):
        page.on("dialog", lambda dialog: dialog.accept())
        watch_moves(page)
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    open_two_player_table(server, alice, bob, "cosmic_crowns", b_name, mode="easy")
    for page in (alice, bob):
        page.wait_for_selector(".cc-board")
        page.wait_for_function("() => document.querySelector('.table-page').cardclubSocket")

    # Socket open: the click sends {"move", "seq"} over it, and both pages move on without any post.
    seq = seq_of(alice)
    mover = the_mover((alice, bob), seq)
    click_a_move(mover)
    for page in (alice, bob):
        wait_for_seq(page, seq + 1)
    moves_sent = [json.loads(m) for m in mover.sent if m.startswith("{") and '"move"' in m]
    assert len(moves_sent) == 1 and moves_sent[0]["seq"] == seq and isinstance(moves_sent[0]["move"], dict)
    assert alice.posts == [] and bob.posts == []

    # The mover's socket closed: the next click posts over HTTP, and the other page still hears of it.
    seq += 1
    mover = the_mover((alice, bob), seq)
    mover.evaluate("() => document.querySelector('.table-page').cardclubSocket.raw.close()")
    mover.wait_for_function("() => document.querySelector('.table-page').cardclubSocket.raw.readyState === 3")
    sent_before = len(mover.sent)
    click_a_move(mover)
    for page in (alice, bob):
        wait_for_seq(page, seq + 1)
    assert len(mover.posts) == 1 and len(mover.sent) == sent_before
    assert not alice.errors and not bob.errors
