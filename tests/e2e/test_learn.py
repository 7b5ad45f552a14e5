"""Learn to play, as a newcomer does it: from a game's rules page, a guided game against a bot whose steps point
at the board, each ended by "Next" or by the move it asks for, in English and French, on a phone and a laptop;
axe-core on every step; screenshots artifacts/screenshots/learn-<game>-<lang>-<width>-<step>.png."""

import json

import pytest

from tables import tutorial
from tests.e2e.conftest import shot, sign_up, unique
from tests.e2e.test_axe import grave_violations

LEARN = {"en": "Learn to play", "fr": "Apprendre à jouer"}
STEP = {"en": "step {n} of {total}", "fr": "étape {n} sur {total}"}
SIZES = {390: 844, 1280: 800}


def click_an_awaited_move(page, kinds):
    """Click a visible button posting a move of one of ``kinds`` (the first kind that has one)."""
    for _ in range(2):
        for kind in kinds:
            found = page.locator(f"[data-move*='\"type\":{json.dumps(kind)}']:not(.cp-pay):not(.takeback):visible")
            if found.count():
                found.first.click()
                return kind
        folded = page.locator("details:not([open]):has([data-move]) > summary")  # (a Chronica pass unfolds)
        if folded.count():
            folded.first.click()
    shot(page, "learn-no-move")
    raise AssertionError(f"no button for a move of the kinds {kinds}")


def start_guided_game(page, server, game, lang):
    page.on("dialog", lambda dialog: dialog.accept())  # ("cannot be taken back. Play it?": yes)
    sign_up(page, server, unique("learner"))
    page.goto(f"{server.url}/games/{game}/rules/")
    page.get_by_role("button", name=LEARN[lang]).click()
    page.wait_for_selector("section.table-status[data-status=playing]")
    assert page.locator(".guide-label").is_visible()


@pytest.mark.parametrize("width", sorted(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(tutorial.LESSONS))
def test_a_guided_first_game_walks_through_its_steps(server, new_page, game, lang, width):
    page = new_page(width, SIZES[width], locale=lang)
    start_guided_game(page, server, game, lang)
    steps = tutorial.LESSONS[game].steps
    guide = page.locator("#guide")
    grave = {}
    for n, step in enumerate(steps, start=1):
        counted = STEP[lang].format(n=n, total=len(steps))
        page.wait_for_function(
            "t => { const g = document.getElementById('guide'); return g && !g.hidden && g.textContent.includes(t); }",
            arg=counted,
        )
        target = page.locator(step.target).first
        assert "guide-target" in target.get_attribute("class"), f"step {n} does not point at {step.target}"
        box, pointed = guide.bounding_box(), target.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, f"step {n}: the bubble leaves the screen"
        overlap = min(box["y"] + box["height"], pointed["y"] + pointed["height"]) - max(box["y"], pointed["y"])
        assert overlap <= 0 or pointed["height"] > SIZES[width] / 2, f"step {n}: the bubble covers its target"
        shot(page, f"learn-{game}-{lang}-{width}-{n}", full_page=False)
        grave[n] = grave_violations(page)
        if step.wait:
            assert page.locator("[data-guide-next]").is_hidden()
            click_an_awaited_move(page, step.wait)
        else:
            assert page.evaluate("document.activeElement.matches('[data-guide-next]')"), f"step {n}: no focus"
            page.keyboard.press("Enter")
    page.wait_for_selector("#guide", state="hidden")
    assert not page.locator(".guide-target").count()
    assert not {n: v for n, v in grave.items() if v}, grave
    page.reload()
    page.wait_for_selector("section.table-status[data-status]")
    assert page.locator("#guide").is_hidden()  # (the guide, done, stays done on this table)
    assert not page.errors, page.errors


def test_escape_skips_the_guide_and_the_game_goes_on(server, new_page):
    page = new_page(390, 844, locale="en")
    start_guided_game(page, server, "cosmic_crowns", "en")
    page.wait_for_selector("#guide:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#guide", state="hidden")
    page.wait_for_selector(".cc-hand .playable")  # (the bot has led: the player's turn, as in any game)
    click_an_awaited_move(page, ["play"])
    page.reload()
    page.wait_for_selector("section.table-status[data-status=playing]")
    assert page.locator("#guide").is_hidden()
    assert not page.errors, page.errors
