"""The stream counts of tables.stream_presence on the real Redis cache: atomic counts that go back to none,
and a count nobody refreshes stops counting (the process holding it died)."""

from __future__ import annotations

import uuid

import pytest

from tables import stream_presence
from tests.services.test_scale_out import REDIS, services_up

pytestmark = pytest.mark.services


@pytest.fixture
def redis_cache(monkeypatch):
    if not services_up():
        from tests.conftest import require_or_skip

        require_or_skip("REQUIRE_SERVICES", "PostgreSQL and Redis are not running")
    from config.cache import ResilientRedisCache

    cache = ResilientRedisCache(REDIS, {"OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}})
    monkeypatch.setattr(stream_presence, "cache", cache)
    return cache


def test_streams_count_on_redis_until_the_last_ends(redis_cache):
    scope = f"table-test-{uuid.uuid4().hex}"
    assert stream_presence.open_scopes([scope]) == set()
    stream_presence.opened(scope)
    stream_presence.opened(scope)
    assert redis_cache.get(stream_presence.count_key(scope)) == 2
    stream_presence.closed(scope)
    assert stream_presence.open_scopes([scope]) == {scope}
    stream_presence.closed(scope)
    assert stream_presence.open_scopes([scope]) == set()
    assert redis_cache.get(stream_presence.count_key(scope)) is None


def test_a_count_lives_only_while_its_process_refreshes_it(redis_cache):
    scope = f"user-test-{uuid.uuid4().hex}"
    key = stream_presence.count_key(scope)
    stream_presence.opened(scope)
    try:
        client = redis_cache._cache.get_client(key)
        ttl = client.pttl(redis_cache.make_and_validate_key(key))
        assert 0 < ttl <= stream_presence.COUNT_TTL * 1000  # (unrefreshed, it is gone within COUNT_TTL)
        redis_cache.delete(key)  # (as Redis does once COUNT_TTL passes without a refresh)
        assert stream_presence.open_scopes([scope]) == set()
        stream_presence._refresh_all()  # (this process still holds the stream: its refresh writes it back)
        assert stream_presence.open_scopes([scope]) == {scope}
    finally:
        stream_presence.closed(scope)
    assert stream_presence.open_scopes([scope]) == set()


def test_a_socket_counted_while_redis_was_out_of_reach_counts_there_once_it_is_back(redis_cache):
    """A page that reconnects while the cache answers from memory (config.cache) is counted in Redis as soon
    as the cache finds Redis again: other processes then draw its frames (not only after a heartbeat)."""
    import time

    group = f"table-{uuid.uuid4().int % 10**9}-s0-en"
    key = stream_presence.sockets.key(group)
    outage = redis_cache._outage
    outage.down, outage.until = True, time.monotonic() + 3600  # (as after a failed call)
    try:
        stream_presence.sockets.opened(group)
        assert redis_cache.degraded
    finally:
        outage.until = 0.0  # (the next call tries Redis, finds it, and runs the hooks)
    redis_cache.get("anything")
    assert not redis_cache.degraded
    try:
        assert redis_cache.get(key) == 1
        assert stream_presence.sockets.open_scopes([group]) == {group}
    finally:
        stream_presence.sockets.closed(group)
    assert stream_presence.sockets.open_scopes([group]) == set()
