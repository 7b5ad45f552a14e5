"""Taking a move back within the turn, and previewing a payment before it is made."""

import pytest

from rules.cosplay import GAME
from rules.cosplay.scoring import score
from tests.rules.playout import canonical, random_playout, replay

from .helpers import clear_influences, new, set_hand, to_zone

CASES = [(2, 0), (2, 1), (3, 2), (4, 3)]
# What a move may have done and still be taken back: nothing drawn, shuffled or turned up, no
# other seat touched, the turn not passed (the events say it; can_take_back reads the states).
QUIET = {
    "place",
    "attach",
    "discard",
    "sacrifice",
    "recruit",
    "objective",
    "gain",
    "discount",
    "trash",
    "trash_stop",
    "clear",
    "clear_none",
}


@pytest.fixture(scope="module")
def playouts():
    return {(p, s): random_playout(GAME, p, s) for p, s in CASES}


def test_takeback_is_allowed_exactly_for_quiet_moves_and_replay_rebuilds_the_state_before(playouts):
    allowed = refused = 0
    for (players, seed), (states, log) in playouts.items():
        for i, (seat, move) in enumerate(log):
            before, after = states[i], states[i + 1]
            kinds = {e["kind"] for e in GAME.events(before, seat, move, after)}
            quiet = move["type"] in GAME.takeback_moves and kinds <= QUIET
            assert GAME.can_take_back(before, seat, move, after) == quiet, (move, kinds)
            if quiet:
                allowed += 1
                if allowed % 5 == 0:  # replaying the moves before it gives back the state before it
                    back = replay(GAME, players, seed, {}, log[:i])
                    assert canonical(GAME, back) == canonical(GAME, before)
                    assert GAME.legal_moves(back, seat) == GAME.legal_moves(before, seat)
            else:
                refused += 1
    assert allowed > 50 and refused > 50


def test_no_takeback_after_a_draw_drama_sent_or_the_turn_passed():
    state = new(2, seed=3)
    clear_influences(state)
    to_zone(state, 1, "c01-neon-ronin")  # B3, Recruit: draw 1
    set_hand(state, 0, ["st-badass"] * 3 + ["st-craft"] * 3)
    move = {"type": "recruit", "zone": 1, "pay": ["st-badass"] * 3}
    after = GAME.apply(state, 0, move)
    assert not GAME.can_take_back(state, 0, move, after)  # it drew a card
    drama = next(m for m in GAME.legal_moves(after, 0) if m["type"] == "drama")
    assert not GAME.can_take_back(after, 0, drama, GAME.apply(after, 0, drama))
    end = {"type": "end_turn"}
    assert not GAME.can_take_back(after, 0, end, GAME.apply(after, 0, end))
    assert "end_turn" not in GAME.takeback_moves and "drama" not in GAME.takeback_moves


def test_a_plain_recruitment_may_be_taken_back():
    state = new(2, seed=3)
    clear_influences(state)
    to_zone(state, 1, "c07-chrome-samurai")  # B3, no Recruit ability
    set_hand(state, 0, ["st-badass"] * 3 + ["st-kawaii", "st-passion"])
    move = {"type": "recruit", "zone": 1, "pay": ["st-badass"] * 3}
    assert GAME.can_take_back(state, 0, move, GAME.apply(state, 0, move))


def test_preview_of_a_payment_tells_the_need_the_points_lost_and_the_scores(playouts):
    state = new(2, seed=3)
    clear_influences(state)
    to_zone(state, 1, "c07-chrome-samurai")  # B3
    set_hand(state, 0, ["st-badass", "st-badass", "st-passion", "st-kawaii", "st-craft"])
    move = {"type": "recruit", "zone": 1, "pay": ["st-badass", "st-badass", "st-passion"]}
    preview = GAME.preview(state, 0, move)
    after = GAME.apply(state, 0, move)
    assert preview == {
        "need": {"badass": 3, "kawaii": 0, "craft": 0, "any": 0},
        "points": {"badass": 2, "kawaii": 0, "craft": 0, "wild": 1},
        "lost": 0,
        "scores": [score(after, 0), score(after, 1)],
    }
    with_kawaii = {**move, "pay": ["st-badass", "st-badass", "st-passion", "st-kawaii"]}
    assert GAME.preview(state, 0, with_kawaii) is None  # Kawaii gives nothing a character of B3 can use
    for states, _log in playouts.values():
        for st in states[::9]:
            for seat in GAME.to_act(st):
                for m in GAME.legal_moves(st, seat):
                    p = GAME.preview(st, seat, m)
                    if m["type"] in ("recruit", "objective", "drama", "poach"):
                        expect = [score(GAME.apply(st, seat, m), s) for s in range(st["players"])]
                        assert p["scores"] == expect and p["lost"] >= 0
                    else:
                        assert p is None


@pytest.mark.parametrize(
    "move",
    [
        None,
        "recruit",
        {},
        {"type": 3},
        {"type": "recruit"},
        {"type": "recruit", "zone": "x", "pay": 5},
        {"type": "recruit", "zone": 1, "pay": ["no-such-card"]},
        {"type": "objective", "pile": 99, "pay": []},
        {"type": "drama", "seat": 0, "pay": []},
        {"type": "poach", "seat": 1, "card": None, "with": None, "pay": []},
    ],
)
def test_preview_never_raises(move):
    state = new(2, seed=3)
    assert GAME.preview(state, 0, move) is None
    assert GAME.preview(state, 1, {"type": "recruit", "zone": 1, "pay": []}) is None  # not their turn


def test_no_takeback_after_a_recruit_that_turned_the_recruited_card_up():
    state = new(2, seed=3)
    clear_influences(state)
    to_zone(state, 1, "c14-laser-paladin")  # B3K1, Recruit: your face-down cards turn up
    set_hand(state, 0, ["st-badass"] * 3 + ["st-kawaii", "st-craft"])
    assert not any(not e["up"] for e in state["seats"][0]["assist"])  # nothing face down before
    move = {"type": "recruit", "zone": 1, "pay": ["st-badass"] * 3 + ["st-kawaii"]}
    after = GAME.apply(state, 0, move)
    assert {"card": "c14-laser-paladin", "up": True, "equip": []} in after["seats"][0]["assist"]
    assert not GAME.can_take_back(state, 0, move, after)
