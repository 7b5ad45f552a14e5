"""The cache and the channel layer with Redis out of reach (a port nobody listens on): they answer from
the process's memory and drop frames, instead of raising into every page, API call and move."""

import asyncio
import socket

import pytest
from redis.exceptions import RedisError

from config.cache import ResilientRedisCache
from config.layers import LAYER_LOST, ResilientRedisChannelLayer


def nobody_listens() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{s.getsockname()[1]}/0"


def test_the_cache_answers_from_memory_while_redis_is_down(caplog):
    cache = ResilientRedisCache(nobody_listens(), {"OPTIONS": {"socket_connect_timeout": 1}})
    assert cache.get("k") is None and cache.degraded
    assert cache.add("count", 1, 60) and cache.incr("count") == 2
    cache.set("stamp", "abc", None)
    assert cache.get("stamp") == "abc"
    assert cache.get_many(["stamp", "count"]) == {"stamp": "abc", "count": 2}
    cache.delete("stamp")
    assert cache.get("stamp") is None
    with pytest.raises(ValueError):
        cache.incr("missing")  # (as Redis's and the memory's caches say of a missing key)
    assert [r.message for r in caplog.records].count(
        next(r.message for r in caplog.records if "unreachable" in r.message)
    ) == 1  # logged once per outage, not once per call


def test_a_revoked_token_is_refused_while_the_cache_is_down(db, alice, monkeypatch, settings):
    from accounts import api_tokens
    from accounts.models import ApiToken

    settings.API_TOKEN_CACHE_SECONDS = 300
    down = ResilientRedisCache(nobody_listens(), {"OPTIONS": {"socket_connect_timeout": 1}})
    monkeypatch.setattr(api_tokens, "cache", down)
    token, raw = ApiToken.issue(alice)
    assert api_tokens.user_for(raw).pk == alice.pk
    ApiToken.objects.filter(pk=token.pk).delete()  # (a bulk delete: no signal, as if on another process)
    assert api_tokens.user_for(raw) is None  # read from the database, not from what the process kept


@pytest.mark.asyncio
async def test_the_channel_layer_drops_frames_and_tells_waiting_sockets_while_redis_is_down(caplog):
    layer = ResilientRedisChannelLayer(hosts=[{"address": nobody_listens(), "socket_connect_timeout": 1}])
    try:
        await layer.group_send(
            "table-1-watch-en", {"type": "table.frame", "html": "x"}
        )  # dropped, not raised
        await layer.send("somewhere", {"type": "x"})
        assert layer.outage
        first, second = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(second))
        await asyncio.sleep(0.1)
        assert await asyncio.wait_for(layer.receive(first), 10) == LAYER_LOST
        assert await asyncio.wait_for(waiting, 10) == LAYER_LOST
        with pytest.raises(RedisError):  # joining a group still fails: a socket that cannot join is refused
            await layer.group_add("table-1-watch-en", first)
    finally:
        await layer.close_pools()
