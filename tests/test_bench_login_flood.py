"""The log-in flood bench's smoke run: the site comes up, a game is played through the flood, the figures
print (their values are the bench's business, not this test's)."""

from __future__ import annotations

import re

import pytest

from tests.processes import run_bench

pytestmark = pytest.mark.slow

ROW = re.compile(r"^  (idle|one address|20 addresses)\s+([\d.]+) /\s+([\d.]+)\s+([\d.]+)x\s+([\d.]+) /", re.M)


def test_the_login_flood_bench_times_a_move_and_a_read_in_each_phase():
    stdout = run_bench("login_flood.py", "--seconds", "1", "--no-services", "--no-baseline", timeout=180)
    phases = [m[1] for m in ROW.finditer(stdout)]
    assert phases == ["idle", "one address", "20 addresses"], stdout
    assert re.search(r"log-ins\n.*\n.*\d+/s: 400: \d+", stdout), stdout  # the flood was answered
    assert stdout.count("p50 within 3x idle") == 4
    assert "PostgreSQL + Redis: skipped (--no-services)" in stdout
