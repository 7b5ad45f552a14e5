"""config.layers: the in-memory layer sweeps expired messages and memberships at most once a second."""

import pytest
from channels import layers as channels_layers

from config import layers

pytestmark = pytest.mark.asyncio


async def test_the_sweep_runs_once_a_second_however_many_sends(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock[0])
    sweeps = []
    original = channels_layers.InMemoryChannelLayer._clean_expired

    def counted(self):
        sweeps.append(clock[0])
        original(self)

    monkeypatch.setattr(channels_layers.InMemoryChannelLayer, "_clean_expired", counted)
    layer = layers.InMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    for _ in range(5):
        await layer.group_send("g", {"type": "x"})
        await layer.receive(channel)
    assert sweeps == [100.0]
    clock[0] += layers.SWEEP_INTERVAL
    await layer.group_send("g", {"type": "x"})
    assert sweeps == [100.0, 100.0 + layers.SWEEP_INTERVAL]


async def test_an_expired_message_is_still_dropped_by_the_next_sweep(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock[0])
    layer = layers.InMemoryChannelLayer(expiry=-1)  # every message expired as soon as it is queued
    reader, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", reader)
    await layer.group_send("g", {"type": "x"})  # swept first, then queued: it waits, expired
    await layer.send(other, {"type": "y"})
    assert reader in layer.channels
    clock[0] += layers.SWEEP_INTERVAL
    await layer.group_send("h", {"type": "z"})  # the next sweep, a second on
    assert reader not in layer.channels and other not in layer.channels
    assert reader not in layer.groups.get("g", {})  # a channel whose message expired leaves its groups


async def test_a_batch_reaches_every_socket_of_every_group_in_order():
    """group_send_many delivers what one group_send per group would: each socket of each group, in the order
    given, a socket in two groups both; a group nobody is in costs nothing; a full queue drops the message."""
    layer = layers.InMemoryChannelLayer(capacity=2)
    seat0, seat1, watcher = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1-s0-en", seat0)
    await layer.group_add("table-1-s1-en", seat1)
    await layer.group_add("table-1-s1-en", watcher)
    await layer.group_add("table-1-watch-en", watcher)
    await layer.group_add("user-7", seat1)
    await layer.group_send_many(
        [
            ("table-1-s0-en", {"type": "table.frame", "html": "zero"}),
            ("table-1-s1-en", {"type": "table.frame", "html": "one"}),
            ("table-1-watch-en", {"type": "table.frame", "html": "watch"}),
            ("user-7", {"type": "turn.changed", "html": "badge"}),
            ("nobody-listens", {"type": "table.frame", "html": "lost"}),
            ("table-1-s0-en", {"type": "table.frame", "html": "zero again"}),
            ("table-1-s0-en", {"type": "table.frame", "html": "over capacity"}),
        ]
    )

    async def got(channel):
        queued = layer.channels[channel].qsize()
        return [(await layer.receive(channel))["html"] for _ in range(queued)]

    assert await got(seat0) == ["zero", "zero again"]
    assert await got(seat1) == ["one", "badge"]
    assert await got(watcher) == ["one", "watch"]
    assert "nobody-listens" not in layer.groups
