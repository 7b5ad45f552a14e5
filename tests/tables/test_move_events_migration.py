"""Migration 0006: moves logged as prose before it get their events by replaying the table from its seed."""

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules import registry

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = [("tables", "0005_ratings")], [("tables", "0006_move_events")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _latest_schema_after():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the schema every other test expects


def test_old_moves_get_the_events_the_engine_gives_them_now():
    apps = migrate(BEFORE)
    Table, Move = apps.get_model("tables", "Table"), apps.get_model("tables", "Move")
    engine = registry.get("cosmic_crowns")
    state = engine.setup(players=3, seed=7, options={})
    table = Table.objects.create(game="cosmic_crowns", players=3, seed=7, options={}, status="playing")
    rnd, expected = random.Random(7), []
    for seq in range(25):
        seat = engine.to_act(state)[0]
        move = rnd.choice(engine.legal_moves(state, seat))
        after = engine.apply(state, seat, move)
        expected.append(engine.events(state, seat, move, after))
        Move.objects.create(table=table, seq=seq, seat=seat, move=move, narration={"public": ["old prose"]})
        state = after
    unstarted = Table.objects.create(game="five_crowns", players=2, options={})

    apps = migrate(AFTER)
    Move = apps.get_model("tables", "Move")
    assert [m.events for m in Move.objects.filter(table_id=table.pk).order_by("seq")] == expected
    assert all(expected), "every move said something"
    assert not Move.objects.filter(table_id=unstarted.pk).exists()
