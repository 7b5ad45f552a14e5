"""The live benchmark's part E on the real PostgreSQL and Redis (issue 31, point 5): one daphne, then two with
each table's sockets spread over both (frames cross processes through Redis), then two with a table's
sockets on one; every one takes its moves without an error, and frames stay partial across processes."""

from __future__ import annotations

import re
import statistics

import pytest

from tests.conftest import require_or_skip
from tests.processes import run_bench
from tests.services.test_scale_out import services_up

pytestmark = [pytest.mark.services, pytest.mark.slow]

# phase, app, moves, mv/s, p50, p95, p99, non200, 5xx, nohttp, drops, missing, no-ready, frame B
SAT_ROW = re.compile(
    r"^sat [\d.]+\s+(site x1|site x2 t|site x2)\s+(\d+)\s+[\d.]+\s+\S+\s+\S+\s+\S+"
    r"\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+(\d+)\s",
    re.M,
)


def test_one_daphne_against_two_keeps_frames_partial_across_processes():
    if not services_up():
        require_or_skip(
            "REQUIRE_SERVICES", "PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 are needed"
        )
    stdout = run_bench("live.py", "--quick", "--only-services", "--sat-factor", "1.5", timeout=900)
    rows: dict[str, list] = {}
    for m in SAT_ROW.finditer(stdout):
        rows.setdefault(m[1], []).append(m)
    assert sorted(rows) == ["site x1", "site x2", "site x2 t"], stdout
    frame_bytes = {}
    for app, found in rows.items():
        assert sum(int(m[2]) for m in found) > 0, f"{app}: no move's frame reached all four seats\n{stdout}"
        errors = [int(m[k]) for m in found for k in range(3, 7)]  # non200, 5xx, nohttp, drops
        # (and no frame missing but at the last step, the one the server could not sustain, if any)
        errors += [int(m[7]) for m in found[:-1]]
        assert not any(errors), f"{app}: errors\n{stdout}"
        frame_bytes[app] = statistics.median(int(m[8]) for m in found)
    # A table's seats on two processes get what changed as those on one do (a whole frame is 3-5 times more).
    assert frame_bytes["site x2"] < 1.5 * frame_bytes["site x1"], (frame_bytes, stdout)
    assert frame_bytes["site x2 t"] < 1.5 * frame_bytes["site x1"], (frame_bytes, stdout)
    assert (
        "two daphnes, sockets spread:" in stdout and "two daphnes, a table's sockets on one daphne:" in stdout
    )
