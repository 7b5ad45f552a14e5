"""Never miss your turn, in the browser: every open page's tab title and favicon say when a game becomes your
turn (within a second or two of the other player's move), "Next game" says when none waits, and a game's end
brings the result panel over the board, live, at a phone's width and a desktop's, in English and French."""

import re

import pytest

from tests.e2e.conftest import (
    finished_game,
    open_two_player_table,
    seq_of,
    shot,
    sign_up,
    unique,
    wait_for_seq,
)
from tests.e2e.test_axe import grave_violations
from tests.e2e.test_csp import watch_csp

DIRECT = "[data-move]:not(.cp-pay):not(.takeback)"


def play_until_the_turn_passes(page, other):
    """Play ``page``'s moves until the turn is the other player's (a clan to choose, or a trick won, keeps it).

    After a clan is chosen, a move that would lock it in while an Undo is on offer asks first (a confirm
    dialog): the player says yes, as a player who means the move does. (Playwright would dismiss it, and the
    move would never be sent.)"""
    if not getattr(page, "accepts_final_moves", False):
        page.on("dialog", lambda dialog: dialog.accept())
        page.accepts_final_moves = True
    for _ in range(10):
        seq = seq_of(page)
        page.locator(f"{DIRECT}:visible").first.click()
        wait_for_seq(page, seq + 1)
        wait_for_seq(other, seq + 1)
        if not page.locator(".turn-line .your-turn").count():
            return
    raise AssertionError("the turn never passed")


# A hidden tab of the waiting player, its browser allowing notifications: what it shows and plays is recorded.
HIDDEN_TAB = """
window.__notes = [];
window.__sounds = 0;
class RecordedNotification extends EventTarget {
  constructor(title, options) {
    super();
    window.__notes.push({title: title, body: options.body, tag: options.tag});
    window.__lastNote = this;
  }
  close() {}
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
Object.defineProperty(window, "Notification", {value: RecordedNotification, configurable: true});
Object.defineProperty(document, "hidden", {get: () => true, configurable: true});
class RecordedAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return {type: "", frequency: {setValueAtTime() {}}, connect(g) { return g; }, start() { window.__sounds += 1; }, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect(d) { return d; }};
  }
}
window.AudioContext = RecordedAudio;
"""


def icon_of(page) -> str:
    return page.evaluate("document.querySelector('link[rel=icon]').href")


