"""A table page out of sight (another tab in front, a phone put away) asks its socket for no frames, and is sent
the table as it is when it comes back in sight (static/js/site.js, tables/consumers.py): the frames nobody would
see are not drawn, and the player finds the board as it is."""

from __future__ import annotations

from tests.e2e.conftest import hear_frames, open_two_player_table, seq_of, sign_up, unique, wait_for_seq

# The page as the browser makes it when its tab goes behind another, or comes back in front.
SIGHT = """state => {
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def play_one(page) -> None:
    """Click the first move the board offers (a card to play, a bid, a clan: whatever the turn asks)."""
    page.locator(".board button[data-move]:visible").first.click()


def test_a_page_out_of_sight_is_sent_the_table_when_it_comes_back(server, new_page):
    host, guest = new_page(1280), new_page(390)
    host_name, guest_name = unique("sighth"), unique("sightg")
    sign_up(host, server, host_name)
    sign_up(guest, server, guest_name)
    open_two_player_table(server, host, guest, "cosmic_crowns", guest_name)
    for page in (host, guest):
        page.wait_for_function("() => !!document.querySelector('.table-page').cardclubSocket")
    hear_frames(guest)  # (the table's socket's messages: the badge's still come out of sight)
    # The game brought to the host's turn, the guest playing in sight meanwhile when it is theirs.
    for _ in range(10):
        if host.locator(".cc-prompt.mine").count():
            break
        guest.wait_for_selector(".cc-prompt.mine")
        before = seq_of(guest)
        play_one(guest)
        wait_for_seq(host, before + 1)
    host.wait_for_selector(".cc-prompt.mine")

    guest.evaluate(SIGHT, "hidden")
    guest.wait_for_timeout(1000)  # (the message on its way, and taken: the socket leaves its group)
    start = seq_of(host)
    heard = guest.evaluate("() => window.framesHeard")
    play_one(host)
    wait_for_seq(host, start + 1)
    guest.wait_for_timeout(1000)
    assert guest.evaluate("() => window.framesHeard") == heard, "a frame reached a page out of sight"
    assert seq_of(guest) == start

    guest.evaluate(SIGHT, "visible")
    wait_for_seq(guest, start + 1)  # back in sight: the table as it is
    assert seq_of(guest) == seq_of(host)
    to_act = [page.locator(".cc-prompt.mine").count() for page in (host, guest)]
    assert sorted(to_act) == [0, 1], to_act  # one of the two to play, and both pages agree who
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
