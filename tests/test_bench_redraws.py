"""bench/redraws.py: every part drawn in a seeded game is listed with its draws, the draws that gave markup it
had given before, and the inputs that differed then."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^cosmic_crowns +(\S+) +(\d+) +(\d+) +(\d+\.\d\d) *(.*)$", re.M)


def test_each_part_drawn_is_listed_with_its_draws_drawn_again():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "redraws.py"), "--games", "cosmic_crowns", "--positions", "12"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {
        name: (int(n), int(again), float(ms), why) for name, n, again, ms, why in ROW.findall(done.stdout)
    }
    assert {"cc-hand", "cc-seat", "cc-trick", "cc-prompt"} <= set(rows), done.stdout
    assert all(0 <= again <= n and (ms > 0) == (again > 0) for n, again, ms, _ in rows.values())
    # The mover's prompt reads every legal move and shows none of them while a card is to be played: drawn
    # again move after move, with the moves named as what differed.
    n, again, _, why = rows["cc-prompt"]
    assert again > 0 and "legal_moves" in why
