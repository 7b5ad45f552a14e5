"""Learn to play, as a newcomer does it: from a game's rules page, a guided game against a bot whose steps point
at the board, each ended by "Next" or by the move it asks for, in English and French, on a phone and a laptop;
axe-core on every step; screenshots artifacts/screenshots/learn-<game>-<lang>-<width>-<step>.png."""

import json

import pytest

from tables import tutorial
from tests.e2e.conftest import SHOTS, shot, sign_up, unique
from tests.e2e.test_axe import grave_violations

LEARN = {"en": "Learn to play", "fr": "Apprendre à jouer"}
STEP = {"en": "step {n} of {total}", "fr": "étape {n} sur {total}"}
SIZES = {390: 844, 1280: 800}
# The bubble showing the step counted ``t`` beside the element ``sel`` it points at: their boxes, or null.
SHOWN = """([t, sel]) => {
    const g = document.getElementById('guide'), el = document.querySelector(sel);
    if (!g || g.hidden || !g.textContent.includes(t) || !el || !el.classList.contains('guide-target')) return null;
    const a = g.getBoundingClientRect(), b = el.getBoundingClientRect();
    const x = (Math.max(b.left, 0) + Math.min(b.right, innerWidth)) / 2;
    const y = (Math.max(b.top, 0) + Math.min(b.bottom, innerHeight)) / 2;
    const seen = el.contains(document.elementFromPoint(x, y));  // (the middle of what is on screen: uncovered)
    return {guide: [a.left, a.top, a.right, a.bottom], target: [b.left, b.top, b.right, b.bottom], seen};
}"""
# Whether a button of a move of the kinds given, or a card a board has picked before its move (Chronica's
# hand: data-pick), is on screen and uncovered (the bubble included), so that the player can press what the
# step asks for without scrolling.
PRESSABLE = """(kinds) => [...document.querySelectorAll('[data-move], [data-pick]')].some(b => {
    let kind = null; try { kind = b.dataset.move && JSON.parse(b.dataset.move).type; } catch (e) { return false; }
    const r = b.getBoundingClientRect();
    if ((kind && !kinds.includes(kind)) || !r.width || r.top < 0 || r.bottom > innerHeight) return false;
    return b.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
})"""

# The buttons of the moves of the kinds given, the cards a board has picked before their move, the board's
# prompt (the question the step asks: "Your turn: draw a card — click the stock or the discard.") and the words
# of the table's turn line ("Your turn."), that the bubble covers on screen (each named by its text). (A button
# folded away in a closed <details>, Five Crowns' "Go out this way", keeps boxes in Chromium: it is not shown.)
COVERED = """(kinds) => {
    const g = document.getElementById('guide').getBoundingClientRect();
    const over = r => r.width && r.bottom > g.top && r.top < g.bottom && r.right > g.left && r.left < g.right;
    const words = el => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
    return [...document.querySelectorAll('[data-move], [data-pick]')].filter(b => {
        let kind = null; try { kind = b.dataset.move && JSON.parse(b.dataset.move).type; } catch (e) { return false; }
        return !(kind && !kinds.includes(kind)) && b.checkVisibility() && over(b.getBoundingClientRect());
    }).concat([...document.querySelectorAll("[id$='-prompt']")].filter(p => over(p.getBoundingClientRect())))
        .concat([...document.querySelectorAll('.table-status .turn-line')].filter(t => over(words(t))))
        .map(b => b.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40));
}"""
# The docked hand's own tools that the bubble covers on screen, at any step: the words of its title ("Your hand
# (7)") and its buttons other than cards (Five Crowns' "Sort by suit", "Move cards", arrows), each named by its
# text: a player sees what they hold and arranges it while the guide talks. (``kinds`` unused: as COVERED.)
TOOLS_COVERED = """(kinds) => {
    const g = document.getElementById('guide').getBoundingClientRect();
    const over = r => r.width && r.bottom > g.top && r.top < g.bottom && r.right > g.left && r.left < g.right
        && r.bottom > 0 && r.top < innerHeight;
    const words = el => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
    return [...document.querySelectorAll("[id$='-hand']")].flatMap(hand => [...hand.querySelectorAll(
        ':scope h3, :scope button:not([data-move]):not([data-pick])')]).filter(el => el.checkVisibility()
        && !el.querySelector('[data-card]') && !el.closest('.card-button')
        && over(el.matches('h3') ? words(el) : el.getBoundingClientRect()))
        .map(el => (el.getAttribute('aria-label') || el.textContent).trim().replace(/\\s+/g, ' ').slice(0, 40));
}"""

