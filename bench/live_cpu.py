"""CPU per move of the live path, in one process: what bench/live.py's client costs the server, without the
network and without the noise of other processes' wall-clock time.

Run:  .venv/bin/python bench/live_cpu.py                  (every game, both ways; a minute or two on 2 cores)
      .venv/bin/python bench/live_cpu.py --games cosmic_crowns --tables 25 --moves 500
      .venv/bin/python bench/live_cpu.py --via socket --profile /tmp/moves.prof   (the socket moves, profiled)
      .venv/bin/python bench/live_cpu.py --tree ../other-checkout   (the same measure of another checkout)

For each game: --tables tables of 4 seated players on a fresh SQLite file, every seat's group of the
in-memory channel layer listening in English (so each move renders its 4 frames, as under bench/live.py),
then --moves moves, each as the live bench's client plays it: GET /api/tables/<id> as the seat to act,
then POST /api/tables/<id>/moves, both through Django's handler and middleware (the test client). The
frames are rendered but not sent (no sockets: bench/live.py measures those). Printed per game: the
process's CPU time per move, split into the GET and the POST, and within the POST the frames (rendering
and handing them over: tables.live.Publication.run); the queries per move; the frame parts drawn per move
(those not taken from tables.parts' memo; "-" for a checkout without it).

--via socket (``both``, the default, runs both ways, one row each): each move as bench/live.py's default
client sends it, ``{"move", "seq"}`` as a text message over the mover's own table socket, with every
seat's socket open (the site's ASGI application, config.asgi, as daphne serves it: its session cookie,
its origin; the in-memory channel layer), each move done once all 4 sockets have its frame. The move is
chosen beforehand, outside the measure (bench/live.py's client reads it from the frame's buttons). The
socket's move runs on the thread it lends (``tables.socket_moves.play``, as ``TableConsumer.receive``
calls it); the frames are sent from the event loop. Printed per game: the process's CPU per move, split
into the move's thread: "service" (the message read, the move judged, written and committed: everything
but what runs once it has committed), "frames" (``Snapshot.frame``: the viewers' frames drawn) and "rest"
(the rest of what runs after commit: badges, notifications, stream checks, the room advanced, the sends
handed to the loop); and "loop" (the event loop: the sends through the channel layer, the 4 sockets
forwarding their frames: what daphne's loop does besides its network). Then the queries per move (on the
move's thread) and the frame parts drawn per move. --badges: each player also has the "Your turn" badge's
socket open (/ws/notifications/, on every page of the site), so that a move whose turn changes renders and
sends the badges of the people concerned (counted in "rest"). --out-of-sight K: the last K seats' pages of every
table say they are out of sight (a tab behind another: ``{"visible":false}``, tables.consumers), so that
their frames are not drawn; a move is done once the others have theirs.

--elsewhere: before each measured socket move, another process makes one (a thread with rooms of its own,
unmeasured; its frames reach this process's sockets, which keep them as heard), so that every measured move
finds its table's room one move behind: a table whose sockets are spread over two daphnes, or whose bots
move in the worker (the room catches up, ``tables.rooms``).

--profile FILE: then --moves more socket moves per game played on the main thread alone (the socket's
message handed to ``tables.socket_moves.play`` as the consumer hands it, the frames rendered for 4 listening
seats, their sends dropped), under cProfile (on Python 3.12 it sees every thread: hence one thread alone),
saved for pstats (``python -m pstats FILE``; ``sort tottime`` / ``sort cumtime``), its top lines printed.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pathlib
import pstats
import random
import sys
import tempfile
import threading
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", help="comma-separated slugs (default: every game of the checkout's registry)")
parser.add_argument("--tables", type=int, default=10, help="tables per game, played in turn")
parser.add_argument("--moves", type=int, default=300, help="moves measured per game")
parser.add_argument(
    "--via", choices=("http", "socket", "both"), default="both", help="how the moves are sent"
)
parser.add_argument(
    "--badges", action="store_true", help="socket moves: each player also has a page's badge socket open"
)
parser.add_argument(
    "--out-of-sight",
    type=int,
    default=0,
    choices=range(4),
    help="socket moves: this many of each table's 4 pages say they are out of sight (another tab in front)",
)
parser.add_argument(
    "--elsewhere",
    action="store_true",
    help="socket moves: before each, another process (rooms of its own) makes a move, unmeasured",
)
parser.add_argument("--profile", help="save a cProfile of the socket moves' thread to this file")
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
os.environ.setdefault(
    "MAX_UNFINISHED_TABLES", "100000"
)  # (every game's tables are opened by the same 4 players)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

# As `make run` serves (the Makefile's SERVE_ENV): DEBUG off, so no query log and templates without their debug
# information. The queries are counted as they run instead (bench/_statements.py).
settings.DEBUG = False

from _statements import Statements  # noqa: E402  (bench/_statements.py: bench/ is on the path)
from asgiref.sync import sync_to_async  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.testing import WebsocketCommunicator  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.backends.base.base import BaseDatabaseWrapper  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from config.asgi import application  # noqa: E402
from rules import bots, registry  # noqa: E402
from tables import live, rendering, rooms, services, socket_moves  # noqa: E402
from tables.models import Table  # noqa: E402

try:
    from tables import parts
except ImportError:  # (a checkout from before the memo)
    parts = None

SEATS = 4
sockets_listen = [False]  # the socket moves' sockets listen for real; the HTTP moves' frames are not sent
_send = live.send
live.send = lambda layer, messages: _send(layer, messages) if sockets_listen[0] else None
frames_cpu = [0.0]
_run = live.Publication.run


def timed_run(self):
    start = time.thread_time()
    try:
        _run(self)
    finally:
        frames_cpu[0] += time.thread_time() - start


live.Publication.run = timed_run


class Tally:
    """CPU of the socket moves' thread, by part (seconds), and its queries."""

    def __init__(self):
        self.play = self.hooks = self.frames = 0.0
        self.queries = 0


