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
