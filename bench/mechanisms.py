"""What the move path's home-made mechanisms buy against the plain Django way, in one run: the frame-part
memo (``{% shared %}``, tables/parts.py) and the tables' rooms (tables/rooms.py), each on and off, and the
process's kept tokens and cards.

Run:  .venv/bin/python bench/mechanisms.py [--games cosmic_crowns,...] [--tables 4] [--moves 240] [--rounds 1]
      .venv/bin/python bench/mechanisms.py --quick      (a smoke run: one game, a few moves)

Eight configurations play the same seeded moves, each in a fresh process on a copy of the same freshly
migrated SQLite file (so every configuration has the same users, tables, seeds and moves):
  as shipped    everything on, as `make run` serves
  no memo       every frame drawn whole by Django's templates (the snapshot's ``memo`` off)
  no rooms      every change and read goes to the database: ``rooms.for_change`` reads the seats (the change
                loads the state and reads the log), ``rooms.position`` and ``rooms.now`` read the seats and
                load the state, ``rooms.advance`` keeps nothing. This is what the rooms do themselves when
                they find they are behind; it is patched in this bench only.
  plain Django  neither
and four more, each beside "as shipped": no tokens kept (``API_TOKEN_CACHE_SECONDS=0``: an API call looks its
token's person up every time), no cards kept (every ``{% card %}`` drawn by its template, not taken from
tables.templatetags.table_tags' cache; patched in the bench only) and no raw SQL (a change's lock, its table's
columns and its awaited seats written the ORM's way, ``select_for_update().get()``, ``save(update_fields=...)``
and ``update()`` with ``Case``/``When``, instead of tables/services.py's three raw statements; patched in the
bench only) and no push SQL (a turn's pushes queued by reading the person's devices, then ``bulk_create``,
instead of accounts/push.py's one ``INSERT … SELECT``; patched in the bench only). Every player has a push
device (the first, two), so that each change of turn queues its pushes, as for anyone who turned them on
(the default); none is sent (no worker runs).
Per game: --tables tables of 4 seated players, every seat's group of the in-memory channel layer listening
in English (so each change draws its 4 frames; they are drawn, not sent: no socket in this process), then
--moves moves after a warm-up, each table in turn, each sent (by a seeded coin) as over the table's socket
(``tables.socket_moves.play``, as the board sends a move) or through the API as an HTTP client does it
(``GET /api/tables/<id>`` as the mover, then ``POST /api/tables/<id>/moves``, through Django's handler and
middleware: the test client). The move is chosen outside the measurement by the casual bot from a seeded
generator. Printed per game and configuration: the process's CPU per socket move and per HTTP move (GET +
POST), the frames' share of it, a frame's render time (median CPU ms), queries per socket move and per HTTP
move (every statement, the GET's among them; BEGIN and COMMIT not counted), and the frame parts drawn per
move (not taken from the memo); then whether every configuration drew the same bytes (a digest of every
frame) and left the same rows (a digest of every table's, seat's and move's columns and of every push queued,
at the end), and what each mechanism saves against its absence. Django's DEBUG is off, as `make run` serves.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEATS = 4
CONFIGS = {  # name: what is off
    "as shipped": (),
    "no memo": ("memo",),
    "no rooms": ("rooms",),
    "plain Django": ("memo", "rooms"),
    "no tokens kept": ("tokens",),
    "no cards kept": ("cards",),
    "no raw SQL": ("sql",),
    "no push SQL": ("push",),
}
MAIN = ["as shipped", "no memo", "no rooms", "plain Django"]  # (the other four: each beside "as shipped")


def django_setup(sqlite_path: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["SQLITE_PATH"] = sqlite_path
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ["WORKER_IN_PROCESS"] = "false"
    os.environ["TABLE_CREATE_LIMIT"] = "100000"
    os.environ["MAX_UNFINISHED_TABLES"] = "100000"
    import django

    django.setup()


def without_rooms() -> None:
    """Every change and read of a table goes to the database, as before the rooms (bench only)."""
    from tables import rooms, selectors

    def for_change(table):
        return rooms.Held(selectors.read_seats(table), {})

    def position(table, viewer_of):
        seats = selectors.read_seats(table)
        return seats, selectors.position(table, viewer_of(seats), seats=seats)

    def now(table, key_of):
        return selectors.read_seats(table), selectors.load_state(table), None

    def advance(table, **drawn):
        return None

    for name, plain in {
        "for_change": for_change,
        "position": position,
        "now": now,
        "advance": advance,
    }.items():
        if not callable(getattr(rooms, name, None)):
            raise SystemExit(f"tables.rooms.{name} is gone: update bench/mechanisms.py's without_rooms")
        setattr(rooms, name, plain)


def without_kept_cards() -> None:
    """Every ``{% card %}`` drawn by its template, not taken from the process's cache (bench only)."""
    from tables.templatetags import table_tags

    if not hasattr(table_tags, "_card") or not hasattr(table_tags, "_render_card"):
        raise SystemExit(
            "tables.templatetags.table_tags changed: update bench/mechanisms.py's without_kept_cards"
        )
    table_tags._card = lambda game, code, look, language: table_tags._render_card(game, code, dict(look))


