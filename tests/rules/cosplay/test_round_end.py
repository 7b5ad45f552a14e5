"""The end of a Cosplay game: once the end is reached, the round is played out; ``sudden_end`` is the house rule.

The rulebook (003, « Conditions de fin de partie ») gives the condition, not the moment. RULINGS (2026-11-26):
"the round is then played out, so that every player has had as many turns [...] A table may choose the sudden
end (the game ends with the turn that reached it) as an option." Tables stored before then hold the former
option ``finish_round`` (true: the round played out), and keep meaning what they meant.
"""

import random

import pytest

from rules.cosplay import GAME
from rules.cosplay.sampling import determinize

from ..playout import random_playout
from .helpers import all_cards, codes_in, full_set, new, to_pile
from .test_playouts import visible


def end(state):
    return GAME.apply(state, state["active"], {"type": "end_turn"})


def run_the_library_down(state):
    """Leave one card in the library: the next turn end refills zone 6's place, the one after cannot."""
    state["graveyard"] += state["library"][1:]
    state["library"] = state["library"][:1]


def test_the_sudden_end_is_a_true_or_false_house_rule_off_by_default():
    assert list(GAME.options) == ["sudden_end"]
    assert GAME.options["sudden_end"]["type"] == "bool"
    assert GAME.options["sudden_end"]["default"] is False
    assert GAME.options["sudden_end"]["house_rule"] is True
    assert GAME.options["sudden_end"]["label"].startswith("House rule: sudden end")
    assert new(3)["options"] == {"sudden_end": False}
    assert new(3, options={"sudden_end": True})["options"] == {"sudden_end": True}
    for bad in ({"sudden_end": "yes"}, {"finish_round": 1}, {"finish_round": True, "sudden_end": False}):
        with pytest.raises(ValueError):
            new(3, options=bad)
    with pytest.raises(ValueError, match="Unknown option: play_out"):
        new(3, options={"play_out": True})


def test_a_stored_tables_former_option_keeps_its_meaning():
    # finish_round: true was the round played out (now the default), false the sudden end (now the option)
    assert new(3, options={"finish_round": True})["options"] == {"sudden_end": False}
    assert new(3, options={"finish_round": False})["options"] == {"sudden_end": True}
    for stored, sudden in (({"finish_round": False}, True), ({"finish_round": True}, False), ({}, True)):
        state = new(3, seed=8)
        state["options"] = dict(stored)  # a dump saved before 2026-11-26 ({}: before the option existed)
        state = GAME.load(GAME.dump(state))
        run_the_library_down(state)
        state = end(end(state))  # seat 0 refills, seat 1 cannot
        assert GAME.is_over(state) is sudden and GAME.view(state, 0)["sudden_end"] is sudden


def test_with_the_sudden_end_the_game_ends_with_the_turn_that_reaches_the_end():
    state = new(3, seed=8, options={"sudden_end": True})
    run_the_library_down(state)
    state = end(end(state))  # seat 0 refills, seat 1 cannot
    assert GAME.is_over(state) and state["turns"] == [1, 1, 0]


def test_by_default_the_round_is_played_out_to_the_last_seat():
    state = new(4, seed=8)
    run_the_library_down(state)
    state = end(state)
    state = end(state)  # seat 1's turn reaches the end: the library cannot refill zone 1
    assert state["short"] and not GAME.is_over(state)
    assert [e["kind"] for e in state["events"]].count("short") == 1
    assert [e for e in state["events"] if e["kind"] == "last_round"] == [
        {"kind": "last_round", "last_seat": 3}
    ]
    names = ["ann", "bea", "cy", "dee"]
    before = state  # the log says it, in both languages
    lines = GAME.narrate(before, 1, {"type": "end_turn"}, state, names, None)
    assert "Last round: it is played out; the game ends after dee's turn" in lines
    lines = GAME.narrate(before, 1, {"type": "end_turn"}, state, names, None, lang="fr")
    assert (
        "Dernier tour de table : il est joué jusqu’au bout ; la partie se termine après le tour de dee"
        in lines
    )
    assert GAME.to_act(state) == [2]
    view = GAME.view(state, 2)
    assert view["last_round"] and not view["sudden_end"] and view["short"]
    assert view["round_ender"] == 3
    state = end(state)  # seat 2 plays on with the zones that are left
    assert not GAME.is_over(state) and GAME.to_act(state) == [3]
    assert not {"short", "last_round"} & {e["kind"] for e in state["events"]}  # said once, when it happened
    assert state["zones"][:2] == [None, None]  # zone 6's card left again, nothing came in
    state = end(state)  # the round's last seat: now it ends
    assert GAME.is_over(state) and state["turns"] == [1, 1, 1, 1]
    over = [e for e in state["events"] if e["kind"] == "over"]
    assert over and over[0]["reason"] == "library"
    assert not GAME.view(state, 0)["last_round"]


