"""The scale-out configuration for real: PostgreSQL + Redis, two daphne processes behind one address space.

A move posted to one process reaches a browser-like socket (session cookie, Origin header)
connected to the other. Two racing moves on the two processes: one lands, one gets 409.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from tests.conftest import require_or_skip
from tests.processes import PG, ROOT, daphnes, fresh_database, migrate, shell, stop

pytestmark = pytest.mark.services

REDIS = "redis://127.0.0.1:6379/3"


def services_up() -> bool:
    try:
        import psycopg
        import redis  # channels_redis depends on it

        psycopg.connect(PG.format("test"), connect_timeout=3).close()
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
        return True
    except Exception:
        return False


@contextmanager
def fresh_site(tmp_path_factory, label: str, **settings: str):
    """A fresh, migrated PostgreSQL database (dropped afterwards) and the environment of a site on it and
    on Redis: (env, database name, a temporary folder for logs). Skips, or fails under REQUIRE_SERVICES,
    when the services are not running."""
    if not services_up():
        require_or_skip(
            "REQUIRE_SERVICES", "PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 are needed"
        )
    with fresh_database(label) as name:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": PG.format(name),
            "REDIS_URL": REDIS,
            "DJANGO_DEBUG": "true",
            "BOT_DELAY": "0",
            **settings,
        }
        migrate(env)
        yield env, name, tmp_path_factory.mktemp(label)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with fresh_site(tmp_path_factory, "scaleout") as (env, _, tmp):
        yield from _cluster(env, tmp)


def signed_up_with_tokens(env, password: str) -> dict:
    """alice and bob, with that password: {username: API token}."""
    script = (
        "from django.contrib.auth.models import User\n"
        "from accounts.models import ApiToken\n"
        "for n in ('alice', 'bob'):\n"
        f"    u = User.objects.create_user(n, password={password!r})\n"
        "    print(n, ApiToken.issue(u)[1])\n"
    )
    out = shell(env, script)
    return dict(line.split() for line in out.splitlines() if line.split()[:1] in (["alice"], ["bob"]))


def _cluster(env, tmp):
    tokens = signed_up_with_tokens(env, "scale-out-pass-1")
    with daphnes(env, tmp, count=2) as ports:
        # Two workers, racing each other for every bot move and every timeout.
        workers = [
            subprocess.Popen(
                [sys.executable, "manage.py", "run_worker", "--interval", "0.2"],
                cwd=ROOT,
                env=env,
                stdout=open(tmp / f"worker-{n}.log", "w"),
                stderr=subprocess.STDOUT,
            )
            for n in range(2)
        ]
        try:
            yield {"ports": ports, "tokens": tokens, "env": env}
        finally:
            for worker in workers:
                stop(worker)


def api(port, method, path, token, body=None):
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def session_cookie(port, username, password) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"http://127.0.0.1:{port}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    opener.open(
        urllib.request.Request(
            f"http://127.0.0.1:{port}/accounts/login/",
            data=data,
            headers={"Referer": f"http://127.0.0.1:{port}/"},
        )
    )
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def new_game(cluster):
    p1, _ = cluster["ports"]
    a, b = cluster["tokens"]["alice"], cluster["tokens"]["bob"]
    status, table = api(p1, "POST", "/api/tables", a, {"game": "cosmic_crowns", "players": 2})
    assert status == 201
    tid = table["id"]
    assert api(p1, "POST", f"/api/tables/{tid}/join", b, {})[0] == 200
    assert api(p1, "POST", f"/api/tables/{tid}/start", a)[0] == 200
    return tid


@pytest.mark.slow
def test_a_move_on_one_process_reaches_a_socket_on_the_other(cluster):
    from websockets.sync.client import connect

    p1, p2 = cluster["ports"]
    tokens = cluster["tokens"]
    tid = new_game(cluster)
    cookie = session_cookie(p2, "bob", "scale-out-pass-1")
    with connect(
        f"ws://127.0.0.1:{p2}/ws/tables/{tid}/",
        additional_headers={"Origin": f"http://127.0.0.1:{p2}", "Cookie": cookie},
        open_timeout=10,
    ) as ws:
        first = ws.recv(timeout=10)
        assert f'id="table-{tid}-board"' in first and "(you)" in first
        _, table = api(p1, "GET", f"/api/tables/{tid}", tokens["alice"])
        mover = table["to_act"][0]
        token = tokens["alice" if mover == 0 else "bob"]
        _, mine = api(p1, "GET", f"/api/tables/{tid}", token)
        mover_hand = set(mine["view"]["hand"])
        move = mine["legal_moves"][0]
        assert api(p1, "POST", f"/api/tables/{tid}/moves", token, {"move": move, "seq": 0}) == (
            200,
            {"seq": 1},
        )
        frame = ws.recv(timeout=10)
        # What changed since the socket's first frame, though process 1 drew the frames with none before:
        # process 2 made it partial from the frame its room kept (tables.rooms.partial_heard).
        assert 'data-seq="1"' in frame and "data-kept" in frame and 'hx-swap-oob="true"' not in frame
        if mover == 0:  # bob's socket must not show alice's hand (only the card she played is public)
            shown = set(re.findall(r'data-card="([^"]+)"', frame)) & mover_hand
            assert len(shown) <= 1


def test_a_socket_from_another_origin_is_refused(cluster):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    _, p2 = cluster["ports"]
    tid = new_game(cluster)
    with pytest.raises(InvalidStatus):
        connect(f"ws://127.0.0.1:{p2}/ws/tables/{tid}/", additional_headers={"Origin": "http://evil.example"})


def test_racing_moves_on_two_processes_land_once(cluster):
    p1, p2 = cluster["ports"]
    tokens = cluster["tokens"]
    tid = new_game(cluster)
    _, table = api(p1, "GET", f"/api/tables/{tid}", tokens["alice"])
    token = tokens["alice" if table["to_act"][0] == 0 else "bob"]
    _, mine = api(p1, "GET", f"/api/tables/{tid}", token)
    move = mine["legal_moves"][0]
    results = []
    barrier = threading.Barrier(4)

    def post(port):
        barrier.wait()
        results.append(api(port, "POST", f"/api/tables/{tid}/moves", token, {"move": move, "seq": 0})[0])

    threads = [threading.Thread(target=post, args=(port,)) for port in (p1, p2, p1, p2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409, 409, 409]
    _, moves = api(p1, "GET", f"/api/tables/{tid}/moves", token)
    assert len(moves) == 1


@pytest.mark.slow
def test_a_bots_only_table_plays_to_the_end_with_two_workers(cluster):
    import time

    p1, p2 = cluster["ports"]
    a = cluster["tokens"]["alice"]
    status, table = api(
        p1, "POST", "/api/tables", a, {"game": "cosmic_crowns", "players": 2, "bots": [{"level": "casual"}]}
    )
    # Bots fill every other seat: the table starts at once (CONTRACTS §2), as on the web.
    assert status == 201 and table["seats"][1]["bot"] == "casual" and table["status"] == "playing"
    tid = table["id"]
    assert api(p2, "POST", f"/api/tables/{tid}/concede", a)[0] == 200  # now only bots play
    deadline = time.time() + 240
    while time.time() < deadline:
        _, t = api(p1, "GET", f"/api/tables/{tid}", a)
        if t["status"] == "finished":
            break
        time.sleep(0.5)
    assert t["status"] == "finished", t["seq"]
    assert t["result"]["replaced"] == [0]
    _, moves = api(p1, "GET", f"/api/tables/{tid}/moves", a)
    assert [m["seq"] for m in moves] == list(range(len(moves)))  # no move lost or applied twice


RACE = """
import threading
from datetime import timedelta
from django.contrib.auth.models import User
from tables import services
from tables.models import Seat
alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
table = services.create_table(alice, "cosmic_crowns", 2, move_time=600)
services.join_table(table.pk, bob)
table = services.start_table(table.pk, alice)
# Just past the deadline: once the first timeout commits, the cluster's worker may play the bot's move at once,
# and the next seat's deadline (that move's time + move_time) must then still lie ahead of this clock.
late = table.deadline + timedelta(milliseconds=1)
barrier = threading.Barrier(4)
results = []
def race():
    barrier.wait()
    results.append(services.time_out(table.pk, now=late))
