"""The contract every game of the registry keeps (CONTRACTS §1, rules.core), checked once for all of them.

Over seeded random walks, in every game and player count:
- the same seed and the same moves give equal dumps (and another seed another deal);
- ``load(dump(s))`` behaves like ``s``: same dump, views and legal moves, and the rest of the game
  played from it ends in the same dump;
- ``apply`` never changes a state it was given, nor any earlier state (copy-on-write shares structures);
- every view has the shared keys, a seat's view its ``hand``;
- every event a move or the setup emits is JSON without NUL (PostgreSQL's jsonb refuses it), is read only
  by valid viewers, and has a message in every language, so that each viewer reads every move;
- golden counts: the number of legal moves summed over a fixed seeded random walk, and where the walk ends,
  as recorded in ``golden_counts.json``, so that an unintended rule change fails loudly. Regenerate them
  only for a deliberate rules change: ``python -m tests.rules.test_contract``.
"""

from __future__ import annotations

import functools
import json
import pathlib
import random

import pytest

from rules import registry
from rules.core import LANGUAGES, narrate

GOLDEN = pathlib.Path(__file__).with_name("golden_counts.json")
MAX_MOVES = 1500  # a walk stops there if the game has not ended (Five Crowns' random rounds are long)
SHARED_KEYS = {"seat", "players", "to_act", "over", "result", "hand_sizes", "turn"}

CASES = [
    (slug, players)
    for slug, game in sorted(registry.games().items())
    for players in range(game.min_players, game.max_players + 1)
]
IDS = [f"{slug}-{players}p" for slug, players in CASES]
FEW = [  # the fewest and the most players of each game: for the checks that look at every state
    (slug, players)
    for slug, players in CASES
    if players in (registry.get(slug).min_players, registry.get(slug).max_players)
]
FEW_IDS = [f"{slug}-{players}p" for slug, players in FEW]


def dumped(game, state) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


@functools.cache
def walk(slug: str, players: int, seed: int = 0):
    """A seeded random walk: (states, log of (seat, move), legal moves offered in all)."""
    game = registry.get(slug)
    rnd = random.Random(seed)
    state = game.setup(players=players, seed=seed, options={})
    states, log, offered = [state], [], 0
    while not game.is_over(state) and len(log) < MAX_MOVES:
        seat = rnd.choice(game.to_act(state))
        moves = game.legal_moves(state, seat)
        offered += len(moves)
        move = rnd.choice(moves)
        state = game.apply(state, seat, move)
        states.append(state)
        log.append((seat, move))
    return states, log, offered


def golden_count(slug: str, players: int) -> dict:
    states, log, offered = walk(slug, players)
    game = registry.get(slug)
    return {"moves": len(log), "legal_moves_offered": offered, "over": game.is_over(states[-1])}


def replayed(game, players: int, seed: int, log) -> object:
    state = game.setup(players=players, seed=seed, options={})
    for seat, move in log:
        state = game.apply(state, seat, move)
    return state


@pytest.mark.parametrize(("slug", "players"), FEW, ids=FEW_IDS)
def test_the_same_seed_and_moves_give_equal_dumps(slug, players):
    game = registry.get(slug)
    states, log, _ = walk(slug, players)
    assert dumped(game, replayed(game, players, 0, log)) == dumped(game, states[-1])
    assert dumped(game, game.setup(players=players, seed=0, options={})) == dumped(game, states[0])
    assert dumped(game, game.setup(players=players, seed=1, options={})) != dumped(game, states[0])


