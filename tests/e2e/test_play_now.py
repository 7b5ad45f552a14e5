"""'Play now': one click seats the player against bots, and the bots' moves arrive live."""

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import GAMES, shot, sign_up, unique

# A move button that posts at once (a Cosplay payment button opens the payment panel instead).
DIRECT = "[data-move]:not(.cp-pay):not(.takeback)"  # a move of the game (Undo is not one)


def click_a_move(page):
    """Click the first visible move. A Chronica mulligan is decided by both seats at once, so the bot's
    answer may redraw the board under the pointer: then take the button of the new board."""
    for _ in range(3):
        folded = page.locator("details:not([open]):has([data-move]) > summary")
        if (
            folded.count()
        ):  # a Chronica pass: "Pass: discard 1, draw 2" unfolds the discards (again, if redrawn)
            folded.first.click()
        try:
            page.locator(f"{DIRECT}:visible").first.click(timeout=5000)
            return
        except PlaywrightTimeout:
            continue
    shot(page, "play-now-no-move")
    raise AssertionError("no move button could be clicked")


def assert_holds_still_under_the_pointer(page):
    """A pointer resting on the bottom edge of a move button must not make it jump: a card that lifted
    itself on hover would slide out from under the pointer, drop back, and flicker for as long as it rests.
    A bot's move may redraw the board meanwhile: that is not a flicker, so look again at the new button."""
    for _ in range(5):
        button = page.locator(f"button{DIRECT}:visible").first
        try:
            button.scroll_into_view_if_needed(timeout=5000)
            box = button.bounding_box(timeout=5000)
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
            frames = button.evaluate(
                """b => new Promise(done => {
                    const seen = [];
                    const look = () => {
                        if (!b.isConnected) return done(null);
                        const r = b.getBoundingClientRect();
                        seen.push([r.x, r.y, r.width, r.height].join());
                        if (seen.length < 40) requestAnimationFrame(look); else done(seen);
                    };
                    requestAnimationFrame(look);
                })""",
                timeout=5000,
            )
        except (PlaywrightError, TypeError):  # detached between two steps (TypeError: no box)
            continue
        if frames is None:
            continue
        assert len(set(frames)) == 1, f"the button moved under a resting pointer: {sorted(set(frames))}"
        page.mouse.move(0, 0)
        return
    raise AssertionError("the board never held still long enough to rest the pointer on a move")


@pytest.mark.parametrize("slug", GAMES)
def test_play_now_against_bots(server, new_page, slug):
    page = new_page(1280)
    page.on("dialog", lambda dialog: dialog.accept())  # "cannot be taken back. Play it?": yes
    sign_up(page, server, unique("solo"))
    page.locator(f"article.game-{slug} button:has-text('Play now')").click()
    page.wait_for_selector("section.table-status[data-status=playing]")
    assert page.locator(".seat-chip", has_text="casual bot").count() >= 1
    my_moves = 0
    for _ in range(60):
        page.wait_for_selector(DIRECT, state="attached", timeout=15000)  # the bots answer on their own
        seq = int(page.locator("section.table-status").get_attribute("data-seq"))
        if my_moves == 0:
            assert_holds_still_under_the_pointer(page)
        click_a_move(page)
        page.wait_for_function(
            "n => Number(document.querySelector('section.table-status').dataset.seq) > n", arg=seq
        )
        my_moves += 1
        if my_moves == 8:
            break
    final_seq = int(page.locator("section.table-status").get_attribute("data-seq"))
    assert final_seq > my_moves, "bots moved too"
    assert page.locator(".move-log li[data-key]:not([data-key=start]):not([data-key=none])").count() >= 3
    assert not page.errors
    shot(page, f"play-now-{slug}")