# The board's prompts ("Keep your hand or take a mulligan?") holding a button of a move of the kinds given that
# are not whole on screen below the site's bar (each named by its text): a player reads the question with its
# buttons.
PROMPT_CUT = """(kinds) => {
    const bar = document.querySelector('.topbar'), edge = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    const prompts = new Set([...document.querySelectorAll("[id$='-prompt'] [data-move]")].filter(b => {
        let kind = null; try { kind = JSON.parse(b.dataset.move).type; } catch (e) { return false; }
        return kinds.includes(kind) && b.getClientRects().length;
    }).map(b => b.closest("[id$='-prompt']")));
    return [...prompts].filter(p => {
        const r = p.getBoundingClientRect();
        return r.top < edge - 1 || r.bottom > innerHeight + 1;
    }).map(p => p.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60));
}"""


# The board's prompt ("Discard a card: click a highlighted card in your hand.") not whole on screen below the
# site's bar, or, in the same frame, none of the buttons the step asks to press pressable (as PRESSABLE): those of
# the moves of the kinds given and the picked cards within the step's target when it holds some (the hand's cards
# to discard), else anywhere. A player reads what the step asks while choosing. What is amiss, or [].
ASKED = """(kinds) => {
    const bar = document.querySelector('.topbar'), edge = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    const amiss = [], prompt = [...document.querySelectorAll("[id$='-prompt']")].find(p => p.getClientRects().length);
    if (!prompt) amiss.push('no prompt');
    else {
        const r = prompt.getBoundingClientRect();
        if (r.top < edge - 1 || r.bottom > innerHeight + 1) {
            amiss.push(`the prompt at ${Math.round(r.top)}-${Math.round(r.bottom)} px (screen ${Math.round(edge)}-${innerHeight})`);
        }
    }
    const target = document.querySelector('.guide-target');
    const asked = [...document.querySelectorAll('[data-move], [data-pick]')].filter(b => {
        let kind = null; try { kind = b.dataset.move && JSON.parse(b.dataset.move).type; } catch (e) { return false; }
        return !(kind && !kinds.includes(kind)) && b.checkVisibility();
    });
    const within = asked.filter(b => target && target.contains(b));
    const pressable = b => {
        const r = b.getBoundingClientRect();
        if (!r.width || r.top < 0 || r.bottom > innerHeight) return false;
        return b.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
    };
    if (!(within.length ? within : asked).some(pressable)) {
        amiss.push(within.length ? 'none of the buttons it asks for in its target pressable' : 'no button it asks for pressable');
    }
    return amiss;
}"""


def found_after_a_while(page, finder: str, kinds) -> list:
    """What ``finder`` (PROMPT_CUT, COVERED, TOOLS_COVERED, ASKED) finds for the move kinds once the guide has had 3 s to settle
    (it places the bubble and scrolls in the animation frame after a live frame brought the buttons): [] as
    soon as it finds nothing."""
    try:
        page.wait_for_function(f"(kinds) => !({finder})(kinds).length", arg=list(kinds), timeout=3000)
        return []
    except Exception:
        return page.evaluate(finder, list(kinds))


