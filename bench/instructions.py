"""Instructions to draw live frames, counted by valgrind's callgrind: a measure of the frames' cost that the
machine's noise does not move, for changes too small for CPU time to show (a few percent) on a shared machine.

Run:  .venv/bin/python bench/instructions.py                        (this checkout, every game; a few minutes)
      .venv/bin/python bench/instructions.py --against 133121f      (the same beside another commit or checkout)
      .venv/bin/python bench/instructions.py --games five_crowns --positions 20

For each game and checkout, one process (PYTHONHASHSEED=0, under ``valgrind --tool=callgrind``, counting only
while the frames are drawn: ``callgrind_control -i on/off``) plays a seeded 4-player game through the services
on a fresh SQLite file, keeps a snapshot of each of its first --positions positions (tables.rendering.Snapshot,
its log read), then draws every snapshot's frame for each seat and a spectator, in English, as a change does
(the frame-part memo on). Printed per game: the instructions per frame in millions and, with --against, the
other checkout's and the ratio. Every checkout runs with this checkout's virtualenv; --against takes a commit
(checked out in a temporary worktree) or a directory. Without valgrind, it says so and stops.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ("chronica", "cosmic_crowns", "cosplay", "five_crowns")
SEATS = 4


def django_in(tree: str) -> None:
    """Set Django up on ``tree``'s code and a fresh SQLite file, migrated (no services, no worker)."""
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["SQLITE_PATH"] = str(pathlib.Path(tempfile.mkdtemp()) / "instructions.sqlite3")
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ["WORKER_IN_PROCESS"] = "false"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seeded_game(game: str, positions: int, prefix: str = "") -> tuple[list, list]:
    """(players, snapshots): a 4-player game played by casual bots from seed 5 through the services, and a
    snapshot of each of its first ``positions`` positions (tables.rendering.Snapshot, its log read); the
    players are ``<prefix>p0`` to ``<prefix>p3`` (their names are in the frames)."""
    import random

    from django.contrib.auth.models import User

    from rules import bots, registry
    from tables import services
    from tables.models import Table
    from tables.rendering import Snapshot

    users = [User.objects.create_user(f"{prefix}p{i}", password="x") for i in range(SEATS)]
    table = services.create_table(users[0], game, SEATS)
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, users[0], seed=5)
    engine, rnd = registry.games()[game], random.Random(5)
    snapshots = []
    for _ in range(positions):
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.PLAYING:
            break
        snapshot = Snapshot.read(table)
        snapshot.log_events()  # (the log read now: the database is not what is counted)
        snapshot.start_events()
        snapshots.append(snapshot)
        state, seat = engine.load(table.state), table.to_act[0]
        legal = engine.legal_moves(state, seat)
        move = bots.choose(game, engine.view(state, seat), legal, "casual", rnd.randrange(10**9), seat=seat)
        table = services.play_move(table.pk, users[seat], move, table.seq).table
    return users, snapshots


def child(tree: str, game: str, positions: int) -> None:
    """Draw the frames (the process valgrind counts)."""
    django_in(tree)
    from django.contrib.auth.models import AnonymousUser

    users, snapshots = seeded_game(game, positions)
    viewers = [*users, AnonymousUser()]

    def count(on: str) -> None:  # (outside valgrind, or without it, this does nothing)
        if shutil.which("callgrind_control"):
            subprocess.run(
                ["callgrind_control", "-i", on, str(os.getpid())], capture_output=True, check=False
            )

    count("on")
    drawn = sum(len(snapshot.frame(user, "en")) for snapshot in snapshots for user in viewers)
    count("off")
    print(f"frames {len(snapshots) * len(viewers)} bytes {drawn}")


def counted(tree: str, game: str, positions: int) -> tuple[int, int]:
    """(instructions, frames) of one game drawn in ``tree``."""
    command = [
        "valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--child", tree, "--games", game, "--positions", str(positions),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    instructions = re.search(r"Collected : (\d+)", done.stderr)
    frames = re.search(r"frames (\d+)", done.stdout)
    if done.returncode or not instructions or not frames:
        raise SystemExit(f"{tree} {game}: valgrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(instructions[1]), int(frames[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game slugs")
    parser.add_argument("--positions", type=int, default=40, help="positions of each game drawn")
    parser.add_argument("--against", help="a commit or a checkout's directory to count beside this one")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = args.games.split(",")
    if args.child:
        child(args.child, games[0], args.positions)
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed: nothing counted (apt-get install -y valgrind)")
        return
    trees, worktree = {"this checkout": str(ROOT)}, None
    if args.against:
        other = pathlib.Path(args.against)
        if not other.is_dir():
            worktree = tempfile.mkdtemp(prefix="instructions-")
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", worktree, args.against],
                check=True, capture_output=True,
            )  # fmt: skip
            other = pathlib.Path(worktree)
        trees[args.against] = str(other)
    try:
        jobs = [(name, tree, game) for game in games for name, tree in trees.items()]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            counts = pool.map(lambda job: counted(job[1], job[2], args.positions), jobs)
            results = {(name, game): count for (name, _, game), count in zip(jobs, counts, strict=True)}
    finally:
        if worktree:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", worktree], check=False)
    print(
        f"Instructions per frame drawn (millions; {args.positions} positions x {SEATS + 1} viewers per game)"
    )
    header = f"{'game':<15}{'this checkout':>15}"
    if args.against:
        header += f"{args.against[:15]:>16}{'ratio':>8}"
    print(header)
    for game in games:
        mine, frames = results["this checkout", game]
        line = f"{game:<15}{mine / frames / 1e6:>15.2f}"
        if args.against:
            theirs, their_frames = results[args.against, game]
            line += f"{theirs / their_frames / 1e6:>16.2f}{(mine / frames) / (theirs / their_frames):>8.3f}"
        print(line)


if __name__ == "__main__":
    main()
