"""Browser tests: a real daphne (HTTP + WebSockets + whitenoise static files) and the system Chromium.

Run apart from the asyncio tests: `pytest -m browser tests/e2e` (the Makefile does).
Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil

import pytest

from rules import registry
from tests.conftest import require_or_skip
from tests.processes import ROOT, daphnes, manage, migrate, sqlite_env

SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "e2e-passphrase-31"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


class Server:
    def __init__(self, url: str, env: dict):
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        return manage(self.env, *args)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        require_or_skip("REQUIRE_BROWSER", "Chromium is not installed (apt-get install chromium)")
    tmp = tmp_path_factory.mktemp("e2e")
    env = sqlite_env(
        tmp / "e2e.sqlite3",
        DJANGO_DEBUG="true",
        BOT_DELAY="0",
        LOGIN_FAILURE_LIMIT="1000",
        SIGNUP_LIMIT="1000",  # every browser test signs its players up from 127.0.0.1
    )
    migrate(env)
    with daphnes(env, tmp) as (port,):
        yield Server(f"http://127.0.0.1:{port}", env)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        require_or_skip("REQUIRE_BROWSER", "Chromium is not installed (apt-get install chromium)")
    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def new_page(browser):
    """new_page(width=1280) -> a page in a fresh browser context (its own cookies: another person), reading
    ``locale`` when given."""
    contexts = []

    def make(width: int = 1280, height: int = 900, locale: str | None = None, timeout: int = 15000):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        ctx.set_default_timeout(timeout)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def shot(page, name: str, full_page: bool = True) -> pathlib.Path:
    page.evaluate("window.scrollTo(0, 0)")  # else the sticky top bar lands mid-page in a full-page shot
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def sign_up(page, server, username: str) -> None:
    """Create an account through the real sign-up form; the page is then logged in."""
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.card-form button")
    page.wait_for_url(f"{server.url}/")


_counter = {"n": 0}


def unique(name: str) -> str:
    _counter["n"] += 1
    return f"{name}{os.getpid()}x{_counter['n']}"


def seq_of(page) -> int:
    """The table's seq as this page shows it (the status section carries it)."""
    return int(page.locator("section.table-status").get_attribute("data-seq"))


# The short words (2–12 letters: a tag, a flag, a count, a name) of a page (on a table page, of the table) that
# a line break cuts (main's overflow-wrap: anywhere breaks a word where its box is too narrow: "n/e/w" down a
# card), each with the class of the element it is in. Aside: text hidden from sight (visually-hidden, a closed
# details), the card faces' own (a name shrinks with its card: test_cards holds its size) and longer words (a
# long name must break to fit a phone).
SPLIT_WORDS = """() => {
    const out = [], range = document.createRange();
    const walker = document.createTreeWalker(document.querySelector('.table-page') || document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || !el.getClientRects().length || el.closest('.visually-hidden')) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;
        if (el.closest('.cu-card, .cc-card, .cp-card, .fc-card')) continue;
        for (const m of node.data.matchAll(/[^\\s\\-\u2010-\u2014\\/]+/g)) {
            if (m[0].length < 2 || m[0].length > 12) continue;  // (a longer word may break: a long name)
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
            if (lines.size > 1) out.push(`${m[0]} (${el.className || el.tagName.toLowerCase()}, ${lines.size} lines)`);
        }
    }
    return [...new Set(out)];
}"""

