"""Live benchmark: moves sent over the table sockets (or posted), frames pushed back, under a steady load,
beside the echo app, the floor and a real game server (boardgame.io).

Run:  .venv/bin/python bench/live.py            (what `make bench` runs; about 4 minutes on 2 cores)
      .venv/bin/python bench/live.py --quick    (a smoke run of a few seconds per part)
Flags: --tables N (25) --rates 5,25,50 --duration SECONDS (10) --skip-saturation --skip-idle
       --no-services --no-peer --moves socket|http --quick; see --help for the rest (saturation ladder,
       idle socket count).

Everything runs on this machine over 127.0.0.1; every server it starts it stops at the end.

What it does, in order:
  setup  The site under daphne as `make run` serves it (SQLite, in-memory channel layer) but on a fresh
         temporary SQLite file, migrated; 4 players with API tokens and signed-in sessions
         (bench/_live_setup.py). The echo app (bench/echo_app.py: daphne + Channels, no database, no
         game, a fixed ~6 KB frame) beside it, and the floor (bench/floor_app.py: the echo app's answers
         made by Django through the site's own handler, settings and middleware: what Django's request
         path costs before the site does any work of its own). For each app, --tables tables of Cosmic Crowns with 4
         seated players (POST /api/tables, /join, /start), and every seat's socket
         ws://127.0.0.1:PORT/ws/tables/<id>/ open with that player's session cookie and an Origin header.
  D idle 1,000 idle table sockets (half signed in, half spectators, over a few tables) on the site's
         daphne: its RSS before and after (KiB per socket) and its CPU over 10 idle seconds.
  A/B/C  For each rate R: R moves/s offered, open loop, for --duration seconds, to the site, then the
         floor, then the echo app, with the same client code. A move goes to the next table that is ready (no
         move in flight); when none is, the slot is lost and counted ("no-ready"). The site's moves
         (--moves socket, the default) go as a browser sends them: the seat whose latest frame offers
         moves (its buttons' data-move) sends one of them, {"move", "seq"}, over its own socket, with no
         other request. Otherwise (--moves http, and the echo app and the floor) the client GETs
         /api/tables/<id> as the seat to act for its legal_moves and seq before each move, outside the
         measurement, and POSTs /api/tables/<id>/moves. A move's latency runs from sending it to the
         moment the frame carrying the new seq (data-seq="N" in its status section) has arrived at all
         4 seats' sockets. Then a saturation search per app: the offered rate doubles (--sat-start up
         to --sat-max; --sat-factor for finer steps) until the achieved rate falls under 90% of it or p99 passes 1 s; the saturation
         rate is the highest rate sustained. Rates the load phases already ran count as steps: the
         ladder starts past the highest one sustained and stops short of the lowest one that was not.
  F      The boardgame.io peer (../shared/peers/bgio, copied with its node_modules into var/peer-bgio
         on first use: node and npm needed, else skipped with a note) at each rate of A/B/C, right after
         the site, with its own load client (its run.sh): the same tables, seats and latency rule, and
         its server's CPU from /proc. Printed side by side with the site: moves/s, server CPU per move
         (ms, utime + stime over the window / moves), p50/p95/p99, errors, median bytes per seat per move,
         and site/peer ratios; with the saturation search, the peer's own ladder (25, 50, 100, ...) too.
         With the site's moves over the socket, the echo app's too ("echo ws", on a daphne of its own, run
         right after the site: each move sent over the mover's socket, the seq bumped and each seat sent its
         own ~6 KB frame, the sockets served as the site's are, its channel layer and its dispatch, and no
         other work), with its ratios to the peer: what daphne + Channels spend on a move as the site uses them.
  E      PostgreSQL + Redis (a fresh database, created and dropped; Redis db 11, flushed before and
         after; WORKER_IN_PROCESS=false). First, at each of --rates, the same load on a daphne of the
         embedded default (SQLite, in-memory layer: a fresh one beside it) and on a daphne of PostgreSQL +
         Redis, one right after the other: each one's server CPU per move (utime + stime from /proc over
         the window / moves) side by side, with the ratio and issue 31's bound (point 5: <= 1.3x) and the
         load average. Then the saturation search against one daphne, then two with a table's seats'
         sockets spread over both ports (frames cross processes through Redis, a table's moves come
         through either), then two with each table's sockets on its own port (as a proxy routing
         /ws/tables/<id>/ by the id sends them), each with the ratio against point 5's bound (two >=
         1.8x one). On 2 cores a second daphne can only take what the first leaves idle beside the
         client and the services; --daphne-cpu F caps each daphne at F of a core for the searches (a
         cgroup of its own each), so that two stand for two small machines. The moves go as --moves says
         (the socket, by default). Skipped with a note when the services do not answer, or with
         --no-services (--only-services: this part alone).

Reading the output: one row per app and rate. moves/s is the achieved rate: the moves dispatched in
the window whose frames reached all 4 seats by 1 s after it, per second of the window; p50/p95/p99 the
latency in ms; errors are non-200 answers (5xx counted apart too), HTTP failures ("nohttp": no answer
in 10 s), socket drops, and "missing": moves whose frame had not reached every seat after
--frame-timeout seconds; "no-ready" the dispatch slots lost for want of a ready table; frame sizes in
bytes (median, p95); errors met since the previous phase (set-up, settling) count in the next one;
client and server CPU in % of one core over the window. "site/echo" and "floor/echo" rows divide
the site's and the floor's figures by the echo app's: echo -> floor is what Django costs, floor -> site
what the site's own work (database, rules, frames) costs. The machine has 2 cores shared by the client, the servers and
anyone else working on it: the load average is printed at the start and the end, and a client that
falls behind its schedule says so; with a high load the figures say more about the machine than about
the app. The targets are printed beside the figures (PASS/FAIL) and never change the exit code, which
is 0 unless the bench itself broke (a server that does not start, a table that cannot be set up).
When a problem was noted, the servers' logs are kept and their folder printed.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import collections
import json
import os
import pathlib
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import ClassVar

import aiohttp
from _services import (  # bench/_services.py (bench/ is on the path: run as a script)
    fresh_database,
    services_up,
)
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
DAPHNE = pathlib.Path(sys.executable).with_name("daphne")
GAME, SEATS = "cosmic_crowns", 4
REDIS = "redis://127.0.0.1:6379/11"
STATUS_SEQ = re.compile(r'id="table-\d+-status"[^>]*?\sdata-seq="(\d+)"')
ANY_SEQ = re.compile(r'data-seq="(\d+)"')
MOVE_ATTR = re.compile(r'data-move="([^"]*)"')
MY_TURN = re.compile(r'id="table-\d+-status"[^>]*?\sdata-my-turn[\s>]')
REFUSED = re.compile(r'data-refused="(\d+)"')
PEER = ROOT / "var" / "peer-bgio"  # a copy of ../shared/peers/bgio with its node_modules (made on first use)
PEER_SOURCE = ROOT.parent / "shared" / "peers" / "bgio"
CLK_TCK = os.sysconf("SC_CLK_TCK")
HTTP_TIMEOUT = 10.0
OPEN_TIMEOUT = 30.0
GRACE = 1.0  # seconds after its window in which a move's frames still count for the achieved rate
HARD_LIMIT = 20 * 60  # seconds: the whole run is stopped past this, whatever it is doing


class BenchError(Exception):
    """The bench itself broke (a server that does not start, a table that cannot be set up)."""


# ---------------------------------------------------------------------------------------------- servers


def raise_nofile() -> None:
    """As many open files as the hard limit allows: 1,000+ sockets on each side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


