"""Presence of many people is read from the cache in a constant number of calls, however many of them are
online (each person's sockets in other processes included)."""

import time

import pytest

from accounts import presence, socket_guard


class Counting:
    """The cache, counting the calls made to it."""

    def __init__(self, cache):
        self.cache, self.calls = cache, 0

    def __getattr__(self, name):
        attribute = getattr(self.cache, name)
        if not callable(attribute):
            return attribute

        def counted(*args, **kwargs):
            self.calls += 1
            return attribute(*args, **kwargs)

        return counted


def online_elsewhere(user_id: int) -> None:
    """A person with a socket open in another (living) process."""
    from django.core.cache import cache

    cache.set(f"presence:n:{user_id}", 1)
    cache.set(f"sockets:{user_id}", {"elsewhere": time.time() + 100})
    cache.set(f"sockets:{user_id}:elsewhere", 1)


def calls_for(monkeypatch, ids) -> int:
    from django.core.cache import cache

    counting = Counting(cache)
    monkeypatch.setattr(presence, "cache", counting)
    monkeypatch.setattr(socket_guard, "cache", counting)
    found = presence.of_many(ids)
    assert all(found[i].online for i in ids)
    return counting.calls


@pytest.mark.parametrize("many", [3, 12])
def test_presence_of_many_reads_the_cache_in_as_many_calls_as_of_one(monkeypatch, many):
    ids = list(range(1, many + 1))
    for user_id in ids:
        online_elsewhere(user_id)
    assert calls_for(monkeypatch, ids) == calls_for(monkeypatch, ids[:1])


def test_a_count_left_by_a_dead_process_does_not_keep_anyone_online():
    from django.core.cache import cache

    online_elsewhere(1)
    cache.set("sockets:1", {"elsewhere": time.time() - 1})  # its process stopped refreshing
    cache.set("presence:n:2", 1)  # and nobody holds a socket of person 2
    found = presence.of_many([1, 2])
    assert not found[1].online and not found[2].online
