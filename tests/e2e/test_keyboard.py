"""A whole turn of each game with the keyboard only: Tab to move the focus, Enter or Space to press (issue 15,
point 3). No click, no pointer: every step of a turn is reachable and operable from the keyboard."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import seq_of, visit

PROMPT = {
    "cosmic_crowns": ".cc-prompt.mine",
    "five_crowns": ".fc-prompt.mine",
    "chronica": ".cu-prompt.mine",
    "cosplay": ".cp-prompt.mine",
}


def focused_matches(page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector)


def tab_to(page, selector: str, limit: int = 300) -> None:
    """Press Tab until the focus is on an element matching ``selector`` (from wherever the focus is)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused_matches(page, selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def press(page, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


def present(page, selector: str) -> bool:
    return page.locator(f"{selector} >> visible=true").count() > 0


def one_step(page, slug: str) -> None:
    """One step of the player's turn, by keyboard: the game's next thing to press."""
    if slug == "cosmic_crowns":
        press(page, ".cc-board [data-move]")
    elif slug == "five_crowns":
        press(page, ".fc-board [data-move]", "Space")
    elif slug == "chronica":
        for selector in ("[data-cu-confirm]", "[data-cu-option]", ".cu-slot.target[role=button]"):
            if present(page, selector):
                press(page, selector)
                return
        if page.locator(".cu-board.phase-mulligan").count() or not present(page, "button.cu-pick.playable"):
            press(page, ".cu-prompt.mine [data-move]")
            return
        # A card of the hand: Enter shows where it may go; without any place for it, Escape and the next card.
        for _ in range(page.locator("button.cu-pick.playable").count()):
            tab_to(page, "button.cu-pick.playable")
            page.keyboard.press("Enter")
            if present(page, ".cu-slot.target[role=button]"):
                return
            page.keyboard.press("Escape")
        press(page, ".cu-prompt.mine [data-move]")  # no card can go anywhere: end the turn
    elif slug == "cosplay":
        if present(page, "[data-cp-pay]:not([disabled])"):
            press(page, "[data-cp-pay]:not([disabled])")
        elif present(page, ".cp-zone .cp-pay") and not page.evaluate(
            "document.body.dataset.recruited === 'yes'"
        ):
            page.evaluate("document.body.dataset.recruited = 'yes'")  # (the test's own note: recruit once)
            press(page, ".cp-zone .cp-pay")
        elif present(page, ".cp-prompt.mine .choices button.ghost"):
            press(page, ".cp-prompt.mine .choices button.ghost")  # an ability's question: the modest answer
        else:
            press(page, "button.end-turn")


@pytest.mark.parametrize("slug", list(PROMPT))
def test_a_whole_turn_with_the_keyboard_only(tour, as_player, slug):
    page = as_player[1280]
    visit(page, tour.server, tour.tables[slug].removeprefix(tour.server.url))
    page.wait_for_selector(PROMPT[slug], timeout=20000)
    if slug == "chronica" and page.locator(".cu-board.phase-mulligan").count():
        press(page, ".cu-prompt.mine [data-move]:not(.ghost)")  # keep the opening hand: not yet a turn
        page.wait_for_selector(".cu-board:not(.phase-mulligan) .cu-prompt.mine", timeout=20000)
    page.evaluate("document.body.dataset.recruited = 'no'")
    start = seq_of(page)
    moves = 0
    for _ in range(25):
        before = seq_of(page)
        one_step(page, slug)
        try:  # a step that posts a move moves the seq; a step that only opens a choice does not
            page.wait_for_function(
                "n => Number(document.querySelector('section.table-status').dataset.seq) > n",
                arg=before,
                timeout=1500,
            )
        except PlaywrightTimeout:
            continue
        moves += 1
        page.wait_for_selector(f"{PROMPT[slug]}, section.table-status[data-status=finished]", timeout=20000)
        if seq_of(page) - start > moves:  # someone else moved: the player's turn was whole
            break
    else:
        raise AssertionError(f"{slug}: the turn never passed to the other player")
    assert moves >= 1
    assert not page.errors
