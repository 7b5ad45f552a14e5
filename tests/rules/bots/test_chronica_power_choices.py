"""The Chronica bots answer the choices the powers ask (the rulings of 2026-11-26): which opponent a
Disgrace hits, which wandering character an Exile sends home."""

from __future__ import annotations

import pytest

from rules.bots import choose
from rules.chronica import GAME
from tests.rules.chronica.helpers import board

MOLIERE = "moliere"
BOURGOGNE = "palais-des-ducs-de-bourgogne"
DONJON = "donjon-de-loches"


def powered(**kw):
    state = board(**kw)
    state["options"] = dict(state["options"], powers=True)
    return state


def bot_move(state, level, seed=3):
    moves = GAME.legal_moves(state, 0)
    return choose("chronica", GAME.view(state, 0), moves, level, seed)


def molieres_position(provinces, honour):
    """Molière in hand, a Bourgogne of seat 1 it beats (Prestige 6 against 5), and nothing else to play."""
    provinces = {1: {0: (BOURGOGNE, None)}, **provinces}
    return powered(players=3, hands={0: [MOLIERE]}, provinces=provinces, honour=honour)


@pytest.mark.parametrize("level", ["casual", "strong"])
def test_the_bots_make_the_leading_opponent_lose_the_honour(level):
    # seat 2 leads (three buildings); seat 1 has one
    leader = {
        2: {
            i: ("chateau-de-chinon" if i == 0 else "abbaye-de-cluny" if i == 1 else "la-sorbonne", None)
            for i in range(3)
        }
    }
    state = molieres_position(leader, [6, 6, 6])
    attacks = [m for m in GAME.legal_moves(state, 0) if m["type"] == "action" and m["target"]["seat"] == 1]
    assert {m["disgrace"] for m in attacks} == {1, 2}
    move = bot_move(state, level)
    if move["type"] == "action" and move["card"] == MOLIERE and move["target"]["seat"] == 1:
        assert move["disgrace"] == 2


@pytest.mark.parametrize("level", ["casual", "strong"])
def test_the_bots_knock_out_an_opponent_when_it_wins_them_the_game(level):
    # seat 2 has 1 honour left; seat 0 has more victory points than seat 1: taking seat 2's last honour
    # ends the game with seat 0 the winner.
    mine = {0: {0: (None, "alcuin"), 1: (None, "roland")}}  # wanderers: no building to occupy
    state = molieres_position(mine, [9, 9, 1])
    move = bot_move(state, level)
    assert move["type"] == "action" and move["card"] == MOLIERE and move["disgrace"] == 2
    after = GAME.apply(state, 0, move)
    assert GAME.is_over(after) and GAME.result(after)["winners"] == [0]


@pytest.mark.parametrize("level", ["casual", "strong"])
def test_the_bots_exile_a_wandering_character_of_the_leader(level):
    state = powered(
        players=3,
        hands={0: [DONJON]},
        provinces={
            1: {0: (None, "alcuin")},
            2: {0: (None, "philippe-auguste"), 1: ("chateau-de-chinon", None), 2: ("abbaye-de-cluny", None)},
        },
    )
    builds = [m for m in GAME.legal_moves(state, 0) if m["type"] == "build" and "welcome" not in m]
    assert {(m["exile"]["seat"], m["exile"]["slot"]) for m in builds} == {(1, 0), (2, 0)}
    move = bot_move(state, level)
    if move["type"] == "build" and move["card"] == DONJON and "welcome" not in move:
        assert move["exile"] == {"seat": 2, "slot": 0}
