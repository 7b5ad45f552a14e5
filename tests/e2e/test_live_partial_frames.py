"""A table page kept live by partial frames (issue #31, point 3) shows, after several moves, exactly what a
fresh load of the page shows: the status, the board and the log, for both seats and a spectator. In Cosmic
Crowns and in Cosplay, where a frame keeps a card that moved from one recruitment zone to the next (the
page takes it from where it was: static/js/site.js).

What the site's scripts add to a page on their own is set aside before comparing, the same on both pages:
the faces and presence dots presence.js puts in the seat chips (they depend on when it last asked), the
focus it gives a region that scrolls (static/js/site.js markScrollers), the countdown's text, the marks
Cosplay's script puts on the cards the last move brought (static/js/games/cosplay.js highlightChanges: a
page that just loaded saw no move), and the empty ``class`` attribute htmx leaves on an element it swapped
in (it adds, then removes, its own class)."""

import pytest

from tests.e2e.conftest import Server, open_two_player_table, seq_of, sign_up, unique, wait_for_seq
from tests.e2e.test_cosplay import mover_of, settle
from tests.e2e.test_socket_moves import click_a_move, the_mover
from tests.processes import daphnes, migrate

MOVES = 8

SECTIONS = """table => ["status", "board", "log"].map(part => {
  const el = document.getElementById(`table-${table}-${part}`).cloneNode(true);
  el.querySelectorAll(".face").forEach(e => e.remove());
  el.querySelectorAll("[data-scroll-focus]").forEach(e => { e.removeAttribute("tabindex"); e.removeAttribute("data-scroll-focus"); });
  el.querySelectorAll(".clock .left").forEach(e => { e.textContent = ""; });
  el.querySelectorAll(".cp-new").forEach(e => e.remove());
  el.querySelectorAll(".cp-arrived, .cp-moved").forEach(e => e.classList.remove("cp-arrived", "cp-moved"));
  [el, ...el.querySelectorAll("[class]")].forEach(e => { if (e.getAttribute("class") === "") e.removeAttribute("class"); });
  return el.outerHTML;
})"""

SETTLED = "() => !document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping')"


@pytest.fixture(scope="module")
def partial_server(server, tmp_path_factory):
    """A daphne of its own serving partial frames (settings.PARTIAL_FRAMES: the default, set here all the same)."""
    tmp = tmp_path_factory.mktemp("partial")
    env = {**server.env, "SQLITE_PATH": str(tmp / "partial.sqlite3"), "PARTIAL_FRAMES": "true"}
    migrate(env)
    with daphnes(env, tmp) as (port,):
        yield Server(f"http://127.0.0.1:{port}", env)


def listen(page):
    page.frames_in = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: page.frames_in.append(payload)))


def end_the_turn(mover, pages):
    """A Cosplay move: the turn's main prompt answered (any choice first), then the turn ended: the cards
    in the recruitment zones advance."""
    settle(mover, pages)
    seq = seq_of(mover)
    mover.click("button.end-turn")
    return seq + 1


def cosmic_crowns_move(mover, pages):
    seq = seq_of(mover)
    click_a_move(mover)
    return seq + 1


GAMES = {
    "cosmic_crowns": (".cc-board", the_mover, cosmic_crowns_move, {"mode": "easy"}),
    "cosplay": (".cp-board", mover_of, end_the_turn, {}),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_page_kept_live_by_partial_frames_shows_what_a_fresh_load_shows(game, partial_server, new_page):
    server = partial_server
    board, find_mover, play, choices = GAMES[game]
    alice, bob, watcher = new_page(1280), new_page(1280), new_page(1280)
    a_name, b_name = unique("alice"), unique("bob")
    for page in (alice, bob, watcher):
        page.on("dialog", lambda dialog: dialog.accept())
        listen(page)
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    table_url = open_two_player_table(server, alice, bob, game, b_name, **choices)
    watcher.goto(table_url)
    pages = (alice, bob, watcher)
    for page in pages:
        page.wait_for_selector(board)
        page.wait_for_function("() => document.querySelector('.table-page').cardclubSocket")
    table = alice.evaluate("() => document.querySelector('.table-page').dataset.table")

    for page in pages:  # (a page the frames did not apply to reloads itself: site.js broken())
        page.evaluate("() => { window.neverReloaded = true; }")
    seq = seq_of(alice)
    for _ in range(MOVES):
        mover = find_mover((alice, bob), seq)
        seq = play(mover, pages)  # (the seq the move brings)
        for page in pages:
            wait_for_seq(page, seq)

    for page in pages:
        assert page.evaluate("() => window.neverReloaded === true"), "the page reloaded itself"
        # The moves reached this page as partial frames (each leads with the status's new attributes alone;
        # the first move after the start may come whole).
        frames = [f for f in page.frames_in if 'id="table-' in f]
        assert len(frames) > MOVES, len(frames)
        for f in frames[-(MOVES - 1) :]:
            assert (
                f.startswith(f'<section id="table-{table}-status"')
                and "data-attrs-only></section>" in f[:300]
            )
        page.wait_for_function(SETTLED)
        fresh = page.context.new_page()
        fresh.goto(page.url)
        fresh.wait_for_selector(board)
        fresh.wait_for_function("() => document.querySelector('.table-page').cardclubSocket")
        wait_for_seq(fresh, seq)
        fresh.wait_for_timeout(300)  # (its socket's first frame swapped in, and settled)
        fresh.wait_for_function(SETTLED)
        live, loaded = page.evaluate(SECTIONS, table), fresh.evaluate(SECTIONS, table)
        for part, (kept, anew) in zip(
            ("status", "board", "log"), zip(live, loaded, strict=True), strict=True
        ):
            assert kept == anew, part
        fresh.close()
    assert not alice.errors and not bob.errors and not watcher.errors