class CpuQuota:
    """A control group of its own for one server, capped at a share of one core (cgroup v2's ``cpu.max``, or v1's
    ``cpu.cfs_quota_us``): each daphne of part E's saturation search gets the same small core of its own, so that
    two of them beside the client, PostgreSQL and Redis on a 2-core machine stand for two machines' worth of
    daphnes, not for the second taking what the first left idle. Removed when its server stops."""

    PERIOD_US = 100_000
    ROOTS = (pathlib.Path("/sys/fs/cgroup"), pathlib.Path("/sys/fs/cgroup/cpu"))

    def __init__(self, name: str):
        for root in self.ROOTS:
            v2 = (root / "cgroup.controllers").exists() and "cpu" in (root / "cgroup.controllers").read_text()
            if v2 or (root / "cpu.cfs_quota_us").exists():
                try:
                    self.path = root / f"cardclub-{name}-{os.getpid()}"
                    self.path.mkdir(exist_ok=True)
                except OSError:
                    continue
                self.v2 = v2
                return
        raise BenchError(
            "--daphne-cpu: no cgroup CPU controller this user may write (cpu.max or cpu.cfs_quota_us)"
        )

    def join(self) -> None:
        """Put the calling process in the group (a server's, between fork and exec: its threads follow)."""
        (self.path / "cgroup.procs").write_text("0")

    def cap(self, share: float | None) -> None:
        """At most ``share`` of one core from now on (None: no cap)."""
        quota = "max" if share is None else str(max(1000, int(share * self.PERIOD_US)))
        if self.v2:
            (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        else:
            (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text("-1" if share is None else quota)

    def throttled_seconds(self) -> float:
        """How long the group has been held back by its cap, in all."""
        for line in (self.path / "cpu.stat").read_text().splitlines():
            name, value = line.split()
            if name == "throttled_usec":
                return int(value) / 1e6
            if name == "throttled_time":  # (v1: nanoseconds)
                return int(value) / 1e9
        return 0.0

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One daphne process we started; stopped by its own pid at the end."""

    running: list[Server] = []

    def __init__(
        self,
        name: str,
        app: str,
        cwd: pathlib.Path,
        env: dict,
        log: pathlib.Path,
        quota: CpuQuota | None = None,
    ):
        self.name, self.port, self.log, self.quota = name, free_port(), log, quota

        def prepare() -> None:
            raise_nofile()
            if quota is not None:
                quota.join()

        self.proc = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), app],
            cwd=cwd,
            env=env,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
            preexec_fn=prepare,
        )
        Server.running.append(self)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BenchError(f"{name} exited at start:\n{self.tail()}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2).close()
                return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                time.sleep(0.2)
        raise BenchError(f"{name} did not answer within 60 s:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def rss_kib(self) -> int:
        for line in pathlib.Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        fields = pathlib.Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime (fields 14 and 15)

    def stop(self) -> None:
        if self in Server.running:
            Server.running.remove(self)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.quota is not None:
            self.quota.remove()


def manage(env: dict, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if out.returncode:
        raise BenchError(f"{' '.join(args)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return out.stdout


SECRET_KEY = secrets.token_urlsafe(50)  # the site's key for this run (`make run` keeps one in var/secret_key)
STATIC_ROOT = tempfile.mkdtemp(prefix="bench-static-")  # (collected once, outside the checkout)
atexit.register(shutil.rmtree, STATIC_ROOT, True)
_static_collected: list[bool] = []


def site_env(**extra: str) -> dict:
    """The environment of the site as `make run` serves it (the Makefile's SERVE_ENV): DEBUG off, cookies and
    no redirect for plain http, e-mail to the console; the static files collected once, as `make static` does
    (the site refuses to start without their manifest), here into a folder of this run's."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SSL_REDIRECT="false",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_STATIC_ROOT=STATIC_ROOT,
        DJANGO_EMAIL_BACKEND=os.environ.get(
            "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
        ),
        PYTHONUNBUFFERED="1",
        **extra,
    )
    env.setdefault("TABLE_CREATE_LIMIT", "100000")  # a load generator opens tables faster than a person
    env.setdefault("MAX_UNFINISHED_TABLES", "100000")  # (and its players sit at every table of every phase)
    if not _static_collected:
        manage(env, "manage.py", "collectstatic", "--noinput", "-v0")
        _static_collected.append(True)
    return env


def prepare_site(env: dict) -> dict:
    """Migrate the database the environment names and create the players: {"cookie", "users"}."""
    manage(env, "manage.py", "migrate", "--noinput", "-v0")
    out = manage(env, str(BENCH / "_live_setup.py"), str(SEATS))
    return json.loads(out.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------------- figures


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


@dataclass
class Stats:
    app: str
    rate: float
    duration: float
    end: float = 0.0
    offered: int = 0
    no_ready: int = 0
    completed: int = 0
    latencies: list[float] = field(default_factory=list)
    non200: int = 0
    e5xx: int = 0
    http_failures: int = 0
    drops: int = 0
    missing: int = 0
    replaced: int = 0
    frame_sizes: list[int] = field(default_factory=list)
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    server_cpu_seconds: float = 0.0
    server_split: list[float] = field(default_factory=list)  # each daphne's share of a core, % (several)
    lag: float = 0.0
    problems: list[str] = field(default_factory=list)
    noted: ClassVar[bool] = False  # any problem in the run: the server logs are kept

    @property
    def achieved(self) -> float:
        return self.completed / self.duration

    @property
    def cpu_ms_per_move(self) -> float | None:
        """The servers' CPU (utime + stime from /proc) over the window, per move completed in it."""
        return 1000 * self.server_cpu_seconds / self.completed if self.completed else None

    @property
    def errors(self) -> int:
        return self.non200 + self.http_failures + self.drops + self.missing

    def ms(self, p: float) -> float | None:
        value = percentile(self.latencies, p)
        return None if value is None else value * 1000

    def sustained(self) -> bool:
        p99 = self.ms(99)
        return self.achieved >= 0.9 * self.rate and p99 is not None and p99 <= 1000

    def carry(self, before: Stats) -> None:
        """Errors met since the last phase (set-up, settling, fresh tables) count in this one."""
        for name in ("non200", "e5xx", "http_failures", "drops", "missing", "replaced"):
            setattr(self, name, getattr(before, name))
        self.problems = [f"before the window: {p}" for p in before.problems]

    def refused(self, status: int, problem: str) -> None:
        self.non200 += 1
        self.e5xx += status >= 500
        self.note(problem)

    def note(self, problem: str) -> None:
        Stats.noted = True
        if len(self.problems) < 5:
            self.problems.append(problem)


def frame_seq(text: str) -> int | None:
    """The table's seq a frame reflects: its status section's data-seq (else the highest data-seq)."""
    found = STATUS_SEQ.search(text)
    if found:
        return int(found.group(1))
    seqs = ANY_SEQ.findall(text)
    return max(map(int, seqs)) if seqs else None


def offered_now(text: str, before: list[dict]) -> list[dict]:
    """The moves a seat's page offers once ``text`` (a frame, whole or partial) is in: none unless its status
    says it is the seat's turn (``data-my-turn``, in the status section's start tag, which every frame sends);
    else those the frame's buttons carry, or, when it carries none, those the page had (a partial frame
    leaves the parts that did not change, their buttons with them, as the page shows them:
    tables.frame_diff)."""
    if MY_TURN.search(text) is None:
        return []
    return offered_moves(text) or before


def offered_moves(text: str) -> list[dict]:
    """The moves a frame offers its seat (the board's buttons carry them, as the browser sends them)."""
    import html

    moves = []
    for raw in MOVE_ATTR.findall(text):
        try:
            move = json.loads(html.unescape(raw))
        except ValueError:
            continue  # (the Undo button's data-move="take_back")
        if isinstance(move, dict):
            moves.append(move)
    return moves


# ---------------------------------------------------------------------------------------------- client


@dataclass
class Player:
    name: str
    token: str
    session: str


class App:
    """The client's side of one server set-up: its ports, its players, its tables and their sockets."""

    def __init__(self, name: str, servers: list[Server], players: list[Player], cookie: str):
        self.name, self.servers, self.players, self.cookie = name, servers, players, cookie
        self.ports = [s.port for s in servers]
        self.tables: list[LiveTable] = []
        self.ready: collections.deque[LiveTable] = collections.deque()
        self.stats = Stats(name, 0, 1)  # between phases: set-up and settling
        self.socket_moves = False  # moves sent over the mover's socket, read from its frames (the site)
        self.by_table = False  # every socket of a table on its table's port (a proxy routing by table id)
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=256, limit_per_host=0),
            timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT),
        )

    async def call(self, port: int, method: str, path: str, token: str, body=None):
        async with self.http.request(
            method, f"http://127.0.0.1:{port}{path}", json=body, headers={"Authorization": f"Bearer {token}"}
        ) as response:
            raw = await response.read()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, None

    async def connect(self, port: int, table_id: int, player: Player | None):
        headers = {"Cookie": f"{self.cookie}={player.session}"} if player and player.session else None
        return await ws_connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers=headers,
            compression=None,
            max_size=None,
            open_timeout=OPEN_TIMEOUT,
            ping_interval=None,
            close_timeout=2,
            proxy=None,
        )

    def server_cpu(self) -> list[float]:
        """Each daphne's CPU seconds so far (utime + stime from /proc)."""
        return [s.cpu_seconds() for s in self.servers]

    async def open_tables(self, count: int, seed: int = 1) -> None:
        tables = [LiveTable(self, slot, random.Random(seed * 1000 + slot)) for slot in range(count)]
        limit = asyncio.Semaphore(4)

        async def open_one(table):
            async with limit:
                await table.open()

        await asyncio.gather(*(open_one(t) for t in tables))
        self.tables = tables
        await self.ready_up()
        if len(self.ready) < count:
            raise BenchError(f"{self.name}: only {len(self.ready)} of {count} tables are ready to play")

    async def ready_up(self) -> None:
        """Between phases: every table not in flight gets its next move prepared (or a fresh table)."""
        idle = [t for t in self.tables if not t.busy and t not in self.ready and not t.dead]

        async def fix(table):
            if table.broken:
                await table.reopen(self.stats)
            if table.prepared or await table.prepare(self.stats):
                self.ready.append(table)

        await asyncio.gather(*(fix(t) for t in idle), return_exceptions=True)

    async def settle(self, timeout: float) -> bool:
        """Wait (bounded) until every socket has the frame of every acknowledged move."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if all(min(t.seen) >= t.acked for t in self.tables if not t.broken and not t.dead):
                return True
            await asyncio.sleep(0.1)
        return False

    async def close(self) -> None:
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)
        self.tables, self.ready = [], collections.deque()
        await self.http.close()


class Waiter:
    def __init__(self, target: int):
        self.target, self.end, self.done = target, None, asyncio.Event()
        self.refused: str | None = None  # a socket move's refusal: its status and the frame's end


class LiveTable:
    """One table of 4 seats with a socket per seat; plays one move at a time."""

    def __init__(self, app: App, slot: int, rng: random.Random):
        self.app, self.slot, self.rng = app, slot, rng
        self.port = app.ports[slot % len(app.ports)]
        self.id = None
        self.seats: dict[int, Player] = {}
        self.sockets, self.readers = [], []
        self.seen, self.acked = [0] * SEATS, 0
        self.offered: list[list[dict]] = [[] for _ in range(SEATS)]  # each seat's moves, from its last frame
        self.waiter: Waiter | None = None
        self.prepared = None
        self.guess = 0
        self.busy = self.broken = self.dead = self.closing = False

    async def open(self) -> None:
        """Create, fill and start a table; open every seat's socket and take its first frame."""
        # The table's four players, creator first, taken in turn from the pool (an account may open only
        # so many tables a minute).
        app = self.app
        four = [app.players[(self.slot * SEATS + i) % len(app.players)] for i in range(SEATS)]
        creator = four[0]
        status, table = await app.call(
            self.port, "POST", "/api/tables", creator.token, {"game": GAME, "players": SEATS}
        )
        if status != 201:
            raise BenchError(f"{app.name}: POST /api/tables answered {status} {table}")
        self.id, self.seats = table["id"], {0: creator}
        for player in four[1:]:
            status, joined = await app.call(
                self.port, "POST", f"/api/tables/{self.id}/join", player.token, {}
            )
            if status != 200:
                raise BenchError(f"{app.name}: join answered {status} {joined}")
            self.seats[joined["seat"]] = player
        status, started = await app.call(self.port, "POST", f"/api/tables/{self.id}/start", creator.token)
        if status != 200:
            raise BenchError(f"{app.name}: start answered {status} {started}")
        self.seen, self.acked, self.sockets, self.readers = [0] * SEATS, 0, [], []
        self.offered = [[] for _ in range(SEATS)]
        self.prepared, self.guess, self.waiter = None, 0, None
        self.broken = self.closing = False
        for seat in range(SEATS):
            port = self.port if app.by_table else app.ports[(self.slot + seat) % len(app.ports)]
            ws = await app.connect(port, self.id, self.seats[seat])
            self.sockets.append(ws)
            first = await asyncio.wait_for(ws.recv(), OPEN_TIMEOUT)
            self.seen[seat] = frame_seq(first) or 0
            self.offered[seat] = offered_moves(first) if app.socket_moves else []
            self.readers.append(asyncio.create_task(self.read(seat, ws)))

    async def read(self, seat: int, ws) -> None:
        try:
            async for text in ws:
                self.app.stats.frame_sizes.append(len(text.encode() if isinstance(text, str) else text))
                refused = REFUSED.search(text) if isinstance(text, str) and self.app.socket_moves else None
                if refused is not None and self.waiter is not None:
                    self.waiter.refused = f"{refused.group(1)} {text[-200:]}"
                    self.waiter.done.set()
                    continue
                seq = frame_seq(text) if isinstance(text, str) else None
                if seq is not None and seq > self.seen[seat]:
                    self.seen[seat] = seq
                    if self.app.socket_moves:
                        self.offered[seat] = offered_now(text, self.offered[seat])
                    waiter = self.waiter
                    if waiter is not None and waiter.end is None and min(self.seen) >= waiter.target:
                        waiter.end = time.perf_counter()
                        waiter.done.set()
        except ConnectionClosed:
            pass
        if not self.closing:
            self.broken = True
            self.app.stats.drops += 1
            self.app.stats.note(f"{self.app.name}: table {self.id} seat {seat} socket dropped")

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)

    async def reopen(self, stats: Stats) -> None:
        """A finished game or a dropped socket: a fresh table takes this one's place."""
        await self.close()
        try:
            await self.open()
            stats.replaced += 1
        except (BenchError, OSError, TimeoutError, aiohttp.ClientError, ConnectionClosed) as e:
            self.dead = True
            stats.note(f"{self.app.name}: a table could not be replaced: {e!r}"[:300])

    async def prepare(self, stats: Stats) -> bool:
        """Pick the next move: from the frames (socket moves), else by a GET as the seat expected to act."""
        if self.app.socket_moves:
            return await self.prepare_from_frames(stats)
        return await self.prepare_by_get(stats)

    async def prepare_from_frames(self, stats: Stats) -> bool:
        """As a browser does: the seat whose latest frame offers moves plays one of them, at that frame's seq.
        A table whose frames offer nobody a move is over: a fresh one takes its place."""
        for _ in range(2):
            now = max(self.seen)
            movers = [s for s in range(SEATS) if self.seen[s] == now and self.offered[s]]
            if movers:
                seat = movers[0]
                self.prepared = (seat, self.rng.choice(self.offered[seat]), now)
                return True
            await self.reopen(stats)
            if self.dead:
                return False
        return False

    async def prepare_by_get(self, stats: Stats) -> bool:
        """GET the table as the seat expected to act (outside the measurement) and pick a legal move."""
        for _ in range(SEATS + 2):
            try:
                status, table = await self.app.call(
                    self.port, "GET", f"/api/tables/{self.id}", self.seats[self.guess].token
                )
            except (aiohttp.ClientError, TimeoutError) as e:
                stats.http_failures += 1
                stats.note(f"{self.app.name}: GET failed: {e!r}")
                return False
            if status != 200:
                stats.refused(status, f"{self.app.name}: GET /api/tables/{self.id} answered {status}")
                return False
            if table.get("status") != "playing" or not table.get("to_act"):
                if table.get("status") != "finished":
                    stats.note(
                        f"{self.app.name}: table {self.id} at seq {table.get('seq')} is {table.get('status')} "
                        f"with to_act {table.get('to_act')}: replaced"
                    )
                await self.reopen(stats)  # game over
                if self.dead:
                    return False
                continue
            actor = table["to_act"][0]
            if actor == self.guess and table.get("legal_moves"):
                self.prepared = (actor, self.rng.choice(table["legal_moves"]), table["seq"])
                self.guess = (actor + 1) % SEATS
                return True
            self.guess = actor
        return False

    async def move(self, stats: Stats) -> None:
        seat, move, seq = self.prepared
        self.prepared = None
        waiter = self.waiter = Waiter(seq + 1)
        start = time.perf_counter()
        if self.app.socket_moves:
            await self.move_over_socket(stats, seat, move, seq, waiter, start)
            return
        try:
            status, answer = await self.app.call(
                self.port,
                "POST",
                f"/api/tables/{self.id}/moves",
                self.seats[seat].token,
                {"move": move, "seq": seq},
            )
        except (aiohttp.ClientError, TimeoutError) as e:
            stats.http_failures += 1
            stats.note(f"{self.app.name}: POST failed: {e!r}")
            return
        if status != 200:
            stats.refused(status, f"{self.app.name}: POST move answered {status} {answer}"[:300])
            return
        self.acked = seq + 1
        try:
            await asyncio.wait_for(waiter.done.wait(), self.app.frame_timeout)
        except TimeoutError:
            self.frames_missing(stats, seq)
            return
        finally:
            self.waiter = None
        stats.latencies.append(waiter.end - start)
        stats.completed += waiter.end <= stats.end + GRACE

    def frames_missing(self, stats: Stats, seq: int) -> None:
        """The move at ``seq`` was taken but its frame did not reach every seat in time."""
        stats.missing += 1
        stats.note(f"{self.app.name}: table {self.id} seq {seq + 1}: frames at seats {self.seen}")

    async def move_over_socket(self, stats: Stats, seat, move, seq, waiter: Waiter, start: float) -> None:
        """{"move", "seq"} over the mover's own socket; done when all 4 seats have the frame (or refused)."""
        try:
            await self.sockets[seat].send(json.dumps({"move": move, "seq": seq}))
            await asyncio.wait_for(waiter.done.wait(), self.app.frame_timeout)
        except ConnectionClosed:
            return  # (its reader counts the drop)
        except TimeoutError:
            self.frames_missing(stats, seq)
            return
        finally:
            self.waiter = None
        if waiter.refused is not None:
            status = int(waiter.refused.split()[0])
            stats.refused(status, f"{self.app.name}: socket move refused {waiter.refused}"[:300])
            return
        self.acked = seq + 1
        stats.latencies.append(waiter.end - start)
        stats.completed += waiter.end <= stats.end + GRACE

    async def cycle(self, stats: Stats) -> None:
        """One dispatched move, then the next one prepared; back in the ready queue if all went well."""
        self.busy = True
        try:
            if self.broken:  # a socket dropped while the table waited: a fresh table plays this slot
                await self.reopen(stats)
                if self.dead or not await self.prepare(stats):
                    return
            await self.move(stats)
            if self.broken:
                await self.reopen(stats)
            if not self.dead and await self.prepare(stats):
                self.app.ready.append(self)
        finally:
            self.busy = False


