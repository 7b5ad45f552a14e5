"""A move's fields private to its mover (``Game.private_move_fields``) stay with the mover until the end."""

import random

import pytest
from django.test import Client

from accounts.models import ApiToken
from rules import bots, registry
from rules.core import BaseGame, move_as_seen, visible
from tables import selectors, services

pytestmark = pytest.mark.django_db


def play_until_a_drama(table, users):
    """Casual bots' moves, a Drama whenever one is legal, until a Drama with a payment is played."""
    rnd = random.Random(3)
    for _ in range(400):
        engine = table.engine
        state = engine.load(table.state)
        seat = table.to_act[0]
        position = selectors.position(table, seat, state)
        dramas = [m for m in position.legal_moves if m["type"] == "drama" and m.get("pay")]
        move = (
            dramas[0]
            if dramas
            else bots.choose(
                "cosplay", position.view, position.legal_moves, "casual", rnd.randrange(10**9), seat=seat
            )
        )
        table = services.play_move(table.pk, users[seat], move, table.seq).table
        if dramas:
            return table, seat
    raise AssertionError("no Drama was played")


def test_it_shows_a_drama_payment_to_its_payer_only(alice, bob, charlie, make_user):
    users = [alice, bob, charlie]
    table = services.create_table(alice, "cosplay", 3)
    for user in users[1:]:
        services.join_table(table.pk, user)
    table = services.start_table(table.pk, alice)
    table, payer = play_until_a_drama(table, users)
    row = table.moves.order_by("-seq").first()
    assert row.move["type"] == "drama" and row.move["pay"]
    readers = [*users, make_user("dora")]
    for user in readers:
        raw = ApiToken.issue(user)[1]
        listed = Client().get(f"/api/tables/{table.pk}/moves", HTTP_AUTHORIZATION=f"Bearer {raw}").json()
        shown = listed[-1]["move"]
        if user == users[payer]:
            assert shown == row.move
        else:
            assert "pay" not in shown
            assert shown == {k: v for k, v in row.move.items() if k != "pay"}


def test_it_shows_every_field_once_the_game_is_over():
    game = registry.get("cosplay")
    drama = {"type": "drama", "seat": 1, "pay": ["st-craft"]}
    assert move_as_seen(game, drama, 0, 1, over=False) == {"type": "drama", "seat": 1}
    assert move_as_seen(game, drama, 0, None, over=False) == {"type": "drama", "seat": 1}
    assert move_as_seen(game, drama, 0, 0, over=False) == drama
    assert move_as_seen(game, drama, 0, 1, over=True) == drama
    recruit = {"type": "recruit", "zone": 1, "pay": ["st-craft"]}  # told card by card in the log
    assert move_as_seen(game, recruit, 0, 1, over=False) == recruit


def test_every_engine_declares_each_move_field_its_events_do_not_tell():
    """Random playouts of every game: what a move names beyond its private fields (a card, above all) is told
    to a spectator by the move's events or shown in their view, before or after it."""
    from tests.tables.test_no_leaks import cards_of, strings_in

    assert BaseGame().private_move_fields({"type": "play", "card": "x"}) == frozenset()
    for slug, game in sorted(registry.games().items()):
        for seed in range(3):
            rnd = random.Random(seed)
            state = game.setup(players=3 if game.max_players >= 3 else 2, seed=seed)
            cards = cards_of(game.dump(state))
            for _ in range(150):
                if game.is_over(state):
                    break
                seat = game.to_act(state)[0]
                move = rnd.choice(game.legal_moves(state, seat))
                after = game.apply(state, seat, move)
                told = strings_in(visible(game.events(state, seat, move, after), None))
                told |= strings_in(game.view(state, None)) | strings_in(game.view(after, None))
                public = move_as_seen(game, move, seat, None, over=False)
                assert not (strings_in(public) & cards) - told, (slug, move)
                state = after
