"""Two workers at once never start a tournament or a Swiss round twice, count a table twice or seat an arena
player twice: two processes tick the same tournaments together, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.conftest import require_or_skip
from tests.processes import PG, ROOT, fresh_database, migrate, shell, sqlite_env
from tests.services.test_scale_out import services_up

SETUP = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from tables import tournaments
from tables.models import Table
users = [get_user_model().objects.create_user(f"p{i}", password="x") for i in range(8)]
def new(**fields):
    data = {"game": "cosmic_crowns", "format": "swiss", "table_size": 2, "rounds": 3, "move_time": 3600}
    return tournaments.create(users[0], {**data, **fields})
swiss = new()
for user in users:
    tournaments.join(swiss.pk, user)
tournaments.start(swiss.pk, users[0])
Table.objects.filter(tournament=swiss).update(status=Table.ABORTED)  # round 1 over: round 2 is due
soon = (timezone.now() + timedelta(seconds=1)).isoformat()
scheduled = new(starts_at=soon)
arena = new(format="arena", rounds=None, minutes=60, starts_at=soon, bots={"count": 3})
for user in users[:7]:
    tournaments.join(scheduled.pk, user)
    tournaments.join(arena.pk, user)
print(swiss.pk, scheduled.pk, arena.pk)
"""

WORKER = """
import time
from django.db import OperationalError
from tables import tournaments
while time.time() < {at}:
    time.sleep(0.01)
done = {{}}
for _ in range(40):
    for key, value in tournaments.tick().items():
        done[key] = done.get(key, 0) + value
print(done)
"""

CHECK = """
import json
from tables.models import Table, Tournament, TournamentTable
out = {}
for pk in (%s):
    t = Tournament.objects.get(pk=pk)
    rows = list(TournamentTable.objects.filter(tournament=t))
    per_round = {}
    for row in rows:
        per_round.setdefault(row.round, []).extend(row.entrants)
    playing = [pk for row in rows if row.table.status == Table.PLAYING for pk in row.entrants]
    out[pk] = {
        "status": t.status,
        "round": t.round,
        "entrants": t.entrants.count(),
        "seated_per_round": {r: sorted(v) for r, v in per_round.items()},
        "playing": playing,
        "claimed": sorted(t.entrants.exclude(playing=None).values_list("pk", flat=True)),
        "games": sorted(t.entrants.values_list("games", flat=True)),
    }
print(json.dumps(out))
"""


def site(kind: str, tmp_path):
    if kind == "sqlite":
        env = sqlite_env(tmp_path / "db.sqlite3")
        migrate(env)
        return env, None
    if not services_up():
        require_or_skip("REQUIRE_SERVICES", "PostgreSQL on 127.0.0.1:5432 is needed")
    database = fresh_database("tournaments")
    name = database.__enter__()
    env = sqlite_env(tmp_path / "unused.sqlite3", DATABASE_URL=PG.format(name))
    migrate(env)
    return env, database


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def test_two_workers_ticking_together_start_count_and_seat_once(kind, tmp_path):
    env, database = site(kind, tmp_path)
    env = {**env, "WORKER_IN_PROCESS": "false", "BOT_DELAY": "0"}
    try:
        swiss, scheduled, arena = shell(env, SETUP).strip().splitlines()[-1].split()
        at = time.time() + 3  # both workers begin together, after the scheduled starts are due
        workers = [
            subprocess.Popen(
                [sys.executable, "manage.py", "shell", "-c", WORKER.format(at=at)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outputs = [w.communicate(timeout=300) for w in workers]
        assert all(w.returncode == 0 for w in workers), outputs
        state = json.loads(shell(env, CHECK % f"{swiss}, {scheduled}, {arena}").strip().splitlines()[-1])
    finally:
        if database is not None:
            database.__exit__(None, None, None)
    swiss_state, scheduled_state, arena_state = state[swiss], state[scheduled], state[arena]
    # The Swiss round 2 started once: eight players, each seated once; round 1 counted once for each.
    assert swiss_state["round"] == 2
    assert swiss_state["seated_per_round"]["2"] == sorted(set(swiss_state["seated_per_round"]["2"]))
    assert len(swiss_state["seated_per_round"]["2"]) == 8
    assert swiss_state["games"] == [1] * 8
    # The scheduled Swiss started once: round 1, seven players (three tables and a bye).
    assert scheduled_state["status"] == "running" and scheduled_state["round"] == 1
    assert len(scheduled_state["seated_per_round"]["1"]) == 6
    assert len(set(scheduled_state["seated_per_round"]["1"])) == 6
    # The arena started once and nobody sits at two tables: seven persons and three bots, in four duels (the
    # last person with a bot; two bots wait, never seated together).
    assert arena_state["status"] == "running" and arena_state["entrants"] == 10
    assert len(arena_state["playing"]) == len(set(arena_state["playing"])) == 8
    assert sorted(arena_state["playing"]) == arena_state["claimed"]