@pytest.mark.parametrize(("slug", "players"), FEW, ids=FEW_IDS)
def test_load_of_dump_behaves_like_the_state(slug, players):
    game = registry.get(slug)
    states, log, _ = walk(slug, players)
    for i in range(0, len(states), max(1, len(states) // 8)):
        loaded = game.load(json.loads(json.dumps(game.dump(states[i]))))
        assert dumped(game, loaded) == dumped(game, states[i])
        assert game.to_act(loaded) == game.to_act(states[i])
        for seat in (None, *range(players)):
            assert game.view(loaded, seat) == game.view(states[i], seat)
            if seat is not None:
                assert game.legal_moves(loaded, seat) == game.legal_moves(states[i], seat)
        state = loaded
        for seat, move in log[i:]:
            state = game.apply(state, seat, move)
        assert dumped(game, state) == dumped(game, states[-1])


@pytest.mark.parametrize(("slug", "players"), FEW, ids=FEW_IDS)
def test_apply_never_changes_a_state_it_was_given_or_any_earlier_state(slug, players):
    game = registry.get(slug)
    rnd = random.Random(players)
    state = game.setup(players=players, seed=players, options={})
    history = [(state, json.dumps(state))]
    while not game.is_over(state) and len(history) <= MAX_MOVES:
        seat = rnd.choice(game.to_act(state))
        moves = game.legal_moves(state, seat)
        given, before = state, history[-1][1]
        game.apply(given, seat, rnd.choice(moves))  # a move not chosen must leave the state alone too
        state = game.apply(given, seat, rnd.choice(moves))
        assert state is not given
        assert json.dumps(given) == before, "apply changed its input"
        history.append((state, json.dumps(state)))
    for old, taken in history:
        assert json.dumps(old) == taken, "a later move changed an earlier state"


@pytest.mark.parametrize(("slug", "players"), FEW, ids=FEW_IDS)
def test_every_view_has_the_shared_keys(slug, players):
    game = registry.get(slug)
    states, _, _ = walk(slug, players)
    for state in states[:: max(1, len(states) // 40)] + [states[-1]]:
        over = game.is_over(state)
        views = {seat: game.view(state, seat) for seat in (None, *range(players))}
        for seat, view in views.items():
            missing = SHARED_KEYS - set(view) | ({"hand"} - set(view) if seat is not None else set())
            assert not missing, f"{slug}: the view of seat {seat} lacks {sorted(missing)}"
            assert view["seat"] == seat
            assert view["players"] == players
            assert view["to_act"] == game.to_act(state)
            assert view["over"] is over
            assert view["result"] == (game.result(state) if over else None)
            assert view["hand_sizes"] == views[None]["hand_sizes"]
            if seat is not None:
                assert len(view["hand"]) == view["hand_sizes"][seat]


def events_of(game, players: int, states, log):
    yield game.setup_events(states[0])
    for i, (seat, move) in enumerate(log):
        yield game.events(states[i], seat, move, states[i + 1])


@pytest.mark.parametrize(("slug", "players"), FEW, ids=FEW_IDS)
def test_every_event_is_json_for_valid_readers_and_reads_in_every_language(slug, players):
    game = registry.get(slug)
    states, log, _ = walk(slug, players)
    names = [f"player{i}" for i in range(players)]
    kinds = set()
    for events in events_of(game, players, states, log[:400]):
        text = json.dumps(events)
        assert "\\u0000" not in text
        assert json.loads(text) == events
        for event in events:
            kinds.add(event["kind"])
            assert set(event.get("to", [None])) <= {None, *range(players)}, event
        for lang in LANGUAGES:
            for viewer in (None, *range(players)):
                lines = narrate(game, events, names, viewer, lang)
                assert all(isinstance(line, str) and line for line in lines)
    for lang in LANGUAGES:
        missing = kinds - set(game.messages.get(lang, {}))
        assert not missing, f"{slug} has no {lang} message for {sorted(missing)}"


def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize(("slug", "players"), CASES, ids=IDS)
def test_a_seeded_walk_offers_the_recorded_number_of_legal_moves(slug, players):
    assert golden_count(slug, players) == golden()[f"{slug} {players}p"], (
        "the rules changed: if on purpose, regenerate with python -m tests.rules.test_contract"
    )


def test_every_game_and_player_count_has_golden_counts():
    assert set(golden()) == {f"{slug} {players}p" for slug, players in CASES}


if __name__ == "__main__":
    GOLDEN.write_text(
        json.dumps({f"{s} {p}p": golden_count(s, p) for s, p in CASES}, indent=1, sort_keys=True) + "\n"
    )


@pytest.mark.parametrize("slug", sorted(registry.games()))
def test_every_game_describes_itself_in_every_language(slug):
    game = registry.get(slug)
    assert set(game.blurb) == set(LANGUAGES)
    assert all(text.strip() and "  " not in text for text in game.blurb.values())
    assert game.blurb["en"] != game.blurb["fr"]
