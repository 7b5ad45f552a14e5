"""`make bench` runs every benchmark of bench/ and names it, and bench/RESULTS.md says what each measures."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_BENCHES = {"echo_app.py", "floor_app.py"}  # (the apps bench/live.py serves)


def benches_in_the_makefile() -> list[str]:
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = re.search(r"^BENCHES := (.*)$", text, re.M)
    assert found, "the Makefile has no BENCHES list"
    return found[1].split()


def test_make_bench_lists_every_bench_file_once():
    files = sorted(
        f"bench/{p.name}"
        for p in (ROOT / "bench").glob("*.py")
        if not p.name.startswith("_") and p.name not in NOT_BENCHES
    )
    listed = benches_in_the_makefile()
    assert len(listed) == len(set(listed)), listed
    assert sorted(listed) == files


def test_the_results_page_names_every_bench():
    results = (ROOT / "bench" / "RESULTS.md").read_text()
    missing = [bench for bench in benches_in_the_makefile() if f"`{bench}`" not in results]
    assert not missing, missing
