"""Seeded random playouts with invariants, dump/load, determinism, and a Hypothesis fuzz of moves."""

from __future__ import annotations

import importlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.chronica import GAME, preview
from rules.chronica.cards import CARD_BY_CODE, CARDS
from rules.core import IllegalMove
from tests.rules.chronica.helpers import all_cards, codes_in, visible_to
from tests.rules.playout import canonical, random_playout, replay

CODES = [row[0] for row in CARDS]
NAMES = {code: card["name"] for code, card in CARD_BY_CODE.items()}


def overlapping_decks(players, seed):
    """Random legal decks that share many cards, so twins meet in play."""
    rnd = random.Random(seed)
    pool = CODES[:45]
    return [rnd.sample(pool, 30) for _ in range(players)]


CONFIGS = [(players, kind) for players in (2, 3, 4) for kind in ("starters", "decks", "shared")]


def options_for(kind, players, seed):
    if kind == "decks":
        return {"decks": overlapping_decks(players, seed)}
    if kind == "shared":
        return {"shared_deck": True}
    return {}


def check_state(state, initial_cards, names):
    assert all_cards(state) == initial_cards, "cards not conserved"
    n = state["players"]
    assert all(0 <= h <= 10 for h in state["honour"])
    for seat in [*range(n), None]:
        view = GAME.view(state, seat)
        json.dumps(view)
        seen = codes_in(view)
        allowed = visible_to(state, seat)
        assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
        assert "seed" not in view and "draws" not in view and "decks" not in view and "pile" not in view
    # twins: never two identical cards in play
    in_play = [
        c
        for prov in state["provinces"]
        for slot in prov
        if slot is not None
        for c in (slot["building"], slot["character"])
        if c
    ]
    assert len(in_play) == len(set(in_play))


def check_narration(before, seat, move, after, names):
    n = after["players"]
    for viewer in [*range(n), None]:
        allowed = visible_to(before, viewer) | visible_to(after, viewer)
        allowed_names = {NAMES[c] for c in allowed}
        for line in GAME.narrate(before, seat, move, after, names, viewer):
            assert isinstance(line, str) and line
            for code, card_name in NAMES.items():
                if card_name in line:
                    assert card_name in allowed_names, f"{viewer} told about {code}: {line}"


@pytest.mark.parametrize(("players", "kind"), CONFIGS)
def test_random_playouts_keep_every_invariant(players, kind):
    names = ["alice", "bob", "carol", "dave"][:players]
    for seed in range(6):
        options = options_for(kind, players, seed)
        states, log = random_playout(GAME, players, seed, options)
        assert GAME.is_over(states[-1])
        initial = all_cards(states[0])
        if kind == "shared":
            assert len(initial) == len(set(initial)) >= 52
        rnd = random.Random(seed)
        for k, state in enumerate(states):
            check_state(state, initial, names)
            if k < len(log):
                seat, move = log[k]
                check_narration(state, seat, move, states[k + 1], names)
                p = preview(state, seat, move)
                after = states[k + 1]
                assert p["honour_delta"] == after["honour"][seat] - state["honour"][seat]
                for s, d in p["opponent_honour_delta"].items():
                    assert d == after["honour"][s] - state["honour"][s]
                # every legal move is accepted (a sample of them)
                moves = GAME.legal_moves(state, seat)
                for other in rnd.sample(moves, min(4, len(moves))):
                    GAME.apply(state, seat, other)
                assert json.dumps(moves) == json.dumps(GAME.legal_moves(GAME.load(GAME.dump(state)), seat))
        result = GAME.result(states[-1])
        assert result["winners"] and len(result["scores"]) == players
        assert result["scores"] == GAME.view(states[-1], None)["victory_points"]
        assert canonical(GAME, replay(GAME, players, seed, options, log)) == canonical(GAME, states[-1])


def test_playouts_end_in_every_way():
    reasons = set()
    for seed in range(40):
        states, _ = random_playout(GAME, 2, seed, {})
        reasons.add(states[-1]["end_reason"])
    # random play mostly burns honour; check the other two ends are reachable by a careful player
    assert "honour" in reasons
    reasons |= {careful_playout(seed)["end_reason"] for seed in range(3)}
    assert {"province", "deck"} <= reasons


def careful_playout(seed):
    """A player who never makes Actions: builds and places, or passes. Ends on a full province or an empty deck."""
    rnd = random.Random(seed)
    state = GAME.setup(players=2, seed=seed)
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        moves = [
            m for m in GAME.legal_moves(state, seat) if m["type"] not in ("action", "replace", "mulligan")
        ]
        if seed % 2:
            moves = [m for m in moves if m["type"] != "build" or "welcome" not in m] or moves
            passes = [m for m in moves if m["type"] == "pass"]
            moves = passes if passes and seed == 1 else moves
        state = GAME.apply(state, seat, rnd.choice(moves))
    return state


def test_the_registry_can_import_chronica_by_its_slug():
    assert "chronica" in registry._PACKAGES
    assert importlib.import_module("rules.chronica").GAME is GAME


MUTATIONS = st.sampled_from(["card", "slot", "target", "welcome", "reinforce", "type", "discard", "source"])
VALUES = st.one_of(
    st.none(),
    st.integers(-2, 9),
    st.booleans(),
    st.sampled_from(CODES[:20] + ["", "x"]),
    st.dictionaries(
        st.sampled_from(["seat", "slot", "part", "from", "card"]), st.integers(-1, 8), max_size=3
    ),
    st.lists(st.integers(0, 3), max_size=2),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS), st.data())
def test_any_mutated_move_is_either_accepted_or_refused_with_an_illegal_move(seed, config, data):
    players, kind = config
    state = GAME.setup(players=players, seed=seed, options=options_for(kind, players, seed))
    for _ in range(data.draw(st.integers(0, 25))):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        move = dict(data.draw(st.sampled_from(GAME.legal_moves(state, seat))))
        if data.draw(st.booleans()):
            move[data.draw(MUTATIONS)] = data.draw(VALUES)
            try:
                new = GAME.apply(state, seat, move)
            except IllegalMove as exc:
                assert str(exc)
                continue
            state = new
        else:
            state = GAME.apply(state, seat, move)
        assert all_cards(state) == all_cards(
            GAME.setup(players=players, seed=seed, options=options_for(kind, players, seed))
        )


def test_every_legal_move_passes_the_same_checks_as_apply():
    for players, kind in CONFIGS:
        states, log = random_playout(GAME, players, 5, options_for(kind, players, 5))
        for state in states:
            for seat in GAME.to_act(state):
                for move in GAME.legal_moves(state, seat):
                    GAME._check(state, seat, move)
