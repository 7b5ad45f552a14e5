"""Live frames stay small (issue #11): at a seeded mid-game position of every game, the frames rendered for
each seat and a spectator, as the sockets render them, fit the game's budget. bench/frames.py measures
whole games."""

from __future__ import annotations

import random
import statistics

import pytest
from django.contrib.auth.models import AnonymousUser

from tables.management.commands.seed_demo import play_sensibly
from tables.models import Table
from tables.rendering import render_frame

pytestmark = pytest.mark.django_db

KIB = 1024
# The goal: a median frame of at most 20 KiB, in every game.
BUDGET = {"chronica": 20 * KIB, "cosmic_crowns": 20 * KIB, "five_crowns": 20 * KIB, "cosplay": 20 * KIB}
# No single viewer's frame (the mover's carries its moves) may grow far past that either.
CEILING = 32 * KIB


@pytest.mark.parametrize(
    "game, players, steps",
    [
        ("chronica", 2, 24),
        ("chronica", 4, 24),
        ("cosmic_crowns", 2, 20),
        ("cosmic_crowns", 4, 40),
        ("cosplay", 2, 24),
        ("cosplay", 4, 30),
        ("five_crowns", 2, 60),
        ("five_crowns", 4, 120),
    ],
)
def test_the_frames_of_a_mid_game_position_are_small(started_table, make_user, game, players, steps):
    users = [make_user(f"player{i}") for i in range(players)]
    table = started_table(game, users)
    play_sensibly(table, users, random.Random(11), steps)
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.seq == steps, "a mid-game position"
    sizes = [len(render_frame(table, viewer).encode()) for viewer in [*users, AnonymousUser()]]
    assert statistics.median(sizes) <= BUDGET[game], sizes
    assert max(sizes) <= CEILING, sizes