def snap(page, name):
    """The screen as the player sees it now (conftest's shot scrolls to the top first: not here)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def click_an_awaited_move(page, kinds):
    """Click a visible button posting a move of one of ``kinds`` (the first kind that has one)."""
    for _ in range(2):
        for kind in kinds:
            found = page.locator(
                f"[data-move*='\"type\":{json.dumps(kind)}']:not(.cp-pay):not(.takeback):visible"
            )
            if found.count():
                found.first.click()
                page.mouse.move(0, 0)  # (a pointer resting on a card would open its peek)
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
    grave = {}
    for n, step in enumerate(steps, start=1):
        counted = STEP[lang].format(n=n, total=len(steps))
        try:  # (the bubble and its target measured in one frame: a live frame may redraw the board at any time)
            geometry = page.wait_for_function(SHOWN, arg=[counted, step.target]).json_value()
            (left, top, right, bottom), target = geometry["guide"], geometry["target"]
            assert geometry["seen"], f"step {n}: {step.target} is off screen or covered"
            assert 0 <= left and right <= width, f"step {n}: the bubble leaves the screen"
            assert 0 <= top and bottom <= SIZES[width], f"step {n}: the bubble (with Skip) is off screen"
            overlap = min(bottom, target[3]) - max(top, target[1])
            assert overlap <= 0 or target[3] - target[1] > SIZES[width] / 2, f"step {n}: the bubble covers it"
            tools = found_after_a_while(page, TOOLS_COVERED, step.wait)  # (at every step)
            assert not tools, f"step {n}: the bubble covers the docked hand's {tools}"
            if step.wait:  # (the moves it waits for may come a moment later: the bot decides first, say)
                try:
                    page.wait_for_function(PRESSABLE, arg=list(step.wait), timeout=5000)
                except Exception:
                    raise AssertionError(f"step {n}: no move it asks for can be pressed") from None
                cut = found_after_a_while(page, PROMPT_CUT, step.wait)  # (the question read with its buttons)
                assert not cut, f"step {n}: the prompt is not whole on screen: {cut}"
                covered = found_after_a_while(page, COVERED, step.wait)  # (nor on a phone)
                assert not covered, f"step {n}: the bubble covers {covered}"
                amiss = found_after_a_while(page, ASKED, step.wait)  # (the question with what answers it)
                assert not amiss, f"step {n}: {amiss}"
        except Exception:
            snap(page, f"learn-{game}-{lang}-{width}-{n}-failed")
            raise
        snap(page, f"learn-{game}-{lang}-{width}-{n}")
        grave[n] = grave_violations(page)
        if step.wait:
            assert page.locator("[data-guide-next]").is_hidden()
            click_an_awaited_move(page, step.wait)
        else:
            focused = page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
            assert "data-guide-next" in focused, f"step {n}: the focus is on {focused}"
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


@pytest.mark.parametrize("width", sorted(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rules_pages_show_the_cards_as_on_the_board(server, new_page, lang, width):
    """Each rules page draws its cards and worked examples with the board's own card partials, fits the
    screen, names its game once, and passes axe-core; with a Learn to play button for a player."""
    page = new_page(width, SIZES[width], locale=lang)
    sign_up(page, server, unique("reader"))
    grave = {}
    for game in sorted(tutorial.LESSONS):
        page.goto(f"{server.url}/games/{game}/rules/")
        assert page.locator(".rules-figure [data-card]").count() >= 8
        board_look = page.locator(".rules-figure .board [data-card]").first.evaluate(
            "el => getComputedStyle(el).boxShadow !== 'none' && el.getBoundingClientRect().width > 40"
        )
        assert board_look, f"{game}: the cards are not drawn with the board's styles"
        assert page.locator("h1").count() == 1
        assert page.locator("h2", has_text=page.locator("h1").inner_text()).count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (
            f"{game}: wider than the screen"
        )
        assert page.get_by_role("button", name=LEARN[lang]).is_visible()
        shot(page, f"learn-rules-{game}-{lang}-{width}")
        grave[game] = grave_violations(page)
    assert not {g: v for g, v in grave.items() if v}, grave
    assert not page.errors, page.errors
