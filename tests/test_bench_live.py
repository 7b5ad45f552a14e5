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
