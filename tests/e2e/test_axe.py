"""axe-core (through axe-playwright-python) on every page of the site, at a phone's width and a desktop's: no
serious or critical violation (issue 15, point 3)."""

import pytest

from tests.e2e.conftest import SPLIT_WORDS, seated_to_play_chronica, visit

GRAVE = {"serious", "critical"}


# axe-core leaves its experimental rules out unless asked: label-content-name-mismatch (WCAG 2.5.3, serious:
# a control's accessible name must include its visible text) is one of them, and was missed until it was asked.
EXPERIMENTAL = "axe.getRules(['experimental']).map(rule => rule.ruleId)"


def grave_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page.evaluate(axe.axe_script)
    rules = {rule: {"enabled": True} for rule in page.evaluate(EXPERIMENTAL)}
    results = axe.run(page, options={"resultTypes": ["violations"], "rules": rules})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(
            n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:4]
        )
        for v in results.response["violations"]
        if v["impact"] in GRAVE
    ]


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_has_a_serious_accessibility_violation(tour, as_player, as_visitor, width):
    found = {}
    for name, path, player in tour.pages():
        page = (as_player if player else as_visitor)[width]
        visit(page, tour.server, path)
        grave = grave_violations(page) + [f"a word cut across lines: {w}" for w in page.evaluate(SPLIT_WORDS)]
        if grave:
            found[name] = grave
    assert not found, "\n".join(f"{name}: {v}" for name, vs in found.items() for v in vs)


# Each card's accessible name, and the code it shows (data-card): computed as a screen reader would for the
# cards that are images (role="img": aria-label, else title), and for the buttons that play a card.
CARD_NAMES = """() => {
    // A card drawn as a picture (role=img) is named by its label; any other card reads its own text.
    const named = el => el.getAttribute('role') === 'img'
        ? (el.getAttribute('aria-label') || el.getAttribute('title') || '').trim()
        : el.textContent.replace(/\\u00ad/g, '').replace(/\\s+/g, ' ').trim();  // (a soft hyphen is not read)
    const cards = [...document.querySelectorAll('.board [data-card]')].filter(el => !el.closest('[aria-hidden=true]'))
        .map(el => [el.dataset.card, named(el), el.getAttribute('role') === 'img']);
    // A button that shows a card says what it does in words for screen readers (its card then hidden from them).
    const said = b => b.getAttribute('aria-label') || (b.querySelector(':scope > .visually-hidden') || {}).textContent;
    const buttons = [...document.querySelectorAll('.board button:has([data-card])')].filter(said)
        .map(b => [b.querySelector('[data-card]').dataset.card, said(b).trim()]);
    return {cards, buttons};
}"""


@pytest.mark.parametrize("slug", ["cosmic_crowns", "five_crowns", "chronica"])
def test_every_card_has_a_name_in_words(tour, as_player, slug):
    """Cards are named in words (the engine's card_name where it has one), never by their code: a card drawn
    as a picture by its label, a card with its name printed on it (Chronica) by that text; so are the buttons
    that play them ("Play Eagle General 2★", not "Play eagle-g2")."""
    from rules import registry

    page = as_player[1280]
    visit(page, tour.server, tour.tables[slug].removeprefix(tour.server.url))
    page.wait_for_selector(".board [data-card]")
    found = page.evaluate(CARD_NAMES)
    # (whichever the table shows now: a test before this one may have played on, so that every card on the
    # board is one the player may play, in a button)
    assert found["cards"] or found["buttons"], "no card drawn"
    engine = registry.games()[slug]
    for code, name, picture in found["cards"]:
        assert name and code not in name, f"card {code} is named {name!r}"
        words = engine.card_name(code, "en")
        if words != code:  # a picture's label starts with the name; a printed card shows it among its text
            assert name.startswith(words) if picture else words in name, f"card {code} is named {name!r}"
    for code, label in found["buttons"]:
        assert code not in label, f"a button names its card by its code: {label!r}"
        words = engine.card_name(code, "en")
        assert words == code or words in label, f"a button does not name its card {words!r}: {label!r}"


