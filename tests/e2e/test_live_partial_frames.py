"""A table page kept live by partial frames (issue #31, point 3) shows, after several moves, exactly what a
fresh load of the page shows: the status, the board and the log, for both seats and a spectator.

What the site's scripts add to a page on their own is set aside before comparing, the same on both pages:
the faces and presence dots presence.js puts in the seat chips (they depend on when it last asked), the
focus it gives a region that scrolls (static/js/site.js markScrollers), the countdown's text, and the empty
``class`` attribute htmx leaves on an element it swapped in (it adds, then removes, its own class)."""

import pytest

from tests.e2e.conftest import Server, open_two_player_table, seq_of, sign_up, unique, wait_for_seq
from tests.e2e.test_socket_moves import click_a_move, the_mover
from tests.processes import daphnes, migrate

MOVES = 8

SECTIONS = """table => ["status", "board", "log"].map(part => {
  const el = document.getElementById(`table-${table}-${part}`).cloneNode(true);
  el.querySelectorAll(".face").forEach(e => e.remove());
  el.querySelectorAll("[data-scroll-focus]").forEach(e => { e.removeAttribute("tabindex"); e.removeAttribute("data-scroll-focus"); });
  el.querySelectorAll(".clock .left").forEach(e => { e.textContent = ""; });
  [el, ...el.querySelectorAll("[class]")].forEach(e => { if (e.getAttribute("class") === "") e.removeAttribute("class"); });
  return el.outerHTML;
})"""

SETTLED = "() => !document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping')"


@pytest.fixture(scope="module")
def partial_server(server, tmp_path_factory):
    """A daphne of its own serving partial frames (settings.PARTIAL_FRAMES, off by default)."""
    tmp = tmp_path_factory.mktemp("partial")
    env = {**server.env, "SQLITE_PATH": str(tmp / "partial.sqlite3"), "PARTIAL_FRAMES": "true"}
    migrate(env)
    with daphnes(env, tmp) as (port,):
        yield Server(f"http://127.0.0.1:{port}", env)


def listen(page):
    page.frames_in = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: page.frames_in.append(payload)))


def test_a_page_kept_live_by_partial_frames_shows_what_a_fresh_load_shows(partial_server, new_page):
    server = partial_server
    alice, bob, watcher = new_page(1280), new_page(1280), new_page(1280)
    a_name, b_name = unique("alice"), unique("bob")
    for page in (alice, bob, watcher):
        page.on("dialog", lambda dialog: dialog.accept())
        listen(page)
    sign_up(alice, server, a_name)
    sign_up(bob, server, b_name)
    table_url = open_two_player_table(server, alice, bob, "cosmic_crowns", b_name, mode="easy")
    watcher.goto(table_url)
    pages = (alice, bob, watcher)
    for page in pages:
        page.wait_for_selector(".cc-board")
        page.wait_for_function("() => document.querySelector('.table-page').cardclubSocket")
    table = alice.evaluate("() => document.querySelector('.table-page').dataset.table")

    seq = seq_of(alice)
    for _ in range(MOVES):
        mover = the_mover((alice, bob), seq)
        click_a_move(mover)
        seq += 1
        for page in pages:
            wait_for_seq(page, seq)

    for page in pages:
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
        fresh.wait_for_selector(".cc-board")
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
