"""Hidden information never leaves the server, on any channel: pages, socket frames, the API, the move log.

Every game is played by casual bots through the real service; at every step each seat and a spectator
look through each channel, and every card code shown must be one the engine's own view gives them. Every
seat and the spectators have a socket listening, so each change's frames are drawn and the table's room
(``tables.rooms``) keeps them: a socket that connects then is sent its own seat's from there.
"""

import json
import random
import re

import pytest
from django.test import Client

from accounts.models import ApiToken
from rules import bots, registry
from rules.core import visible
from tables import selectors, services
from tables.api import table_json
from tables.consumers import current_frame
from tables.models import Table
from tables.rendering import render_frame
from tests.tables.positions import listening

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]+)"')


def strings_in(value) -> set[str]:
    out = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            out |= strings_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= strings_in(v)
    elif value is not None:
        out.add(str(value))
    return out


def cards_of(state) -> set[str]:
    """The strings a state holds in its lists: its cards' codes (hands, decks, piles), wherever they are."""
    out = set()
    if isinstance(state, dict):
        for value in state.values():
            out |= cards_of(value)
    elif isinstance(state, list):
        for value in state:
            out |= (
                cards_of(value)
                if isinstance(value, dict | list)
                else {value}
                if isinstance(value, str)
                else set()
            )
    return out


def assert_move_list_hides(table, engine, tokens, cards, views):
    """The API's move list, read by each seat and a spectator: a move by another seat names no card that
    its events did not tell the reader and that the reader's view does not show."""
    rows = list(table.moves.order_by("seq"))
    for seat, raw in tokens.items():
        told = set(views[seat])
        for row in rows:
            told |= strings_in(visible(row.events, seat))
        logged = Client().get(f"/api/tables/{table.pk}/moves", HTTP_AUTHORIZATION=f"Bearer {raw}").json()
        assert [m["seq"] for m in logged] == [row.seq for row in rows]
        for shown, row in zip(logged, rows, strict=True):
            if row.seat == seat:
                assert shown["move"] == row.move  # the mover reads their own move whole
                continue
            named = (strings_in(shown["move"]) & cards) - told
            assert not named, (seat, row.seq, shown["move"], named)


@pytest.mark.parametrize("slug", sorted(registry.games()))
def test_no_channel_shows_a_card_its_viewer_may_not_see(
    slug, alice, bob, charlie, make_user, django_capture_on_commit_callbacks
):
    users = [alice, bob, charlie]
    tokens = {seat: ApiToken.issue(user)[1] for seat, user in [*enumerate(users), (None, make_user("dora"))]}
    table = services.create_table(alice, slug, 3)
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, alice)
    engine = table.engine
    rnd = random.Random(7)
    clients = {user.pk: Client() for user in users}
    for user in users:
        clients[user.pk].force_login(user)
    spectator = Client()
    cards = cards_of(engine.dump(engine.load(table.state)))
    with listening(table.pk, (0, 1, 2, None)):
        table = play_and_look(
            table, users, tokens, clients, spectator, cards, rnd, django_capture_on_commit_callbacks
        )
    if table.status == Table.PLAYING:
        views = {seat: strings_in(engine.view(engine.load(table.state), seat)) for seat in tokens}
        assert_move_list_hides(table, engine, tokens, cards, views)


def play_and_look(table, users, tokens, clients, spectator, cards, rnd, on_commit):
    engine, slug = table.engine, table.game
    for step in range(40):
        if table.status != Table.PLAYING:
            break
        state = engine.load(table.state)
        if step % 4 == 0:
            views = {seat: strings_in(engine.view(state, seat)) for seat in tokens}
            assert_move_list_hides(table, engine, tokens, cards, views)
            for seat, user in [*enumerate(users), (None, None)]:
                visible = strings_in(engine.view(state, seat))
                frame = render_frame(table, user)
                page = (clients[user.pk] if user else spectator).get(f"/tables/{table.pk}/").content.decode()
                socket = current_frame(table.pk, user, "en")[2]  # (a seat's: the one its room kept)
                for html in (frame, page, socket):
                    shown = set(CARD.findall(html))
                    assert shown <= visible, (seat, shown - visible)
                    assert str(table.seed) not in html
                api = json.dumps(table_json(table, user))
                assert str(table.seed) not in api and '"seed"' not in api
        seat = table.to_act[0]
        position = selectors.position(table, seat, state)
        move = bots.choose(
            slug, position.view, position.legal_moves, "casual", rnd.randrange(10**9), seat=seat
        )
        with on_commit(execute=True):
            table = services.play_move(table.pk, users[seat], move, table.seq).table
    return table
