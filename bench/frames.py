"""How big a live frame is and how long it takes to render, per game: seeded bot games played through the
services, and at every step the frame (status + board + log) rendered for each seat and for a spectator,
as the sockets do, whole and as the partial frame a socket gets from the viewer's previous frame
(tables.frame_diff, as tables.live finds it; counted from the second step, as a socket gets a full frame
first). Sizes are KiB per seat per move. Run: python bench/frames.py [--seed N] [--every K]"""

import argparse
import random
import statistics
import time

import moves  # noqa: F401  (its preamble sets Django up on a temporary SQLite file, which this bench wants too)
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import call_command
from django.test.utils import override_settings

from rules import bots, registry
from tables import frame_diff, services
from tables.models import Table
from tables.rendering import render_frame

MAX_PLAYERS = 4
MAX_STEPS = 3000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def play_and_measure(slug: str, users: list, players: int, seed: int, every: int) -> dict[str, list]:
    """One seeded game with ``players`` seats; every ``every`` steps, each seat's frame and a spectator's,
    whole and partial (from the same viewer's frame of the step before)."""
    sizes, times, partials, diff_times = [], [], [], []
    before: dict[int, frame_diff.Parsed] = {}
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
            shared: dict = {}  # (what one change's partial frames found, reused among its viewers: tables.live)
            for i, viewer in enumerate(viewers):
                start = time.perf_counter()
                frame = render_frame(table, viewer)
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(frame.encode()) / 1024)
                start = time.perf_counter()
                parsed = frame_diff.Parsed.of(frame, like=before.get(i))
                if i in before:
                    part = frame_diff.partial(before[i], parsed, shared)
                    diff_times.append((time.perf_counter() - start) * 1000)
                    partials.append(len(part.encode()) / 1024)
                before[i] = parsed
        if table.status != Table.PLAYING:
            break
        state = engine.load(table.state)
        seat = table.to_act[0]
        view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
        move = bots.choose(slug, view, legal, "casual", rnd.randrange(10**9), seat=seat)
        table = services.play_move(table.pk, seated[seat], move, table.seq).table
    return {"sizes": sizes, "times": times, "partials": partials, "diff_times": diff_times}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=1, help="render every K-th step (1: every step)")
    parser.add_argument("--games", default="", help="comma-separated game slugs (default: every game)")
    args = parser.parse_args()
    wanted = set(filter(None, args.games.split(",")))
    call_command("migrate", verbosity=0)
    users = [User.objects.create_user(f"p{i}", password="x") for i in range(MAX_PLAYERS)]
    print(
        f"{'game':<15}{'players':>8}{'frames':>8}{'full KiB median':>16}{'p95':>7}{'max':>7}"
        f"{'partial KiB median':>19}{'p95':>7}{'max':>7}{'render ms median':>17}{'p95':>7}{'diff ms median':>15}"
    )
    started = time.perf_counter()
    with override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}):
        for slug, engine in sorted(registry.games().items()):
            if wanted and slug not in wanted:
                continue
            counts = sorted({max(2, engine.min_players), min(MAX_PLAYERS, engine.max_players)})
            for players in counts:
                got = play_and_measure(slug, users, players, args.seed, args.every)
                sizes, times, partials = got["sizes"], got["times"], got["partials"]
                print(
                    f"{slug:<15}{players:>8}{len(sizes):>8}{statistics.median(sizes):>16.1f}"
                    f"{percentile(sizes, 0.95):>7.1f}{max(sizes):>7.1f}"
                    f"{statistics.median(partials):>19.2f}{percentile(partials, 0.95):>7.1f}{max(partials):>7.1f}"
                    f"{statistics.median(times):>17.2f}{percentile(times, 0.95):>7.1f}"
                    f"{statistics.median(got['diff_times']):>15.2f}",
                    flush=True,
                )
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
