"""The club across two server processes on PostgreSQL + Redis: presence and spectators kept in Redis are seen
by the other process, and a challenge made on one reaches the challenged person's badge on the other."""

from __future__ import annotations

import time

import pytest

from tests.services.test_scale_out import REDIS, _cluster, api, fresh_site, new_game, session_cookie

pytestmark = [pytest.mark.services, pytest.mark.slow]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with fresh_site(tmp_path_factory, "club", PRESENCE_GRACE="1") as (env, _, tmp):
        forget_presence()  # (a fresh database numbers its people from 1 again: no count of an earlier run)
        yield from _cluster(env, tmp)


def forget_presence() -> None:
    import redis

    client = redis.Redis.from_url(REDIS)
    keys = list(client.scan_iter("*presence:*"))
    if keys:
        client.delete(*keys)


def eventually(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


def test_presence_and_spectators_on_one_process_are_seen_on_the_other(cluster):
    from websockets.sync.client import connect

    p1, p2 = cluster["ports"]
    alice = cluster["tokens"]["alice"]
    assert api(p1, "GET", "/api/players/bob", alice)[1]["online"] is False
    cookie = session_cookie(p2, "bob", "scale-out-pass-1")
    tid = new_game(cluster)
    with connect(
        f"ws://127.0.0.1:{p2}/ws/notifications/",
        additional_headers={"Origin": f"http://127.0.0.1:{p2}", "Cookie": cookie},
        open_timeout=10,
    ) as ws:
        ws.recv(timeout=10)
        assert api(p1, "GET", "/api/players/bob", alice)[1]["online"] is True
        with connect(
            f"ws://127.0.0.1:{p2}/ws/tables/{tid}/",
            additional_headers={"Origin": f"http://127.0.0.1:{p2}"},  # a visitor: a spectator
            open_timeout=10,
        ) as watcher:
            watcher.recv(timeout=10)
            _, rows = api(p1, "GET", "/api/live", alice)
            assert [r["spectators"] for r in rows if r["id"] == tid] == [1]
        # A challenge made on the first process reaches his badge on the second.
        status, made = api(p1, "POST", "/api/challenges", alice, {"username": "bob", "game": "five_crowns"})
        assert status == 201
        assert 'data-challenges="1"' in ws.recv(timeout=10)
    assert eventually(lambda: not api(p1, "GET", "/api/players/bob", alice)[1]["online"], timeout=10)
    assert eventually(
        lambda: [r["spectators"] for r in api(p1, "GET", "/api/live", alice)[1] if r["id"] == tid] == [0]
    )
