"""Log-in floods against the site (issue #29, finding 1): do other calls stay fast while log-ins pour in?

For SQLite (as `make run` serves it) and for PostgreSQL + Redis (127.0.0.1:5432 and :6379, a database
of its own, skipped when they do not answer), one daphne with the production password hasher and one
trusted proxy (so that X-Forwarded-For names each attacker's address). One client plays a Cosmic Crowns
game through the API (GET the table, POST its first legal move) and reads `GET /api/games`, one call
after the other; the bench times the POST (a move) and the GET (a trivial read):

  idle          nothing else;
  one address   20 attackers at once, each posting `POST /api/token` with a new random username and
                password in a loop, all from one address (they meet LOGIN_ADDRESS_FAILURE_LIMIT at once);
  20 addresses  the same from 20 addresses (each gets its 30 tries: the hashes go on the whole phase).

Each is measured first on the site as it was (``PASSWORD_THREADS=0``: hashes on the request threads, and
no limit per address; idle and 20 addresses), the baseline, then as it is. It prints the p50 / p95 of
each call in each phase, each p50 over idle, what the log-ins were answered
(400, 429, others) and how many a second, and PASS/FAIL against the target: p50 within 3x idle. The
exit code is 0 unless the bench itself broke.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import pathlib
import secrets
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from _services import fresh_database, services_up  # noqa: E402  (bench/_services.py)
from live import (  # noqa: E402  (bench/live.py: its daphne runner and the site's setup)
    BenchError,
    Server,
    percentile,
    prepare_site,
    site_env,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
REDIS = "redis://127.0.0.1:6379/12"
ATTACKERS = 20
TARGET = 3.0


class Player:
    def __init__(self, app: Flood, info: dict):
        self.app, self.name, self.token = app, info["name"], info["token"]


class Flood:
    def __init__(self, port: int, users: list[dict]):
        self.port = port
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=60)
        )
        self.players = [Player(self, u) for u in users]
        self.table: int | None = None

    async def call(self, method: str, path: str, token: str | None = None, body=None, address=None):
        headers = {"X-Forwarded-For": address or "192.0.2.1"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        url = f"http://127.0.0.1:{self.port}{path}"
        async with self.http.request(method, url, json=body, headers=headers) as response:
            data = await response.json(content_type=None) if response.status != 204 else None
            return response.status, data

    async def new_table(self) -> None:
        owner = self.players[0]
        status, data = await self.call(
            "POST", "/api/tables", owner.token, {"game": "cosmic_crowns", "players": len(self.players)}
        )
        if status != 201:
            raise BenchError(f"table not created: {status} {data}")
        table = data["id"]
        for player in self.players[1:]:
            await self.call("POST", f"/api/tables/{table}/join", player.token)
        status, data = await self.call("POST", f"/api/tables/{table}/start", owner.token)
        if status != 200:
            raise BenchError(f"table not started: {status} {data}")
        self.table = table

    async def move(self) -> float:
        """One move at the table (a new table when it is over): the POST's seconds."""
        while True:
            if self.table is None:
                await self.new_table()
            status, data = await self.call("GET", f"/api/tables/{self.table}", self.players[0].token)
            if status != 200:
                raise BenchError(f"table read failed: {status} {data}")
            if data["status"] != "playing":
                self.table = None
                continue
            seat = data["to_act"][0]
            player = self.players[seat]
            status, view = await self.call("GET", f"/api/tables/{self.table}", player.token)
            start = time.perf_counter()
            status, answer = await self.call(
                "POST",
                f"/api/tables/{self.table}/moves",
                player.token,
                {"move": view["legal_moves"][0], "seq": view["seq"]},
            )
            took = time.perf_counter() - start
            if status != 200:
                raise BenchError(f"move refused: {status} {answer}")
            return took

    async def read(self) -> float:
        start = time.perf_counter()
        status, _ = await self.call("GET", "/api/games")
        if status != 200:
            raise BenchError(f"GET /api/games answered {status}")
        return time.perf_counter() - start


async def measure(app: Flood, seconds: float) -> dict[str, list[float]]:
    out = {"move": [], "games": []}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out["move"].append(await app.move())
        out["games"].append(await app.read())
        await asyncio.sleep(0.05)
    return out


async def attacker(app: Flood, address: str, answers: collections.Counter, stop: asyncio.Event) -> None:
    while not stop.is_set():
        body = {"username": "u" + secrets.token_hex(6), "password": secrets.token_urlsafe(12)}
        try:
            status, _ = await app.call("POST", "/api/token", body=body, address=address)
        except (aiohttp.ClientError, TimeoutError):
            status = "no answer"
        answers[status] += 1