def test_when_the_last_seat_reaches_the_end_the_game_ends_at_once():
    state = new(2, seed=8)
    run_the_library_down(state)
    state = end(state)
    assert GAME.to_act(state) == [1]
    state = end(state)
    assert GAME.is_over(state) and state["turns"] == [1, 1]


def test_no_objective_left_also_plays_the_round_out():
    state = new(3, seed=8)
    for pile in state["objectives"][1:]:
        state["obj_decks"]["1"].append(pile["card"])
        pile["card"], pile["level"] = None, 3
    state["obj_decks"]["1"].append(state["objectives"][0]["card"])
    to_pile(state, 0, "ob3-world-final")
    state["tp"]["bonus"] = {"badass": 30, "kawaii": 30, "craft": 30}
    state = GAME.apply(state, 0, {"type": "objective", "pile": 0, "pay": []})
    assert not GAME.view(state, 0)["last_round"]  # the pile fulfilled this turn is not closed yet
    state = end(state)
    assert not GAME.is_over(state) and GAME.view(state, None)["last_round"]
    state = end(end(state))
    assert GAME.is_over(state) and state["turns"] == [1, 1, 1]
    assert GAME.result(state) == {"scores": [7, 0, 0], "winners": [0]}


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 5), (4, 7), (4, 11)])
def test_random_playouts_give_every_seat_as_many_turns_and_keep_every_card(players, seed):
    states, log = random_playout(GAME, players, seed, options={})
    last = states[-1]
    assert GAME.is_over(last) and len(set(last["turns"])) == 1
    assert all(all_cards(state) == full_set(players) for state in states)
    reached = next(
        i
        for i, state in enumerate(states)
        if state["short"] or not any(p["card"] or p["done"] for p in state["objectives"])
    )
    # it ended at once only if the round's last seat reached the end; otherwise the round went on
    ender = states[reached - 1]["active"]
    assert GAME.is_over(states[reached]) == (ender == players - 1)
    # the last round's views, dumps and log lines hide what they hid before
    names = [f"p{i}" for i in range(players)]
    for i in range(reached, len(states)):
        assert GAME.load(GAME.dump(states[i])) == states[i]
        for seat in [None, *range(players)]:
            assert set(codes_in(GAME.view(states[i], seat))) <= visible(states[i], seat)
            assert GAME.narrate(states[i - 1], log[i - 1][0], log[i - 1][1], states[i], names, seat)


def test_the_bots_samples_keep_the_table_option_and_the_short_library():
    state = new(4, seed=8)
    run_the_library_down(state)
    state = end(end(state))
    sample = determinize(GAME.view(state, 2), random.Random(1), 2)
    assert sample["options"] == {"sudden_end": False} and sample["short"]
    sample = GAME.apply(sample, 2, {"type": "end_turn"})
    assert not GAME.is_over(sample)  # the bot knows seat 3 still plays
    state = new(4, seed=8, options={"sudden_end": True})
    run_the_library_down(state)
    state = end(state)
    sample = determinize(GAME.view(state, 1), random.Random(1), 1)
    assert sample["options"] == {"sudden_end": True}
    assert GAME.is_over(GAME.apply(sample, 1, {"type": "end_turn"}))  # it knows its turn ends the game
