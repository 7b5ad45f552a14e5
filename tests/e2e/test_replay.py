"""Replays in a real browser: step with the keys, switch seats, and end on the final board."""

import re

from tests.e2e.conftest import finished_game, shot, sign_up, unique

BOARD = "section.board [data-card]"


def board(page) -> tuple[list[str], str]:
    """The cards drawn on the board and its text, as a viewer sees them."""
    codes = sorted(page.eval_on_selector_all(BOARD, "els => els.map(e => e.dataset.card)"))
    return codes, page.locator("section.board").inner_text()


def step_of(page) -> int:
    return int(page.locator("#replay-step").get_attribute("data-step"))


def test_replay_steps_with_keys_switches_seats_and_ends_on_the_final_board(server, new_page):
    host, guest = new_page(), new_page()
    host_name, guest_name = unique("rp"), unique("rq")
    sign_up(host, server, host_name)
    sign_up(guest, server, guest_name)
    pk = finished_game(server, (host_name, guest_name))["table"]

    host.goto(f"{server.url}/tables/{pk}/")
    final = board(host)
    assert final[1].strip()
    host.click("[data-result-dismiss]")  # the result panel over the board: look at the board itself
    host.click("text=Replay this game")
    host.wait_for_url(re.compile(rf"/tables/{pk}/replay/"))
    assert step_of(host) == 0 and host.locator(".seat-link.current").inner_text() == host_name
    last = int(host.locator("#replay-step").get_attribute("data-last"))

    host.keyboard.press("ArrowRight")
    host.wait_for_selector('#replay-step[data-step="1"]')
    assert "step=1" in host.url
    host.keyboard.press("ArrowRight")
    host.wait_for_selector('#replay-step[data-step="2"]')
    host.keyboard.press("ArrowLeft")
    host.wait_for_selector('#replay-step[data-step="1"]')
    assert "step=1" in host.url

    host.click(".seat-link[data-seat=watch]")
    host.wait_for_selector(".seat-link.current[data-seat=watch]")
    assert "seat=watch" in host.url and step_of(host) == 1
    host.click(f".seat-link:has-text('{guest_name}')")
    host.wait_for_selector(".seat-link.current[data-seat='1']")

    host.click(".seat-link[data-seat='0']")
    host.wait_for_selector(".seat-link.current[data-seat='0']")
    host.keyboard.press("End")
    host.wait_for_selector(f'#replay-step[data-step="{last}"]')
    assert board(host) == final
    assert host.locator("#replay-step .final").is_visible()
    host.go_back()  # the history of steps: back to the seat switch before the last step
    host.wait_for_selector('#replay-step[data-step="1"]')

    for width in (390, 1280):
        host.set_viewport_size({"width": width, "height": 900})
        host.goto(f"{server.url}/tables/{pk}/replay/?step=6&seat=0")
        shot(host, f"replay-{width}")
        overflow = host.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the replay is wider than {width} px"
        host.goto(f"{server.url}/players/{guest_name}/")
        assert host.locator("text=Your record against").is_visible()
        shot(host, f"player-{width}")
        overflow = host.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the player page is wider than {width} px"
    assert not host.errors and not guest.errors
