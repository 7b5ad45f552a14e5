"""Set-up, options, the registry, malformed moves, views and the move log."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalMove
from rules.core import narrate
from rules.cosmic_crowns import CARDS, DECK, GAME, catalog
from rules.cosmic_crowns.cards import round_sizes

from .helpers import assert_conserved, assert_no_leak, build, play


def test_the_game_is_registered_under_its_slug():
    from rules import registry

    assert registry.get("cosmic_crowns") is GAME
    assert sorted(registry.games()) == ["chronica", "cosmic_crowns", "cosplay", "five_crowns"]
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == (
        "cosmic_crowns",
        "Cosmic Crowns",
        2,
        6,
    )


def test_there_are_64_cards_with_the_contract_codes():
    assert len(DECK) == len(set(DECK)) == 64
    for code in (
        "eagle-7",
        "frog-g2",
        "dog-emperor",
        "raptor-assassin",
        "eagle-thief",
        "falling-star-1",
        "devil-2",
    ):
        assert code in CARDS
    for clan in ("eagle", "frog", "dog", "raptor"):
        assert sum(1 for c in catalog() if c["clan"] == clan) == 15
    assert [c["code"] for c in catalog() if c["divine"]] == [
        "falling-star-1",
        "falling-star-2",
        "devil-1",
        "devil-2",
    ]


def test_options_default_to_easy_and_not_reversed():
    state = GAME.setup(players=3, seed=1)
    assert state["options"] == {"mode": "easy", "reverse": False}
    assert state["rounds"] == 10


@pytest.mark.parametrize(
    "options",
    [{"mode": "medium"}, {"reverse": "yes"}, {"colour": 1}, {"mode": None}, "hard"],
)
def test_it_refuses_bad_options(options):
    with pytest.raises(ValueError):
        GAME.setup(players=3, seed=1, options=options)


@pytest.mark.parametrize("players", [1, 7, 0, "3", True])
def test_it_refuses_a_bad_number_of_players(players):
    with pytest.raises(ValueError):
        GAME.setup(players=players, seed=1)


def test_round_sizes_go_down_then_up_in_reverse():
    assert round_sizes(False) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert round_sizes(True) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


@pytest.mark.parametrize("players", range(2, 7))
def test_round_one_deals_ten_cards_each_and_seat_zero_deals(players):
    state = GAME.setup(players=players, seed=3)
    assert state["dealer"] == 0 and state["round"] == 1
    dealt = sum(len(h) for h in state["hands"]) + len(state["trick"])  # an Assassin reveal plays one
    assert dealt == 10 * players
    view = GAME.view(state, None)
    assert view["stack_size"] == 64 - 10 * players - 1
    assert len(view["revealed"]) == 1
    assert_conserved(state)


def test_the_dealer_rotates_clockwise_each_round():
    state = build([["eagle-5"], ["eagle-9"]], top="dog-2", round_no=9, dealer=0)
    state = play(state, (0, "eagle-5"), (1, "eagle-9"))
    assert state["dealer"] == 1 and state["round"] == 10


@pytest.mark.parametrize(
    "move, message",
    [
        ({}, "object with a type"),
        ({"type": 3}, "object with a type"),
        ({"type": "jump"}, "Unknown move type"),
        ({"type": "play"}, "needs 'card'"),
        ({"type": "play", "card": 7}, "by its code"),
        ({"type": "play", "card": "eagle-1"}, "no card"),
        ({"type": "play", "card": "frog-10"}, "do not hold"),
        ({"type": "bid", "tricks": 1}, "You must play"),
        ({"type": "choose_clan", "clan": "dog"}, "You must play"),
        ({"type": "steal", "from": 1}, "You must play"),
        ({"type": "play", "card": ["eagle-5"]}, "by its code"),
    ],
)
def test_it_refuses_malformed_moves_with_a_message(move, message):
    state = build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3")
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(state, 0, move)


def test_it_refuses_a_move_that_is_not_an_object():
    state = build([["eagle-5"], ["frog-10"]], top="dog-3")
    for move in (None, "play", ["play"], 3):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, move)


def test_it_refuses_a_move_out_of_turn():
    state = build([["eagle-5"], ["frog-10"]], top="dog-3")
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 1, {"type": "play", "card": "frog-10"})
    assert GAME.legal_moves(state, 1) == []


def test_it_refuses_a_move_after_the_end():
    state = build([["eagle-5"], ["frog-10"]], top="dog-3", round_no=10)
    state = play(state, (0, "eagle-5"), (1, "frog-10"))
    assert GAME.is_over(state)
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, 0, {"type": "play", "card": "eagle-5"})


def test_apply_leaves_the_given_state_unchanged():
    state = build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3")
    before = json.dumps(state, sort_keys=True)
    GAME.apply(state, 0, {"type": "play", "card": "eagle-5"})
    assert json.dumps(state, sort_keys=True) == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=12) | st.sampled_from(DECK),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
move_types = st.sampled_from(["play", "discard", "bid", "choose_clan", "assassinate", "steal", "x"])


@settings(max_examples=150, deadline=None)
@given(
    kind=move_types,
    key=st.sampled_from(["card", "tricks", "clan", "target", "from", "other"]),
    value=json_values,
    situation=st.integers(0, 4),
)
def test_any_move_is_either_accepted_or_refused_with_illegal_move(kind, key, value, situation):
    states = [
        build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3"),
        build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3", options={"mode": "hard"}),
        build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="devil-1"),
        play(
            build(
                [["eagle-thief", "eagle-6"], ["frog-10", "dog-2"], ["dog-5", "dog-7"]],
                top="dog-3",
                crowns=[0, 1, 1],
            ),
            (0, "eagle-thief"),
        ),
        play(
            build([["devil-1", "eagle-6"], ["frog-10", "dog-2"], ["dog-5", "dog-7"]], top="dog-3"),
            (0, "devil-1"),
        ),
    ]
    state = states[situation]
    seat = GAME.to_act(state)[0]
    move = {"type": kind, key: value}
    try:
        after = GAME.apply(state, seat, move)
    except IllegalMove:
        return
    assert {"type": kind, key: value} in GAME.legal_moves(state, seat)
    assert_conserved(after)


def test_views_hide_other_hands_and_the_stack():
    state = build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"], ["dog-5", "dog-7"]], top="dog-3")
    assert_no_leak(state)
    assert GAME.view(state, 1)["hand"] == ["frog-10", "dog-2"]
    assert GAME.view(state, 0)["hand_sizes"] == [2, 2, 2]
    assert "hand" not in GAME.view(state, None)
    assert GAME.view(state, None)["legal_moves"] == []


def test_the_view_has_every_documented_key():
    state = build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3", options={"mode": "hard"})
    view = GAME.view(state, 0)
    for key in (
        "players seat hand hand_sizes mode reverse round rounds round_size dealer leader battleground "
        "battleground_card revealed leading_clan crowns tricks bids trick divine_winner last_trick "
        "last_round stack_size pending to_act turn legal_moves tie_brawl brawl_tied over result"
    ).split():
        assert key in view, key
    json.dumps(view)


def test_the_last_trick_shows_cards_and_winner():
    state = build([["eagle-5", "eagle-6"], ["eagle-10", "dog-2"]], top="frog-3")
    state = play(state, (0, "eagle-5"), (1, "eagle-10"))
    assert GAME.view(state, 0)["last_trick"] == {
        "cards": [
            {"seat": 0, "card": "eagle-5", "how": "play"},
            {"seat": 1, "card": "eagle-10", "how": "play"},
        ],
        "winner": 1,
    }


def test_the_move_log_narrates_the_move_and_its_consequences():
    names = ["alice", "bob"]
    before = build([["eagle-5", "eagle-6"], ["eagle-10", "dog-2"]], top="frog-3")
    mid = GAME.apply(before, 0, {"type": "play", "card": "eagle-5"})
    assert GAME.narrate(before, 0, {"type": "play", "card": "eagle-5"}, mid, names, 1) == [
        "alice played Eagle 5"
    ]
    after = GAME.apply(mid, 1, {"type": "play", "card": "eagle-10"})
    lines = GAME.narrate(mid, 1, {"type": "play", "card": "eagle-10"}, after, names, None)
    assert lines == ["bob played Eagle 10", "bob won the trick (+1 crown)"]


def test_the_move_log_narrates_a_new_round_and_the_end():
    names = ["alice", "bob"]
    before = build([["eagle-5"], ["eagle-10"]], top="frog-3", round_no=1)
    after = play(before, (0, "eagle-5"), (1, "eagle-10"))
    lines = GAME.narrate(before, 1, {"type": "play", "card": "eagle-10"}, after, names, 0)
    assert lines[:3] == [
        "bob played Eagle 10",
        "bob won the trick (+1 crown)",
        "Round 2: bob deals 9 cards each",
    ]
    assert lines[3].startswith("Battleground card: ")
    end = build([["eagle-5"], ["eagle-10"]], top="frog-3", round_no=10)
    end = play(end, (0, "eagle-5"), (1, "eagle-10"))
    assert GAME.narrate(end, 1, {}, end, names, 0)[-1] == "Game over: bob wins, Ruler of the Universe"


def test_the_first_deal_has_its_own_log_lines():
    state = build([["eagle-5"], ["frog-10"]], top="dog-3")
    events = GAME.setup_events(state)
    assert events == [
        {"kind": "deal", "seat": 0, "round": 1, "size": 1},
        {"kind": "battleground_card", "card": "dog-3", "clan": "dog"},
    ]
    assert narrate(GAME, events, ["alice", "bob"], None) == [
        "Round 1: alice deals 1 card each",
        "Battleground card: Dog 3 (Battleground Dog)",
    ]
    assert narrate(GAME, events, ["alice", "bob"], 1, "fr") == [
        "Manche 1 : alice distribue 1 carte à chacun",
        "Carte du Champ de Bataille : Chien 3 (Champ de Bataille Chien)",
    ]
