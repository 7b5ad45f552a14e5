"""'Play now': one click seats the player against bots, and the bots' moves arrive live."""

import pytest

from tests.e2e.conftest import shot, sign_up, unique


@pytest.mark.parametrize("slug", ["cosmic_crowns"])
def test_play_now_against_bots(server, new_page, slug):
    page = new_page(1280)
    sign_up(page, server, unique("solo"))
    page.locator(f"article.game-{slug} button:has-text('Play now')").click()
    page.wait_for_selector("section.table-status[data-status=playing]")
    assert page.locator(".seat-chip", has_text="casual bot").count() >= 1
    my_moves = 0
    for _ in range(60):
        page.wait_for_selector("[data-move]", timeout=15000)  # the bots answer on their own
        seq = int(page.locator("section.table-status").get_attribute("data-seq"))
        page.locator("[data-move]").first.click()
        page.wait_for_function(
            "n => Number(document.querySelector('section.table-status').dataset.seq) > n", arg=seq
        )
        my_moves += 1
        if my_moves == 8:
            break
    final_seq = int(page.locator("section.table-status").get_attribute("data-seq"))
    assert final_seq > my_moves, "bots moved too"
    assert "played" in page.locator(".move-log").inner_text()
    assert not page.errors
    shot(page, f"play-now-{slug}")
