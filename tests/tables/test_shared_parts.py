"""{% shared %}: the parts of a frame every viewer sees alike are rendered once per change, and a frame
drawn with them is exactly the frame drawn without (no viewer ever gets another viewer's part)."""

import random

import pytest

from rules import registry
from tables import rendering, services
from tables.models import Table

pytestmark = pytest.mark.django_db


def frames(table, users, shared: bool) -> dict:
    """Every viewer's frame (each seat, a spectator) in each language: one snapshot for all of them, as a
    change renders them, or a fresh snapshot per frame (nothing shared)."""
    snapshot = rendering.Snapshot.read(table)
    out = {}
    for lang in ("en", "fr"):
        for user in [*users, None]:
            if not shared:
                snapshot = rendering.Snapshot.read(table)
            out[lang, user.username if user else None] = snapshot.frame(user, lang)
    return out


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_a_frame_drawn_with_shared_parts_is_the_frame_drawn_without(game, make_user, started_table):
    engine = registry.games()[game]
    users = [make_user(f"p{i}") for i in range(min(4, engine.max_players))]
    table = started_table(game, users)
    rnd = random.Random(7)
    for _ in range(30):
        table = Table.objects.get(pk=table.pk)
        assert frames(table, users, shared=True) == frames(table, users, shared=False)
        if table.status != Table.PLAYING:
            break
        state = table.engine.load(table.state)
        seat = table.to_act[0]
        move = rnd.choice(table.engine.legal_moves(state, seat))
        services.play_move(table.pk, users[seat], move, table.seq)


def test_a_change_renders_a_shared_part_once_for_all_its_viewers(make_user, started_table):
    users = [make_user(f"p{i}") for i in range(4)]
    table = started_table("cosmic_crowns", users)
    snapshot = rendering.Snapshot.read(table)
    for user in [*users, None]:
        snapshot.frame(user, "en")
    names = [key[0] for key in snapshot._parts]
    assert sorted(names) == sorted(["cc-top", "cc-trick", "cc-last-round"] + ["cc-seat"] * 4)