# ---------------------------------------------------------------------------------------------- phases


async def run_phase(app: App, rate: float, duration: float) -> Stats:
    """R moves/s offered for `duration` seconds, open loop; then the moves in flight are drained."""
    await app.ready_up()
    stats = Stats(app.name, rate, duration)
    stats.carry(app.stats)
    app.stats = stats
    tasks: set[asyncio.Task] = set()
    cpu0, server0 = os.times(), app.server_cpu()
    start = time.perf_counter()
    stats.end = start + duration
    for k in range(int(rate * duration)):
        delay = start + k / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            stats.lag = max(stats.lag, -delay)
        stats.offered += 1
        if not app.ready:
            stats.no_ready += 1
            continue
        task = asyncio.create_task(app.ready.popleft().cycle(stats))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.sleep(max(0.0, stats.end - time.perf_counter()))
    cpu1, server1 = os.times(), app.server_cpu()
    spent = [after - before for after, before in zip(server1, server0, strict=True)]
    stats.client_cpu = 100 * (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / duration
    stats.server_cpu = 100 * sum(spent) / duration
    stats.server_cpu_seconds = sum(spent)
    if len(spent) > 1:
        stats.server_split = [100 * seconds / duration for seconds in spent]
    if tasks:
        _, pending = await asyncio.wait(set(tasks), timeout=app.frame_timeout + HTTP_TIMEOUT + 5)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    app.stats = Stats(app.name, 0, 1)
    if not await app.settle(app.frame_timeout):
        stats.note(f"{app.name}: sockets still behind {app.frame_timeout:.0f} s after the phase")
    return stats


async def saturation(
    app: App, ladder: list[float], duration: float, measured: tuple[Stats, ...] = ()
) -> tuple[list[Stats], float]:
    """Raise the offered rate until it is no longer sustained; the highest sustained rate (0: none).

    Rates already measured (the load phases) count: the ladder starts past the highest one sustained
    (with every lower one sustained too) and stops short of the lowest one that was not.
    """
    results, sustained, failed = list(measured), 0.0, float("inf")
    for stats in sorted(measured, key=lambda s: s.rate):
        if not stats.sustained():
            failed = stats.rate
            break
        sustained = stats.rate
    for rate in (r for r in ladder if sustained < r < failed):
        stats = await run_phase(app, rate, duration)
        results.append(stats)
        print_row(stats, f"sat {rate:g}")
        if not stats.sustained():
            break
        sustained = rate
    return results, sustained


async def idle_sockets(app: App, count: int, window: float) -> dict:
    """Open `count` idle sockets on the app's (only) server: RSS per socket and CPU while idle."""
    server = app.servers[0]
    tables = app.tables[: max(1, min(5, len(app.tables)))]
    limit = asyncio.Semaphore(32)

    async def one(i: int):
        table = tables[i % len(tables)]
        player = table.seats[i % SEATS] if i % 2 else None  # every other one a spectator
        async with limit:
            ws = await app.connect(server.port, table.id, player)
            try:
                await asyncio.wait_for(ws.recv(), OPEN_TIMEOUT)
            except BaseException:
                await ws.close()
                raise
            return ws

    await asyncio.sleep(1)
    before = server.rss_kib()
    start = time.perf_counter()
    opened = await asyncio.gather(*(one(i) for i in range(count)), return_exceptions=True)
    sockets = [ws for ws in opened if not isinstance(ws, BaseException)]
    failures = [repr(e) for e in opened if isinstance(e, BaseException)]
    connect_seconds = time.perf_counter() - start
    await asyncio.sleep(2)
    after = server.rss_kib()
    cpu0 = server.cpu_seconds()
    await asyncio.sleep(window)
    cpu = 100 * (server.cpu_seconds() - cpu0) / window
    alive = sum(ws.state.name == "OPEN" for ws in sockets)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "opened": len(sockets),
        "alive": alive,
        "failures": failures[:3],
        "failed": len(failures),
        "connect_seconds": connect_seconds,
        "before": before,
        "after": after,
        "per_socket": (after - before) / max(1, len(sockets)),
        "cpu": cpu,
        "window": window,
    }


