"""The house rule ``finish_round``: once the end is reached, the round is played out.

The rulebook (003, « Conditions de fin de partie ») and RULINGS end the game "at the end of the turn in which
the library can no longer refill the zones or no objective remains", so the first player has one turn more than
the last in most games. The house rule, a table option off by default, plays the round to its last seat.
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


def test_the_option_is_a_true_or_false_house_rule_off_by_default():
    assert GAME.options["finish_round"]["type"] == "bool"
    assert GAME.options["finish_round"]["default"] is False
    assert GAME.options["finish_round"]["house_rule"] is True
    assert GAME.options["finish_round"]["label"].startswith("House rule:")
    assert new(3)["options"] == {"finish_round": False}
    assert new(3, options={"finish_round": True})["options"] == {"finish_round": True}
    with pytest.raises(ValueError):
        new(3, options={"finish_round": "yes"})


def test_without_it_the_game_ends_with_the_turn_that_reaches_the_end():
    state = new(3, seed=8)
    run_the_library_down(state)
    state = end(end(state))  # seat 0 refills, seat 1 cannot
    assert GAME.is_over(state) and state["turns"] == [1, 1, 0]


def test_with_it_the_round_is_played_out_to_the_last_seat():
    state = new(4, seed=8, options={"finish_round": True})
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
    assert "House rule: the round is played out; the game ends after dee's turn" in lines
    lines = GAME.narrate(before, 1, {"type": "end_turn"}, state, names, None, lang="fr")
    assert (
        "Règle maison : le tour de table est joué jusqu’au bout ; la partie se termine après le tour de dee"
        in lines
    )
    assert GAME.to_act(state) == [2]
    view = GAME.view(state, 2)
    assert view["last_round"] and view["finish_round"] and view["short"]
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
    state = new(2, seed=8, options={"finish_round": True})
    run_the_library_down(state)
    state = end(state)
    assert GAME.to_act(state) == [1]
    state = end(state)
    assert GAME.is_over(state) and state["turns"] == [1, 1]


def test_with_it_no_objective_left_also_plays_the_round_out():
    state = new(3, seed=8, options={"finish_round": True})
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
def test_random_playouts_under_it_give_every_seat_as_many_turns_and_keep_every_card(players, seed):
    states, log = random_playout(GAME, players, seed, options={"finish_round": True})
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


def test_the_bots_samples_keep_the_house_rule_and_the_short_library():
    state = new(4, seed=8, options={"finish_round": True})
    run_the_library_down(state)
    state = end(end(state))
    sample = determinize(GAME.view(state, 2), random.Random(1), 2)
    assert sample["options"] == {"finish_round": True} and sample["short"]
    sample = GAME.apply(sample, 2, {"type": "end_turn"})
    assert not GAME.is_over(sample)  # the bot knows seat 3 still plays
