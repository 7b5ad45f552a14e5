"""CPU per socket move in one process, on the embedded default (SQLite, in-memory layer and cache) or on
PostgreSQL + Redis (channels_redis layer, Redis cache): what the scale-out path costs beside the embedded one,
without the sockets and without other processes' noise.

Run:  .venv/bin/python bench/scale_cpu.py                 (both set-ups, one after the other)
      .venv/bin/python bench/scale_cpu.py --setup redis --profile 25   (cProfile's top 25, cumulative)
      .venv/bin/python bench/scale_cpu.py --tree ../other-checkout     (the same measure of another checkout)
      SCALE_CPU_PARTS=1 .venv/bin/python bench/scale_cpu.py --setup redis   (the CPU split by part, on stderr)

Each set-up runs in a process of its own (this script again, with --setup): --tables Cosmic Crowns tables of
4 seated players, each seat's socket stood for by a channel of the layer in its group in English, which
receives its messages on the event loop as a socket's consumer does (on Redis counted, where the checkout has
it, as TableConsumer.join counts a socket), then --moves moves, each played as a table socket plays
it (``tables.socket_moves.play``, on a thread lent by an event loop that runs beside it in this process and
sends the frames). Printed: the process's CPU per move (every thread: the move, the frames, the sends),
queries per move, frames rendered per move, group messages sent per move. PostgreSQL at 127.0.0.1:5432 (a
database of its own, dropped afterwards) and Redis 127.0.0.1:6379 db 11 (flushed before and after). The third
set-up, ``redis-plain``, is PostgreSQL + Redis with Channels' own Redis layer (``channels_redis``) instead of the
site's (``config.layers``: a change's messages in one batch, a process's own sockets handed theirs in memory,
what is queued for a process taken in one batch): the home-made layer against the plain way, in the same run
(issue 31, point 6).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import threading
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--setup", choices=("sqlite", "redis", "redis-plain", "both"), default="both")
parser.add_argument("--tables", type=int, default=25)
parser.add_argument("--moves", type=int, default=600)
parser.add_argument("--warm", type=int, default=100, help="moves played before the measure")
parser.add_argument("--profile", type=int, default=0, help="print cProfile's top N (cumulative time)")
parser.add_argument("--tree", default=str(pathlib.Path(__file__).resolve().parent.parent), help="checkout")
parser.add_argument("--redis", default="redis://127.0.0.1:6379/11")
args = parser.parse_args()

ROOT = pathlib.Path(args.tree).resolve()
SEATS = 4


def run_both() -> None:
    from _services import services_up  # (bench/ is on the path: run as a script)

    why = services_up(args.redis)
    if why:
        print(f"CPU per socket move on PostgreSQL + Redis: skipped (they do not answer: {why})")
        return
    rows = {}
    for setup in ("sqlite", "redis", "redis-plain"):
        argv = [sys.executable, __file__, "--setup", setup, "--tables", str(args.tables)]
        argv += ["--moves", str(args.moves), "--warm", str(args.warm), "--tree", str(ROOT)]
        argv += ["--redis", args.redis]
        out = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        if out.returncode:
            raise SystemExit(f"{setup} failed:\n{out.stdout[-3000:]}{out.stderr[-3000:]}")
        rows[setup] = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"CPU per socket move, one process ({ROOT}); {args.tables} tables x {SEATS} seats, {args.moves} moves"
    )
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'set-up':<22}{'CPU ms':>8}{'(loop)':>8}{'queries':>9}{'frames':>8}{'sends':>7}{'received':>9}"
        f"{'cache':>7}"
    )
    for setup, r in rows.items():
        name = {
            "sqlite": "SQLite + in-memory",
            "redis": "PostgreSQL + Redis",
            "redis-plain": "  Channels' own layer",
        }[setup]
        print(
            f"{name:<22}{r['cpu']:>8.2f}{r['loop']:>8.2f}{r['queries']:>9.1f}{r['frames']:>8.1f}{r['sends']:>7.1f}"
            f"{r['received']:>9.1f}{r['cache']:>7.1f}"
        )
    ratio = rows["redis"]["cpu"] / rows["sqlite"]["cpu"]
    print(f"PostgreSQL + Redis / SQLite: {ratio:.2f}x (issue 31 point 5: <= 1.3x)")
    plain = rows["redis-plain"]
    print(
        f"The site's Redis layer (config.layers) against Channels' own: {rows['redis']['cpu']:.2f} ms against"
        f" {plain['cpu']:.2f} a move, {rows['redis']['loop']:.2f} against {plain['loop']:.2f} on the loop"
    )


def run_one() -> None:
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["WORKER_IN_PROCESS"] = "false"
    os.environ.setdefault("TABLE_CREATE_LIMIT", "100000")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    drop = None
    if args.setup == "sqlite":
        os.environ["SQLITE_PATH"] = str(pathlib.Path(tempfile.mkdtemp()) / "scale_cpu.sqlite3")
    else:
        import uuid

        import psycopg
        import redis

        name = f"cardclub_scalecpu_{uuid.uuid4().hex[:8]}"
        redis.Redis.from_url(args.redis).flushdb()
        with psycopg.connect("postgres://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect("postgres://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            redis.Redis.from_url(args.redis).flushdb()

        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
        os.environ["REDIS_URL"] = args.redis
    try:
        measure()
    finally:
        if drop is not None:
            from django.db import connections

            connections.close_all()
            drop()


def measure() -> None:
    import django

    django.setup()
    from django.conf import settings

    # As `make run` serves (the Makefile's SERVE_ENV): DEBUG off, so no query log and templates without their
    # debug information. The queries are counted as they run instead.
    settings.DEBUG = False
    if (
        args.setup == "redis-plain"
    ):  # (the site's layer, config.layers, against the one Channels' Redis gives)
        plain = {"BACKEND": "channels_redis.core.RedisChannelLayer"}
        settings.CHANNEL_LAYERS = {"default": {**settings.CHANNEL_LAYERS["default"], **plain}}

    from _statements import Statements  # (bench/_statements.py: bench/ is on the path)
    from channels.layers import InMemoryChannelLayer, get_channel_layer
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import close_old_connections, connection

    from tables import live, services, socket_moves
    from tables.models import Seat, Table

    call_command("migrate", verbosity=0)
    users = [
        User.objects.create_user(f"scale{i}", password=f"scale-cpu-{i}-passphrase") for i in range(SEATS)
    ]
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    loop_thread = threading.Thread(target=loop.run_forever, daemon=True)
    loop_thread.start()

    def loop_cpu() -> float:
        return time.clock_gettime(time.pthread_getcpuclockid(loop_thread.ident))

    def on_loop(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    try:
        from tables.stream_presence import sockets as counted
    except ImportError:  # (a checkout from before the sockets were counted)
        counted = None

    received = [0]

    async def receiving(channel: str) -> None:
        """A socket's side of the layer: its channel's messages received on the loop, as its consumer does."""
        while True:
            await layer.receive(channel)
            received[0] += 1

    def listen(table_id: int) -> None:
        for seat in range(SEATS):
            group = live.table_group(table_id, live.viewer_key(seat), "en")
            channel = on_loop(layer.new_channel())
            on_loop(layer.group_add(group, channel))
            asyncio.run_coroutine_threadsafe(receiving(channel), loop)
            if counted is not None and not isinstance(layer, InMemoryChannelLayer):
                on_loop(counted.aopened(group, layer))

    def open_table():
        table = services.create_table(users[0], "cosmic_crowns", SEATS, {})
        for user in users[1:]:
            services.join_table(table.pk, user)
        table = services.start_table(table.pk, users[0])
        listen(table.pk)
        return table.pk

    tables = [open_table() for _ in range(args.tables)]
    rnd = random.Random(1)
    sends = [0]
    frames = [0]
    from tables import loops

    _send = loops.send

    def counting_send(layer_, messages):
        sends[0] += len(messages)
        frames[0] += sum(1 for _, m in messages if m.get("type") == "table.frame")
        _send(layer_, messages)

    loops.send = counting_send
    parts = collections.Counter()  # where the CPU of the moves goes (thread time; --parts)
    if os.environ.get("SCALE_CPU_PARTS"):
        from tables import api_events, notifications, rooms

        def timed(owner, name):
            original = getattr(owner, name)

            def wrapper(*a, **kw):
                begin = time.thread_time()
                try:
                    return original(*a, **kw)
                finally:
                    parts[f"{owner.__name__}.{name}"] += time.thread_time() - begin

            setattr(owner, name, wrapper)

        timed(live.Publication, "run")
        timed(notifications, "refresh_badges")
        timed(api_events, "_send")
        timed(rooms, "for_change")
        timed(socket_moves, "play")
        timed(services, "play_move")
        timed(notifications, "turns_changed")
        from tables import rendering

        timed(live, "listened")
        timed(rooms, "advance")
        timed(rendering.Snapshot, "frame")
        timed(live.Publication, "snapshot")
    cache_calls = [0]

    who = collections.Counter()
    for name in ("get", "get_many", "set", "add", "incr", "decr", "touch", "delete", "set_many"):
        original = getattr(cache, name)

        def wrapped(*a, _original=original, _name=name, **kw):
            cache_calls[0] += 1
            if os.environ.get("SCALE_CPU_WHO"):
                import traceback

                frame = traceback.extract_stack(limit=4)[-3]
                who[f"{_name} {frame.filename.rsplit('/', 2)[-2:]}:{frame.lineno}"] += 1
            return _original(*a, **kw)

        setattr(cache, name, wrapped)

    seated = {}  # (table id, seat) -> the person

    def next_move(n: int):
        """The bench's own part, not measured: the seat to act at the next table and a legal move of theirs."""
        slot = n % len(tables)
        table = Table.objects.only("status", "to_act", "seq", "state", "game").get(pk=tables[slot])
        if table.status != Table.PLAYING:
            tables[slot] = open_table()
            table = Table.objects.only("status", "to_act", "seq", "state", "game").get(pk=tables[slot])
        seat = table.to_act[0]
        if (table.pk, seat) not in seated:
            seated[table.pk, seat] = (
                Seat.objects.select_related("user").get(table_id=table.pk, index=seat).user
            )
        engine = table.engine
        move = rnd.choice(engine.legal_moves(engine.load(table.state), seat))
        return table.pk, seated[table.pk, seat], json.dumps({"move": move, "seq": table.seq})

    def play(n: int, totals: list) -> None:
        begin = time.thread_time()
        table_id, user, text = next_move(n)
        totals[2] += time.thread_time() - begin
        statements = Statements()
        close_old_connections()  # (as the socket's database_sync_to_async does before and after its call)
        with connection.execute_wrapper(statements):
            refusal = socket_moves.play(table_id, user, text, "en", loop)
        close_old_connections()
        totals[1] += len(statements)
        if os.environ.get("SCALE_CPU_QUERIES") and n == args.warm + 5:
            for sql in statements.sql:
                print(sql[:160], file=sys.stderr)
        if refusal is not None:
            raise SystemExit(f"refused: {refusal[-300:]}")

    warm = [0.0, 0, 0.0]
    for n in range(args.warm):
        play(n, warm)
    time.sleep(0.5)
    sends[0] = frames[0] = cache_calls[0] = received[0] = 0
    parts.clear()
    measured = [0.0, 0, 0.0]  # (unused, queries, the bench's own CPU)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    cpu0, loop0 = time.process_time(), loop_cpu()
    moved = 0
    for n in range(args.warm, args.warm + args.moves):
        play(n, measured)
        moved += 1
    # the sends the loop still has in hand
    on_loop(asyncio.sleep(0.2))
    cpu_all, cpu_loop = time.process_time() - cpu0, loop_cpu() - loop0
    if profiler is not None:
        import pstats

        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(args.profile)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(args.profile)
    if who:
        print(who.most_common(20), file=sys.stderr)
    for name, seconds in parts.most_common():
        print(f"  {name:<40}{1000 * seconds / moved:7.2f} ms a move", file=sys.stderr)
    # CPU per move: every thread of the process over the measured moves (the move, the frames, the sends on
    # the loop's thread), less the bench's own reads between moves (choosing a move: a client's side)
    own = measured[2]
    print(
        f"(the bench's own reads between moves: {1000 * own / moved:.2f} ms a move, not counted)",
        file=sys.stderr,
    )
    print(
        json.dumps(
            {
                "cpu": 1000 * (cpu_all - own) / moved,
                "loop": 1000 * cpu_loop / moved,
                "queries": measured[1] / moved,
                "frames": frames[0] / moved,
                "sends": sends[0] / moved,
                "received": received[0] / moved,
                "cache": cache_calls[0] / moved,
            }
        )
    )
    os._exit(0)


if __name__ == "__main__":
    if args.setup == "both":
        run_both()
    else:
        run_one()