# ---------------------------------------------------------------------------------------------- report


def fmt(value, spec: str = ".0f") -> str:
    return "-" if value is None else format(value, spec)


HEADER = (
    f"{'phase':<9}{'app':<11}{'moves':>6}{'mv/s':>7}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}"
    f"{'non200':>7}{'5xx':>5}{'nohttp':>7}{'drops':>6}{'missing':>8}{'no-ready':>9}"
    f"{'frame B':>8}{'p95 B':>7}{'client%':>8}{'server%':>8}"
)


def print_row(s: Stats, phase: str) -> None:
    print(
        f"{phase:<9}{s.app:<11}{s.completed:>6}{s.achieved:>7.1f}{fmt(s.ms(50)):>8}{fmt(s.ms(95)):>8}"
        f"{fmt(s.ms(99)):>8}{s.non200:>7}{s.e5xx:>5}{s.http_failures:>7}{s.drops:>6}{s.missing:>8}"
        f"{s.no_ready:>9}{fmt(percentile(s.frame_sizes, 50)):>8}{fmt(percentile(s.frame_sizes, 95)):>7}"
        f"{s.client_cpu:>8.0f}{s.server_cpu:>8.0f}",
        flush=True,
    )
    if s.server_split:
        print(f"           (server% by daphne: {' / '.join(f'{c:.0f}' for c in s.server_split)})")
    for problem in s.problems:
        print(f"           ! {problem}")
    if s.replaced:
        print(f"           ({s.replaced} tables replaced by fresh ones: game over, or a socket dropped)")
    if s.lag > 0.05:
        print(
            f"           ! the client dispatched up to {s.lag * 1000:.0f} ms late (its CPU, or the machine's, is saturated)"
        )


