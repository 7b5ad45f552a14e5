"""Redis stopped and started again under load (issue #29, finding 2), on a Redis of the test's own: two
daphne processes on PostgreSQL keep answering pages, the API and moves (no 5xx), every acknowledged move
is in the log and no move in the log was answered as failed, and a socket that lost Redis is told so
(1012), reconnects, and reads the frames of the moves made after Redis is back."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from tests.processes import daphnes, free_port, stop
from tests.services.test_scale_out import fresh_site, session_cookie, signed_up_with_tokens

pytestmark = [pytest.mark.services, pytest.mark.slow]

STATUS_SEQ = re.compile(r'id="table-\d+-status"[^>]*?\sdata-seq="(\d+)"')


class OwnRedis:
    """A redis-server of this test's own, without persistence: restarted, it has forgotten everything."""

    def __init__(self, tmp):
        self.port, self.tmp, self.proc = free_port(), tmp, None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
            ],
            stdout=open(self.tmp / "redis.log", "a"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        stop(self.proc)


def call(port, method, path, token=None, body=None):
    """(status, JSON answer); status "no answer" when the connection failed or timed out."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw[:1] in (b"{", b"[") else None
    except urllib.error.HTTPError as e:
        return e.code, None
    except OSError:
        return "no answer", None


class Socket(threading.Thread):
    """bob's socket at the table, reconnecting as the page does (on 1011-1013 and dropped connections),
    noting the close codes it got and the highest seq its frames showed."""

    def __init__(self, port, table, cookie):
        super().__init__(daemon=True)
        self.url, self.origin, self.cookie = (
            f"ws://127.0.0.1:{port}/ws/tables/{table}/",
            f"http://127.0.0.1:{port}",
            cookie,
        )
        self.codes, self.seq, self.opened, self.stop = [], -1, 0, threading.Event()

    def run(self):
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        while not self.stop.is_set():
            try:
                with connect(
                    self.url,
                    additional_headers={"Origin": self.origin, "Cookie": self.cookie},
                    open_timeout=10,
                ) as ws:
                    self.opened += 1
                    while not self.stop.is_set():
                        try:
                            frame = ws.recv(timeout=0.5)
                        except TimeoutError:
                            continue
                        found = STATUS_SEQ.search(frame)
                        if found:
                            self.seq = max(self.seq, int(found.group(1)))
            except ConnectionClosed as closed:
                self.codes.append(closed.rcvd.code if closed.rcvd else None)
            except OSError:
                self.codes.append("refused")
            self.stop.wait(0.3)


def test_redis_stopped_and_restarted_under_load(tmp_path_factory):
    redis_tmp = tmp_path_factory.mktemp("own-redis")
    redis = OwnRedis(redis_tmp)
    redis.start()
    try:
        with fresh_site(tmp_path_factory, "redisoutage", REDIS_URL=redis.url, WORKER_IN_PROCESS="false") as (
            env,
            _,
            tmp,
        ):
            tokens = signed_up_with_tokens(env, "outage-pass-1")
            with daphnes(env, tmp, count=2) as ports:
                run_under_outage(redis, ports, tokens)
    finally:
        if redis.proc.poll() is None:
            redis.stop()


def run_under_outage(redis, ports, tokens):
    a, b = tokens["alice"], tokens["bob"]
    status, table = call(ports[0], "POST", "/api/tables", a, {"game": "cosmic_crowns", "players": 2})
    assert status == 201
    tid = table["id"]
    assert call(ports[0], "POST", f"/api/tables/{tid}/join", b, {})[0] == 200
    assert call(ports[0], "POST", f"/api/tables/{tid}/start", a)[0] == 200
    sock = Socket(ports[1], tid, session_cookie(ports[1], "bob", "outage-pass-1"))
    sock.start()

    statuses: list = []  # every answer of every call
    posts: list[tuple[int, object, str]] = []  # (seq posted, status, phase)
    phase = ["before"]
    stop = threading.Event()

    def load():
        n = 0
        while not stop.is_set():
            port, other = ports[n % 2], ports[(n + 1) % 2]
            n += 1
            status, seen = call(port, "GET", f"/api/tables/{tid}", a)
            statuses.append(status)
            if status != 200:
                continue
            if seen["status"] != "playing":
                return
            token = a if seen["to_act"][0] == 0 else b
            status, mine = call(port, "GET", f"/api/tables/{tid}", token)
            statuses.append(status)
            if status != 200:
                continue
            status, _ = call(
                other,
                "POST",
                f"/api/tables/{tid}/moves",
                token,
                {"move": mine["legal_moves"][0], "seq": mine["seq"]},
            )
            statuses.append(status)
            posts.append((mine["seq"], status, phase[0]))
            for path in ("/api/games", f"/api/tables/{tid}/moves"):
                statuses.append(call(port, "GET", path, a)[0])
            statuses.append(call(port, "GET", "/")[0])
            time.sleep(0.05)

    def acknowledged(in_phase) -> int:
        return sum(1 for _, status, p in posts if status == 200 and p == in_phase)

    def wait_for(condition, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.1)
        return False

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    try:
        assert wait_for(lambda: acknowledged("before") >= 5 and sock.seq >= 3), (posts, sock.seq)
        phase[0] = "down"
        redis.stop()
        assert wait_for(lambda: acknowledged("down") >= 8), posts  # moves go on while Redis is down
        assert wait_for(lambda: 1012 in sock.codes, timeout=30), sock.codes  # told Redis was lost
        redis.start()
        phase[0] = "after"
        assert wait_for(lambda: acknowledged("after") >= 5), posts
    finally:
        stop.set()
        worker.join(timeout=60)
    final = call(ports[0], "GET", f"/api/tables/{tid}", a)[1]["seq"]
    # Frames resume without a restart: the socket, reconnected, shows the table's last move.
    assert wait_for(lambda: sock.seq == final, timeout=30), (sock.seq, final, sock.codes)
    sock.stop.set()
    sock.join(timeout=10)

    assert not [s for s in statuses if s == "no answer" or s >= 500], statuses
    assert all(status in (200, 409) for _, status, _ in posts), posts
    status, log = call(ports[0], "GET", f"/api/tables/{tid}/moves", a)
    assert status == 200
    acked = sorted(seq for seq, status, _ in posts if status == 200)
    # Every acknowledged move is in the log, and the log holds no move that was answered otherwise.
    assert [m["seq"] for m in log] == acked == list(range(final))
    assert sock.opened >= 2 and set(sock.codes) <= {1012, 1013, "refused", None}
