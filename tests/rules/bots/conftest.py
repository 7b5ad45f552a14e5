"""Small search budgets: these tests check legality and information, not strength (bench/bots.py does)."""

from __future__ import annotations

import pytest

from rules.bots import chronica, cosmic_crowns, cosplay, five_crowns


@pytest.fixture(autouse=True)
def _small_budgets(monkeypatch):
    monkeypatch.setattr(cosmic_crowns, "SAMPLES", 3)
    monkeypatch.setattr(five_crowns, "SAMPLES", 4)
    monkeypatch.setattr(chronica, "SAMPLES", 2)
    monkeypatch.setattr(cosplay, "SAMPLES", 2)