def ratio(a, b) -> str:
    return "-" if a is None or not b else f"{a / b:.2f}x"


def print_ratios(app: Stats, echo: Stats, label: str = "site/echo") -> None:
    print(
        f"{'':<9}{label:<11}{'':>6}{ratio(app.achieved, echo.achieved):>7}"
        f"{ratio(app.ms(50), echo.ms(50)):>8}{ratio(app.ms(95), echo.ms(95)):>8}{ratio(app.ms(99), echo.ms(99)):>8}"
        f"{'':>52}{ratio(percentile(app.frame_sizes, 50), percentile(echo.frame_sizes, 50)):>8}",
        flush=True,
    )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def print_targets(pairs: dict, tables: int) -> None:
    print("\nTargets at 25 tables x 4 seats and 50 moves/s:")
    if tables != 25 or 50 not in pairs:
        print("  not measured in this run (needs --tables 25 and 50 among --rates)")
        return
    site, echo = pairs[50]
    for label, p, bound in (("p50", 50, 2), ("p99", 99, 3)):
        s, e = site.ms(p), echo.ms(p)
        ok = s is not None and e is not None and s <= bound * e
        print(f"  site {label} <= {bound}x echo: {verdict(ok)} ({fmt(s)} ms vs {fmt(e)} ms, {ratio(s, e)})")
    print(f"  site zero errors: {verdict(site.errors == 0)} ({site.errors} errors)")


def capacity_ratio(a: float, b: float, a_peak: float, b_peak: float) -> tuple[float | None, str]:
    """a/b on the sustained rates; on the peaks achieved when either sustained none of the ladder."""
    if a > 0 and b > 0:
        return a / b, "sustained rates"
    return (a_peak / b_peak if b_peak else None), "peaks achieved: a side sustained no step of the ladder"


def print_saturation(site: float, echo: float, site_peak: float, echo_peak: float) -> None:
    print(
        f"\nSaturation: site sustains {site:g} moves/s, echo {echo:g} moves/s "
        f"(peaks achieved {site_peak:.1f} and {echo_peak:.1f})"
    )
    value, basis = capacity_ratio(site, echo, site_peak, echo_peak)
    ok = value is not None and value >= 0.5
    print(f"  site saturation >= 0.5x echo's: {verdict(ok)} ({fmt(value, '.2f')}x, {basis})")


# ---------------------------------------------------------------------------------------------- the peer


@dataclass
class PeerRun:
    """One run of the boardgame.io peer (its load.js's JSON line)."""

    rate: float
    figures: dict

    def get(self, name: str):
        return self.figures.get(name)


def peer_ready() -> str | None:
    """None when the peer can run (node, and its node_modules in a copy under var/), else why not."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (PEER / "node_modules" / "boardgame.io").is_dir():
        if not PEER_SOURCE.is_dir():
            return f"{PEER_SOURCE} is missing"
        if shutil.which("npm") is None:
            return "npm is not installed"
        PEER.mkdir(parents=True, exist_ok=True)
        for path in PEER_SOURCE.iterdir():
            if path.is_file():
                target = PEER / path.name
                shutil.copyfile(path, target)
                target.chmod(0o755 if path.suffix == ".sh" else 0o644)
        out = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, capture_output=True, text=True, timeout=600
        )
        if out.returncode:
            return f"npm ci failed: {(out.stderr or out.stdout).strip().splitlines()[-1:]}"
    return None


def peer_lines(*args: str, timeout: float) -> list[str]:
    out = subprocess.run(
        ["bash", str(PEER / "run.sh"), *args], cwd=PEER, capture_output=True, text=True, timeout=timeout
    )
    return out.stdout.strip().splitlines() + [f"! {line}" for line in out.stderr.strip().splitlines()[-3:]]


def peer_run(tables: int, rate: float, duration: float) -> PeerRun:
    """The peer at ``rate`` moves/s for ``duration`` seconds: a fresh server, its load client, stopped."""
    lines = peer_lines(str(tables), f"{rate:g}", f"{duration:g}", timeout=duration + 180)
    for line in reversed(lines):
        if line.startswith("{"):
            return PeerRun(rate, json.loads(line))
    return PeerRun(rate, {"errors": None, "failure": " | ".join(lines)[-300:]})


def peer_saturation(tables: int, duration: float) -> tuple[float, float]:
    """(highest rate sustained, highest rate achieved) of the peer's own ladder (run.sh saturate)."""
    lines = peer_lines("saturate", str(tables), f"{duration:g}", timeout=20 * (duration + 60))
    sustained, peak = 0.0, 0.0
    for line in lines:
        if line.startswith("offered "):
            try:
                peak = max(peak, float(json.loads(line.split(": ", 1)[1]).get("moves_per_s") or 0))
            except (ValueError, IndexError):
                pass
        elif line.startswith("{") and "saturation_sustained_moves_per_s" in line:
            sustained = float(json.loads(line)["saturation_sustained_moves_per_s"])
    return sustained, peak


