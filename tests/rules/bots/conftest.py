"""Small search budgets: these tests check legality and information, not strength (bench/bots.py does)."""

from __future__ import annotations

import pytest

from rules import registry

# Samples per strong decision in these tests (2 for a game not listed).
SAMPLES = {"cosmic_crowns": 3, "five_crowns": 4}


@pytest.fixture(autouse=True)
def _small_budgets(monkeypatch):
    for slug in registry.games():
        brain = registry.bots(slug)
        if brain is not None and hasattr(brain, "SAMPLES"):
            monkeypatch.setattr(brain, "SAMPLES", SAMPLES.get(slug, 2))
