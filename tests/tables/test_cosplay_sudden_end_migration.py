"""Tables stored before Cosplay's end option changed (2026-11-26) keep meaning what they meant."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from rules.cosplay import GAME
from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tables.migrations.0008_cosplay_sudden_end")


def test_a_stored_tables_end_option_keeps_its_meaning(alice):
    stored = {
        "played out": services.create_table(alice, "cosplay", 2, {"sudden_end": False}),
        "sudden, said": services.create_table(alice, "cosplay", 2, {"sudden_end": False}),
        "sudden, default then": services.create_table(alice, "cosplay", 2, {"sudden_end": False}),
        "new": services.create_table(alice, "cosplay", 2, {"sudden_end": True}),
    }
    other = services.create_table(alice, "five_crowns", 2, {"keep_taken": True})
    # as they were stored before: the former option, or none
    Table.objects.filter(pk=stored["played out"].pk).update(options={"finish_round": True})
    Table.objects.filter(pk=stored["sudden, said"].pk).update(options={"finish_round": False})
    Table.objects.filter(pk=stored["sudden, default then"].pk).update(options={})
    migration.to_sudden_end(apps, None)
    options = {name: Table.objects.get(pk=t.pk).options for name, t in stored.items()}
    assert options == {
        "played out": {"sudden_end": False},
        "sudden, said": {"sudden_end": True},
        "sudden, default then": {"sudden_end": True},
        "new": {"sudden_end": True},
    }
    assert Table.objects.get(pk=other.pk).options == {"keep_taken": True}
    for name in stored:  # the engine reads each as it was meant
        state = GAME.setup(players=2, seed=5, options=options[name])
        assert state["options"]["sudden_end"] is (name != "played out")
    assert Table.objects.get(pk=stored["sudden, said"].pk).plays_a_house_rule
    migration.to_finish_round(apps, None)
    assert Table.objects.get(pk=stored["played out"].pk).options == {"finish_round": True}
    assert Table.objects.get(pk=stored["sudden, said"].pk).options == {"finish_round": False}