PEER_HEADER = (
    f"{'rate':<8}{'server':<10}{'mv/s':>7}{'CPU ms/mv':>10}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}"
    f"{'errors':>7}{'B/seat/mv':>10}"
)


def print_peer_pair(site: Stats, peer: PeerRun, echo: Stats | None = None) -> None:
    """The site's row, the peer's, their ratios; with ``echo`` (the echo app's moves over the socket), its row
    and its ratios to the peer: what daphne + Channels spend on a move with no work of the site's."""
    p = peer.figures
    site_bytes = percentile(site.frame_sizes, 50)
    print(
        f"{f'{site.rate:g}/s':<8}{'site':<10}{site.achieved:>7.1f}{fmt(site.cpu_ms_per_move, '.1f'):>10}"
        f"{fmt(site.ms(50)):>8}{fmt(site.ms(95)):>8}{fmt(site.ms(99)):>8}{site.errors:>7}{fmt(site_bytes):>10}"
    )
    print(
        f"{'':<8}{'bgio':<10}{fmt(p.get('moves_per_s'), '.1f'):>7}{fmt(p.get('cpu_ms_per_move'), '.1f'):>10}"
        f"{fmt(p.get('p50_ms'), '.0f'):>8}{fmt(p.get('p95_ms'), '.0f'):>8}{fmt(p.get('p99_ms'), '.0f'):>8}"
        f"{fmt(p.get('errors'), 'd'):>7}{fmt(p.get('frame_bytes'), '.0f'):>10}"
    )
    if "failure" in p:
        print(f"          ! the peer's run failed: {p['failure']}")
    print(
        f"{'':<8}{'site/bgio':<10}{ratio(site.achieved, p.get('moves_per_s')):>7}"
        f"{ratio(site.cpu_ms_per_move, p.get('cpu_ms_per_move')):>10}{ratio(site.ms(50), p.get('p50_ms')):>8}"
        f"{ratio(site.ms(95), p.get('p95_ms')):>8}{ratio(site.ms(99), p.get('p99_ms')):>8}{'':>7}"
        f"{ratio(site_bytes, p.get('frame_bytes')):>10}",
        flush=True,
    )
    if echo is not None:
        echo_bytes = percentile(echo.frame_sizes, 50)
        print(
            f"{'':<8}{'echo ws':<10}{echo.achieved:>7.1f}{fmt(echo.cpu_ms_per_move, '.1f'):>10}"
            f"{fmt(echo.ms(50)):>8}{fmt(echo.ms(95)):>8}{fmt(echo.ms(99)):>8}{echo.errors:>7}{fmt(echo_bytes):>10}"
        )
        print(
            f"{'':<8}{'echo/bgio':<10}{ratio(echo.achieved, p.get('moves_per_s')):>7}"
            f"{ratio(echo.cpu_ms_per_move, p.get('cpu_ms_per_move')):>10}{ratio(echo.ms(50), p.get('p50_ms')):>8}"
            f"{ratio(echo.ms(95), p.get('p95_ms')):>8}{ratio(echo.ms(99), p.get('p99_ms')):>8}{'':>7}"
            f"{ratio(echo_bytes, p.get('frame_bytes')):>10}",
            flush=True,
        )


def print_peer_targets(pairs: dict, tables: int, saturation: tuple | None) -> None:
    print("\nTargets against the peer at 25 tables x 4 seats and 50 moves/s (issue 31, point 4):")
    if tables != 25 or 50 not in pairs:
        print("  not measured in this run (needs --tables 25 and 50 among --rates)")
    else:
        site, peer, _echo = pairs[50]
        p = peer.figures
        for label, mine, theirs, bound in (
            ("server CPU per move", site.cpu_ms_per_move, p.get("cpu_ms_per_move"), 3),
            ("p50", site.ms(50), p.get("p50_ms"), 3),
            ("p99", site.ms(99), p.get("p99_ms"), 5),
        ):
            ok = mine is not None and theirs and mine <= bound * theirs
            print(
                f"  site {label} <= {bound}x the peer's: {verdict(ok)} ({fmt(mine, '.1f')} vs {fmt(theirs, '.1f')},"
                f" {ratio(mine, theirs)})"
            )
        print(
            f"  site zero errors: {verdict(site.errors == 0)} ({site.errors} errors; the peer {p.get('errors')})"
        )
    if saturation is not None:
        (site_rate, site_peak), (peer_rate, peer_peak) = saturation
        value, basis = capacity_ratio(site_rate, peer_rate, site_peak, peer_peak)
        ok = value is not None and value >= 0.5
        print(
            f"  saturation: site sustains {site_rate:g} moves/s, the peer {peer_rate:g} (peaks {site_peak:.1f} and "
            f"{peer_peak:.1f}); site >= 0.5x the peer's: {verdict(ok)} ({fmt(value, '.2f')}x, {basis})"
        )


# ---------------------------------------------------------------------------------------------- runs


def ladder(start: float, top: float, factor: float = 2.0) -> list[float]:
    """The offered rates of a saturation search: from ``start``, each ``factor`` times the one before (to a
    tenth of a move a second), up to ``top``."""
    rates, rate = [], start
    while rate <= top:
        rates.append(round(rate, 1))
        rate *= factor
    return rates


