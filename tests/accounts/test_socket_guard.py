"""Every socket is held to the same bounds (accounts.socket_guard): sockets per account, close codes a client
can read when the channel layer fails, and the size of what a client sends."""

import time

import pytest
from channels.layers import get_channel_layer
from django.core.cache import cache

from accounts import socket_guard
from tables import live
from tests.tables.test_consumers import badge_socket, connect, session_cookie, setup_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def closed_with(comm) -> int | None:
    output = await comm.receive_output(timeout=5)
    while output["type"] == "websocket.send":
        output = await comm.receive_output(timeout=5)
    assert output["type"] == "websocket.close"
    return output.get("code")


@pytest.fixture(autouse=True)
def _three_sockets(settings):
    settings.MAX_SOCKETS_PER_ACCOUNT = 3
    cache.clear()


async def test_it_refuses_an_accounts_socket_past_the_bound_with_4429(alice, bob):
    table = await setup_game(alice, bob)
    cookie = await session_cookie(alice)
    first, ok = await badge_socket(cookie)
    assert ok
    others = []
    for _ in range(2):
        comm, ok = await connect(table.pk, cookie)
        assert ok
        await comm.receive_from(timeout=20)
        others.append(comm)
    assert socket_guard.open_here(alice.pk) == 3
    refused, accepted = await connect(table.pk, cookie)
    assert accepted  # (accepted, so that the close code reaches the client)
    assert await closed_with(refused) == socket_guard.TOO_MANY_SOCKETS
    # bob, and anonymous spectators, are not concerned.
    bobs, ok = await connect(table.pk, await session_cookie(bob))
    assert ok and await bobs.receive_from(timeout=20)
    watcher, ok = await connect(table.pk)
    assert ok and await watcher.receive_from(timeout=20)
    # A socket that closes frees its place.
    await first.disconnect()
    assert socket_guard.open_here(alice.pk) == 2
    again, ok = await connect(table.pk, cookie)
    assert ok and "table-" in await again.receive_from(timeout=20)
    for comm in [*others, again, bobs, watcher]:
        await comm.disconnect()
    assert socket_guard.open_here(alice.pk) == 0


async def test_the_bound_counts_the_sockets_other_processes_published(alice):
    cookie = await session_cookie(alice)
    now = time.time()
    cache.set(f"sockets:{alice.pk}", {"elsewhere": now + 60, "crashed": now - 1}, 60)
    cache.set(f"sockets:{alice.pk}:elsewhere", 2, 60)
    cache.set(f"sockets:{alice.pk}:crashed", 5, 60)  # (its entry in the list has expired: not counted)
    mine, ok = await badge_socket(cookie)
    assert ok and await mine.receive_from(timeout=10)
    refused, _ = await badge_socket(cookie)
    assert await closed_with(refused) == socket_guard.TOO_MANY_SOCKETS
    published = cache.get(f"sockets:{alice.pk}")
    assert set(published) == {"elsewhere", socket_guard.PROCESS}
    assert cache.get(socket_guard._own_key(alice.pk)) == 1
    await mine.disconnect()
    assert cache.get(socket_guard._own_key(alice.pk)) is None
    assert set(cache.get(f"sockets:{alice.pk}")) == {"elsewhere"}


async def test_it_closes_a_socket_that_sends_an_oversized_message_with_1009(alice, bob, settings):
    settings.SOCKET_MESSAGE_MAX = 1000
    table = await setup_game(alice, bob)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok and await comm.receive_from(timeout=20)
    await comm.send_to(text_data="x" * 999)  # within the bound: judged as a move (not JSON), the socket stays
    assert 'data-refused="400"' in await comm.receive_from(timeout=20)
    await comm.send_to(text_data="x" * 1001)
    assert await closed_with(comm) == socket_guard.MESSAGE_TOO_BIG


async def test_a_socket_told_the_layer_lost_redis_closes_with_1012(alice, bob):
    table = await setup_game(alice, bob)
    comm, ok = await connect(table.pk, await session_cookie(alice))
    assert ok and await comm.receive_from(timeout=20)
    layer = get_channel_layer()
    (channel,) = layer.groups[live.table_group(table.pk, "s0", "en")]  # (alice's socket, at seat 0)
    await layer.send(channel, {"type": "layer.lost"})
    assert await closed_with(comm) == socket_guard.LAYER_LOST
    await comm.wait(timeout=5)
    assert socket_guard.open_here(alice.pk) == 0


async def test_a_socket_that_cannot_join_its_groups_is_told_to_try_again_later(alice, bob, monkeypatch):
    from redis.exceptions import ConnectionError as RedisDown

    table = await setup_game(alice, bob)
    layer = get_channel_layer()

    async def down(*args, **kwargs):
        raise RedisDown("Connection refused")

    monkeypatch.setattr(layer, "group_add", down)
    comm, accepted = await connect(table.pk, await session_cookie(alice))
    assert accepted
    assert await closed_with(comm) == socket_guard.LAYER_UNREACHABLE
