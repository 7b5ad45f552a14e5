"""The live benchmark's smoke run: the three apps (site, floor, echo) come up, take moves and push frames,
and the table prints."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.slow

ROW = re.compile(r"^(\d+)/s\s+(site|floor|echo)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s", re.M)


def test_the_quick_live_bench_measures_the_three_apps():
    out = subprocess.run(
        [sys.executable, "bench/live.py", "--quick", "--no-services", "--skip-saturation", "--skip-idle"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
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
