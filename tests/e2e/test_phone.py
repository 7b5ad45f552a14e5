"""Phone-first tables (issue 15, point 1): at 390 × 844 a seated player sees, on the first screen, their hand,
what they are answering, whose turn it is and the prompt; no page is wider than a phone; no two buttons overlap.
And names of any length fit (point 2). Screenshots of every table page at both widths go to artifacts/."""

import re

import pytest

from tests.e2e.conftest import GAMES, LONG_NAME_LENGTH, shot, sign_up, unique, visit, when_still

PHONE = (390, 844)

# Per game: the prompt, what the player answers (the trick; the stock and the discard; the slots or the zones),
# and the hand's first card.
FIRST_SCREEN = {
    "cosmic_crowns": {"prompt": ".cc-prompt.mine", "answering": [".cc-trick"], "hand": ".cc-hand .hand > li"},
    "five_crowns": {
        "prompt": ".fc-prompt.mine",
        "answering": [".fc-pile.stock", ".fc-pile.discard"],
        "hand": ".fc-hand-cards > li",
    },
    "chronica": {"prompt": ".cu-prompt.mine", "answering": [], "hand": ".cu-hand .hand > li"},
    "cosplay": {"prompt": ".cp-prompt.mine", "answering": [".cp-zones"], "hand": ".cp-hand .hand > li"},
}
TURN = ".table-status .turn-line .your-turn"

# Every box in one evaluation, once the board has held still.
STILL_BOXES = when_still("""sels => Object.fromEntries(Object.entries(sels).map(([what, sel]) => {
    const el = document.querySelector(sel);
    const r = el ? el.getBoundingClientRect() : {top: 0, bottom: 0, left: 0, right: 0, height: 0};
    return [what, {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}];
}))""")


def wait_for_my_turn(page, slug: str) -> None:
    """The bot answers at once (BOT_DELAY=0): wait for the player's own prompt. Chronica's opening hand is kept
    first, so the player then chooses among their province's slots."""
    page.wait_for_selector(FIRST_SCREEN[slug]["prompt"], timeout=20000)
    if slug == "chronica" and page.locator(".cu-board.phase-mulligan .cu-prompt.mine").count():
        page.click("button:has-text('Keep this hand')")
        page.wait_for_selector(".cu-board:not(.phase-mulligan) .cu-prompt.mine", timeout=20000)


def answering(page, slug: str) -> list[str]:
    """Chronica: the player answers with their province's slots, or with the river and the pile when drawing."""
    if slug != "chronica":
        return FIRST_SCREEN[slug]["answering"]
    if page.locator(".cu-board.phase-draw").count():
        return [".cu-shared"] if page.locator(".cu-shared").count() else [".cu-prompt.mine .choices"]
    if page.locator(".cu-board.phase-mulligan").count():
        return [".cu-prompt.mine .choices"]
    return [".cu-side.mine .cu-province"]


def first_screen(page, slug: str) -> dict:
    """Where each thing the player needs sits at the top of the page (scrollY 0)."""
    page.evaluate("window.scrollTo(0, 0)")
    sels = {"turn": TURN, "prompt": FIRST_SCREEN[slug]["prompt"], "hand": FIRST_SCREEN[slug]["hand"]}
    sels.update({sel: sel for sel in answering(page, slug)})
    return page.evaluate(STILL_BOXES, sels)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("slug", GAMES)
def test_a_seated_player_sees_hand_board_turn_and_prompt_on_the_first_screen(tour, as_player, slug, width):
    """On a phone (390 × 844) and on a laptop (1280 × 800) alike."""
    page = as_player[width]
    visit(page, tour.server, tour.tables[slug].removeprefix(tour.server.url))
    wait_for_my_turn(page, slug)
    boxes = first_screen(page, slug)
    shot(page, f"{'phone' if width == 390 else 'desktop'}-first-{slug}", full_page=False)
    height = page.evaluate("window.innerHeight")
    print(slug, {k: round(v["top"]) for k, v in boxes.items()})
    for what, box in boxes.items():
        assert box["height"] > 0, f"{slug}: {what} is not drawn"
        assert box["top"] >= 0 and box["bottom"] <= height + 0.5, (
            f"{slug}: {what} is at {box['top']:.0f}–{box['bottom']:.0f} px, not within the first {height} px"
        )
    assert box["left"] >= 0


def visible_buttons_overlap(page) -> list[str]:
    """Pairs of visible buttons whose boxes intersect (more than a pixel each way). A button in the hand dock
    floats over the page by design and is compared with the dock's own buttons only."""
    return page.evaluate(
        """() => {
        const els = [...document.querySelectorAll('button, a.button, [role=button], summary.button')].filter(el => {
            const r = el.getBoundingClientRect();
            if (r.width < 1 || r.height < 1) return false;
            const s = getComputedStyle(el);
            return s.visibility !== 'hidden' && s.display !== 'none' && el.checkVisibility({opacityProperty: true});
        });
        const label = el => (el.getAttribute('aria-label') || el.textContent).trim().replace(/\\s+/g, ' ').slice(0, 50);
        const out = [];
        for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
            const a = els[i], b = els[j];
            if (a.contains(b) || b.contains(a)) continue;
            const dock = ".cc-hand, .fc-hand, .cu-hand, .cp-hand";
            if (!!a.closest(dock) !== !!b.closest(dock)) continue;
            const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
            const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
            const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
            if (w > 1 && h > 1) out.push(label(a) + ' × ' + label(b));
        }
        return out;
    }"""
    )