tally = Tally()
on_thread = threading.local()  # (the parts are timed on the move's thread only)
_play = socket_moves.play
_hooks = BaseDatabaseWrapper.run_and_clear_commit_hooks
_frame = rendering.Snapshot.frame


def timed_play(table_id, user, text_data, lang, loop=None):
    counted = Statements()
    on_thread.timing = True
    start = time.thread_time()
    try:
        with connection.execute_wrapper(counted):
            return _play(table_id, user, text_data, lang, loop)
    finally:
        tally.play += time.thread_time() - start
        on_thread.timing = False
        tally.queries += len(counted)


def timed_hooks(self):
    if not getattr(on_thread, "timing", False):
        return _hooks(self)
    start = time.thread_time()
    try:
        return _hooks(self)
    finally:
        tally.hooks += time.thread_time() - start


def timed_frame(self, *args, **kwargs):
    if not getattr(on_thread, "timing", False):
        return _frame(self, *args, **kwargs)
    start = time.thread_time()
    try:
        return _frame(self, *args, **kwargs)
    finally:
        tally.frames += time.thread_time() - start


socket_moves.play = timed_play
BaseDatabaseWrapper.run_and_clear_commit_hooks = timed_hooks
rendering.Snapshot.frame = timed_frame


class Player:
    def __init__(self, client: Client, token: str, cookie: str = "", user=None):
        self.client, self.token, self.cookie = client, token, cookie  # (the API's client sends no cookie)
        self.user = user

    def call(self, method: str, path: str, body=None):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}
        if method == "GET":
            response = self.client.get(path, **auth)
        else:
            response = self.client.post(path, body or {}, content_type="application/json", **auth)
        if response.status_code not in (200, 201):
            raise SystemExit(f"{method} {path} answered {response.status_code}: {response.content[:300]!r}")
        return response.json()


def open_table(game: str, players: list[Player], listen: bool = True) -> dict:
    table = players[0].call("POST", "/api/tables", {"game": game, "players": SEATS})
    seats = {0: players[0]}
    for player in players[1:]:
        seats[player.call("POST", f"/api/tables/{table['id']}/join")["seat"]] = player
    players[0].call("POST", f"/api/tables/{table['id']}/start")
    if not listen:
        return {"id": table["id"], "seats": seats}
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
        start = time.process_time()
        seen = player.call("GET", f"/api/tables/{table['id']}")
        middle = time.process_time()
        seat = row[1][0]
        move = bots.choose(game, seen["view"], seen["legal_moves"], "casual", rnd.randrange(10**9), seat=seat)
        counted = Statements()
        before_post = time.process_time()
        with connection.execute_wrapper(counted):
            player.call("POST", f"/api/tables/{table['id']}/moves", {"move": move, "seq": seen["seq"]})
        end = time.process_time()
        queries += len(counted)
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


async def open_socket(path: str, player: Player) -> WebsocketCommunicator:
    """A browser's socket at ``path`` as ``player`` (their session), once its first frame has come."""
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", player.cookie.encode()),
    ]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=30)
    if not connected:
        raise SystemExit(f"the socket {path} of {player.user} was refused")
    await socket.receive_from(timeout=30)  # (its first, whole frame)
    return socket