threads = [threading.Thread(target=race) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
print("RESULTS", sorted(map(len, results)), Seat.objects.filter(table=table, replaced=True).count())
"""


@pytest.mark.slow
def test_a_timeout_replaces_a_seat_exactly_once_when_workers_race(cluster):
    out = shell({**cluster["env"], "WORKER_IN_PROCESS": "false"}, RACE)
    line = next(x for x in out.splitlines() if x.startswith("RESULTS"))
    assert line == "RESULTS [0, 0, 0, 1] 1"


def test_two_processes_moving_in_turn_answer_alike_and_drop_a_revoked_token_at_once(cluster):
    """Each process keeps a room per table (tables.rooms); a move made on the other process bumps the
    table's revision in the database, so the room finds itself behind and reloads: both answer every seat
    alike after every move. A token revoked by a third process is refused by both at once."""
    p1, p2 = cluster["ports"]
    tokens = cluster["tokens"]
    tid = new_game(cluster)
    for n in range(16):
        answers = {}
        for name, token in tokens.items():
            first, second = (
                api(p1, "GET", f"/api/tables/{tid}", token),
                api(p2, "GET", f"/api/tables/{tid}", token),
            )
            assert first == second and first[0] == 200, (n, name)
            answers[name] = first[1]
        table = answers["alice"]
        assert table["seq"] == n
        mover = table["seats"][table["to_act"][0]]["user"]
        move = answers[mover]["legal_moves"][0]
        port = (p1, p2)[n % 2]
        assert api(port, "POST", f"/api/tables/{tid}/moves", tokens[mover], {"move": move, "seq": n}) == (
            200,
            {"seq": n + 1},
        )
    issued = shell(
        cluster["env"],
        "from django.contrib.auth.models import User\nfrom accounts.models import ApiToken\n"
        "print('TOKEN', ApiToken.issue(User.objects.get(username='bob'), name='spare')[1])\n",
    )
    spare = next(line.split()[1] for line in issued.splitlines() if line.startswith("TOKEN"))
    for port in (p1, p2, p1, p2, p1, p2):  # (known to both processes, and kept)
        assert api(port, "GET", f"/api/tables/{tid}", spare)[0] == 200
    shell(
        cluster["env"],
        "from accounts.models import ApiToken\nApiToken.objects.filter(name='spare').delete()\n",
    )
    for port in (p1, p2):
        assert api(port, "GET", f"/api/tables/{tid}", spare)[0] == 401
    assert api(p1, "GET", f"/api/tables/{tid}", tokens["bob"])[0] == 200  # (bob's other token still works)


@pytest.mark.slow
def test_a_tables_socket_moves_are_played_by_its_home_and_outlive_it(cluster, tmp_path):
    """Two more daphnes, alice's socket on one, bob's on the other (tables.homes): the first socket to send
    a move claims the table; a move sent over the other process's socket waits while the home's process is
    paused (it was handed there), lands once it runs again, and, the home's process killed, is played where
    it was sent after WAIT_FOR_HOME seconds."""
    from contextlib import ExitStack

    from websockets.sync.client import connect

    from tests.processes import free_port, start_daphne

    p1, _ = cluster["ports"]
    tokens = cluster["tokens"]
    tid = new_game(cluster)
    ports = [free_port(), free_port()]
    procs = [start_daphne(cluster["env"], port, tmp_path / f"home-{port}.log") for port in ports]
    sockets = []
    try:
        with ExitStack() as opened:
            for name, port in zip(("alice", "bob"), ports, strict=True):
                ws = opened.enter_context(
                    connect(
                        f"ws://127.0.0.1:{port}/ws/tables/{tid}/",
                        additional_headers={
                            "Origin": f"http://127.0.0.1:{port}",
                            "Cookie": session_cookie(port, name, "scale-out-pass-1"),
                        },
                        open_timeout=10,
                    )
                )
                ws.recv(timeout=10)  # (the table as it is)
                sockets.append(ws)
            played_by_the_home_then_without_it(p1, tokens, tid, sockets, procs)
    finally:
        for proc in procs:
            if proc.poll() is None:
                stop(proc)


def played_by_the_home_then_without_it(p1, tokens, tid, sockets, procs) -> None:
    import signal
    import time

    from tables.homes import WAIT_FOR_HOME

    def table():
        return api(p1, "GET", f"/api/tables/{tid}", tokens["alice"])[1]

    def send_move(seat: int) -> int:
        _, mine = api(p1, "GET", f"/api/tables/{tid}", tokens[("alice", "bob")[seat]])
        sockets[seat].send(json.dumps({"move": mine["legal_moves"][0], "seq": mine["seq"]}))
        return mine["seq"] + 1

    def frames(seq: int, seats=(0, 1), timeout: float = 10) -> None:
        for seat in seats:
            while True:
                frame = sockets[seat].recv(timeout=timeout)
                assert "data-refused" not in frame, frame
                if f'data-seq="{seq}"' in frame:
                    break

    home = table()["to_act"][0]  # (its socket sends the table's first move: the table's home)
    other = 1 - home
    while table()["to_act"][0] != other:
        frames(send_move(home))
    # The home's process paused: a move sent over the other process's socket waits for it.
    procs[home].send_signal(signal.SIGSTOP)
    try:
        seq = send_move(other)
        time.sleep(min(2.0, WAIT_FOR_HOME / 2))
        assert table()["seq"] == seq - 1  # handed to the home, not played where it was sent
    finally:
        procs[home].send_signal(signal.SIGCONT)
    frames(seq)
    while table()["to_act"][0] != other:
        frames(send_move(table()["to_act"][0]))
    # The home's process killed: the move is played where it was sent, once the home failed to answer.
    procs[home].kill()
    procs[home].wait(timeout=10)
    started = time.monotonic()
    seq = send_move(other)
    frames(seq, seats=(other,), timeout=WAIT_FOR_HOME + 10)
    assert WAIT_FOR_HOME - 0.5 <= time.monotonic() - started
    assert table()["seq"] == seq
    # It took the table over: its next move is played at once (the dead process's player posts theirs).
    while (now := table())["to_act"][0] != other:
        _, mine = api(p1, "GET", f"/api/tables/{tid}", tokens[("alice", "bob")[home]])
        body = {"move": mine["legal_moves"][0], "seq": mine["seq"]}
        assert api(p1, "POST", f"/api/tables/{tid}/moves", tokens[("alice", "bob")[home]], body)[0] == 200
        frames(now["seq"] + 1, seats=(other,))
    started = time.monotonic()
    frames(send_move(other), seats=(other,))
    assert time.monotonic() - started < WAIT_FOR_HOME - 1