def without_raw_sql() -> None:
    """A change's lock, its table's columns and its awaited seats written the ORM's way, as before the three
    raw statements of tables/services.py: ``select_for_update().get()``, ``save(update_fields=...)`` and
    ``update()`` with ``Q``/``Case``/``When`` (bench only)."""
    from django.db.models import Case, Q, Value, When
    from django.utils.translation import gettext

    from tables import services
    from tables.errors import NotFound
    from tables.models import Seat, Table

    def locked_table(table_id):
        try:
            return Table.objects.select_for_update().get(pk=table_id)
        except (Table.DoesNotExist, ValueError, TypeError):
            raise NotFound(gettext("No such table.")) from None

    def write_columns(table, fields):
        table.save(update_fields=fields)

    def write_awaited(table_id, changed, awaited, begun, now):
        # (an empty IN is no SQL: Django would leave out the whole update)
        is_awaited = Q(index__in=sorted(awaited)) if awaited else Value(False)
        since = Case(When(index__in=sorted(begun), then=Value(now)), default=None) if begun else None
        Seat.objects.filter(table_id=table_id, index__in=sorted(changed)).update(
            awaited=is_awaited, awaited_since=since
        )

    for name, plain in {
        "_locked_table": locked_table,
        "_write_columns": write_columns,
        "_write_awaited": write_awaited,
    }.items():
        if not callable(getattr(services, name, None)):
            raise SystemExit(f"tables.services.{name} is gone: update bench/mechanisms.py's without_raw_sql")
        setattr(services, name, plain)


def without_push_sql() -> None:
    """A turn's pushes queued the ORM's way, the person's devices read and then ``bulk_create``d, instead of
    accounts/push.py's one ``INSERT … SELECT`` (bench only)."""
    from accounts import push
    from accounts.models import OutgoingPush, PushSubscription

    def queue(user_id, payload, table_id, due):
        devices = PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
        rows = [
            OutgoingPush(
                user_id=user_id, subscription=device, payload=payload, table_id=table_id, next_attempt_at=due
            )
            for device in devices
        ]
        return len(OutgoingPush.objects.bulk_create(rows))

    if not callable(getattr(push, "_queue", None)):
        raise SystemExit("accounts.push._queue is gone: update bench/mechanisms.py's without_push_sql")
    push._queue = queue


def stored_digest() -> str:
    """A digest of every table's, seat's and move's columns as stored, and of every push queued. A time is
    given by where it stands to its table's last move (none, the same, before, or how many seconds after: a
    deadline), since the clock differs from one run to the next; a table's invite token, random, is left out,
    and so are a queued push's times."""
    from accounts.models import OutgoingPush
    from tables.models import Move, Seat, Table

    last = dict(Table.objects.values_list("pk", "last_move_at"))

    def when(value, table_id):
        if value is None or last[table_id] is None:
            return None if value is None else "set"
        seconds = (value - last[table_id]).total_seconds()
        return seconds if seconds >= 0 else "before"

    digest = hashlib.blake2b(digest_size=8)
    for model, order, table in (
        (Table, ("pk",), "id"),
        (Seat, ("table_id", "index"), "table_id"),
        (Move, ("table_id", "seq"), "table_id"),
    ):
        fields = [f for f in model._meta.concrete_fields if f.name != "invite_token"]
        for row in model.objects.order_by(*order).values_list(*(f.attname for f in fields)):
            values = dict(zip((f.attname for f in fields), row, strict=True))
            for field in fields:
                if field.get_internal_type() == "DateTimeField":
                    values[field.attname] = when(values[field.attname], values[table])
            digest.update(json.dumps([model.__name__, values], sort_keys=True).encode())
    pushes = OutgoingPush.objects.order_by("pk")
    for row in pushes.values("user_id", "subscription_id", "payload", "table_id", "status", "attempts"):
        digest.update(json.dumps(["OutgoingPush", row], sort_keys=True).encode())
    return digest.hexdigest()


