"""The live benchmark's smoke run: the three apps (site, floor, echo) come up, take moves and push frames,
and the table prints; with node and npm on the machine, the boardgame.io peer runs beside them, and so does
the echo app taking its moves over the socket."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.processes import ROOT, run_bench

pytestmark = pytest.mark.slow

PEER_ROWS = re.compile(
    r"^(\d+)/s\s+site\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\n"
    r"\s+bgio\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\n"
    r"\s+site/bgio\s",
    re.M,
)
# The echo app with its moves over the socket beside the peer: what daphne + Channels spend with no work.
ECHO_ROWS = re.compile(
    r"^\s+echo ws\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\n\s+echo/bgio\s", re.M
)
ROW = re.compile(r"^(\d+)/s\s+(site|floor|echo)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s", re.M)


def test_the_quick_live_bench_measures_the_three_apps():
    stdout = run_bench("live.py", "--quick", "--no-services", "--skip-saturation", "--skip-idle", timeout=420)
    assert "p50 ms" in stdout and "site/echo" in stdout and "floor/echo" in stdout
    rows = {(int(m[1]), m[2]): m for m in ROW.finditer(stdout)}
    apps = ("echo", "floor", "site")
    assert sorted(rows) == [(rate, app) for rate in (5, 10) for app in apps], stdout
    for (_, app), row in rows.items():
        moves, p50, p99 = int(row[3]), int(row[5]), int(row[7])
        assert moves > 0, f"{app}: no move's frame reached all four seats\n{stdout}"
        assert 0 <= p50 <= p99
    assert "E. PostgreSQL + Redis: skipped (--no-services)" in stdout
    assert "the site's moves over the socket" in stdout or "F. Against boardgame.io: skipped" in stdout
    peer_present = (
        shutil.which("node") and shutil.which("npm") and (ROOT.parent / "shared/peers/bgio").is_dir()
    )
    if not peer_present:
        assert "F. Against boardgame.io: skipped" in stdout
        return
    pairs = {int(m[1]): m for m in PEER_ROWS.finditer(stdout)}
    assert sorted(pairs) == [5, 10], stdout
    for row in pairs.values():
        site_rate, site_cpu, site_bytes = float(row[2]), float(row[3]), int(row[8])
        peer_rate, peer_cpu, peer_bytes = float(row[9]), float(row[10]), int(row[15])
        assert site_rate > 0 and peer_rate > 0, stdout
        assert site_cpu > 0 and peer_cpu > 0 and site_bytes > 0 and peer_bytes > 0, stdout
    echoes = ECHO_ROWS.findall(stdout)
    assert len(echoes) == 2, stdout
    for rate, cpu, _p50, _p95, _p99, errors, size in echoes:
        assert float(rate) > 0 and float(cpu) > 0 and int(errors) == 0 and int(size) > 0, stdout
    # the site's and the echo app's moves went over the sockets: none was refused
    assert "socket move refused" not in stdout, stdout


def bench_client():
    """bench/live.py as a module (it runs as a script, with bench/ on its path)."""
    import importlib.util
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec = importlib.util.spec_from_file_location("live_bench", ROOT / "bench/live.py")
        module = sys.modules["live_bench"] = importlib.util.module_from_spec(spec)  # (its dataclasses look)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return module


@pytest.mark.django_db
def test_the_client_reads_from_partial_frames_the_moves_the_page_offers(make_user):
    """With partial frames, the live bench's client knows each seat's moves as the page does: a partial frame
    that keeps the parts holding them (unchanged) leaves them offered, and one that takes the turn away
    offers none. (It once read only the buttons a frame carried, took a kept hand for a finished game and
    replaced the table: 35 tables in 40 s, whose new games cost the site more than the frames saved.) At
    every step of a whole 4-seat game, for every seat, what it reads from the partial frames is what it reads
    from the whole one."""
    import random

    from rules import bots
    from tables import frame_diff, services
    from tables.models import Table
    from tables.rendering import render_frame

    client = bench_client()
    users = [make_user(f"bench{i}") for i in range(4)]
    table = services.create_table(users[0], "cosmic_crowns", 4)
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, users[0], seed=5)
    engine, rnd = table.engine, random.Random(5)
    before: dict[int, frame_diff.Parsed] = {}
    offered: dict[int, list] = {}
    kept = 0  # (steps where a seat's moves lay only in parts its partial frame kept)
    while table.status == Table.PLAYING:
        for seat, user in enumerate(users):
            frame = render_frame(table, user, "en")
            parsed = frame_diff.Parsed.of(frame, like=before.get(seat))
            whole = client.offered_now(frame, [])
            if seat in before:
                part = frame_diff.partial(before[seat], parsed)
                offered[seat] = client.offered_now(part, offered[seat])
                assert offered[seat] == whole, (seat, table.seq)
                kept += bool(whole) and not client.offered_moves(part)
            else:
                offered[seat] = whole
            before[seat] = parsed
        seat = table.to_act[0]
        state = engine.load(table.state)
        view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
        move = bots.choose("cosmic_crowns", view, legal, "casual", rnd.randrange(10**9), seat=seat)
        table = services.play_move(table.pk, users[seat], move, table.seq).table
    assert kept > 0, "no partial frame kept a seat's moves: the case is not tested"
