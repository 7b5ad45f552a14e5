"""The request handler against the plain Django way, in one run: moves posted over HTTP to the site served
by ``config.handlers.PooledASGIHandler`` (as `make run` serves it: changes on one long-lived thread on
SQLite, pages and reads on PAGE_THREADS threads of their own), by the same handler with PAGE_THREADS=0
(every request on the one thread: the handler before the page threads), and by Django's own
``ASGIHandler`` (bench/_plain_asgi.py: a thread per request, the middleware in async mode).

Run:  .venv/bin/python bench/handler.py [--tables 10] [--rate 25] [--duration 10] [--pages 4]

For each handler, a daphne process on a fresh SQLite file (migrated, 4 players: bench/_live_setup.py),
--tables Cosmic Crowns tables of 4 players opened over the API; then two phases of --duration seconds:
  moves  --rate moves/s offered, open loop: a move goes to the next table with no move in flight; the client
         GETs /api/tables/<id> as the table's first player (whose turn it is), then as the seat to act (its
         legal moves and seq), and POSTs the move; latency is the POST's answer time. Server CPU per move
         (from /proc) counts the three calls.
  pages  the same moves while --pages clients load pages back to back (the lobby, a table's page, the
         history, the leaderboard): how long a move waits behind the pages, and the pages served per second.
Everything runs on this machine over 127.0.0.1; the servers it starts it stops at the end. Last, what the
pooled handler buys: its CPU per move and its moves' wait behind pages against the two others'.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import random
import sys
import tempfile
import time

import aiohttp

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from live import ROOT, SEATS, Server, percentile, prepare_site, site_env  # noqa: E402  (bench/live.py)

HANDLERS = [
    ("pooled, page threads", "config.asgi:application", {}),
    ("pooled, one thread", "config.asgi:application", {"PAGE_THREADS": "0"}),
    ("django ASGIHandler", "bench._plain_asgi:application", {}),
]


class Site:
    def __init__(self, server: Server, users: list[dict], cookie: str):
        self.server, self.users, self.cookie = server, users, cookie
        self.base = f"http://127.0.0.1:{server.port}"

    async def call(self, http, method, path, user, body=None):
        headers = {"Authorization": f"Bearer {user['token']}"}
        async with http.request(method, self.base + path, json=body, headers=headers) as r:
            return r.status, await r.json(content_type=None)


async def open_tables(site: Site, http, count: int) -> list[int]:
    ids = []
    for _ in range(count):
        status, table = await site.call(
            http, "POST", "/api/tables", site.users[0], {"game": "cosmic_crowns", "players": SEATS}
        )
        assert status == 201, table
        for user in site.users[1:]:
            assert (await site.call(http, "POST", f"/api/tables/{table['id']}/join", user, {}))[0] == 200
        assert (await site.call(http, "POST", f"/api/tables/{table['id']}/start", site.users[0]))[0] == 200
        ids.append(table["id"])
    return ids


async def one_move(site: Site, http, table_id: int, rng: random.Random, latencies: list, errors: list):
    status, seen = await site.call(http, "GET", f"/api/tables/{table_id}", site.users[0])
    if status != 200 or seen["status"] != "playing":
        errors.append(status)
        return
    user = site.users[seen["to_act"][0]]
    _, mine = await site.call(http, "GET", f"/api/tables/{table_id}", user)
    body = {"move": rng.choice(mine["legal_moves"]), "seq": mine["seq"]}
    start = time.perf_counter()
    status, _ = await site.call(http, "POST", f"/api/tables/{table_id}/moves", user, body)
    latencies.append((time.perf_counter() - start) * 1000)
    if status != 200:
        errors.append(status)


async def load_pages(site: Site, http, table_ids: list[int], stop: asyncio.Event, served: list):
    cookies = {site.cookie: site.users[1]["session"]}
    paths = ["/", f"/tables/{table_ids[0]}/", "/history/", "/leaderboards/"]
    n = 0
    while not stop.is_set():
        async with http.get(site.base + paths[n % len(paths)], cookies=cookies) as r:
            await r.read()
            served.append(r.status)
        n += 1


async def phase(site: Site, table_ids, rate, duration, pages: int) -> dict:
    rng = random.Random(1)
    latencies, errors, served = [], [], []
    busy: set[int] = set()
    stop = asyncio.Event()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        loaders = [asyncio.create_task(load_pages(site, http, table_ids, stop, served)) for _ in range(pages)]
        cpu0, t0 = site.server.cpu_seconds(), time.monotonic()
        tasks, lost = [], 0
        for tick in range(int(rate * duration)):
            await asyncio.sleep(max(0.0, t0 + tick / rate - time.monotonic()))
            free = [t for t in table_ids if t not in busy]
            if not free:
                lost += 1
                continue
            table_id = free[tick % len(free)]
            busy.add(table_id)

            async def move(table_id=table_id):
                try:
                    await one_move(site, http, table_id, rng, latencies, errors)
                finally:
                    busy.discard(table_id)

            tasks.append(asyncio.create_task(move()))
        await asyncio.gather(*tasks)
        elapsed, cpu = time.monotonic() - t0, site.server.cpu_seconds() - cpu0
        stop.set()
        await asyncio.gather(*loaders)
    return {
        "moves": len(latencies),
        "rate": len(latencies) / elapsed,
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99),
        "errors": len(errors) + sum(s >= 500 for s in served),
        "lost": lost,
        "pages/s": len(served) / elapsed,
        # (the GETs before each move are in the server's CPU too: CPU per move counts the move's three calls)
        "cpu ms": cpu * 1000 / max(1, len(latencies)) if not pages else None,
    }


async def run(args) -> None:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-handler-"))
    print(
        f"Handler bench: {args.tables} tables x {SEATS} seats, {args.rate} moves/s offered, {args.duration} s per phase, "
        f"{args.pages} page loaders; load average {os.getloadavg()[0]:.2f} at the start"
    )
    print(
        f"{'handler':24} {'phase':6} {'moves':>6} {'mv/s':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'errors':>6} {'lost':>5} {'pages/s':>8} {'CPU ms/move':>12}"
    )
    results: dict[tuple[str, str], dict] = {}
    for name, app, extra in HANDLERS:
        env = site_env(
            SQLITE_PATH=str(tmp / f"{len(name)}-{abs(hash(name))}.sqlite3"),
            WORKER_IN_PROCESS="false",
            **extra,
        )
        info = prepare_site(env)
        server = Server(name, app, ROOT, env, tmp / f"{abs(hash(name))}.log")
        try:
            site = Site(server, info["users"], info["cookie"])
            async with aiohttp.ClientSession() as http:
                table_ids = await open_tables(site, http, args.tables)
            for label, pages in (("moves", 0), ("pages", args.pages)):
                s = results[name, label] = await phase(site, table_ids, args.rate, args.duration, pages)
                cpu = f"{s['cpu ms']:.1f}" if s["cpu ms"] is not None else "-"
                print(
                    f"{name:24} {label:6} {s['moves']:>6} {s['rate']:>6.1f} {s['p50']:>7.1f} {s['p95']:>7.1f} "
                    f"{s['p99']:>7.1f} {s['errors']:>6} {s['lost']:>5} {s['pages/s']:>8.1f} {cpu:>12}"
                )
        finally:
            server.stop()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print_comparison(results)


def print_comparison(results: dict) -> None:
    pooled, one, plain = (name for name, _, _ in HANDLERS)
    cpu = {name: results[name, "moves"]["cpu ms"] for name in (pooled, one, plain)}
    behind = {name: results[name, "pages"] for name in (pooled, one, plain)}
    print(
        f"{pooled} against {plain}: server CPU per move {cpu[pooled]:.1f} ms against {cpu[plain]:.1f} "
        f"({(cpu[pooled] - cpu[plain]) / cpu[plain]:+.0%}); behind pages a move's p50 {behind[pooled]['p50']:.0f} ms "
        f"against {behind[plain]['p50']:.0f}, pages/s {behind[pooled]['pages/s']:.1f} against "
        f"{behind[plain]['pages/s']:.1f}"
    )
    print(
        f"{pooled} against {one}: behind pages a move's p50 {behind[pooled]['p50']:.0f} ms against "
        f"{behind[one]['p50']:.0f}, p99 {behind[pooled]['p99']:.0f} against {behind[one]['p99']:.0f}; pages/s "
        f"{behind[pooled]['pages/s']:.1f} against {behind[one]['pages/s']:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rate", type=float, default=25)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument(
        "--pages", type=int, default=4, help="clients loading pages back to back in the pages phase"
    )
    asyncio.run(run(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
