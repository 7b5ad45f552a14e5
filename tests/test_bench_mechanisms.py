"""The mechanisms bench's smoke run: each configuration plays the same moves and prints its figures, and
the switches do what they say (the CPU figures are the bench's business, not this test's)."""

from __future__ import annotations

import re

import pytest

from tests.processes import run_bench

pytestmark = pytest.mark.slow

ROW = re.compile(
    r"^cosmic_crowns\s+(as shipped|no memo|no rooms|plain Django|no tokens kept|no cards kept|no raw SQL|no push SQL)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
    r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
    re.M,
)


def test_the_mechanisms_bench_plays_the_same_moves_with_each_mechanism_on_and_off():
    stdout = run_bench("mechanisms.py", "--quick", timeout=300)
    rows = {m[1]: [float(x) for x in m.groups()[1:]] for m in ROW.finditer(stdout)}
    assert list(rows) == [
        "as shipped",
        "no memo",
        "no rooms",
        "plain Django",
        "no tokens kept",
        "no cards kept",
        "no raw SQL",
        "no push SQL",
    ]
    assert (
        "frames identical and tables, seats, moves and pushes stored identical in every configuration"
        in stdout
    ), stdout
    socket_queries, http_queries, drawn = 4, 5, 6
    # Without the memo no part is kept, so none is counted as drawn for it; with it, parts are drawn.
    assert rows["as shipped"][drawn] > 0 and rows["no rooms"][drawn] > 0, stdout
    assert rows["no memo"][drawn] == rows["plain Django"][drawn] == 0, stdout
    # Without the rooms a move reads its seats and log and the state from the database: more queries.
    for column in (socket_queries, http_queries):
        assert rows["no rooms"][column] > rows["as shipped"][column], stdout
        assert rows["plain Django"][column] == rows["no rooms"][column], stdout
        assert rows["no memo"][column] == rows["as shipped"][column], stdout
        assert rows["no cards kept"][column] == rows["as shipped"][column], stdout
        # The ORM's lock and writes are one statement each, as the raw ones are.
        assert rows["no raw SQL"][column] == rows["as shipped"][column], stdout
    # Without the push queue's one statement a change of turn reads the person's devices, then inserts: one
    # query more per push queued (the players have devices), over the socket as over HTTP.
    for column in (socket_queries, http_queries):
        assert rows["no push SQL"][column] > rows["as shipped"][column], stdout
    # Without the kept tokens an API call reads its token's person: more queries over HTTP, none over a socket.
    assert rows["no tokens kept"][http_queries] > rows["as shipped"][http_queries], stdout
    assert rows["no tokens kept"][socket_queries] == rows["as shipped"][socket_queries], stdout
