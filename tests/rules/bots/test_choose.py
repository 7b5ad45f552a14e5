"""The public API: a legal move every time, at every level, the same move for the same seed."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.bots import LEVELS, choose, seat_of
from tests.rules.bots.helpers import SLUGS, play_bots

# Moves per short game: enough to cross a round or a few turns, small enough for a fast suite (a game not
# listed plays 30 and 12).
SHORT = {"cosmic_crowns": 60, "five_crowns": 80, "chronica": 20, "cosplay": 30}
STRONG_SHORT = {"cosmic_crowns": 24, "five_crowns": 60, "chronica": 8, "cosplay": 16}


def _mid_game(slug: str, seed: int, moves: int, players: int = 2, options: dict | None = None):
    game = registry.get(slug)
    rnd = random.Random(seed)
    state = game.setup(players=players, seed=seed, options=options or {})
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)))
    return game, state


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", LEVELS)
def test_it_always_picks_one_of_the_legal_moves(slug, level):
    other = "casual" if level != "casual" else "random"
    length = (STRONG_SHORT if level == "strong" else SHORT).get(slug, 12 if level == "strong" else 30)
    for seed in (1, 2):
        play_bots(slug, [level, other] if seed == 1 else [other, level], seed, length)


@pytest.mark.parametrize("slug", SLUGS)
def test_it_plays_with_more_than_two_players(slug):
    play_bots(slug, ["strong", "casual", "random"], 5, STRONG_SHORT.get(slug, 12))


def test_it_plays_the_variants():
    play_bots("cosmic_crowns", ["strong", "casual"], 3, 24, {"mode": "hard"})
    play_bots("cosmic_crowns", ["casual", "random", "casual"], 4, 60, {"mode": "hard", "reverse": True})
    play_bots("chronica", ["strong", "casual"], 3, 8, {"shared_deck": True})


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", LEVELS)
def test_it_gives_the_same_move_for_the_same_seed(slug, level):
    for seed in range(2 if level == "strong" else 3):
        game, state = _mid_game(slug, seed, 6 + seed)
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        moves = game.legal_moves(state, seat)
        first = choose(slug, view, moves, level, 99)
        assert choose(slug, view, moves, level, 99) == first
        assert choose(slug, game.view(game.load(game.dump(state)), seat), list(moves), level, 99) == first


def test_random_level_spreads_over_the_legal_moves():
    game, state = _mid_game("chronica", 1, 4)
    seat = game.to_act(state)[0]
    moves = game.legal_moves(state, seat)
    picked = {repr(choose("chronica", game.view(state, seat), moves, "random", s)) for s in range(60)}
    assert len(picked) > 5


def test_it_reads_the_seat_from_the_view():
    for slug in SLUGS:
        game, state = _mid_game(slug, 3, 5)
        seat = game.to_act(state)[0]
        assert seat_of(game.view(state, seat)) == seat
        with pytest.raises(ValueError, match="pass seat="):
            seat_of(game.view(state, None))


def test_it_refuses_an_unknown_game_level_or_empty_move_list():
    game, state = _mid_game("five_crowns", 1, 0)
    view = game.view(state, 0)
    moves = game.legal_moves(state, 0)
    with pytest.raises(ValueError):
        choose("poker", view, moves, "casual", 1)
    with pytest.raises(ValueError):
        choose("five_crowns", view, moves, "genius", 1)
    with pytest.raises(ValueError):
        choose("five_crowns", view, [], "casual", 1)


def test_casual_goes_out_in_five_crowns_when_it_can():
    game, state = _mid_game("five_crowns", 1, 0)
    seat = state["turn"]
    state["hands"][seat] = ["3-heart", "4-heart", "5-heart", "9-club"]
    state["phase"] = "discard"
    moves = game.legal_moves(state, seat)
    for level in ("casual", "strong"):
        move = choose("five_crowns", game.view(state, seat), moves, level, 1)
        assert move == {"type": "go_out", "card": "9-club"}


def test_casual_wins_a_cosmic_crowns_trick_with_its_lowest_winning_card():
    game, state = _mid_game("cosmic_crowns", 2, 0)
    state["battleground"] = "dog"
    state["pending"] = {"kind": "play", "seats": [1]}
    state["leader"] = 0
    state["trick"] = [{"seat": 0, "card": "eagle-7", "how": "play"}]
    state["hands"][1] = ["eagle-5", "eagle-8", "eagle-g2", "frog-3"]
    state["hands"][0] = state["hands"][0][:3]
    moves = game.legal_moves(state, 1)
    assert choose("cosmic_crowns", game.view(state, 1), moves, "casual", 1) == {
        "type": "play",
        "card": "eagle-8",
    }


def test_two_casual_five_crowns_bots_always_finish():
    """Regression: two casual bots once passed a Joker back and forth for ever in round 1."""
    from rules import bots, registry

    game = registry.get("five_crowns")
    for seed in range(40):
        state = game.setup(2, seed, {})
        for n in range(6000):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            move = bots.choose(
                "five_crowns", game.view(state, seat), game.legal_moves(state, seat), "casual", n, seat=seat
            )
            state = game.apply(state, seat, move)
        assert game.is_over(state), seed


def _hard_bid(hand: list[str], battleground: str = "eagle") -> int:
    """The casual bot's Hard-mode bid with ``hand`` in the first (10-card) round of a 2-player game."""
    game, state = _mid_game("cosmic_crowns", 3, 0, options={"mode": "hard"})
    assert state["pending"]["kind"] == "bid"
    seat = state["pending"]["seats"][0]
    assert len(state["hands"][seat]) == len(hand) == 10
    state["hands"][seat] = hand
    state["battleground"] = battleground
    move = choose("cosmic_crowns", game.view(state, seat), game.legal_moves(state, seat), "casual", 1)
    return move["tricks"]


def test_casual_bids_what_its_hand_can_take_in_hard_mode():
    """Regression: casual once bid about a third of the tricks it took, and lost to random play."""
    trumps = [
        "eagle-emperor",
        "eagle-g3",
        "eagle-g2",
        "eagle-g1",
        "eagle-10",
        "eagle-9",
        "eagle-8",
        "eagle-7",
    ]
    assert _hard_bid(["falling-star-1", "devil-1", *trumps]) >= 8
    assert (
        _hard_bid(
            [
                "frog-g3",
                "raptor-g2",
                *[f"frog-{v}" for v in range(2, 6)],
                *[f"raptor-{v}" for v in range(2, 6)],
            ]
        )
        == 2
    )
    assert _hard_bid([*[f"frog-{v}" for v in range(2, 7)], *[f"raptor-{v}" for v in range(2, 7)]]) <= 1
