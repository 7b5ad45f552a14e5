"""On the Redis channel layer (the scale-out path), a move's frames and badges are sent from the event loop:
the thread that judged the move, a socket's or a request's, hands them over and goes on (never
``async_to_sync``, which would hold it until Redis answered), and they reach the sockets counted in their
groups (tables.stream_presence.sockets), and those only."""

from __future__ import annotations

import json
import uuid

import pytest
from asgiref.sync import sync_to_async

from accounts.models import ApiToken
from tables import stream_presence
from tests.services.test_scale_out import REDIS, services_up
from tests.tables.test_consumers import connect, open_badge, session_cookie, setup_game
from tests.tables.test_socket_moves import close, legal, table_now

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def redis_layer(settings):
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    from channels.layers import channel_layers

    prefix = f"sends{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.layers.ResilientRedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS, "socket_timeout": 30}], "prefix": prefix},
        }
    }
    channel_layers.backends.clear()
    yield channel_layers["default"]
    channel_layers.backends.clear()


async def test_socket_and_posted_moves_send_from_the_loop_to_the_counted_sockets(
    alice, bob, redis_layer, handed
):
    from config.asgi import application
    from tables.notifications import user_group
    from tests.test_handlers import call

    table = await setup_game(alice, bob)
    users = [alice, bob]
    mover = table.to_act[0]
    other = users[1 - mover]
    comm, ok = await connect(table.pk, await session_cookie(users[mover]))
    assert ok
    await comm.receive_from(timeout=20)
    badges = await open_badge(await session_cookie(other))
    mine = f"table-{table.pk}-s{mover}-en"
    assert await sync_to_async(stream_presence.sockets.open_scopes)([mine, user_group(other.pk)]) == {
        mine,
        user_group(other.pk),
    }
    # Over the socket, then posted, until the other player is awaited (a Falling Star may keep the turn).
    token = await sync_to_async(lambda: ApiToken.issue(users[mover])[1])()
    for seq in range(10):
        body = {"move": legal(table), "seq": seq}
        if seq % 2 == 0:
            await comm.send_to(text_data=json.dumps(body))
        else:
            assert (await call(application, "POST", f"/api/tables/{table.pk}/moves", token, body))[0] == 200
        assert f'data-seq="{seq + 1}"' in await comm.receive_from(timeout=20)
        table = await table_now(table.pk)
        if table.to_act != [mover]:
            break
    assert table.to_act == [1 - mover]
    assert 'id="your-turn-badge"' in await badges.receive_from(timeout=20)
    # Only the groups with a socket: the mover's seat and the other's badge; not the other's seat, nor the
    # spectators, nor another language.
    assert set(handed) == {mine, user_group(other.pk)}
    await close(comm, badges)
    assert await sync_to_async(stream_presence.sockets.open_scopes)([mine, user_group(other.pk)]) == set()
