"""Readable cards (issue 28, point 2): no text on a card is drawn below 11 CSS px, at a phone's width or a
laptop's, on any board or in the deck builder; and any card in view opens large, with its full text in the
reader's language, by a tap, a long press, the keyboard or hovering it (a dialog that Escape closes)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import GAMES, shot, visit

SMALLEST = 11  # CSS px

# Every text drawn on a visible card, with the size it is drawn at: an HTML text's computed font size times
# the scale its transforms give it, an SVG text's font size times the scale from its viewBox to the screen.
CARD_TEXTS = """() => {
    document.getAnimations().forEach(a => a.finish());  // as drawn once a card has arrived, not mid-flight
    const out = [];
    const seen = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
        && getComputedStyle(el).display !== 'none';
    for (const card of document.querySelectorAll('[data-card]')) {
        if (!seen(card) || card.closest('dialog:not([open])')) continue;
        const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent.trim();
            const el = node.parentElement;
            if (!text || !seen(el)) continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            let scale = 1;
            if (el instanceof SVGElement) {
                const m = el.getScreenCTM();
                scale = Math.hypot(m.a, m.b);
            } else {
                for (let up = el; up; up = up.parentElement) {  // the transforms between it and the page
                    const t = getComputedStyle(up).transform;
                    if (t && t !== 'none') { const m = new DOMMatrix(t); scale *= Math.hypot(m.a, m.b); }
                }
            }
            out.push({card: card.dataset.card, text: text.slice(0, 30), px: Math.round(size * scale * 10) / 10,
                      cls: el.getAttribute('class') || el.tagName.toLowerCase()});
        }
    }
    return out;
}"""


def pages_with_cards(page, tour):
    """Opens, one after the other, every game's board and the deck builder and catalog: yields each one's name."""
    paths = [(slug, tour.tables[slug].removeprefix(tour.server.url)) for slug in GAMES]
    paths += [("deck-builder", "/decks/new/"), ("catalog", "/decks/catalog/")]
    for name, path in paths:
        visit(page, tour.server, path)
        page.wait_for_selector("[data-card]")
        yield name


@pytest.mark.parametrize("width", [390, 1280])
def test_no_text_on_a_card_is_drawn_below_11_px(tour, as_player, width):
    page = as_player[width]
    found, measured = {}, 0
    for name in pages_with_cards(page, tour):
        texts = page.evaluate(CARD_TEXTS)
        measured += len(texts)
        small = [t for t in texts if t["px"] < SMALLEST - 0.05]
        if small:
            found[name] = sorted({(t["cls"], t["px"], t["text"]) for t in small})[:12]
    assert measured > 100, "hardly any text measured on the cards"
    assert not found, found


# A card's name broken between two letters (not at a space, a hyphen or one of the soft hyphens
# tables.hyphens puts between its syllables): each piece between such places, on more than one line.
NAMES_CUT = """() => {
    const out = [], range = document.createRange();
    for (const name of document.querySelectorAll('.cu-card > strong, .cp-card > b')) {
        if (!name.getClientRects().length || name.closest('dialog:not([open])')) continue;
        for (const node of name.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            for (const m of node.data.matchAll(/[^\\s\\-\u00ad\u2010-\u2014]+/g)) {
                const lines = new Set();
                for (let k = m.index; k < m.index + m[0].length; k++) {  // (letter by letter: a range that
                    range.setStart(node, k);  // starts after a soft hyphen the line broke at has the hyphen's box too)
                    range.setEnd(node, k + 1);
                    const boxes = [...range.getClientRects()].filter(r => r.width > 0);
                    if (boxes.length) lines.add(Math.round(boxes[boxes.length - 1].bottom));
                }
                if (lines.size > 1) out.push(`${node.data.replaceAll('\u00ad', '')}: ${m[0]}`);
            }
        }
    }
    return [...new Set(out)];
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_cards_name_breaks_only_between_its_syllables(tour, as_player, width):
    """A name such as Vercingétorix on a phone's docked hand broke as "Vercingéto" / "rix": a name too wide
    for its card now breaks where a typesetter would break it, with a hyphen, on every board and in the deck
    builder."""
    page = as_player[width]
    found, names = {}, 0
    for place in pages_with_cards(page, tour):
        names += page.locator(".cu-card > strong, .cp-card > b").count()
        cut = page.evaluate(NAMES_CUT)
        if cut:
            found[place] = cut[:12]
    # Every Chronica card, at each width the boards draw cards at (a province's small card, a phone's docked
    # hand, a phone's province, a laptop's, a wide screen's): the catalog, redrawn at that width.
    visit(page, tour.server, "/decks/catalog/")
    catalog = page.locator(".cu-card > strong").count()
    for px in (64, 70, 74, 92, 104):
        page.evaluate(
            "px => document.querySelectorAll('.cu-card').forEach(c => c.style.setProperty('--cw-own', px + 'px'))",
            px,
        )
        cut = page.evaluate(NAMES_CUT)
        if cut:
            found[f"catalog at {px} px"] = cut[:12]
    assert names > 100 and catalog >= 78, "hardly any card name measured"  # (78: every Chronica card)
    assert not found, found


def zoomed(page, modal: bool | None = None) -> dict:
    """What the open card view shows, once it is open (as a dialog over the page, or a peek, when asked)."""
    state = {None: "", True: ":modal", False: ":not(:modal)"}[modal]
    page.wait_for_selector(f"dialog.card-zoom[open]{state} .card-zoom-text h2")
    return page.evaluate(
        """() => { const d = document.querySelector('dialog.card-zoom');
        return {modal: d.matches(':modal'), name: d.querySelector('h2').textContent.trim(),
                code: d.querySelector('[data-zoom-code]').dataset.zoomCode, text: d.innerText,
                width: d.querySelector('[data-card]').getBoundingClientRect().width}; }"""
    )


def test_a_card_opens_large_by_hover_focus_tap_or_long_press_and_escape_closes_it(tour, as_player):
    from rules.chronica import cards as C

    page = as_player[1280]
    visit(page, tour.server, tour.tables["chronica"].removeprefix(tour.server.url))
    card = page.locator(".cu-hand [data-card]").first
    code = card.get_attribute("data-card")
    card.hover()  # the pointer rests on a card of the hand: a peek, not modal
    peek = zoomed(page, modal=False)
    assert peek["code"] == code and peek["name"] == C.CARD_BY_CODE[code]["name"] and not peek["modal"]
    assert peek["width"] >= 200 and C.CLASS_WORDS["en"][C.CARD_BY_CODE[code]["class"]] in peek["text"]
    shot(page, "card-zoom-peek-1280", full_page=False)
    page.keyboard.press("Escape")
    expect(page.locator("dialog.card-zoom[open]")).to_have_count(0)
    page.mouse.move(2, 2)

    # The keyboard: the focus resting on a card's button opens it too; Escape closes it. The cards of the hand
    # are buttons on the player's turn of play, never at the mulligan (whatever the deal, the tour's table is
    # there until a test keeps the opening hand): keep it, then wait for the turn (the bot may play first).
    page.wait_for_selector(".cu-prompt.mine", timeout=20000)
    if page.locator(".cu-board.phase-mulligan .cu-prompt.mine").count():
        page.click(".cu-prompt.mine button:has-text('Keep this hand')")
    page.wait_for_selector(".cu-board:not(.phase-mulligan) .cu-prompt.mine", timeout=20000)
    button = page.locator(".cu-hand button.cu-pick.playable:has([data-card])").first
    # site.js takes a focus within 500 ms of the view closing (the Escape above) for the focus coming back to
    # the card it showed, and opens nothing: the keep and the bot's answer may take less.
    page.wait_for_timeout(600)
    button.focus()
    assert zoomed(page)["code"] == button.locator("[data-card]").get_attribute("data-card")
    page.keyboard.press("Escape")
    expect(page.locator("dialog.card-zoom[open]")).to_have_count(0)

    # A phone: a long press on a card of the hand opens it over the page, and plays nothing.
    phone = as_player[390]
    visit(phone, tour.server, tour.tables["cosplay"].removeprefix(tour.server.url))
    # (on the player's turn: the bot's moves, as many as its deal gives it, would move the seq meanwhile)
    phone.wait_for_selector(".cp-prompt.mine", timeout=20000)
    seq = phone.locator("section.table-status").get_attribute("data-seq")
    target = phone.locator(".cp-hand [data-card]:visible").first
    target.hover()  # (the pointer over its middle)
    code = target.get_attribute("data-card")
    phone.mouse.down()
    big = zoomed(phone, modal=True)
    phone.mouse.up()
    assert big["modal"] and big["code"] == code and big["width"] >= 200
    shot(phone, "card-zoom-long-press-390", full_page=False)
    phone.click("dialog.card-zoom [data-zoom-close]")
    expect(phone.locator("dialog.card-zoom[open]")).to_have_count(0)
    assert phone.locator("section.table-status").get_attribute("data-seq") == seq, (
        "the long press played the card"
    )
    # A tap on a card that is not a move (a recruitment zone's) opens it.
    phone.locator(".cp-zones [data-card]:visible").first.click()
    assert zoomed(phone, modal=True)["modal"]
    phone.keyboard.press("Escape")
    expect(phone.locator("dialog.card-zoom[open]")).to_have_count(0)
    # The zones scroll on a phone: with no button among them (not the player's turn), the region itself takes
    # the focus for its arrow keys (tabindex 0, site.js's markScrollers). A tap on a card in it still opens it.
    phone.evaluate(
        """() => { const zones = document.querySelector('.cp-zones');
        zones.querySelectorAll('button').forEach(b => b.remove());
        zones.setAttribute('tabindex', '0'); zones.dataset.scrollFocus = ''; }"""
    )
    phone.locator(".cp-zones [data-card]:visible").first.click()
    assert zoomed(phone, modal=True)["modal"]
    # Closed and tapped again at once, before the dialog's close event has run (it comes a task later): the
    # card opens all the same.
    phone.evaluate(
        """() => { document.querySelector('dialog.card-zoom [data-zoom-close]').click();
        [...document.querySelectorAll('.cp-zones [data-card]')].find(c => c.checkVisibility()).click(); }"""
    )
    assert zoomed(phone, modal=True)["modal"]
    phone.click("dialog.card-zoom [data-zoom-close]")
    expect(phone.locator("dialog.card-zoom[open]")).to_have_count(0)
    # A touch screen sends no click after a long press: the next tap (the view's Close) is not swallowed.
    phone.evaluate(
        """() => new Promise(done => {
            const card = [...document.querySelectorAll('.cp-hand [data-card]')].find(c => c.checkVisibility());
            const at = card.getBoundingClientRect(), x = at.x + at.width / 2, y = at.y + at.height / 2;
            const touch = {bubbles: true, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y};
            card.dispatchEvent(new PointerEvent('pointerdown', touch));
            setTimeout(() => { document.body.dispatchEvent(new PointerEvent('pointerup', touch)); done(); }, 700);
        })"""
    )
    assert zoomed(phone, modal=True)["modal"]
    phone.wait_for_timeout(400)
    phone.click("dialog.card-zoom [data-zoom-close]")
    expect(phone.locator("dialog.card-zoom[open]")).to_have_count(0)
    phone.locator(".cp-zones [data-card]:visible").first.click()
    assert zoomed(phone, modal=True)["modal"]
    phone.keyboard.press("Escape")
    expect(phone.locator("dialog.card-zoom[open]")).to_have_count(0)
    assert not page.errors and not phone.errors


# What CSS itself writes on a Chronica board: an empty slot's name and the domains' initials on a card.
CSS_WORDS = """() => {
    const slot = document.querySelector('.cu-slot.empty[data-slot]');
    const n = Number(slot.dataset.slot);
    return {
        slot: [n < 4 ? 'frontier' : 'hinterland', n % 4 + 1, getComputedStyle(slot, '::after').content],
        initials: [1, 2, 3].map(k => getComputedStyle(document.querySelector(`.cu-card > span i:nth-of-type(${k})`), '::before').content),
        // the deal decides which domains the cards on the board prefer: a copy of one card, beside it, prefers
        // each in turn
        pennants: ['e', 'g'].map(p => { const card = document.querySelector('.cu-card');
            const copy = card.cloneNode(true);
            copy.className = copy.className.replace(/\\bpref-\\w+/, `pref-${p}`);
            card.after(copy);
            const content = getComputedStyle(copy, '::after').content;
            copy.remove();
            return content; }),
    };
}"""


def test_the_words_css_draws_on_a_board_are_in_the_pages_language(tour, as_player):
    """The page's language is its <html lang> (tests/test_i18n.py checks it is the reader's): CSS reads it."""
    page = as_player[1280]
    visit(page, tour.server, tour.tables["chronica"].removeprefix(tour.server.url))
    page.wait_for_selector(".cu-board .cu-slot.empty", state="attached")
    page.wait_for_selector(".cu-board .cu-card", state="attached")
    names = {
        "en": {"frontier": "Frontier", "hinterland": "Hinterland"},
        "fr": {"frontier": "Frontière", "hinterland": "Arrière-pays"},
    }
    for lang, initials in (("en", ['"E"', '"P"', '"W"']), ("fr", ['"É"', '"P"', '"G"'])):
        page.evaluate("lang => document.documentElement.lang = lang", lang)
        seen = page.evaluate(CSS_WORDS)
        row, n, content = seen["slot"]
        assert content == f'"{names[lang][row]} {n}"', seen
        assert seen["initials"] == initials, seen
        # the preferred domain's pennant on a card that prefers Erudition, then War
        assert seen["pennants"] == [initials[0], initials[2]], seen
    page.evaluate("document.documentElement.lang = 'en'")