def open_as(tour, as_player, as_visitor, width, as_player_flag):
    return (as_player if as_player_flag else as_visitor)[width]


@pytest.mark.parametrize("width", [390, 1280])
def test_no_two_buttons_overlap_on_any_table_page(tour, as_player, as_visitor, width):
    problems = {}
    for name, path, player in tour.table_pages():
        page = open_as(tour, as_player, as_visitor, width, player)
        visit(page, tour.server, path)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"table-{name}-{width}")
        overlaps = visible_buttons_overlap(page)
        if overlaps:
            problems[name] = overlaps
    assert not problems


# The elements that reach past the right edge while their parent does not: where a page gets too wide.
PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')].filter(el => {
    const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
    return r.width > 0 && r.right > window.innerWidth + 0.5 && p.right <= window.innerWidth + 0.5;
}).slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' ' + Math.round(el.getBoundingClientRect().right))"""


def test_no_page_is_wider_than_a_phone(tour, as_player, as_visitor):
    wide = {}
    for name, path, player in tour.pages():
        page = open_as(tour, as_player, as_visitor, 390, player)
        visit(page, tour.server, path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[name] = (width, page.evaluate(PAST_THE_EDGE))
    assert not wide, f"pages wider than 390 px: {wide}"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_long_name_is_shortened_with_its_full_form_on_hover(tour, as_player, width):
    """The tour's player has a 30-character name in one word: it ends with an ellipsis in the header and the
    seat chips, within the viewport, and the full name is in the title (and read out by screen readers)."""
    page = as_player[width]
    name = tour.player_name
    assert len(name) == LONG_NAME_LENGTH
    visit(page, tour.server, tour.tables["five_crowns"].removeprefix(tour.server.url))
    if width == 390:  # the phone's header keeps the account's name in its menu
        page.click(".nav-toggle")
    for sel in (".topbar .who", ".seat-chip.me .seat-name"):
        el = page.locator(sel).first
        assert el.get_attribute("title") == name, sel
        fits = el.evaluate(
            """el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
            return {right: r.right, overflow: s.overflow, ellipsis: s.textOverflow, cut: el.scrollWidth > el.clientWidth}; }"""
        )
        assert fits["right"] <= width, f"{sel} goes past the screen: {fits}"
        assert fits["ellipsis"] == "ellipsis", sel
        if width == 390:
            assert fits["cut"], f"{sel}: a 30-character name in one word is not shortened on a phone"
        assert name in el.evaluate("el => el.textContent"), (
            "the full name stays in the text for screen readers"
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    visit(page, tour.server, "/")  # the lobby lists the player's tables with their seats
    seat = page.locator(f'.seats-mini span[title="{name}"]').first
    assert seat.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
    assert seat.evaluate("el => el.getBoundingClientRect().right") <= width


# Two cards of the player's assistance zone, each with two long "Attach to …" buttons and a payment label,
# as the board draws them when equipment may be attached (built from the page's own cards and classes).
ATTACHABLE = """() => {
    const row = document.querySelector('.cp-assist.mine .cp-row');
    const card = document.querySelector('.cp-hand .cp-card');
    for (let i = 0; i < 2; i++) {
        const slot = document.createElement('li');
        slot.className = 'cp-slot';
        slot.appendChild(card.cloneNode(true));
        slot.insertAdjacentHTML('beforeend', '<span class="pays">pays <span class="res-kawaii">2 KAWAII</span></span>' +
            '<span class="actions"><button type="button" class="button small ghost" data-drawn>Attach to Neon Ronin of the Night</button>' +
            '<button type="button" class="button small ghost" data-drawn>Attach to Starlight Diva Supreme</button></span>');
        row.appendChild(slot);
    }
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_cosplay_attach_buttons_stay_within_their_card(tour, as_player, width):
    page = as_player[width]
    visit(page, tour.server, tour.tables["cosplay"].removeprefix(tour.server.url))
    page.wait_for_selector(".cp-hand .cp-card")
    injected = "document.querySelectorAll('.cp-assist.mine button[data-drawn]').length"
    for _ in range(
        5
    ):  # a live frame redrawing the board meanwhile takes the drawn slots away: draw them again
        page.evaluate(ATTACHABLE)
        overlaps = visible_buttons_overlap(page)
        if page.evaluate(injected) == 4:
            assert not overlaps
            return
    raise AssertionError("the board never held the drawn slots")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_table_waiting_for_players_shows_its_title_first(server, new_page, width):
    """On a phone a table being played puts its title after the board; a table waiting for players has no
    board, and its title (the game, the table's number, its options, the rules) stays on top, above who sits
    there, not below the chat. Once the game starts, the board comes first."""
    host = new_page(width, 844)
    sign_up(host, server, unique("host"))
    host.goto(f"{server.url}/games/cosmic_crowns/new/")
    host.select_option("select[name=players]", "2")
    host.click("form.card-form button")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    tops = "() => ['.table-head h1', '.table-status', '.chat-panel', '.board'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    title, status, chat, _board = host.evaluate(tops)
    assert 0 <= title < status < chat, (title, status, chat)
    shot(host, f"phone-open-table-{width}")
    guest = new_page(width, 844)
    sign_up(guest, server, unique("guest"))
    guest.goto(host.url)
    with guest.expect_navigation():
        guest.click("text=Join this table")
    with host.expect_navigation():
        host.click("button:has-text('Start')")
    host.wait_for_selector(".cc-board")
    title, status, _chat, board = host.evaluate(tops)
    if width == PHONE[0]:
        assert status < board < title, (status, board, title)  # the board first, the title after it
    else:
        assert title < status < board, (title, status, board)