# The playable cards (and Cosplay's cards chosen to pay) whose ring (box-shadow: 0 0 0 3px, every game's) a row
# that scrolls sideways cuts off: on a phone the docked hand is such a row, and it clips whatever of its cards'
# drawing lies outside its padding box (the first card's left edge at the start, the last one's right edge at the
# end, a lifted card's top), each with how many px.
RINGS_CUT = """() => {
    // (as drawn once a lift or a card's arrival is over; an animation that never ends cannot be finished)
    document.getAnimations().forEach(a => { try { a.finish(); } catch (e) { /* infinite */ } });
    const RING = 3, out = [];
    const scroller = el => { for (let up = el.parentElement; up; up = up.parentElement) {
        const o = getComputedStyle(up).overflowX; if (o !== 'visible' && o !== 'clip') return up; } return null; };
    const faces = [...document.querySelectorAll('button.playable:has([data-card])')].map(b => b.querySelector('[data-card]'));
    for (const face of [...faces, ...document.querySelectorAll('.cp-card.payer.chosen')]) {
        const row = scroller(face);
        if (!row || !face.getClientRects().length || row === document.documentElement || row === document.body) continue;
        const box = row.getBoundingClientRect(), card = face.getBoundingClientRect();
        const start = box.left + row.clientLeft - row.scrollLeft, end = start + row.scrollWidth;  // (its whole strip)
        const top = box.top + row.clientTop - row.scrollTop, bottom = top + row.scrollHeight;
        const sides = {left: start - (card.left - RING), right: card.right + RING - end,
                       top: top - (card.top - RING), bottom: card.bottom + RING - bottom};
        for (const [side, cut] of Object.entries(sides))
            if (cut > 0.5) out.push(`${face.dataset.card} in .${row.className.split(' ')[0]}: ${cut.toFixed(1)} px cut at its ${side}`);
    }
    return out;
}"""

# The buttons other than cards (a hand's tools: sort, move, arrows) that a person cannot see without scrolling
# a row that shows no scrollbar, or the page sideways: each one outside the viewport, or cut by an ancestor that
# clips or scrolls its overflow, by more than half a pixel. A row of cards may scroll (it shows its edge cards
# cut), and a card's own buttons with it; a toolbar may not.
TOOLS_OUT_OF_SIGHT = """(root) => {
    const out = [], scope = root ? document.querySelector(root) : document;
    if (!scope) return out;
    for (const b of scope.querySelectorAll('button, a[href], [role=button]')) {
        if (b.closest('.card-button') || b.querySelector('[data-card]') || !b.getClientRects().length) continue;
        const slot = b.closest('li');
        if (slot && slot.querySelector('[data-card]')) continue;  // (a card's own button goes with its card)
        if (getComputedStyle(b).visibility === 'hidden') continue;
        const r = b.getBoundingClientRect(), name = (b.getAttribute('aria-label') || b.textContent).trim();
        const boxes = [{left: 0, right: document.documentElement.clientWidth, what: 'the screen'}];
        for (let up = b.parentElement; up && up !== document.body; up = up.parentElement) {
            const o = getComputedStyle(up).overflowX;
            if (o !== 'visible') { const u = up.getBoundingClientRect();
                boxes.push({left: u.left + up.clientLeft, right: u.left + up.clientLeft + up.clientWidth,
                            what: '.' + up.className.split(' ')[0]}); }
        }
        for (const box of boxes) {
            const cut = Math.max(box.left - r.left, r.right - box.right);
            if (cut > 0.5) { out.push(`${name}: ${cut.toFixed(1)} px outside ${box.what}`); break; }
        }
    }
    return out;
}"""

# Counts, in window.framesHeard, the messages a table's socket has brought and the page has handled (drawn, or
# left as they were: a frame of the revision the page shows, static/js/site.js), in this page and the next; not
# those of the "Your turn" badge's socket, which every page has too.
FRAMES_HEARD = """window.framesHeard = 0;
document.addEventListener('htmx:wsAfterMessage', e => {
    if (e.target.closest('.table-page')) window.framesHeard += 1; });"""


def hear_frames(page) -> None:
    """From now on, and after a reload, ``window.framesHeard`` counts the socket's messages the page handled."""
    page.add_init_script(FRAMES_HEARD)
    page.evaluate(f"() => {{ {FRAMES_HEARD} }}")


def wait_for_frames(page, at_least: int = 1, timeout: int = 15000) -> None:
    page.wait_for_function("n => window.framesHeard >= n", arg=at_least, timeout=timeout)


def wait_for_seq(page, at_least: int, timeout: int = 20000) -> None:
    """Wait until this page has been brought to at least that seq (live, over its socket)."""
    page.wait_for_function(
        "n => Number(document.querySelector('section.table-status').dataset.seq) >= n",
        arg=at_least,
        timeout=timeout,
    )


