"""Hidden information never leaves the server, on any channel: pages, socket frames, the API, the move log.

Every game is played by casual bots through the real service; at every step each seat and a spectator
look through each channel, and every card code shown must be one the engine's own view gives them.
"""

import json
import random
import re

import pytest
from django.test import Client

from rules import bots, registry
from tables import selectors, services
from tables.api import table_json
from tables.models import Table
from tables.rendering import render_frame

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


@pytest.mark.parametrize("slug", sorted(registry.games()))
def test_no_channel_shows_a_card_its_viewer_may_not_see(slug, alice, bob, charlie):
    users = [alice, bob, charlie]
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
    for step in range(40):
        if table.status != Table.PLAYING:
            break
        state = engine.load(table.state)
        if step % 4 == 0:
            for seat, user in [*enumerate(users), (None, None)]:
                visible = strings_in(engine.view(state, seat))
                frame = render_frame(table, user)
                page = (clients[user.pk] if user else spectator).get(f"/tables/{table.pk}/").content.decode()
                for html in (frame, page):
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
        table = services.play_move(table.pk, users[seat], move, table.seq).table
    # The API's move log shows every move as played: no game's move names a card its rivals may not see.
    if table.status == Table.PLAYING:
        from accounts.models import ApiToken

        raw = ApiToken.issue(bob)[1]
        logged = Client().get(f"/api/tables/{table.pk}/moves", HTTP_AUTHORIZATION=f"Bearer {raw}").json()
        expected = [m.move for m in table.moves.order_by("seq")]
        assert [m["move"] for m in logged] == expected
