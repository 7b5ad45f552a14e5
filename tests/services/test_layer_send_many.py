"""A change's group sends in one batch on the real Redis (config.layers.ResilientRedisChannelLayer.
group_send_many): every socket of every group gets its message, across processes, in the order given, as
one group_send per group would deliver them."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.services.test_scale_out import REDIS, services_up

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


def layer_of(prefix: str):
    from config.layers import ResilientRedisChannelLayer

    return ResilientRedisChannelLayer(hosts=[{"address": REDIS}], prefix=prefix)


async def test_one_batch_reaches_every_group_in_order_across_processes():
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    prefix = f"sendmany{uuid.uuid4().hex[:8]}"
    here, there = layer_of(prefix), layer_of(prefix)  # (two processes' layers on one Redis)
    try:
        seat0, seat1 = await here.new_channel(), await here.new_channel()
        watcher = await there.new_channel()
        await here.group_add("table-1-s0-en", seat0)
        await here.group_add("table-1-s1-en", seat1)
        await there.group_add("table-1-watch-en", watcher)
        await there.group_add("user-7", seat1)  # (a channel in two groups of the batch)
        await here.group_add("table-1-s1-en", watcher)
        await here.group_send_many(
            [
                ("table-1-s0-en", {"type": "table.frame", "html": "zero"}),
                ("table-1-s1-en", {"type": "table.frame", "html": "one"}),
                ("table-1-watch-en", {"type": "table.frame", "html": "watch"}),
                ("user-7", {"type": "turn.changed", "html": "badge"}),
                ("nobody-listens", {"type": "table.frame", "html": "lost"}),
            ]
        )

        async def got(layer, channel, count):
            return [(await asyncio.wait_for(layer.receive(channel), timeout=5))["html"] for _ in range(count)]

        assert await got(here, seat0, 1) == ["zero"]
        assert await got(here, seat1, 2) == ["one", "badge"]
        assert await got(there, watcher, 2) == ["one", "watch"]
        for layer, channel in ((here, seat0), (here, seat1), (there, watcher)):
            with pytest.raises(TimeoutError):  # nothing more, nothing twice
                await asyncio.wait_for(layer.receive(channel), timeout=0.3)
    finally:
        await here.flush()
        await here.close_pools()
        await there.close_pools()


async def test_a_process_takes_what_is_queued_for_its_sockets_in_one_batch_each_message_once_in_order():
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    prefix = f"recvmany{uuid.uuid4().hex[:8]}"
    sender, here = layer_of(prefix), layer_of(prefix)
    try:
        sockets = [await here.new_channel() for _ in range(3)]
        for i, channel in enumerate(sockets):
            await here.group_add(f"g{i}", channel)
        batch = [(f"g{i % 3}", {"type": "table.frame", "html": f"frame {n}"}) for n, i in enumerate(range(9))]
        await sender.group_send_many(batch)
        trips = []
        pop = here.connection(0).bzpopmin

        async def counted(*args, **kwargs):
            trips.append(args)
            return await pop(*args, **kwargs)

        here.connection(0).bzpopmin = counted
        for i, channel in enumerate(sockets):
            got = [(await asyncio.wait_for(here.receive(channel), timeout=5))["html"] for _ in range(3)]
            assert got == [f"frame {n}" for n in range(i, 9, 3)]
        assert len(trips) == 1  # (one wait for the first; the eight others came with it)
        for channel in sockets:
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(here.receive(channel), timeout=0.3)
        connection = here.connection(0)
        key = here.prefix + here.non_local_name(sockets[0])
        assert await connection.zcard(key) == 0
        assert await connection.zcard(here._backup_channel_name(key)) == 0  # (cleared once taken)
    finally:
        await here.flush()
        await here.close_pools()
        await sender.close_pools()


async def test_what_a_cancelled_receive_left_in_the_back_up_queue_is_received_first():
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    prefix = f"recvback{uuid.uuid4().hex[:8]}"
    here = layer_of(prefix)
    try:
        socket = await here.new_channel()
        key = here.prefix + here.non_local_name(socket)
        backed_up = bytes(here.serialize({"type": "table.frame", "html": "kept", "__asgi_channel__": socket}))
        await here.connection(0).zadd(here._backup_channel_name(key), {backed_up: 1.0})  # (popped, not taken)
        await here.send(socket, {"type": "table.frame", "html": "next"})
        got = [(await asyncio.wait_for(here.receive(socket), timeout=5))["html"] for _ in range(2)]
        assert got == ["kept", "next"]
    finally:
        await here.flush()
        await here.close_pools()


async def test_a_process_hands_its_own_sockets_their_messages_in_memory_and_the_others_through_redis():
    """A group's members are read in Redis; those this process added itself get their message in memory (none
    is queued in Redis for this process), those of another process through Redis, a socket that left none."""
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    prefix = f"local{uuid.uuid4().hex[:8]}"
    here, there = layer_of(prefix), layer_of(prefix)
    try:
        mine, left = await here.new_channel(), await here.new_channel()
        theirs = await there.new_channel()
        await here.group_add("table-2-s0-en", mine)
        await there.group_add("table-2-s0-en", theirs)
        await here.group_add("table-2-watch-en", left)
        await here.group_discard("table-2-watch-en", left)
        await here.group_send("table-2-s0-en", {"type": "table.frame", "html": "first"})
        await here.group_send_many(
            [
                ("table-2-s0-en", {"type": "table.frame", "html": "second"}),
                ("table-2-watch-en", {"type": "table.frame", "html": "to nobody"}),
            ]
        )
        connection = here.connection(0)
        assert await connection.zcard(here.prefix + here.non_local_name(mine)) == 0  # (nothing in Redis)
        assert await connection.zcard(there.prefix + there.non_local_name(theirs)) == 2

        async def got(layer, channel, count):
            return [(await asyncio.wait_for(layer.receive(channel), timeout=5))["html"] for _ in range(count)]

        assert await got(here, mine, 2) == ["first", "second"]
        assert await got(there, theirs, 2) == ["first", "second"]
        for layer, channel in ((here, mine), (here, left), (there, theirs)):
            with pytest.raises(TimeoutError):  # nothing more, nothing twice
                await asyncio.wait_for(layer.receive(channel), timeout=0.3)
        first = {"type": "table.frame", "html": "shared"}
        other = await here.new_channel()
        await here.group_add("table-2-s0-en", other)
        await here.group_send("table-2-s0-en", first)
        one, two = await here.receive(mine), await here.receive(other)
        assert one == two == first and one is not two  # (each socket its own message, as from Redis)
    finally:
        await here.flush()
        await here.close_pools()
        await there.close_pools()