async def open_app(
    name: str,
    servers: list[Server],
    players: list[Player],
    cookie: str,
    args,
    socket_moves: bool = False,
    by_table: bool = False,
) -> App:
    app = App(name, servers, players, cookie)
    app.frame_timeout = args.frame_timeout
    app.socket_moves, app.by_table = socket_moves, by_table
    start = time.perf_counter()
    await app.open_tables(args.tables)
    print(
        f"{name}: {args.tables} tables x {SEATS} seats open on port(s) {', '.join(map(str, app.ports))} "
        f"in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    return app


def players_of(info: dict) -> list[Player]:
    return [Player(u["name"], u["token"], u["session"]) for u in info["users"]]


async def local_part(args, tmp: pathlib.Path) -> None:
    env = site_env(SQLITE_PATH=str(tmp / "site.sqlite3"))
    started = time.perf_counter()
    info = await asyncio.to_thread(prepare_site, env)
    site_server = await asyncio.to_thread(
        Server, "site daphne", "config.asgi:application", ROOT, env, tmp / "site.log"
    )
    echo_env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    echo_server = await asyncio.to_thread(
        Server, "echo daphne", "echo_app:application", BENCH, echo_env, tmp / "echo.log"
    )
    floor_server = await asyncio.to_thread(
        Server, "floor daphne", "bench.floor_app:application", ROOT, env, tmp / "floor.log"
    )
    print(f"servers up in {time.perf_counter() - started:.1f} s (migrate, players, daphne x3)", flush=True)
    site = await open_app(
        "site", [site_server], players_of(info), info["cookie"], args, socket_moves=args.moves == "socket"
    )
    echo_players = [Player(f"echo{n}", f"echo-token-{n}", "") for n in range(SEATS)]
    echo = await open_app("echo", [echo_server], echo_players, "sessionid", args)
    # (part F: the echo app taking its moves over the socket on a daphne of its own, its sockets served as the
    # site serves its own: ECHO_AS_SITE in bench/echo_app.py; daphne + Channels and nothing else)
    echo_ws = echo_ws_server = None
    if args.moves == "socket" and not args.no_peer:
        echo_ws_server = await asyncio.to_thread(
            Server,
            "echo ws daphne",
            "echo_app:application",
            BENCH,
            {**echo_env, "ECHO_AS_SITE": "1"},
            tmp / "echo-ws.log",
        )
        echo_ws = await open_app(
            "echo ws", [echo_ws_server], echo_players, "sessionid", args, socket_moves=True
        )
    floor = await open_app("floor", [floor_server], echo_players, "sessionid", args)
    try:
        if not args.skip_idle:
            print(
                f"\nD. {args.idle_sockets} idle sockets on the site's daphne ({args.idle_window:g} s idle)",
                flush=True,
            )
            idle = await idle_sockets(site, args.idle_sockets, args.idle_window)
            print(
                f"  opened {idle['opened']} (failed {idle['failed']}, open after the window {idle['alive']}) in "
                f"{idle['connect_seconds']:.1f} s; RSS {idle['before']} -> {idle['after']} KiB: "
                f"{idle['per_socket']:.1f} KiB per socket; CPU while idle {idle['cpu']:.1f}% of a core"
            )
            for failure in idle["failures"]:
                print(f"  ! {failure[:200]}")
            print(
                f"  <= 100 KiB per socket: {verdict(idle['per_socket'] <= 100)}; < 10% of a core: {verdict(idle['cpu'] < 10)}"
            )

        print(
            f"\nA/B/C. Open-loop load, {args.tables} tables x {SEATS} seats, {args.duration:g} s per rate",
            flush=True,
        )
        print(HEADER)
        pairs, floors, against = {}, {}, {}
        why_no_peer = "--no-peer" if args.no_peer else await asyncio.to_thread(peer_ready)
        for rate in args.rates:
            s = await run_phase(site, rate, args.duration)
            print_row(s, f"{rate:g}/s")
            f = await run_phase(floor, rate, args.duration)
            print_row(f, f"{rate:g}/s")
            e = await run_phase(echo, rate, args.duration)
            print_row(e, f"{rate:g}/s")
            print_ratios(s, e)
            print_ratios(f, e, "floor/echo")
            pairs[rate] = (s, e)
            floors[rate] = f
            if why_no_peer is None:
                w = await run_phase(echo_ws, rate, args.duration) if echo_ws is not None else None
                against[rate] = (s, await asyncio.to_thread(peer_run, args.tables, rate, args.duration), w)
        print_targets(pairs, args.tables)
        moved = "over the socket" if site.socket_moves else "posted over HTTP"
        if why_no_peer is None:
            print(
                f"\nF. Against boardgame.io 0.50 (../shared/peers/bgio, in-memory, socket.io), same load: "
                f"{args.tables} tables x {SEATS} seats, {args.duration:g} s per rate; the site's moves {moved}; "
                f"the peer's server runs while the site's idles (load average {os.getloadavg()[0]:.2f})"
            )
            print(PEER_HEADER)
            for s, peer, w in against.values():
                print_peer_pair(s, peer, w)
        else:
            print(f"\nF. Against boardgame.io: skipped ({why_no_peer})")

        if not args.skip_saturation:
            rates = ladder(args.sat_start, args.sat_max)
            print(
                f"\nSaturation search ({', '.join(f'{r:g}' for r in rates)} moves/s, {args.sat_duration:g} s each;"
                " a rate the load phases above sustained, or did not, is not run again)"
            )
            print(HEADER)
            measured = list(pairs.values())
            site_runs, site_rate = await saturation(
                site, rates, args.sat_duration, tuple(s for s, _ in measured)
            )
            floor_runs, floor_rate = await saturation(floor, rates, args.sat_duration, tuple(floors.values()))
            echo_runs, echo_rate = await saturation(
                echo, rates, args.sat_duration, tuple(e for _, e in measured)
            )
            print_saturation(
                site_rate,
                echo_rate,
                max(s.achieved for s in site_runs),
                max(s.achieved for s in echo_runs),
            )
            value, basis = capacity_ratio(
                floor_rate, echo_rate, max(s.achieved for s in floor_runs), max(s.achieved for s in echo_runs)
            )
            print(
                f"  (the floor, the echo app's answers made by Django, sustains {floor_rate:g} moves/s: "
                f"{fmt(value, '.2f')}x echo's)"
            )
            if why_no_peer is None:
                peer_sat = await asyncio.to_thread(peer_saturation, args.tables, args.sat_duration)
                print(
                    f"  (the peer, its own ladder 25, 50, 100, ...: sustains {peer_sat[0]:g} moves/s, "
                    f"peak {peer_sat[1]:.1f})"
                )
                print_peer_targets(
                    against, args.tables, ((site_rate, max(s.achieved for s in site_runs)), peer_sat)
                )
        elif why_no_peer is None:
            print_peer_targets(against, args.tables, None)
    finally:
        for app in (site, floor, echo, echo_ws):
            if app is not None:
                await app.close()
        for server in (site_server, floor_server, echo_server, echo_ws_server):
            if server is not None:
                server.stop()


def load_note() -> str:
    return f"load average {os.getloadavg()[0]:.2f}"


async def services_part(args, tmp: pathlib.Path) -> None:
    print(
        f"\nE. PostgreSQL + Redis: CPU per move beside SQLite at the same offered rates, then saturation with one "
        f"daphne and two ({load_note()})",
        flush=True,
    )
    why = await asyncio.to_thread(services_up, REDIS)
    if why:
        print(f"  skipped: PostgreSQL 127.0.0.1:5432 / Redis 127.0.0.1:6379 unreachable ({why})")
        return
    socket_moves = args.moves == "socket"
    servers: list[Server] = []
    lite_server = None
    with fresh_database("livebench", REDIS) as database_url:
        try:
            env = site_env(DATABASE_URL=database_url, REDIS_URL=REDIS, WORKER_IN_PROCESS="false")
            info = await asyncio.to_thread(prepare_site, env)
            lite_env = site_env(SQLITE_PATH=str(tmp / "beside.sqlite3"))
            lite_info = await asyncio.to_thread(prepare_site, lite_env)
            lite_server = await asyncio.to_thread(
                Server, "sqlite daphne", "config.asgi:application", ROOT, lite_env, tmp / "beside.log"
            )
            # (--daphne-cpu: each daphne in a control group of its own, capped for the saturation search only)
            quotas = [CpuQuota(f"daphne{n}") for n in (1, 2)] if args.daphne_cpu else []
            servers.append(
                await asyncio.to_thread(
                    Server,
                    "daphne 1",
                    "config.asgi:application",
                    ROOT,
                    env,
                    tmp / "pg-0.log",
                    quotas[0] if quotas else None,
                )
            )
            await cpu_beside_sqlite(args, servers[0], info, lite_server, lite_info, socket_moves)
            lite_server.stop()
            if args.skip_saturation:
                return
            rates = ladder(args.sat_start, args.sat_max, args.sat_factor)
            results = {}
            # One daphne; two with each table's sockets spread over both (frames cross processes through
            # Redis, and a table's moves come through either); two with every socket of a table on one
            # (a proxy routing /ws/tables/<id>/ by the id: a table's room is always fresh where it moves).
            for count, by_table in ((1, False), (2, False), (2, True)):
                while len(servers) < count:
                    servers.append(
                        await asyncio.to_thread(
                            Server,
                            f"daphne {len(servers) + 1}",
                            "config.asgi:application",
                            ROOT,
                            env,
                            tmp / f"pg-{len(servers)}.log",
                            quotas[len(servers)] if quotas else None,
                        )
                    )
                for quota in quotas:
                    quota.cap(args.daphne_cpu)
                name = f"site x{count}" + (" t" if by_table else "")
                app = await open_app(
                    name, list(servers), players_of(info), info["cookie"], args, socket_moves, by_table
                )
                capped = f", each capped at {args.daphne_cpu:g} of a core" if quotas else ""
                routed = (
                    "" if count == 1 else ", a table's sockets on its own" if by_table else ", sockets spread"
                )
                print(
                    f"(saturation with {count} daphne{'s' if count > 1 else ''}{capped}{routed}, {load_note()})"
                )
                print(HEADER)
                held = sum(q.throttled_seconds() for q in quotas[:count])
                try:
                    runs, rate = await saturation(app, rates, args.sat_duration)
                finally:
                    await app.close()
                    for quota in quotas:
                        quota.cap(None)
                if quotas:
                    held = sum(q.throttled_seconds() for q in quotas[:count]) - held
                    print(f"  (the caps held the daphnes back {held:.1f} s in all)")
                results[count, by_table] = (rate, max(s.achieved for s in runs))
            one, one_peak = results[1, False]
            print(f"\n  one daphne sustains {one:g} moves/s (peak achieved {one_peak:.1f}; {load_note()})")
            oks = []
            for by_table, how in ((False, "sockets spread"), (True, "a table's sockets on one daphne")):
                two, two_peak = results[2, by_table]
                value, basis = capacity_ratio(two, one, two_peak, one_peak)
                oks.append(value is not None and value >= 1.8)
                print(
                    f"  two daphnes, {how}: {two:g} moves/s (peak {two_peak:.1f}); >= 1.8x one (issue 31, "
                    f"point 5): {verdict(oks[-1])} ({fmt(value, '.2f')}x, {basis})"
                )
            if not all(oks) and not quotas:
                print(
                    "  (2 cores carry the client, both daphnes, PostgreSQL and Redis here: a second process gains\n"
                    "   only what the first left idle of a core; behind a proxy on separate machines it would not share)"
                )
        finally:
            for server in [*servers, *([lite_server] if lite_server else [])]:
                server.stop()


async def cpu_beside_sqlite(args, pg_server, info, lite_server, lite_info, socket_moves: bool) -> None:
    """At each of --rates: the same load on a daphne of the embedded default (SQLite, in-memory layer) and on
    one of PostgreSQL + Redis, one right after the other; each one's server CPU per move from /proc, side by
    side, with the ratio and issue 31's bound (point 5: PostgreSQL + Redis <= 1.3x SQLite)."""
    lite = await open_app(
        "sqlite", [lite_server], players_of(lite_info), lite_info["cookie"], args, socket_moves
    )
    pg = await open_app("pg+redis", [pg_server], players_of(info), info["cookie"], args, socket_moves)
    moved = "over the socket" if socket_moves else "posted over HTTP"
    print(f"(moves {moved}; {args.tables} tables x {SEATS} seats, {args.duration:g} s per rate and set-up)")
    print(HEADER)
    pairs = []
    try:
        for rate in args.rates:
            loads = [os.getloadavg()[0]]
            a = await run_phase(lite, rate, args.duration)
            print_row(a, f"{rate:g}/s")
            b = await run_phase(pg, rate, args.duration)
            print_row(b, f"{rate:g}/s")
            loads.append(os.getloadavg()[0])
            pairs.append((rate, a, b, loads))
    finally:
        await lite.close()
        await pg.close()
    print(
        f"\n{'rate':<8}{'SQLite ms/mv':>13}{'PG+Redis ms/mv':>16}{'ratio':>8}{'<= 1.3x':>9}{'errors':>8}  load"
    )
    for rate, a, b, loads in pairs:
        mine, base = b.cpu_ms_per_move, a.cpu_ms_per_move
        ok = mine is not None and base and mine <= 1.3 * base
        print(
            f"{rate:g}/s{'':<{8 - len(f'{rate:g}/s')}}{fmt(base, '.1f'):>13}{fmt(mine, '.1f'):>16}"
            f"{ratio(mine, base):>8}{verdict(ok):>9}{f'{a.errors}/{b.errors}':>8}  "
            f"{loads[0]:.2f} -> {loads[1]:.2f}"
        )


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=25, help="tables per app (4 seats each)")
    parser.add_argument("--rates", default="5,25,50", help="offered moves/s, comma-separated")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per rate")
    parser.add_argument(
        "--frame-timeout", type=float, default=5.0, help="seconds before a frame counts missing"
    )
    parser.add_argument("--sat-start", type=float, default=5.0, help="first rate of the saturation ladder")
    parser.add_argument("--sat-max", type=float, default=640.0, help="last rate of the ladder")
    parser.add_argument(
        "--sat-factor", type=float, default=2.0, help="each rate of the ladder this many times the one before"
    )
    parser.add_argument("--sat-duration", type=float, default=6.0, help="seconds per ladder step")
    parser.add_argument(
        "--daphne-cpu",
        type=float,
        help="part E's saturation: each daphne capped at this share of one core, in a cgroup of its own "
        "(two daphnes then stand for two small machines, not for what the first leaves idle of 2 cores)",
    )
    parser.add_argument("--idle-sockets", type=int, default=1000)
    parser.add_argument("--idle-window", type=float, default=10.0, help="idle seconds for the CPU figure")
    parser.add_argument("--skip-saturation", action="store_true")
    parser.add_argument("--skip-idle", action="store_true")
    parser.add_argument("--no-services", action="store_true", help="skip part E (PostgreSQL + Redis)")
    parser.add_argument("--only-services", action="store_true", help="part E alone (PostgreSQL + Redis)")
    parser.add_argument("--no-peer", action="store_true", help="skip part F (boardgame.io beside the site)")
    parser.add_argument(
        "--moves", choices=("socket", "http"), default="socket", help="how the site's moves are sent"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 tables, short phases")
    parser.add_argument(
        "--tree", help="serve another checkout (its config.asgi, settings and bench/_live_setup.py): a before"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.rates, args.duration, args.frame_timeout = 4, "5,10", 3.0, 5.0
        args.sat_start, args.sat_max, args.sat_duration = 10.0, 40.0, 2.0
        args.idle_sockets, args.idle_window = 100, 3.0
    args.rates = [float(r) for r in args.rates.split(",") if r.strip()]
    args.rates = [int(r) if r == int(r) else r for r in args.rates]
    if args.tables < 1 or not args.rates or min(args.rates) <= 0 or args.duration <= 0:
        parser.error("--tables, --rates and --duration must be positive")
    if args.sat_factor <= 1 or (args.daphne_cpu is not None and not 0 < args.daphne_cpu <= 1):
        parser.error("--sat-factor must exceed 1, and --daphne-cpu lie in (0, 1]")
    return args


async def run(args) -> None:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="cardclub-live-"))
    try:
        if not args.only_services:
            await local_part(args, tmp)
        if args.no_services:
            print("\nE. PostgreSQL + Redis: skipped (--no-services)")
        else:
            await services_part(args, tmp)
    finally:
        if Stats.noted:
            print(f"\n(problems were noted: the servers' logs are kept in {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None) -> int:
    global ROOT, BENCH
    args = parse_args(argv)
    if args.tree:
        ROOT = pathlib.Path(args.tree).resolve()
        BENCH = ROOT / "bench"
    raise_nofile()

    def stop(signum, frame):
        raise SystemExit(f"stopped by signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGALRM, stop)
    signal.alarm(HARD_LIMIT)
    began, cpu0 = time.perf_counter(), os.times()
    print(
        f"Live bench: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; "
        f"client pid {os.getpid()}; serving {ROOT}",
        flush=True,
    )
    try:
        asyncio.run(run(args))
    except BenchError as e:
        print(f"\nthe bench broke: {e}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        for server in list(Server.running):
            server.stop()
    cpu1 = os.times()
    wall = time.perf_counter() - began
    client = cpu1.user + cpu1.system - cpu0.user - cpu0.system
    print(
        f"\nDone in {wall:.0f} s; the client used {client:.0f} s of CPU ({100 * client / wall:.0f}% of a core "
        f"on average); load average {os.getloadavg()[0]:.2f} at the end"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
