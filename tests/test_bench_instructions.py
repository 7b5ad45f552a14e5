"""bench/instructions.py: the process valgrind counts draws every viewer's frame of each position it kept (here
run without valgrind, which counts nothing then: the drawing is what is checked)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_counted_process_draws_each_viewers_frame_of_each_position():
    bench = ROOT / "bench" / "instructions.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--child", str(ROOT), "--games", "cosmic_crowns", "--positions", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    frames, size = done.stdout.split()[1::2]
    assert int(frames) == 3 * 5  # 3 positions x (4 seats + a spectator)
    assert int(size) > 3 * 5 * 5000  # (whole frames: several KiB each)