class SocketTable:
    """A table being played with its 4 seats' sockets open, as browsers hold them under daphne."""

    def __init__(self, table: dict, players: list[Player]):
        self.id, self.seats, self.players = table["id"], table["seats"], players
        self.sockets: dict[int, WebsocketCommunicator] = {}

    async def connect(self):
        for seat, player in self.seats.items():
            self.sockets[seat] = await open_socket(f"/ws/tables/{self.id}/", player)
        self.in_sight = list(self.sockets.values())[: SEATS - args.out_of_sight]
        for socket in list(self.sockets.values())[SEATS - args.out_of_sight :]:
            await socket.send_to(text_data='{"visible":false}')
            assert await socket.receive_nothing(timeout=0.05)  # (taken, and answered by nothing)

    async def close(self):
        for socket in self.sockets.values():
            await socket.disconnect()


def next_move(game: str, table_id: int, rnd: random.Random) -> tuple[int, dict, int] | None:
    """(seat, move, seq) of the table's next move, chosen as a bot would (outside the measure); None: over."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.PLAYING:
        return None
    engine, seat = table.engine, table.to_act[0]
    state = engine.load(table.state)
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    return seat, bots.choose(game, view, legal, "casual", rnd.randrange(10**9), seat=seat), table.seq


class DroppedSends:
    """The event loop a socket's move hands its sends to, as far as the profile needs one: they are dropped."""

    def call_soon_threadsafe(self, *args, **kwargs):
        pass


class Elsewhere:
    """--elsewhere: another process, stood for by a thread whose rooms are its own (as
    tests/tables/test_frames_across_processes.py does), so that every measured move finds its room one move
    behind, as with a table's sockets spread over two daphnes or its bots moving in the worker. Its frames
    reach this process's sockets, which keep them as heard (tables.rooms). The frame-part memo is shared
    (a real second process draws the parts it did not draw itself: not counted here)."""

    def __init__(self):
        self.local, self.rooms, self.lock = threading.local(), {}, threading.Lock()
        here = rooms.room

        def either(table_id):
            if not getattr(self.local, "b", False):
                return here(table_id)
            with self.lock:
                return self.rooms.setdefault(table_id, rooms.Room(table_id))

        rooms.room = either

    def play(self, table_id, user, move, seq):
        self.local.b = True
        try:
            services.play_move(table_id, user, move, seq)
        finally:
            self.local.b = False


def profile_sockets(game: str, players: list[Player], rnd: random.Random, profile: cProfile.Profile) -> None:
    tables = [open_table(game, players) for _ in range(args.tables)]
    loop = DroppedSends()
    for n in range(args.moves):
        slot = n % len(tables)
        chosen = next_move(game, tables[slot]["id"], rnd)
        if chosen is None:
            tables[slot] = open_table(game, players)
            chosen = next_move(game, tables[slot]["id"], rnd)
        table = tables[slot]
        seat, move, seq = chosen
        text = json.dumps({"move": move, "seq": seq})
        profile.enable()
        refused = socket_moves.play(table["id"], table["seats"][seat].user, text, "en", loop)
        profile.disable()
        if refused is not None:
            raise SystemExit(
                f"the move {move} at seq {seq} of table {table['id']} was refused: {refused[:500]}"
            )