def test_the_tab_title_and_favicon_tell_a_new_turn_on_every_open_page(server, new_page):
    host, guest = new_page(1280), new_page(390, 844)
    host_violations, guest_violations = watch_csp(host), watch_csp(guest)
    host_name, guest_name = unique("host"), unique("guest")
    sign_up(host, server, host_name)
    sign_up(guest, server, guest_name)
    table_url = open_two_player_table(server, host, guest, "cosmic_crowns", guest_name)
    host.wait_for_selector(".cc-board")
    guest.wait_for_selector(".cc-board")
    # Whoever is to move first, the other one is the one told.
    mover, waiter = (host, guest) if host.locator(".turn-line .your-turn").count() else (guest, host)
    lobby = waiter.context.new_page()  # a second page of the waiting player: the lobby, another tab
    lobby.errors = []
    lobby.on("pageerror", lambda exc: lobby.errors.append(str(exc)))
    lobby_violations = watch_csp(lobby)
    lobby.goto(f"{server.url}/")
    hidden = waiter.context.new_page()  # and a third, hidden, in a browser that allows notifications
    hidden.errors = []
    hidden.on("pageerror", lambda exc: hidden.errors.append(str(exc)))
    hidden.add_init_script(HIDDEN_TAB)
    hidden.goto(f"{server.url}/history/")
    plain_icon = icon_of(lobby)
    assert lobby.title() == "Lobby · Card Club" and not plain_icon.startswith("data:")
    assert re.match(r"^\(1\) Your turn · Card Club$", mover.title()), mover.title()
    assert icon_of(mover).startswith("data:image/svg+xml")

    play_until_the_turn_passes(mover, waiter)
    # Within a second or two, every page of the waiting player says it, over its notifications socket.
    for page in (waiter, lobby):
        page.wait_for_function("() => document.title === '(1) Your turn · Card Club'", timeout=3000)
        page.wait_for_function(
            "() => document.querySelector('link[rel=icon]').href.startsWith('data:image/svg+xml')",
            timeout=3000,
        )
    assert "%3Ccircle" in icon_of(lobby) and "%3E1%3C%2Ftext%3E" in icon_of(lobby)  # the dot and its count
    # The hidden tab shows a browser notification naming the table (once for all the tabs), and no sound: it is
    # off unless the player chose it.
    hidden.wait_for_function("() => window.__notes.length === 1", timeout=3000)
    pk = re.search(r"/tables/(\d+)/", table_url).group(1)
    assert hidden.evaluate("window.__notes[0]") == {
        "title": "Your turn",
        "body": f"It is your turn at Cosmic Crowns #{pk}.",
        "tag": f"cardclub-turn-/tables/{pk}/",
    }
    assert hidden.evaluate("window.__sounds") == 0
    for page in (waiter, lobby):
        assert page.evaluate("typeof window.__notes") == "undefined"
    # The mover's own tab goes back to the page's title and icon; "Next game" says nothing waits.
    mover.wait_for_function("() => !document.title.startsWith('(')", timeout=3000)
    assert not icon_of(mover).startswith("data:")
    assert mover.locator(".next-game-bar [data-next-link]").is_hidden()
    none = mover.locator(".next-game-bar [data-next-none]")
    none.wait_for(state="visible", timeout=3000)
    assert none.inner_text() == "No other game is waiting for you."
    mover.keyboard.press("n")  # the key says it too, and stays on the page
    mover.wait_for_selector("#toast.show >> text=No other game is waiting for you.")
    assert mover.url == table_url
    shot(lobby, "turn-title-lobby")
    shot(mover, f"turn-next-game-none-{mover.viewport_size['width']}", full_page=False)

    # The waiting player opens "Your turn": the row, the notify control; then plays, and the title resets.
    lobby.goto(f"{server.url}/your-turn/")
    row = lobby.locator(".turn-row").first
    assert (
        "Cosmic Crowns" in row.inner_text()
        and (host_name if waiter is guest else guest_name) in row.inner_text()
    )
    assert "waiting for you since a moment ago" in row.inner_text() and "Last move:" in row.inner_text()
    assert lobby.locator("[data-notify-ask]").is_visible()  # the permission is not decided yet
    assert not grave_violations(lobby)
    shot(lobby, "turn-your-turn-page")
    play_until_the_turn_passes(waiter, mover)
    lobby.wait_for_function("() => document.title === 'Your turn · Card Club'", timeout=3000)
    assert not icon_of(lobby).startswith("data:")
    # With the sound chosen (the profile sets data-turn-sound="on"), the next turn plays it; the notification
    # opens the table.
    hidden.evaluate("document.body.dataset.turnSound = 'on'; localStorage.clear()")
    play_until_the_turn_passes(mover, waiter)
    hidden.wait_for_function("() => window.__notes.length === 2 && window.__sounds === 1", timeout=3000)
    with hidden.expect_navigation():
        hidden.evaluate("window.__lastNote.dispatchEvent(new Event('click'))")
    assert hidden.url == table_url
    assert not lobby.errors and not waiter.errors and not mover.errors and not hidden.errors
    assert host_violations == guest_violations == lobby_violations == []  # the Content-Security-Policy holds


