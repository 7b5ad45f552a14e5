"""What the API's streams cost (issue #32, point 2): memory and CPU per idle stream, and one move's fan-out.

One daphne on SQLite (as `make run` serves it). N clients (500 by default) open `GET /api/stream/tables/<id>`
(half as the seated player, half as spectators) and N/5 open `GET /api/stream/events`; once every stream
has its first line, the bench reads daphne's resident memory and its CPU time over an idle window (the
streams get only their keep-alive lines, every STREAM_KEEPALIVE_SECONDS), then posts moves and times how
long until every table stream has the move's state line. It prints each figure; the exit code is 0 unless
the bench itself broke.

    python bench/streams.py [--streams 500] [--idle 20] [--moves 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import statistics
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from live import ROOT, BenchError, Server, manage, site_env  # noqa: E402  (bench/live.py: daphne, the site)

SETUP = """
from django.contrib.auth.models import User
from accounts.models import ApiToken
from tables import services
alice = User.objects.create_user('alice', password='bench-pass-1')
bob = User.objects.create_user('bob', password='bench-pass-2')
carol = User.objects.create_user('carol', password='bench-pass-3')
table = services.create_table(alice, 'cosmic_crowns', 2)
services.join_table(table.pk, bob)
services.start_table(table.pk, alice, seed=7)
print('SITE', table.pk, ApiToken.issue(alice, 'bench')[1], ApiToken.issue(bob, 'bench')[1],
      ApiToken.issue(carol, 'bench')[1])
"""


class Reader:
    """One open stream: its lines (keep-alive lines counted apart)."""

    def __init__(self):
        self.lines: list[dict] = []
        self.keep_alives = 0
        self.changed = asyncio.Event()

    async def follow(self, session, url: str, token: str, opened: asyncio.Event | None = None):
        async with session.get(url, headers={"Authorization": f"Bearer {token}"}) as response:
            if response.status != 200:
                raise BenchError(f"{url}: {response.status}")
            async for raw in response.content:
                if raw.strip():
                    self.lines.append(json.loads(raw))
                    self.changed.set()
                else:
                    self.keep_alives += 1

    async def until(self, test, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not test(self):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))


async def run(streams: int, idle: float, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = site_env(SQLITE_PATH=str(pathlib.Path(tmp) / "db.sqlite3"), WORKER_IN_PROCESS="false")
        manage(env, "manage.py", "migrate", "--noinput", "-v0")
        out = manage(env, "manage.py", "shell", "-c", SETUP)
        _site, table, alice, bob, carol = next(
            row for row in out.splitlines() if row.startswith("SITE")
        ).split()
        server = Server("site", "config.asgi:application", ROOT, env, pathlib.Path(tmp) / "daphne.log")
        try:
            url = f"http://127.0.0.1:{server.port}"
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(
                connector=connector, timeout=aiohttp.ClientTimeout(total=None)
            ) as s:
                async with s.get(f"{url}/api/games") as warm:
                    await warm.read()
                rss_before = server.rss_kib()
                table_readers = [Reader() for _ in range(streams)]
                event_readers = [Reader() for _ in range(streams // 5)]
                tasks = [
                    asyncio.create_task(
                        r.follow(s, f"{url}/api/stream/tables/{table}", alice if i % 2 else carol)
                    )
                    for i, r in enumerate(table_readers)
                ] + [asyncio.create_task(r.follow(s, f"{url}/api/stream/events", bob)) for r in event_readers]
                started = time.monotonic()
                for r in table_readers:
                    await r.until(lambda r: r.lines)
                print(
                    f"{streams} table streams and {len(event_readers)} event streams open in "
                    f"{time.monotonic() - started:.1f} s"
                )
                await asyncio.sleep(2)
                rss_open = server.rss_kib()
                cpu_before = server.cpu_seconds()
                await asyncio.sleep(idle)
                cpu_idle = server.cpu_seconds() - cpu_before
                alive = sum(r.keep_alives for r in table_readers + event_readers)
                total = streams + len(event_readers)
                print(
                    f"memory: {rss_before / 1024:.1f} MiB before, {rss_open / 1024:.1f} MiB open: "
                    f"{(rss_open - rss_before) / total:.1f} KiB per stream"
                )
                print(
                    f"idle CPU over {idle:.0f} s: {cpu_idle:.2f} s ({100 * cpu_idle / idle:.1f}% of a core; "
                    f"{1e6 * cpu_idle / idle / total:.0f} µs per stream per second); {alive} keep-alive lines"
                )
                fanouts = []
                for _ in range(moves):
                    seq = len(table_readers[1].lines) - 1
                    last = table_readers[1].lines[-1]
                    mover = {0: alice, 1: bob}[last["to_act"][0]]
                    async with s.get(
                        f"{url}/api/tables/{table}", headers={"Authorization": f"Bearer {mover}"}
                    ) as r:
                        state = await r.json()
                    body = {"move": state["legal_moves"][0], "seq": state["seq"]}
                    posted = time.monotonic()
                    async with s.post(
                        f"{url}/api/tables/{table}/moves",
                        json=body,
                        headers={"Authorization": f"Bearer {mover}"},
                    ) as r:
                        if r.status != 200:
                            raise BenchError(f"move refused: {r.status} {await r.text()}")
                    for reader in table_readers:
                        await reader.until(lambda r, n=seq + 2: len(r.lines) >= n)
                    fanouts.append(time.monotonic() - posted)
                print(
                    f"a move's state line reached all {streams} table streams in "
                    f"{1000 * statistics.median(fanouts):.0f} ms at the median of {moves} moves "
                    f"(max {1000 * max(fanouts):.0f} ms)"
                )
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--idle", type=float, default=20)
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    try:
        asyncio.run(run(args.streams, args.idle, args.moves))
    except BenchError as exc:
        print(f"bench broke: {exc}")
        sys.exit(1)


if __name__ == "__main__":
    main()
