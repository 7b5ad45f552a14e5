"""The small slips of issue 28 (point 6), as a person meets them: checkboxes at full size, the phone's header
on one line with a menu, and on a laptop the chat beside the board within the first screen, each message with
its time."""

import re

import pytest

from tests.e2e.conftest import shot, visit


@pytest.mark.parametrize("width", [390, 1280])
def test_checkboxes_keep_their_full_size_beside_long_labels(tour, as_player, width):
    page = as_player[width]
    visit(page, tour.server, "/games/cosmic_crowns/new/")
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('input[type=checkbox]')].map(el => [el.name, el.getBoundingClientRect().width, el.getBoundingClientRect().height])"
    )
    assert any(name == "private" for name, _w, _h in sizes)
    for name, w, h in sizes:
        assert w >= 16 and h >= 16, f"the {name} checkbox is {w:.1f} × {h:.1f} px"


def test_the_phone_header_is_one_line_and_its_menu_opens_and_closes(tour, as_player):
    page = as_player[390]
    visit(page, tour.server, "/")
    bar = page.locator(".topbar").bounding_box()
    assert bar["height"] <= 52, f"the header is {bar['height']:.0f} px high (two lines?)"
    history = page.locator(".topbar a", has_text=re.compile("^History$"))
    assert not history.is_visible()
    page.click(".nav-toggle")
    assert page.locator(".nav-toggle").get_attribute("aria-expanded") == "true" and history.is_visible()
    shot(page, "phone-header-menu", full_page=False)
    page.keyboard.press("Escape")
    assert not history.is_visible() and page.locator(".nav-toggle").get_attribute("aria-expanded") == "false"
    desktop = as_player[1280]
    visit(desktop, tour.server, "/")
    assert desktop.locator(".topbar a", has_text=re.compile("^History$")).is_visible()
    assert not desktop.locator(".nav-toggle").is_visible()


def test_on_a_laptop_the_chat_is_beside_the_board_on_the_first_screen_with_a_time_on_each_message(
    tour, as_player
):
    page = as_player[1280]
    visit(page, tour.server, tour.tables["five_crowns"].removeprefix(tour.server.url))
    said = page.locator(".chat-line").count()
    page.click(".quick-phrases button[data-phrase]")  # "Good game"
    page.wait_for_function("n => document.querySelectorAll('.chat-line').length > n", arg=said)
    line = page.locator(".chat-line").last
    assert re.fullmatch(r"\d{1,2}:\d\d( [AP]M)?", line.locator("time.chat-at").inner_text().strip())
    visit(page, tour.server, tour.tables["five_crowns"].removeprefix(tour.server.url))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_selector(".chat-form input")
    # Measured in one go in the page: the socket's first frame may replace the board at any moment, and a box
    # asked of an element just swapped out is none.
    boxes = page.evaluate(
        """sels => sels.map(sel => {
          const el = document.querySelector(sel);
          if (!el || !el.getClientRects().length) return null;
          const r = el.getBoundingClientRect();
          return {x: r.x, y: r.y, width: r.width, height: r.height};
        })""",
        [".table-body > .board", ".chat-panel h2", ".chat-log", ".chat-form input"],
    )
    board = boxes[0]
    assert board, "the board is not drawn"
    for sel, box in zip((".chat-panel h2", ".chat-log", ".chat-form input"), boxes[1:], strict=True):
        assert box, f"{sel} is not drawn"
        assert box["y"] + box["height"] <= 800, (
            f"{sel} ends at {box['y'] + box['height']:.0f} px, below the fold"
        )
        assert box["x"] >= board["x"] + board["width"], f"{sel} is not beside the board"
    shot(page, "laptop-chat-beside-the-board", full_page=False)
