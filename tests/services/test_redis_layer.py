"""The Redis channel layer as configured: an idle socket's channel survives past redis-py 8's default 5 s
read timeout (with that default, every idle table socket was torn down about 5 s after it connected)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from tests.processes import ROOT
from tests.services.test_scale_out import REDIS, services_up

pytestmark = [pytest.mark.services, pytest.mark.asyncio]


def configured_layer():
    code = "import json, config.settings as s; print(json.dumps(s.CHANNEL_LAYERS['default']))"
    env = {**os.environ, "REDIS_URL": REDIS, "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.slow
async def test_an_idle_channel_outlives_the_redis_read_timeout():
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    from config.layers import ResilientRedisChannelLayer

    spec = configured_layer()
    assert spec["BACKEND"] == "config.layers.ResilientRedisChannelLayer"
    layer = ResilientRedisChannelLayer(**spec["CONFIG"])
    try:
        channel = await layer.new_channel()
        await layer.group_add("idle-check", channel)
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(7)  # idle for longer than the blocking pop and redis-py 8's default timeout
        assert not waiting.done() or waiting.exception() is None
        await layer.group_send("idle-check", {"type": "table.frame", "html": "hello"})
        message = await asyncio.wait_for(waiting, timeout=10)
        assert message["html"] == "hello"
        await layer.group_discard("idle-check", channel)
    finally:
        await layer.flush()
        await layer.close_pools()