def finished_game(server, names: tuple[str, ...], seed: int = 11) -> dict:
    """A Cosmic Crowns game between these signed-up players, played to its end through the services
    (tests/tables/history_games.py): {"table": its id, "rated": bool, "winners": [seats]}."""
    out = server.manage(
        "shell",
        "-c",
        "import json; from django.contrib.auth.models import User; "
        "from tests.tables.history_games import finished_game; "
        f"users = [User.objects.get(username=n) for n in {tuple(names)!r}]; "
        f"t = finished_game('cosmic_crowns', users, seed={seed!r}); "
        "print('GAME', json.dumps({'table': t.pk, 'rated': t.rated, 'winners': t.result['winners']}))",
    )
    return json.loads(
        next(line for line in out.splitlines() if line.startswith("GAME ")).removeprefix("GAME ")
    )


def when_still(look: str) -> str:
    """A page function of one argument: what ``look`` (a JS function of that argument, answering plain data)
    answers once it has answered the same on ten animation frames in a row (a live frame may redraw the board
    just after the page loads: no answer then comes from a board being replaced)."""
    return (
        "arg => new Promise((done, fail) => {\n"
        f"    const look = () => JSON.stringify(({look})(arg));\n"
        """    let last = look(), same = 0, frames = 0;
    const next = () => {
        const now = look();
        same = now === last ? same + 1 : 0;
        last = now;
        if (same >= 10) return done(JSON.parse(now));
        if (++frames > 600) return fail(new Error('the board never held still'));
        requestAnimationFrame(next);
    };
    requestAnimationFrame(next);
})"""
    )


def open_two_player_table(server, host, guest, game: str, guest_name: str, **choices: str) -> str:
    """The host creates a 2-player table through the form (with any other <select> choices), the guest joins
    from the invite link, the host sees the guest arrive live and starts. Returns the table's URL."""
    host.goto(f"{server.url}/games/{game}/new/")
    host.select_option("select[name=players]", "2")
    for name, value in choices.items():
        host.select_option(f"select[name={name}]", value)
    host.click("form.card-form button")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = host.url
    guest.goto(table_url)
    with guest.expect_navigation():  # the action answers htmx with a refresh
        guest.click("text=Join this table")
    guest.wait_for_selector(f".seat-chip.me >> text={guest_name}")
    host.wait_for_selector(f".seat-chip >> text={guest_name}")  # live, without reloading
    with host.expect_navigation():  # the action answers htmx with a refresh
        host.click("button:has-text('Start')")
    return table_url


def chronica_table(
    server, me: str, *others: str, hand: tuple[str, ...], provinces: dict | None = None
) -> str:
    """A Chronica table of ``me`` (seat 0, to play, holding ``hand``) and ``others`` (made now), powers on."""
    out = server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; from tables import services; "
        "from tests.rules.chronica.helpers import board; from tests.tables.positions import put_state; "
        f"users = [User.objects.get(username={me!r})] + "
        f"[User.objects.create_user(n, password='x-long-password-1') for n in {others!r}]; "
        f"t = services.create_table(users[0], 'chronica', {len(others) + 1}, {{'powers': True}}); "
        "[services.join_table(t.pk, u) for u in users[1:]]; "
        "t = services.start_table(t.pk, users[0], seed=3); "
        f"s = board(players={len(others) + 1}, hands={{0: {list(hand)!r}}}, provinces={provinces or {}!r}); "
        "s['options'] = dict(s['options'], powers=True); put_state(t, s); print('table', t.pk)",
    )
    return re.search(r"^table (\d+)$", out, re.M).group(1)


def seated_to_play_chronica(server, page) -> None:
    """``page``'s person (signed up now) at a Chronica table of two, to play Molière (or the Donjon de Loches)
    against a Palais des ducs de Bourgogne and Alcuin in the other seat's frontier; the page open on it."""
    me = unique("cur")
    sign_up(page, server, me)
    provinces = {1: {0: ("palais-des-ducs-de-bourgogne", None), 1: (None, "alcuin")}}
    pk = chronica_table(server, me, unique("cus"), hand=("moliere", "donjon-de-loches"), provinces=provinces)
    page.goto(f"{server.url}/tables/{pk}/")
    page.wait_for_selector(".cu-prompt.mine")


GAMES = tuple(registry.games())  # every game
# The name a person may choose at most (accounts.forms.USERNAME_MAX), all in one word: the longest a page draws.
LONG_NAME_LENGTH = 30


