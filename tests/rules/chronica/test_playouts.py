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
from rules.chronica.view import MESSAGES
from rules.core import LANGUAGES, IllegalMove, narrate, visible
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


def check_narration(before, seat, move, after, names, kinds=None):
    """Every viewer's lines, in both languages, name only cards that viewer may see; the events a viewer may
    read hold only such cards; ``kinds`` collects the event kinds met."""
    n = after["players"]
    events = GAME.events(before, seat, move, after)
    assert "events" not in after and not any(isinstance(v, str) and "{s0}" in v for v in after.values())
    for viewer in [*range(n), None]:
        allowed = visible_to(before, viewer) | visible_to(after, viewer)
        assert codes_in(visible(events, viewer)) <= allowed, (
            f"{viewer} may read {codes_in(visible(events, viewer)) - allowed}"
        )
        allowed_names = {NAMES[c] for c in allowed}
        for lang in LANGUAGES:
            for line in GAME.narrate(before, seat, move, after, names, viewer, lang):
                assert isinstance(line, str) and line and "{" not in line
                for code, card_name in NAMES.items():
                    if card_name in line:
                        assert card_name in allowed_names, f"{viewer} told about {code}: {line}"
    if kinds is not None:
        kinds.update(e["kind"] for e in events)


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
                if move["type"] in ("mulligan", "keep", "draw"):
                    assert p is None  # nothing to show
                else:
                    assert p["honour_delta"] == after["honour"][seat] - state["honour"][seat]
                    for s, d in p["opponent_honour_delta"].items():
                        assert d == after["honour"][s] - state["honour"][s]
                    assert codes_in(p) <= visible_to(state, seat), "a preview tells nothing drawn"
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


def test_the_registry_finds_chronica_by_its_package():
    assert registry.get("chronica") is importlib.import_module("rules.chronica").GAME is GAME
    assert registry.bots("chronica") is importlib.import_module("rules.chronica.bots")


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
                assert preview(state, seat, move) is None  # never raises: nothing to show for an illegal move
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


def test_every_event_kind_has_a_message_in_both_languages():
    """The kinds met over seeded playouts (and at set-up) are exactly the kinds the messages put into words
    (the special powers' ``power_*`` kinds apart: test_powers.py meets every one of them)."""
    kinds = set()
    names = ["alice", "bob", "carol", "dave"]
    for players, kind in CONFIGS:
        for seed in range(4):
            options = options_for(kind, players, seed)
            states, log = random_playout(GAME, players, seed, options)
            setup = GAME.setup_events(states[0])
            kinds.update(e["kind"] for e in setup)
            for viewer in [*range(players), None]:
                for lang in LANGUAGES:
                    assert narrate(GAME, setup, names[:players], viewer, lang)
            for k, (seat, move) in enumerate(log):
                check_narration(states[k], seat, move, states[k + 1], names[:players], kinds)
        kinds |= {e["kind"] for e in GAME.events(*careful_move(kind))}
    assert set(MESSAGES["en"]) == set(MESSAGES["fr"])
    assert kinds == {k for k in MESSAGES["en"] if not k.startswith("power_")}


def careful_move(kind):
    """A building put under one's own wandering character, and (shared variant) a river card taken: rarer in
    random play."""
    shared = kind == "shared"
    state = GAME.setup(players=2, seed=3, options={"shared_deck": True} if shared else {})
    state["phase"], state["current"] = "play", 0
    state["hands"][0] = ["chateau-de-vincennes"]
    state["provinces"][0][0] = {"building": None, "character": "clovis", "guest": None}
    move = {"type": "build", "card": "chateau-de-vincennes", "slot": 0}
    after = GAME.apply(state, 0, move)
    if not shared:
        return state, 0, move, after
    take = {"type": "draw", "source": "river", "card": after["river"][0]}
    return after, 0, take, GAME.apply(after, 0, take)


def test_the_state_holds_no_words():
    states, _ = random_playout(GAME, 2, 3, {})
    for state in states:
        assert "events" not in state
        text = json.dumps(state)
        assert "{s0}" not in text and " drew " not in text and "honour (" not in text


@pytest.mark.parametrize(("players", "kind"), CONFIGS)
def test_a_move_may_be_taken_back_exactly_when_it_revealed_nothing_and_the_turn_is_still_the_movers(
    players, kind
):
    """Allowed for a card placed or a pass in the shared variant's draw step (nothing drawn yet, the same
    player to act); never for an Action, a draw, a mulligan, a move that ended the game, or in the per-seat
    variant (the draw follows at once). Replaying the moves before the taken-back one gives the state before it."""
    allowed = 0
    for seed in range(4):
        options = options_for(kind, players, seed)
        states, log = random_playout(GAME, players, seed, options)
        for k, (seat, move) in enumerate(log):
            before, after = states[k], states[k + 1]
            expected = (
                kind == "shared"
                and move["type"] in ("build", "replace", "place", "pass")
                and not GAME.is_over(after)
            )
            assert GAME.can_take_back(before, seat, move, after) is expected, (k, move)
            if expected:
                assert move["type"] in GAME.takeback_moves
                assert (
                    after["phase"] == "draw"
                    and GAME.to_act(after) == [seat]
                    and after["draws"] == before["draws"]
                )
                assert canonical(GAME, replay(GAME, players, seed, options, log[:k])) == canonical(
                    GAME, before
                )
                allowed += 1
    assert allowed or kind != "shared"
