"""How long a move takes through the whole service (lock, rules, log, snapshot, broadcast), and how many
database queries it costs early and late in a game. Run: python bench/moves.py [--games N]"""

import argparse
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["SQLITE_PATH"] = str(pathlib.Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.pop("DATABASE_URL", None)
os.environ["WORKER_IN_PROCESS"] = "false"

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402

from rules import bots, registry  # noqa: E402
from tables import services  # noqa: E402
from tables.models import Table  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"p{i}", password="x") for i in range(3)]
    rnd = random.Random(1)
    print(
        f"{'game':<15}{'moves':>7}{'median ms':>11}{'p95 ms':>9}{'queries first 20':>18}{'queries last 20':>17}"
        f"{'last move':>11}"
    )
    with override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}):
        for slug in sorted(registry.games()):
            times, queries, ends = [], [], []
            for _ in range(args.games):
                game: list[int] = []  # queries per move, this game
                table = services.create_table(users[0], slug, 3)
                for u in users[1:]:
                    services.join_table(table.pk, u)
                table = services.start_table(table.pk, users[0])
                engine = table.engine
                for _ in range(3000):
                    if table.status != Table.PLAYING:
                        break
                    state = engine.load(table.state)
                    seat = table.to_act[0]
                    move = bots.choose(
                        slug,
                        engine.view(state, seat),
                        engine.legal_moves(state, seat),
                        "casual",
                        rnd.randrange(10**9),
                        seat=seat,
                    )
                    # Django keeps at most 9,000 queries in its log, and a full log captures nothing: empty it.
                    connection.queries_log.clear()
                    start = time.perf_counter()
                    with CaptureQueriesContext(connection) as ctx:
                        table = services.play_move(table.pk, users[seat], move, table.seq).table
                    times.append((time.perf_counter() - start) * 1000)
                    game.append(len(ctx.captured_queries))
                # A game's first and last 20 moves but its very last (which ends the game: the result,
                # ratings, history), shown apart: queries per move must not grow with the game.
                queries.append((game[:-1][:20], game[:-1][-20:]))
                ends.append(game[-1])
            times.sort()
            first = [q for early, _ in queries for q in early]
            last = [q for _, late in queries for q in late]
            print(
                f"{slug:<15}{len(times):>7}{statistics.median(times):>11.2f}{times[int(len(times) * 0.95)]:>9.2f}"
                f"{max(first):>18}{max(last):>17}{max(ends):>11}"
            )


if __name__ == "__main__":
    main()