def worker(args) -> None:
    """One configuration, one game, in this process; prints one JSON line of figures."""
    off = CONFIGS[args.config]
    if "tokens" in off:
        os.environ["API_TOKEN_CACHE_SECONDS"] = "0"  # (the setting: a token's person looked up on every call)
    django_setup(args.worker_db)
    import random

    from channels.layers import get_channel_layer
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from accounts.models import ApiToken
    from rules import bots
    from tables import live, loops, parts, rendering, services, socket_moves
    from tables.models import Table

    # As `make run` serves: no query log, templates without their debug information (the settings' DEBUG
    # also picks the static files' storage, which needs collectstatic: it stays as set up).
    settings.DEBUG = False
    memo = "memo" not in off
    if "rooms" in off:
        without_rooms()
    if "cards" in off:
        without_kept_cards()
    if "sql" in off:
        without_raw_sql()
    if "push" in off:
        without_push_sql()
    loops.send = lambda layer, messages: None  # drawn, not sent: no socket listens in this process

    frame_ms: list[float] = []
    frames_drawn = [0.0]  # CPU ms of every frame drawn so far (a move's: the difference around it)
    digest = hashlib.blake2b(digest_size=8)
    _frame = rendering.Snapshot.frame

    def frame(self, user, lang):
        self.memo = memo
        start = time.thread_time()
        html = _frame(self, user, lang)
        frame_ms.append((time.thread_time() - start) * 1000)
        frames_drawn[0] += frame_ms[-1]
        digest.update(html.encode())
        return html

    rendering.Snapshot.frame = frame

    users = list(User.objects.order_by("pk")[:SEATS])
    clients = {}
    for user in users:
        token = ApiToken.issue(user, "mechanisms")[1]
        clients[user.pk] = (Client(), {"HTTP_AUTHORIZATION": f"Bearer {token}"})
    layer = get_channel_layer()
    seeds = iter(range(args.seed, args.seed + 10**6))

    def open_table() -> int:
        table = services.create_table(users[0], args.game, SEATS)
        for user in users[1:]:
            services.join_table(table.pk, user)
        services.start_table(table.pk, users[0], seed=next(seeds))
        for seat in range(SEATS):
            group = live.table_group(table.pk, live.viewer_key(seat), "en")
            layer.groups.setdefault(group, {})[f"bench.{table.pk}.{seat}"] = 10**12
        return table.pk

    def call(user, method, path, body=None):
        client, auth = clients[user.pk]
        if method == "GET":
            response = client.get(path, **auth)
        else:
            response = client.post(path, body, content_type="application/json", **auth)
        if response.status_code != 200:
            raise SystemExit(f"{method} {path} answered {response.status_code}: {response.content[:300]!r}")
        return response.json()

    rnd, shapes = random.Random(args.seed), random.Random(args.seed + 1)
    tables = [open_table() for _ in range(args.tables)]
    # Queries counted as they run (Django empties connection.queries when a request starts: the POST's
    # would hide the GET's), BEGIN not, as every bench counts them (bench/_statements.py).
    from _statements import Statements  # (bench/ is on the path: run as a script)

    # shape: [CPU s, queries, moves, CPU s outside the frames (the move's service)]
    figures = {"socket": [0.0, 0, 0, 0.0], "http": [0.0, 0, 0, 0.0]}
    drawn_before = 0
    by_pk = {user.pk: user for user in users}
    for n in range(args.warmup + args.moves):
        if n == args.warmup:
            frame_ms.clear()
            drawn_before = parts.renders
        slot = n % len(tables)
        table = Table.objects.get(pk=tables[slot])
        if table.status != Table.PLAYING:
            tables[slot] = open_table()
            table = Table.objects.get(pk=tables[slot])
        seat = table.to_act[0]
        user = by_pk[table.seats.get(index=seat).user_id]
        engine = table.engine
        state = engine.load(table.state)
        move = bots.choose(
            args.game,
            engine.view(state, seat),
            engine.legal_moves(state, seat),
            "casual",
            rnd.randrange(10**9),
            seat=seat,
        )
        # (a seeded coin, not alternation: a game whose turns are two moves, Five Crowns' draw then discard,
        # would send all its draws one way and all its discards the other)
        shape = "socket" if shapes.random() < 0.5 else "http"
        count = Statements()
        start, frames_before = time.process_time(), frames_drawn[0]
        with connection.execute_wrapper(count):
            if shape == "socket":
                text = json.dumps({"move": move, "seq": table.seq})
                refused = socket_moves.play(table.pk, user, text, "en")
                if refused is not None:
                    raise SystemExit(f"the socket move was refused: {refused[:300]}")
            else:
                seen = call(user, "GET", f"/api/tables/{table.pk}")
                call(user, "POST", f"/api/tables/{table.pk}/moves", {"move": move, "seq": seen["seq"]})
        cpu = time.process_time() - start
        if n >= args.warmup:
            figures[shape][0] += cpu
            figures[shape][1] += len(count)
            figures[shape][2] += 1
            figures[shape][3] += cpu - (frames_drawn[0] - frames_before) / 1000
    moves = args.moves
    print(
        json.dumps(
            {
                "socket cpu": 1000 * figures["socket"][0] / max(1, figures["socket"][2]),
                "socket queries": figures["socket"][1] / max(1, figures["socket"][2]),
                "socket service": 1000 * figures["socket"][3] / max(1, figures["socket"][2]),
                "http cpu": 1000 * figures["http"][0] / max(1, figures["http"][2]),
                "http queries": figures["http"][1] / max(1, figures["http"][2]),
                "frames cpu": sum(frame_ms) / moves,
                "frame ms": statistics.median(frame_ms) if frame_ms else 0.0,
                "frames": len(frame_ms) / moves,
                "drawn": (parts.renders - drawn_before) / moves,
                "digest": digest.hexdigest(),
                "stored": stored_digest(),
            }
        )
    )


