"""How big a live frame is and how long it takes to render, per game: seeded bot games played through the
services, and at every step the frame (status + board + log) rendered for each seat and for a spectator,
as the sockets do. Run: python bench/frames.py [--seed N] [--every K]"""

import argparse
import random
import statistics
import time

import moves  # noqa: F401  (its preamble sets Django up on a temporary SQLite file, which this bench wants too)
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import call_command
from django.test.utils import override_settings

from rules import bots, registry
from tables import services
from tables.models import Table
from tables.rendering import render_frame

MAX_PLAYERS = 4
MAX_STEPS = 3000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def play_and_measure(slug: str, users: list, players: int, seed: int, every: int) -> tuple[list, list]:
    """One seeded game with ``players`` seats; every ``every`` steps, each seat's frame and a spectator's."""
    sizes, times = [], []
    seated = users[:players]
    table = services.create_table(seated[0], slug, players)
    for user in seated[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, seated[0], seed=seed)
    engine = table.engine
    rnd = random.Random(seed)
    viewers = [*seated, AnonymousUser()]
    for step in range(MAX_STEPS):
        if step % every == 0 or table.status != Table.PLAYING:
            for viewer in viewers:
                start = time.perf_counter()
                frame = render_frame(table, viewer)
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(frame.encode()) / 1024)
        if table.status != Table.PLAYING:
            break
        state = engine.load(table.state)
        seat = table.to_act[0]
        view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
        move = bots.choose(slug, view, legal, "casual", rnd.randrange(10**9), seat=seat)
        table = services.play_move(table.pk, seated[seat], move, table.seq).table
    return sizes, times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=1, help="render every K-th step (1: every step)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"p{i}", password="x") for i in range(MAX_PLAYERS)]
    print(
        f"{'game':<15}{'players':>8}{'frames':>8}{'KiB median':>12}{'p95':>8}{'max':>8}"
        f"{'ms median':>11}{'p95':>8}"
    )
    started = time.perf_counter()
    with override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}):
        for slug, engine in sorted(registry.games().items()):
            counts = sorted({max(2, engine.min_players), min(MAX_PLAYERS, engine.max_players)})
            for players in counts:
                sizes, times = play_and_measure(slug, users, players, args.seed, args.every)
                print(
                    f"{slug:<15}{players:>8}{len(sizes):>8}{statistics.median(sizes):>12.1f}"
                    f"{percentile(sizes, 0.95):>8.1f}{max(sizes):>8.1f}"
                    f"{statistics.median(times):>11.1f}{percentile(times, 0.95):>8.1f}",
                    flush=True,
                )
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
