"""How fast the history, leaderboard and player pages answer on the embedded default (SQLite) with a large
club: many players and finished games, bulk-created. Target: 50 ms median each.

Run: python bench/history.py [--players N --games N] [--full (10,000 players, 100,000 games)] [--runs N]"""

import argparse
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

import moves  # noqa: E402, F401  (its preamble sets Django up on a temporary SQLite file, as wanted here)
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from rules import registry  # noqa: E402
from tables.history import outcome  # noqa: E402
from tables.models import Rating, Seat, Standing, Table  # noqa: E402

BATCH = 5000


def fill(players: int, games: int, rnd: random.Random) -> list[User]:
    users = User.objects.bulk_create(
        [User(username=f"player{i:05d}", password="!") for i in range(players)], batch_size=BATCH
    )
    slugs = sorted(registry.games())
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for first in range(0, games, BATCH):
        count = min(BATCH, games - first)
        tables, seated = [], []
        for i in range(count):
            slug = rnd.choice(slugs)
            n = rnd.randint(2, min(4, registry.get(slug).max_players))
            people = rnd.sample(users, n)
            scores = [rnd.randint(0, 100) for _ in people]
            best = max(scores)
            at = start + timedelta(minutes=7 * (first + i))
            tables.append(
                Table(
                    game=slug,
                    players=n,
                    status=Table.FINISHED,
                    rated=True,
                    private=rnd.random() < 0.05,
                    seed=rnd.getrandbits(62),
                    started_at=at - timedelta(minutes=20),
                    finished_at=at,
                    result={
                        "scores": scores,
                        "winners": [s for s in range(n) if scores[s] == best],
                        "replaced": [],
                    },
                )
            )
            seated.append(people)
        tables = Table.objects.bulk_create(tables, batch_size=BATCH)
        Standing.objects.bulk_create(
            [
                Standing(
                    table=t,
                    user=u,
                    game=t.game,
                    outcome=outcome(t.result["winners"], i),
                    finished_at=t.finished_at,
                )
                for t, people in zip(tables, seated, strict=True)
                for i, u in enumerate(people)
            ],
            batch_size=BATCH,
        )
        Seat.objects.bulk_create(
            [
                Seat(table=t, index=i, user=u)
                for t, people in zip(tables, seated, strict=True)
                for i, u in enumerate(people)
            ],
            batch_size=BATCH,
        )
    ratings = []
    for slug in slugs:
        for u in users:
            if rnd.random() < 0.8:
                mu, sigma = rnd.gauss(25, 4), rnd.uniform(1, 8.3)
                ratings.append(
                    Rating(
                        user=u,
                        game=slug,
                        mu=mu,
                        sigma=sigma,
                        ordinal=mu - 3 * sigma,
                        games=rnd.randint(1, 60),
                    )
                )
    Rating.objects.bulk_create(ratings, batch_size=BATCH)
    return users


def measure(client: Client, url: str, runs: int) -> tuple[float, int]:
    client.get(url)  # warm the caches
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), len(queries)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--full", action="store_true", help="the issue's 10,000 players and 100,000 games")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if args.full:
        args.players, args.games = 10000, 100000
    call_command("migrate", verbosity=0)
    t = time.perf_counter()
    users = fill(args.players, args.games, random.Random(1))
    print(f"{args.players} players, {args.games} finished games filled in {time.perf_counter() - t:.0f} s")
    me = users[7]
    client = Client()
    client.force_login(me)
    pages = [
        ("leaderboard, page 1", "/leaderboards/cosmic_crowns/"),
        ("leaderboard, page 20", "/leaderboards/five_crowns/?page=20"),
        ("history", "/history/"),
        ("history, won at Five Crowns", "/history/?game=five_crowns&result=won"),
        ("history, lost, dated", "/history/?result=lost&from=2025-03-01&to=2025-12-31"),
        ("player page", f"/players/{users[8].username}/"),
    ]
    print(f"{'page':<32}{'median ms':>10}{'queries':>9}")
    for label, url in pages:
        ms, queries = measure(client, url, args.runs)
        print(f"{label:<32}{ms:>10.1f}{queries:>9}{'' if ms <= 50 else '   over the 50 ms target'}")


if __name__ == "__main__":
    main()