def prepare(path: str) -> None:
    """A migrated SQLite file with the bench's 4 players: every worker starts from a copy of it."""
    django_setup(path)
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from accounts.models import PushSubscription

    call_command("migrate", verbosity=0)
    for i in range(SEATS):
        user = User.objects.create_user(f"mech{i}", password=f"mechanisms-{i}-passphrase")
        for device in range(2 if i == 0 else 1):  # (pushes on, the default: each turn queues one per device)
            PushSubscription.objects.create(
                user=user,
                endpoint=f"https://push.example.invalid/mech{i}/{device}",
                p256dh="k" * 87,
                auth="a" * 22,
            )


def run_worker(template: pathlib.Path, config: str, game: str, args) -> dict:
    db = template.with_name(f"run-{time.monotonic_ns()}.sqlite3")
    shutil.copy(template, db)
    command = [sys.executable, __file__, "--worker-db", str(db), "--config", config, "--games", game]
    command += ["--tables", str(args.tables), "--moves", str(args.moves), "--warmup", str(args.warmup)]
    command += ["--seed", str(args.seed)]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    db.unlink(missing_ok=True)
    if out.returncode != 0:
        raise SystemExit(f"{config} / {game} failed:\n{out.stdout[-2000:]}{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def saving(plain: float, shipped: float) -> str:
    return f"{plain - shipped:+.2f} ms ({(plain - shipped) / plain:+.0%})" if plain else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated slugs (default: every game of the registry)")
    parser.add_argument("--tables", type=int, default=4, help="tables per game, played in turn")
    parser.add_argument("--moves", type=int, default=240, help="moves measured per game and configuration")
    parser.add_argument("--warmup", type=int, default=24, help="moves played first, not measured")
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs of every configuration; the least CPU kept"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: one game, a few moves")
    parser.add_argument("--worker-db", help=argparse.SUPPRESS)
    parser.add_argument("--config", choices=sorted(CONFIGS), help=argparse.SUPPRESS)
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare)
        return 0
    if args.worker_db:
        args.game = args.games
        worker(args)
        return 0
    if args.quick:
        args.games = args.games or "cosmic_crowns"
        args.tables, args.moves, args.warmup = 2, 16, 4
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-mechanisms-"))
    template = tmp / "template.sqlite3"
    subprocess.run([sys.executable, __file__, "--prepare", str(template)], check=True, cwd=ROOT)
    if args.games:
        games = args.games.split(",")
    else:
        sys.path.insert(0, str(ROOT))
        from rules import registry

        games = sorted(registry.games())
    print(
        f"The move path's mechanisms on and off: {args.tables} tables x {SEATS} seats per game, {args.moves} moves "
        f"(after {args.warmup}), each over the socket or GET + POST by a seeded coin; load average "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())} at the start"
    )
    head = (
        f"{'game':<15}{'configuration':<16}{'socket mv':>10}{'HTTP mv':>9}{'frames':>8}{'frame':>7}"
        f"{'q socket':>9}{'q HTTP':>8}{'parts':>7}"
    )
    print(head)
    print(f"{'':<15}{'':<16}{'CPU ms':>10}{'CPU ms':>9}{'CPU ms':>8}{'ms':>7}{'':>9}{'':>8}{'drawn':>7}")
    started = time.monotonic()
    for game in games:
        best: dict[str, dict] = {}
        for n in range(args.rounds):
            order = list(CONFIGS)
            order = order[n % len(order) :] + order[: n % len(order)]  # (a different one first each round)
            for config in order:
                got = run_worker(template, config, game, args)
                kept = best.get(config)
                if (
                    kept is None
                    or got["socket cpu"] + got["http cpu"] < kept["socket cpu"] + kept["http cpu"]
                ):
                    best[config] = got
        for config in CONFIGS:
            r = best[config]
            print(
                f"{game:<15}{config:<16}{r['socket cpu']:>10.2f}{r['http cpu']:>9.2f}{r['frames cpu']:>8.2f}"
                f"{r['frame ms']:>7.2f}{r['socket queries']:>9.1f}{r['http queries']:>8.1f}{r['drawn']:>7.1f}"
            )
        same = len({best[c]["digest"] for c in CONFIGS}) == 1
        stored = len({best[c]["stored"] for c in CONFIGS}) == 1
        memo = saving(best["no memo"]["socket cpu"], best["as shipped"]["socket cpu"])
        room = saving(best["no rooms"]["socket cpu"], best["as shipped"]["socket cpu"])
        room_http = saving(best["no rooms"]["http cpu"], best["as shipped"]["http cpu"])
        queries = best["no rooms"]["socket queries"] - best["as shipped"]["socket queries"]
        queries_http = best["no rooms"]["http queries"] - best["as shipped"]["http queries"]
        tokens = saving(best["no tokens kept"]["http cpu"], best["as shipped"]["http cpu"])
        tokens_queries = best["no tokens kept"]["http queries"] - best["as shipped"]["http queries"]
        cards = saving(best["no cards kept"]["socket cpu"], best["as shipped"]["socket cpu"])
        raw = saving(best["no raw SQL"]["socket cpu"], best["as shipped"]["socket cpu"])
        raw_http = saving(best["no raw SQL"]["http cpu"], best["as shipped"]["http cpu"])
        raw_queries = best["no raw SQL"]["socket queries"] - best["as shipped"]["socket queries"]
        # (the move's service, judged, written and committed: a socket move's CPU outside its frames)
        raw_service = saving(best["no raw SQL"]["socket service"], best["as shipped"]["socket service"])
        push = saving(best["no push SQL"]["socket service"], best["as shipped"]["socket service"])
        push_queries = best["no push SQL"]["socket queries"] - best["as shipped"]["socket queries"]
        print(
            f"  {game}: the memo saves {memo} of a socket move's CPU; the rooms save {room} of a socket move's "
            f"and {room_http} of an HTTP move's, {queries:+.1f} and {queries_http:+.1f} queries; the kept tokens "
            f"save {tokens} of an HTTP move's and {tokens_queries:+.1f} queries; the kept cards {cards} of a "
            f"socket move's; the raw SQL {raw} of a socket move's ({raw_service} of its service outside the frames) "
            f"and {raw_http} of an HTTP move's, "
            f"{raw_queries:+.1f} queries; the push queue's one statement {push} of a socket move's service, "
            f"{push_queries:+.1f} queries; frames {'identical' if same else 'DIFFERENT'} and tables, seats, "
            f"moves and pushes stored {'identical' if stored else 'DIFFERENTLY'} in every configuration",
            flush=True,
        )
    print(
        f"({time.monotonic() - started:.0f} s; load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} "
        "at the end)"
    )
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
