"""Live frames stay small (issue #11): at a seeded mid-game position of every game, the frames rendered for
each seat and a spectator, as the sockets render them, fit the game's budget. bench/frames.py measures
whole games."""

from __future__ import annotations

import random
import statistics
from html.parser import HTMLParser

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
    """The median frame of every viewer at four positions on the way to mid-game (like bench/frames.py, which
    takes every position of whole games: one position alone is above or below the median by chance), and
    every frame of the mid-game position under the ceiling."""
    users = [make_user(f"player{i}") for i in range(players)]
    table = started_table(game, users)
    viewers = [*users, AnonymousUser()]
    rng, sizes = random.Random(11), []
    for played in (steps // 4, steps // 2, 3 * steps // 4, steps):
        play_sensibly(table, users, rng, played - table.seq)
        table.refresh_from_db()
        frames = [render_frame(table, viewer, "en") for viewer in viewers]
        sizes += [len(frame.encode()) for frame in frames]
    assert table.status == Table.PLAYING and table.seq == steps, "a mid-game position"
    assert statistics.median(sizes) <= BUDGET[game], sizes
    assert max(sizes[-len(viewers) :]) <= CEILING, sizes
    # In French the words are longer, the markup the same: every element and attribute, none added.
    for viewer, english in zip(viewers, frames, strict=True):
        assert markup(render_frame(table, viewer, "fr")) == markup(english)


def markup(frame: str) -> list[tuple[str, ...]]:
    """The frame's tags with their attribute names, without the words (text and attribute values)."""
    tags: list[tuple[str, ...]] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.append((tag, *(name for name, _ in attrs)))

        def handle_endtag(self, tag):
            tags.append(("/" + tag,))

    Tags().feed(frame)
    return tags