async def measure_sockets(game: str, players: list[Player], rnd: random.Random) -> dict:
    sockets_listen[0] = True
    choose = sync_to_async(next_move, thread_sensitive=False)
    opened = sync_to_async(lambda: open_table(game, players, listen=False), thread_sensitive=False)

    async def start():
        table = SocketTable(await opened(), players)
        await table.connect()
        return table

    tables = [await start() for _ in range(args.tables)]
    badges = [await open_socket("/ws/notifications/", player) for player in players] if args.badges else []
    global tally
    tally = Tally()
    drawn = parts.renders if parts else 0
    loop_cpu = 0.0
    elsewhere = Elsewhere() if args.elsewhere else None
    for n in range(args.moves):
        slot = n % len(tables)
        for turn in ("elsewhere", "here") if elsewhere else ("here",):
            chosen = await choose(game, tables[slot].id, rnd)
            if chosen is None:
                await tables[slot].close()
                tables[slot] = await start()
                chosen = await choose(game, tables[slot].id, rnd)
            if turn == "elsewhere":  # (not measured: its frames reach this process's sockets)
                table, (seat, move, seq) = tables[slot], chosen
                await sync_to_async(elsewhere.play, thread_sensitive=False)(
                    table.id, table.seats[seat].user, move, seq
                )
                for socket in table.in_sight:
                    await socket.receive_from(timeout=30)
        table = tables[slot]
        seat, move, seq = chosen
        played = tally.play
        start_cpu = time.process_time()
        await table.sockets[seat].send_to(text_data=json.dumps({"move": move, "seq": seq}))
        for socket in table.in_sight:
            frame = await socket.receive_from(timeout=30)
            if "data-refused" in frame:
                raise SystemExit(
                    f"the move {move} at seq {seq} of table {table.id} was refused: {frame[:500]}"
                )
        for badge in badges:  # (the badges sent so far: read, as the page would)
            while not badge.output_queue.empty():
                badge.output_queue.get_nowait()
        # (the process's CPU but the move's thread's: the event loop, the sockets, the channel layer)
        loop_cpu += time.process_time() - start_cpu - (tally.play - played)
    for table in tables:
        await table.close()
    for badge in badges:
        await badge.disconnect()
    sockets_listen[0] = False
    moves = args.moves
    return {
        "cpu": 1000 * (tally.play + loop_cpu) / moves,
        "service": 1000 * (tally.play - tally.hooks) / moves,
        "frames": 1000 * tally.frames / moves,
        "rest": 1000 * (tally.hooks - tally.frames) / moves,
        "loop": 1000 * loop_cpu / moves,
        "queries": tally.queries / moves,
        "drawn": (parts.renders - drawn) / moves if parts else None,
    }


def main():
    call_command("migrate", verbosity=0)
    players = []
    for i in range(SEATS):
        user = User.objects.create_user(f"cpu{i}", password=f"live-cpu-{i}-passphrase")
        browser = Client()
        browser.force_login(user)  # (a session for the sockets; logged in before any table is read)
        cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
        players.append(Player(Client(), ApiToken.issue(user, "live cpu")[1], cookie, user))
    print(f"Live path CPU per move, one process ({ROOT}); {args.tables} tables x {SEATS} seats per game")
    rnd = random.Random(1)
    games = args.games.split(",") if args.games else list(registry.games())
    if args.via in ("http", "both"):
        print("Moves posted (GET /api/tables/<id>, then POST .../moves), frames rendered, not sent:")
        print(f"{'game':<15}{'CPU ms':>8}{'GET':>7}{'POST':>7}{'frames':>8}{'queries':>9}{'parts drawn':>13}")
        for game in games:
            r = measure(game, players, rnd)
            drawn = "-" if r["drawn"] is None else f"{r['drawn']:.1f}"
            print(
                f"{game:<15}{r['cpu']:>8.2f}{r['get']:>7.2f}{r['post']:>7.2f}{r['frames']:>8.2f}"
                f"{r['queries']:>9.1f}{drawn:>13}"
            )
    if args.via in ("socket", "both"):
        away = f", {args.out_of_sight} of them out of sight" if args.out_of_sight else ""
        print(f"Moves over the table socket, frames sent to the 4 seats' sockets{away} (ms of CPU per move):")
        print(
            f"{'game':<15}{'CPU ms':>8}{'service':>9}{'frames':>8}{'rest':>7}{'loop':>7}{'queries':>9}"
            f"{'parts drawn':>13}"
        )
        for game in games:
            r = asyncio.run(measure_sockets(game, players, rnd))
            drawn = "-" if r["drawn"] is None else f"{r['drawn']:.1f}"
            print(
                f"{game:<15}{r['cpu']:>8.2f}{r['service']:>9.2f}{r['frames']:>8.2f}{r['rest']:>7.2f}"
                f"{r['loop']:>7.2f}{r['queries']:>9.1f}{drawn:>13}"
            )
        if args.profile:
            profile = cProfile.Profile()
            for game in games:
                profile_sockets(game, players, rnd, profile)
            profile.dump_stats(args.profile)
            for order in ("tottime", "cumtime"):
                print(f"--- socket moves on one thread, by {order} (saved: {args.profile})")
                pstats.Stats(args.profile).sort_stats(order).print_stats(30)
    if parts:  # what the memo holds after every game's moves, against its cap
        kept = list(parts._kept.values())
        size = sum(sys.getsizeof(html) for html in kept) + sys.getsizeof(parts._kept) + 49 * len(kept)
        print(
            f"kept frame parts: {len(kept)} of {parts.KEPT_PARTS}, {size / 2**20:.1f} MiB (markup and keys)"
        )


if __name__ == "__main__":
    main()
