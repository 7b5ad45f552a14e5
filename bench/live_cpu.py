"""CPU per move of the live path, in one process: what bench/live.py's client costs the server, without the
sockets and without the noise of other processes' wall-clock time.

Run:  .venv/bin/python bench/live_cpu.py                  (every game; about a minute on 2 cores)
      .venv/bin/python bench/live_cpu.py --games cosmic_crowns --tables 25 --moves 500
      .venv/bin/python bench/live_cpu.py --tree ../other-checkout   (the same measure of another checkout)

For each game: --tables tables of 4 seated players on a fresh SQLite file, every seat's group of the
in-memory channel layer listening in English (so each move renders its 4 frames, as under bench/live.py),
then --moves moves, each as the live bench's client plays it: GET /api/tables/<id> as the seat to act,
then POST /api/tables/<id>/moves, both through Django's handler and middleware (the test client). The
frames are rendered but not sent (no sockets: bench/live.py measures those). Printed per game: the
process's CPU time per move, split into the GET and the POST, and within the POST the frames (rendering
and handing them over: tables.live.Publication.run); the queries per move; the frame parts drawn per move
(those not taken from tables.parts' memo; "-" for a checkout without it).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import tempfile
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", help="comma-separated slugs (default: every game of the checkout's registry)")
parser.add_argument("--tables", type=int, default=10, help="tables per game, played in turn")
parser.add_argument("--moves", type=int, default=300, help="moves measured per game")
parser.add_argument("--tree", default=str(pathlib.Path(__file__).resolve().parent.parent), help="checkout")
args = parser.parse_args()

ROOT = pathlib.Path(args.tree).resolve()
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["SQLITE_PATH"] = str(pathlib.Path(tempfile.mkdtemp()) / "live_cpu.sqlite3")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ["WORKER_IN_PROCESS"] = "false"
os.environ.setdefault("TABLE_CREATE_LIMIT", "100000")

import django  # noqa: E402

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from rules import bots, registry  # noqa: E402
from tables import live  # noqa: E402
from tables.models import Table  # noqa: E402

try:
    from tables import parts
except ImportError:  # (a checkout from before the memo)
    parts = None

SEATS = 4
live.send = lambda layer, messages: None  # rendered, not sent: no socket listens in this process
frames_cpu = [0.0]
_run = live.Publication.run


def timed_run(self):
    start = time.thread_time()
    try:
        _run(self)
    finally:
        frames_cpu[0] += time.thread_time() - start


live.Publication.run = timed_run


class Player:
    def __init__(self, client: Client, token: str):
        self.client, self.token = client, token

    def call(self, method: str, path: str, body=None):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}
        if method == "GET":
            response = self.client.get(path, **auth)
        else:
            response = self.client.post(path, body or {}, content_type="application/json", **auth)
        if response.status_code not in (200, 201):
            raise SystemExit(f"{method} {path} answered {response.status_code}: {response.content[:300]!r}")
        return response.json()


def open_table(game: str, players: list[Player]) -> dict:
    table = players[0].call("POST", "/api/tables", {"game": game, "players": SEATS})
    seats = {0: players[0]}
    for player in players[1:]:
        seats[player.call("POST", f"/api/tables/{table['id']}/join")["seat"]] = player
    players[0].call("POST", f"/api/tables/{table['id']}/start")
    layer = get_channel_layer()
    for seat in range(SEATS):
        group = live.table_group(table["id"], live.viewer_key(seat), "en")
        layer.groups.setdefault(group, {})[f"bench.{table['id']}.{seat}"] = 10**12
    return {"id": table["id"], "seats": seats}


def measure(game: str, players: list[Player], rnd: random.Random) -> dict:
    tables = [open_table(game, players) for _ in range(args.tables)]
    get_cpu = post_cpu = 0.0
    frames_cpu[0] = 0.0
    drawn = parts.renders if parts else 0
    queries = 0
    for n in range(args.moves):
        slot = n % len(tables)
        row = Table.objects.values_list("status", "to_act").get(pk=tables[slot]["id"])
        if row[0] != Table.PLAYING:
            tables[slot] = open_table(game, players)
            row = Table.objects.values_list("status", "to_act").get(pk=tables[slot]["id"])
        table = tables[slot]
        player = table["seats"][row[1][0]]
        reset_queries()
        start = time.process_time()
        seen = player.call("GET", f"/api/tables/{table['id']}")
        middle = time.process_time()
        seat = row[1][0]
        move = bots.choose(game, seen["view"], seen["legal_moves"], "casual", rnd.randrange(10**9), seat=seat)
        before_post = time.process_time()
        player.call("POST", f"/api/tables/{table['id']}/moves", {"move": move, "seq": seen["seq"]})
        end = time.process_time()
        queries += len(connection.queries)
        get_cpu += middle - start
        post_cpu += end - before_post
    moves = args.moves
    return {
        "cpu": 1000 * (get_cpu + post_cpu) / moves,
        "get": 1000 * get_cpu / moves,
        "post": 1000 * post_cpu / moves,
        "frames": 1000 * frames_cpu[0] / moves,
        "queries": queries / moves,
        "drawn": (parts.renders - drawn) / moves if parts else None,
    }


def main():
    call_command("migrate", verbosity=0)
    players = []
    for i in range(SEATS):
        user = User.objects.create_user(f"cpu{i}", password=f"live-cpu-{i}-passphrase")
        players.append(Player(Client(), ApiToken.issue(user, "live cpu")[1]))
    print(f"Live path CPU per move, one process ({ROOT}); {args.tables} tables x {SEATS} seats per game")
    print(f"{'game':<15}{'CPU ms':>8}{'GET':>7}{'POST':>7}{'frames':>8}{'queries':>9}{'parts drawn':>13}")
    rnd = random.Random(1)
    connection.force_debug_cursor = True  # (counts the queries; DEBUG, as `make run` serves, does too)
    for game in args.games.split(",") if args.games else list(registry.games()):
        r = measure(game, players, rnd)
        drawn = "-" if r["drawn"] is None else f"{r['drawn']:.1f}"
        print(
            f"{game:<15}{r['cpu']:>8.2f}{r['get']:>7.2f}{r['post']:>7.2f}{r['frames']:>8.2f}"
            f"{r['queries']:>9.1f}{drawn:>13}"
        )
    if parts:  # what the memo holds after every game's moves, against its cap
        kept = list(parts._kept.values())
        size = sum(sys.getsizeof(html) for html in kept) + sys.getsizeof(parts._kept) + 49 * len(kept)
        print(
            f"kept frame parts: {len(kept)} of {parts.KEPT_PARTS}, {size / 2**20:.1f} MiB (markup and keys)"
        )


if __name__ == "__main__":
    main()
