"""Frames carry only what changed (issue #31, point 3): after a socket's first full frame, each frame is the
partial frame from the viewer's frame before (tables.frame_diff), and the page it leaves is, byte for byte,
the full render of the table as it is now. Whole seeded bot games of every game are replayed for every seat
and a spectator, in both languages, applying each partial frame as the browser does (tests/tables/frame_pages)
and comparing the page with the full frame at every step; no partial frame shows a card its viewer may not
see."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser

from rules import bots, registry
from tables import frame_diff, services
from tables.models import Table
from tables.rendering import render_frame
from tests.tables import frame_pages
from tests.tables.test_no_leaks import strings_in

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]+)"')
ID = re.compile(r'\sid="([^"]+)"')  # (a stub stands for the page's one element of its id: ids are unique)
MAX_STEPS = 3000
PLAYERS = {"chronica": 2, "cosmic_crowns": 4, "cosplay": 3, "five_crowns": 2}


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(registry.games()))
def test_a_page_kept_by_partial_frames_is_the_full_render_at_every_step_of_a_whole_game(slug, make_user):
    players = PLAYERS[slug]
    users = [make_user(f"player{i}") for i in range(players)]
    table = services.create_table(users[0], slug, players)
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, users[0], seed=11)
    engine, rnd = table.engine, random.Random(11)
    viewers = [*enumerate(users), (None, AnonymousUser())]
    # Each viewer reads in one language, both languages among them (the spectator in French).
    langs = {seat: "fr" if (seat is None or seat % 2) else "en" for seat, _ in viewers}
    before: dict = {}
    pages: dict = {}
    sizes: list[int] = []
    for _step in range(MAX_STEPS):
        state = engine.load(table.state)
        shared: dict = {}  # (as tables.live shares what one change found among its viewers)
        for seat, user in viewers:
            frame = render_frame(table, user, langs[seat])
            ids = ID.findall(frame)
            assert len(ids) == len(set(ids)), (seat, table.seq, sorted({i for i in ids if ids.count(i) > 1}))
            # (located with the help of the viewer's frame before, as tables.live does)
            parsed = frame_diff.Parsed.of(frame, like=before.get(seat))
            if seat not in before:
                pages[seat] = frame_pages.page_of(frame)
            else:
                part = frame_diff.partial(before[seat], parsed, shared)
                # The same partial frame as found alone, from the frames located without help.
                assert part == frame_diff.partial(
                    frame_diff.Parsed.of(before[seat].html), frame_diff.Parsed.of(frame)
                )
                sizes.append(len(part.encode()))
                shown = set(CARD.findall(part))
                visible = strings_in(engine.view(state, seat))
                assert shown <= visible, (seat, table.seq, shown - visible)  # nobody else's hand
                pages[seat] = frame_pages.apply(pages[seat], part)
                assert pages[seat] == frame_pages.page_of(frame), (seat, table.seq)
            before[seat] = parsed
        if table.status != Table.PLAYING:
            break
        seat = table.to_act[0]
        view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
        move = bots.choose(slug, view, legal, "casual", rnd.randrange(10**9), seat=seat)
        table = services.play_move(table.pk, users[seat], move, table.seq).table
    assert table.status == Table.FINISHED, "a whole game"
    assert len(sizes) > 20


def test_a_partial_frame_from_a_page_already_at_the_new_frame_leaves_it_as_it_is(make_user):
    """The mover's page may get its move's frame whole (the HTTP answer) before the socket's partial one."""
    users = [make_user("anna"), make_user("ben")]
    table = services.create_table(users[0], "cosmic_crowns", 2)
    services.join_table(table.pk, users[1])
    table = services.start_table(table.pk, users[0], seed=3)
    old = render_frame(table, users[0], "en")
    state = table.engine.load(table.state)
    seat = table.to_act[0]
    move = table.engine.legal_moves(state, seat)[0]
    table = services.play_move(table.pk, users[seat], move, table.seq).table
    new = render_frame(table, users[0], "en")
    part = frame_diff.partial(frame_diff.Parsed.of(old), frame_diff.Parsed.of(new))
    assert part != new and len(part) < len(new)
    assert frame_pages.apply(frame_pages.page_of(new), part) == frame_pages.page_of(new)
    assert frame_pages.apply(frame_pages.page_of(old), part) == frame_pages.page_of(new)


def test_unchanged_frames_give_an_empty_partial_frame_and_other_elements_a_full_one():
    words = "<span>words</span>" * 20
    a = f'<section id="t-1-status" hx-swap-oob="true" data-seq="1">{words}<p id="t-1-x">x</p></section>'
    assert frame_diff.partial(frame_diff.Parsed.of(a), frame_diff.Parsed.of(a)) == ""
    b = '<section id="t-1-other" hx-swap-oob="true"><p>y</p></section>'
    assert frame_diff.partial(frame_diff.Parsed.of(a), frame_diff.Parsed.of(b)) == b
    c = a.replace('data-seq="1"', 'data-seq="2"').replace(">x<", ">z<")
    part = frame_diff.partial(frame_diff.Parsed.of(a), frame_diff.Parsed.of(c))
    # (no hx-swap-oob: the socket's htmx extension swaps each element out of band)
    assert part == '<section id="t-1-status" data-seq="2" data-attrs-only></section><p id="t-1-x">z</p>'
    assert frame_pages.apply(frame_pages.page_of(a), part) == frame_pages.page_of(c)


def test_an_element_that_moved_elsewhere_in_the_frame_is_kept_from_where_the_page_had_it():
    """A card that advances from one recruitment zone to the next (Cosplay) travels as a stub: the page takes
    it from where it was when the frame came (static/js/site.js holds the stubbed elements first)."""

    def card(code):
        return f'<span id="c-{code}" class="card">{"<i>art</i>" * 20}{code}</span>'

    def board(zone1, zone2):
        return (
            '<section id="t-1-board" hx-swap-oob="true"><ol class="zones">'
            f'<li id="z1"><b>Zone 1</b>{zone1}</li><li id="z2"><b>Zone 2</b>{zone2}</li></ol></section>'
        )

    old, new = board(card("a"), card("b")), board(card("n"), card("a"))
    part = frame_diff.partial(frame_diff.Parsed.of(old), frame_diff.Parsed.of(new))
    assert '<span id="c-a" data-kept></span>' in part  # (kept, though it left zone 1 for zone 2)
    assert card("n") in part and card("a") not in part and "c-b" not in part
    assert frame_pages.apply(frame_pages.page_of(old), part) == frame_pages.page_of(new)
    assert frame_pages.apply(frame_pages.page_of(new), part) == frame_pages.page_of(new)
