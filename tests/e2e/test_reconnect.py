"""What a table's socket sends on connect, and on every reconnect, leaves as it is: the table as the page shows it
(CONTRACTS §3: the socket sends the current state on connect, often a moment after the page has come).
static/js/site.js leaves the status and the board when the page shows the frame's revision, and carries what
the player is typing into a panel the frame replaces."""

from __future__ import annotations

from tests.e2e.conftest import hear_frames, seated_to_play_chronica, wait_for_frames

RECONNECT = "() => document.querySelector('.table-page').cardclubSocket.wrapper.reconnect()"
OPEN = "() => !!document.querySelector('.table-page').cardclubSocket"


def table_page(server, page) -> None:
    """``page``'s person at a Chronica table of two, to play, its socket open and its messages counted."""
    seated_to_play_chronica(server, page)
    page.wait_for_function(OPEN)
    hear_frames(page)


def test_a_card_picked_before_the_socket_speaks_stays_picked(server, new_page):
    """A table's socket sends the table as it is on connect (CONTRACTS §3), often a moment after the page has
    come, and again on every reconnect. When the page already shows that revision, the frame leaves the board as
    it is: the card the player picked meanwhile and the mode chosen for it stay (the frame replaced the board,
    which undid them: a player on a slow line, or a socket that reconnects, lost the move being put together)."""
    page = new_page(1280)
    table_page(server, page)
    page.click(".cu-hand [data-pick='moliere']")
    page.click("[data-cu-mode=action]")
    targets = page.locator(".cu-slot.target")
    assert targets.count()
    page.evaluate(RECONNECT)
    wait_for_frames(page)  # (the reconnected socket's frame, handled)
    assert targets.count(), "the frame on reconnect undid the card picked and its mode"
    assert page.locator("[data-cu-mode=action]").is_visible()
    assert not page.errors, page.errors


def test_what_the_player_is_typing_in_the_chat_survives_the_frame_on_reconnect(server, new_page):
    """The chat panel comes whole in the socket's first frame (muting it changes no revision, so it is always
    drawn anew): the line being typed goes into the new box, which keeps the focus and the caret."""
    page = new_page(390, 844)
    table_page(server, page)
    box = page.locator("input[name=text]")
    box.click()
    page.keyboard.type("half a sent")
    page.keyboard.press("ArrowLeft")
    page.evaluate(RECONNECT)
    wait_for_frames(page)
    assert box.input_value() == "half a sent"
    assert page.evaluate("() => [document.activeElement.name, document.activeElement.selectionStart]") == [
        "text",
        10,
    ]
    page.keyboard.type("x")
    assert box.input_value() == "half a senxt"
    assert not page.errors, page.errors
