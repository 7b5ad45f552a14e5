"""The streams bench's smoke run: the site comes up, the streams open, the figures print (their values are
the bench's business, not this test's)."""

from __future__ import annotations

import re

import pytest

from tests.processes import run_bench

pytestmark = pytest.mark.slow


def test_the_streams_bench_measures_idle_streams_and_a_moves_fan_out():
    stdout = run_bench("streams.py", "--streams", "10", "--idle", "1", "--moves", "1", timeout=180)
    assert "10 table streams and 2 event streams open" in stdout, stdout
    assert re.search(r"[\d.]+ KiB per stream", stdout), stdout
    assert re.search(r"idle CPU over 1 s: [\d.]+ s", stdout), stdout
    assert re.search(r"reached all 10 table streams in \d+ ms", stdout), stdout