async def flooded(app: Flood, seconds: float, addresses: list[str]) -> tuple[dict, collections.Counter]:
    answers: collections.Counter = collections.Counter()
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(attacker(app, addresses[i % len(addresses)], answers, stop))
        for i in range(ATTACKERS)
    ]
    await asyncio.sleep(1.0)  # the flood under way
    answers.clear()
    try:
        figures = await measure(app, seconds)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return figures, answers


def ms(values: list[float], p: float) -> str:
    value = percentile(values, p)
    return "-" if value is None else f"{value * 1000:.1f}"


async def run_backend(label: str, env: dict, tmp: pathlib.Path, seconds: float, baseline: bool) -> None:
    info = await asyncio.to_thread(prepare_site, env)
    if baseline:
        # The site as it was: hashes on the request threads, no limit per address (20 addresses only).
        before = {**env, "PASSWORD_THREADS": "0", "LOGIN_ADDRESS_FAILURE_LIMIT": "1000000"}
        await run_site(
            f"{label}, before (hashes on the request threads, no limit per address)",
            before,
            info,
            tmp,
            seconds,
            False,
        )
    await run_site(label, env, info, tmp, seconds, True)


async def run_site(
    label: str, env: dict, info: dict, tmp: pathlib.Path, seconds: float, one_address: bool
) -> None:
    if env.get("REDIS_URL"):  # (the throttle's counts of the run before)
        import redis

        await asyncio.to_thread(redis.Redis.from_url(env["REDIS_URL"], socket_connect_timeout=3).flushdb)
    server = await asyncio.to_thread(
        Server, f"{label} daphne", "config.asgi:application", ROOT, env, tmp / f"{label[:20]}.log"
    )
    app = Flood(server.port, info["users"])
    try:
        await app.move()  # warm up: a table, the first frames, the connections
        idle = await measure(app, seconds)
        phases = [("idle", idle, None)]
        floods = [(f"{ATTACKERS} addresses", [f"198.51.100.{i + 1}" for i in range(ATTACKERS)])]
        if one_address:
            floods.insert(0, ("one address", ["203.0.113.66"]))
        for name, addresses in floods:
            figures, answers = await flooded(app, seconds, addresses)
            phases.append((name, figures, answers))
        print(f"\n{label}: {ATTACKERS} concurrent log-in attempts, random usernames ({seconds:g} s a phase)")
        print(
            f"  {'phase':<14} {'move p50/p95 ms':>16} {'x idle':>7} {'games p50/p95 ms':>17} {'x idle':>7}  log-ins"
        )
        verdicts = []
        for name, figures, answers in phases:
            row = f"  {name:<14}"
            for call in ("move", "games"):
                row += f" {ms(figures[call], 50):>7} / {ms(figures[call], 95):>6}"
                ratio = percentile(figures[call], 50) / percentile(idle[call], 50)
                row += f" {ratio:>6.2f}x"
                if answers is not None:
                    verdicts.append((name, call, ratio))
            if answers is not None:
                total = sum(answers.values())
                row += f"  {total / seconds:.0f}/s: " + ", ".join(
                    f"{k}: {v}" for k, v in sorted(answers.items(), key=str)
                )
            print(row)
        for name, call, ratio in verdicts if one_address else ():  # (the baseline is not held to it)
            ok = ratio <= TARGET
            print(
                f"  {call} p50 within {TARGET:g}x idle under {name}: {'PASS' if ok else 'FAIL'} ({ratio:.2f}x)"
            )
    finally:
        await app.http.close()
        server.stop()


async def run(args) -> None:
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="login-flood-"))
    base = {"DJANGO_TRUSTED_PROXY_COUNT": "1", "WORKER_IN_PROCESS": "false", "BOT_DELAY": "0"}
    env = site_env(SQLITE_PATH=str(tmp / "db.sqlite3"), **base)
    await run_backend("SQLite", env, tmp, args.seconds, args.baseline)
    why = "--no-services" if args.no_services else await asyncio.to_thread(services_up, REDIS)
    if why:
        print(f"\nPostgreSQL + Redis: skipped ({why})")
    else:
        with fresh_database("loginflood", REDIS) as database_url:
            env = site_env(DATABASE_URL=database_url, REDIS_URL=REDIS, **base)
            await run_backend("PostgreSQL + Redis", env, tmp, args.seconds, args.baseline)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each phase")
    parser.add_argument("--no-services", action="store_true", help="SQLite only")
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false", help="skip the site as it was"
    )
    args = parser.parse_args(argv)
    try:
        asyncio.run(run(args))
    except BenchError as e:
        print(f"login flood bench broke: {e}", file=sys.stderr)
        return 1
    finally:
        for server in list(Server.running):
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