def finish_against_a_bot(page, server, watcher=None):
    """A listed Cosmic Crowns table against a casual bot, conceded: the bot finishes the game (BOT_DELAY=0).
    ``watcher``, another browser, opens the table first and sees the end arrive live."""
    page.goto(f"{server.url}/games/cosmic_crowns/new/")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    page.click("form.card-form button")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    url = page.url
    if watcher is not None:
        watcher.goto(url)
        watcher.wait_for_selector("section.table-status[data-status=playing]")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("button[hx-post$='/concede/']").click()
    return url


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_result_panel_ends_the_game_over_the_board(server, browser, width, lang):
    height = 844 if width == 390 else 800
    contexts = [
        browser.new_context(viewport={"width": width, "height": height}, locale=lang) for _ in range(2)
    ]
    try:
        player, watcher = (ctx.new_page() for ctx in contexts)
        for page in (player, watcher):
            page.set_default_timeout(30000)
            page.errors = []
            page.on("pageerror", lambda exc, page=page: page.errors.append(str(exc)))
        sign_up(player, server, unique("end"))
        finish_against_a_bot(player, server, watcher)
        for page in (player, watcher):
            panel = page.locator(".result-panel")
            panel.wait_for(state="visible", timeout=60000)
            assert page.locator("html").get_attribute("lang") == lang
        words = {
            "en": (
                "Game over",
                "Crowns",
                "Replay",
                "Back to lobby",
                "Rematch",
                "No other game is waiting for you.",
                "unrated",
            ),
            "fr": (
                "Partie terminée",
                "Couronnes",
                "Revoir",
                "Retour au salon",
                "Revanche",
                "Aucune autre partie ne vous attend.",
                "non classée",
            ),
        }[lang]
        watched = watcher.locator(".result-panel").inner_text()
        assert words[0] in watched and words[1] in watched and words[3] in watched
        assert words[4] not in watched  # a spectator is offered no rematch
        mine = player.locator(".result-panel").inner_text()
        for word in words[1:]:
            assert word in mine, (word, mine)
        assert player.locator(".result-panel [data-next-link]").is_hidden()  # no other game waits
        assert player.locator(".result-table tbody tr").count() == 2
        # The panel fits the screen: nothing of it is cut off sideways, and every name reads whole (a bot's
        # name with its level once read "Babbage (…" on a phone).
        box = player.locator(".result-card").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
        cut = player.locator(".result-table .who .name").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
        assert cut == [], cut
        assert not grave_violations(player)
        shot(player, f"turn-result-{lang}-{width}", full_page=False)
        shot(watcher, f"turn-result-watching-{lang}-{width}", full_page=False)
        # Dismissed to look at the final board, and shown again.
        player.locator("[data-result-dismiss]").click()
        player.locator(".result-panel").wait_for(state="hidden")
        assert player.locator(".board").is_visible()
        shot(player, f"turn-result-dismissed-{lang}-{width}", full_page=False)
        player.locator("[data-result-show]").click()
        player.locator(".result-panel").wait_for(state="visible")
        player.keyboard.press("Escape")
        player.locator(".result-panel").wait_for(state="hidden")
        assert not player.errors and not watcher.errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_rated_game_shows_each_players_rating_before_and_after(server, new_page):
    """A rated game between two people, played to its end (seeded through the services): each one's panel
    shows both ratings on the familiar scale, 1500? before, and the change."""
    host, guest = new_page(1280), new_page(390, 844)
    host_name, guest_name = unique("rh"), unique("rg")
    sign_up(host, server, host_name)
    sign_up(guest, server, guest_name)
    game = finished_game(server, (host_name, guest_name))
    pk, winners = game["table"], game["winners"]
    assert game["rated"] is True
    for page, seat in ((host, 0), (guest, 1)):
        page.goto(f"{server.url}/tables/{pk}/")
        panel = page.locator(".result-panel")
        panel.wait_for(state="visible")
        heading = page.locator(".result-card h2").inner_text()
        assert (heading in ("You won!", "You share the win!")) == (seat in winners), heading
        assert page.locator(".result-table thead").inner_text().split()[-1] == "Rating"
        cells = page.locator(".result-table .rating-cell")
        assert cells.count() == 2
        for i in range(2):
            text = cells.nth(i).inner_text()
            assert re.match(r"^1500\? → \d{3,4}\? [+\u2212±]\d+$", text), text
        shot(page, f"turn-result-rated-{page.viewport_size['width']}", full_page=False)
    # On a French phone (its longest headings), the table stays within its card and no number is cut in two.
    watcher = new_page(390, 844, locale="fr-FR")
    watcher.goto(f"{server.url}/tables/{pk}/")
    watcher.locator(".result-panel").wait_for(state="visible")
    assert watcher.locator(".result-table thead").inner_text().split()[-1] == "Cote"
    scroll, room = watcher.evaluate(
        "() => [document.querySelector('.result-scroll').scrollWidth, document.querySelector('.result-scroll').clientWidth]"
    )
    assert scroll <= room, (scroll, room)
    lines = watcher.locator(".rating-cell .before, .rating-cell strong, .rating-cell .delta").evaluate_all(
        "els => els.map(e => [e.textContent, e.getClientRects().length])"
    )
    assert len(lines) == 6 and all(rects == 1 for _, rects in lines), lines
    shot(watcher, "turn-result-rated-390-fr", full_page=False)
    assert not host.errors and not guest.errors and not watcher.errors