class Tour:
    """Every kind of page of the site, built once per session for the layout, axe and keyboard tests:
    ``player`` (a logged-in person with a table in each game, seated against a bot, and a finished game),
    ``visitor`` (a logged-out browser that watches), their table URLs and the list of ``pages()``."""

    def __init__(self, server, browser):
        self.server = server
        self.browser = browser
        self.contexts = []
        self.player_name = unique("p").ljust(LONG_NAME_LENGTH, "w")[:LONG_NAME_LENGTH]
        player = self.context()
        sign_up(player, server, self.player_name)
        self.tables = {}
        for slug in GAMES:
            player.goto(f"{server.url}/games/{slug}/new/")
            player.select_option("select[name=players]", "2")
            player.select_option("select[name=bots]", "1")
            player.click("form.card-form button")
            player.wait_for_url(re.compile(r"/tables/\d+/$"))
            self.tables[slug] = player.url
        # A finished game: a bot finishes the conceded seat's game on its own (BOT_DELAY=0).
        player.goto(f"{server.url}/games/cosmic_crowns/new/")
        player.select_option("select[name=players]", "2")
        player.select_option("select[name=bots]", "1")
        player.click("form.card-form button")
        player.wait_for_url(re.compile(r"/tables/\d+/$"))
        self.finished = player.url
        player.once("dialog", lambda dialog: dialog.accept())
        player.click("button:has-text('Concede')")
        player.wait_for_selector("section.table-status[data-status=finished]", timeout=60000)
        player.context.close()
        self.contexts.remove(player.context)

    def context(self, width: int = 1280, height: int = 900):
        ctx = self.browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(20000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    def page_as_player(self, width: int = 1280, height: int = 900):
        page = self.context(width, height)
        page.goto(f"{self.server.url}/accounts/login/")
        page.fill("input[name=username]", self.player_name)
        page.fill("input[name=password]", PASSWORD)
        page.click("form.card-form button")
        page.wait_for_url(f"{self.server.url}/")
        # A move that cannot be taken back asks first (a confirm box): the player answers yes, as with Enter.
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    def table_pages(self):
        """(name, path, as_player) for every table page: each game seated and watched, and a finished one."""
        out = []
        for slug, url in self.tables.items():
            path = url.removeprefix(self.server.url)
            out += [(f"{slug}-seated", path, True), (f"{slug}-watching", path, False)]
        out.append(("finished", self.finished.removeprefix(self.server.url), True))
        return out

    def pages(self):
        """(name, path, as_player) for every page of the site a person meets."""
        me = self.player_name
        out = [
            ("home-visitor", "/", False),
            ("signup", "/accounts/signup/", False),
            ("login", "/accounts/login/", False),
            ("password-reset", "/accounts/password/reset/", False),
            ("offline", "/offline/", False),
            ("home", "/", True),
            ("new-table", "/games/chronica/new/", True),
            *self.table_pages(),
            ("replay", self.finished.removeprefix(self.server.url) + "replay/", True),
            ("decks", "/decks/", True),
            ("deck-builder", "/decks/new/", True),
            ("catalog", "/decks/catalog/", True),
            ("history", "/history/", True),
            ("your-turn", "/your-turn/", True),
            ("profile", "/accounts/profile/", True),
            ("player", f"/players/{me}/", False),
            ("leaderboards", "/leaderboards/", False),
            ("leaderboard", "/leaderboards/five_crowns/", True),
            ("api-docs", "/api/docs", False),
        ]
        out += [(f"rules-{slug}", f"/games/{slug}/rules/", False) for slug in GAMES]
        return out

    def close(self):
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture(scope="session")
def tour(server, browser):
    t = Tour(server, browser)
    yield t
    t.close()


@pytest.fixture(scope="session")
def as_player(tour):
    """{width: a logged-in page of the tour's player at that width (phone 390 × 844, desktop 1280 × 800)}."""
    return {390: tour.page_as_player(390, 844), 1280: tour.page_as_player(1280, 800)}


@pytest.fixture(scope="session")
def as_visitor(tour):
    return {390: tour.context(390, 844), 1280: tour.context(1280, 800)}


def visit(page, server, path: str) -> None:
    """Open a page of the site and wait until it has loaded."""
    page.goto(f"{server.url}{path}")
    page.wait_for_load_state("load")
