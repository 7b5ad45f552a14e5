"""The live benchmark's smoke run: the three apps (site, floor, echo) come up, take moves and push frames,
and the table prints; with node and npm on the machine, the boardgame.io peer runs beside them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.processes import ROOT

pytestmark = pytest.mark.slow

PEER_ROWS = re.compile(
    r"^(\d+)/s\s+site\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\n"
    r"\s+bgio\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\n"
    r"\s+site/bgio\s",
    re.M,
)
ROW = re.compile(r"^(\d+)/s\s+(site|floor|echo)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s", re.M)


def test_the_quick_live_bench_measures_the_three_apps():
    out = subprocess.run(
        [sys.executable, "bench/live.py", "--quick", "--no-services", "--skip-saturation", "--skip-idle"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=420,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "p50 ms" in out.stdout and "site/echo" in out.stdout and "floor/echo" in out.stdout
    rows = {(int(m[1]), m[2]): m for m in ROW.finditer(out.stdout)}
    apps = ("echo", "floor", "site")
    assert sorted(rows) == [(rate, app) for rate in (5, 10) for app in apps], out.stdout
    for (_, app), row in rows.items():
        moves, p50, p99 = int(row[3]), int(row[5]), int(row[7])
        assert moves > 0, f"{app}: no move's frame reached all four seats\n{out.stdout}"
        assert 0 <= p50 <= p99
    assert "E. PostgreSQL + Redis: skipped (--no-services)" in out.stdout
    assert (
        "the site's moves over the socket" in out.stdout or "F. Against boardgame.io: skipped" in out.stdout
    )
    peer_present = (
        shutil.which("node") and shutil.which("npm") and (ROOT.parent / "shared/peers/bgio").is_dir()
    )
    if not peer_present:
        assert "F. Against boardgame.io: skipped" in out.stdout
        return
    pairs = {int(m[1]): m for m in PEER_ROWS.finditer(out.stdout)}
    assert sorted(pairs) == [5, 10], out.stdout
    for row in pairs.values():
        site_rate, site_cpu, site_bytes = float(row[2]), float(row[3]), int(row[8])
        peer_rate, peer_cpu, peer_bytes = float(row[9]), float(row[10]), int(row[15])
        assert site_rate > 0 and peer_rate > 0, out.stdout
        assert site_cpu > 0 and peer_cpu > 0 and site_bytes > 0 and peer_bytes > 0, out.stdout
    # the site's moves went over the sockets: none was refused
    assert "socket move refused" not in out.stdout, out.stdout