def test_the_move_log_is_a_focusable_live_region_that_shows_the_newest_move(tour, as_player):
    """The log announces each new move (role="log", polite; the region stays, only new moves are added to it)
    and keeps the newest in view; it takes the focus, so it can be scrolled with the keyboard."""
    page = as_player[1280]
    visit(page, tour.server, tour.tables["five_crowns"].removeprefix(tour.server.url))
    region = page.locator(".move-log [role=log]")
    assert region.get_attribute("aria-live") == "polite"
    assert region.get_attribute("tabindex") == "0"
    region.focus()
    assert page.evaluate("document.activeElement.getAttribute('role')") == "log"
    page.evaluate("document.querySelector('.move-log [role=log]').dataset.kept = 'yes'")
    page.evaluate(
        "document.querySelector('.move-log [role=log] li[data-key]:not([data-key=start]):not([data-key=none])') && (document.querySelector('.move-log [role=log] li[data-key]:not([data-key=start]):not([data-key=none])').dataset.kept = 'yes')"
    )
    before = page.locator(".move-log li[data-key]:not([data-key=start]):not([data-key=none])").count()
    seq = int(page.locator("section.table-status").get_attribute("data-seq"))
    page.wait_for_selector(".fc-prompt.mine")
    page.locator("button.playable[data-move]").first.click()  # a draw; the bot's answers follow
    page.wait_for_function(
        "n => document.querySelectorAll('.move-log li[data-key]:not([data-key=start]):not([data-key=none])').length > n",
        arg=before,
    )
    assert page.locator(".move-log [role=log][data-kept=yes]").count() == 1, "the live region was replaced"
    if before:
        assert page.locator(".move-log li[data-key][data-kept=yes]").count() == 1, "an old move was redrawn"
    assert int(page.locator("section.table-status").get_attribute("data-seq")) > seq
    newest = page.evaluate(
        """() => { const box = document.querySelector('.move-log [role=log]').getBoundingClientRect();
        const items = document.querySelectorAll('.move-log li[data-key]:not([data-key=start]):not([data-key=none])');
        const last = items[items.length - 1].getBoundingClientRect();
        return {inside: last.top >= box.top - 1 && last.bottom <= box.bottom + 1, text: items[items.length - 1].textContent}; }"""
    )
    assert newest["inside"], f"the newest move is out of view: {newest['text']}"


def test_cosplay_buttons_name_the_card_they_act_on(tour, as_player):
    """ "Recruit" on a recruitment zone reads "Recruit <the card's name>" to a screen reader."""
    page = as_player[1280]
    visit(page, tour.server, tour.tables["cosplay"].removeprefix(tour.server.url))
    page.wait_for_selector(".cp-prompt.mine")
    buttons = page.locator(".cp-pay[data-label]")
    assert buttons.count()
    for i in range(buttons.count()):
        b = buttons.nth(i)
        label = b.get_attribute("aria-label")
        assert label == b.get_attribute("data-label") and b.inner_text().strip() in label


@pytest.mark.parametrize("width", [390, 1280])
def test_a_chronica_move_being_put_together_has_no_serious_violation(server, new_page, width):
    """While a card is picked, Chronica's slots are buttons (static/js/games/chronica.js): each named by what it
    shows (its place, its cards, its badge), so that its name holds the words on it (label-content-name-mismatch
    found the place alone: "Frontier 1" for a slot showing Alcuin and −4)."""
    page = new_page(width, 844 if width == 390 else 800)
    seated_to_play_chronica(server, page)
    page.click(".cu-hand [data-pick='moliere']")
    found = {"place": grave_violations(page)}
    page.click("[data-cu-mode=action]")
    page.wait_for_selector(".cu-slot.target .cu-badge:not(.pending)")  # (the honour each target would give)
    found["action"] = grave_violations(page)
    names = page.evaluate("() => [...document.querySelectorAll('.cu-slot.target')].map(s => s.textContent)")
    assert any(name.startswith("Frontier 2, ") and "Alcuin" in name for name in names), names
    page.locator(".cu-slot.target").first.click()
    found["chosen"] = grave_violations(page)
    page.keyboard.press("Escape")
    assert (
        page.locator("#t-sl1-1").get_attribute("aria-label") == "Frontier 2"
    )  # (a slot again, named by its place)
    assert not {k: v for k, v in found.items() if v}, found
