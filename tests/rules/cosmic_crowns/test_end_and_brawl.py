"""End of the game, most crowns, the Tie brawl, the reverse variant."""

from rules.cosmic_crowns import GAME

from .helpers import assert_conserved, build, play, trick_winner


def last_round(crowns, options=None):
    # round 10 of 10 with 3 players: seat (10 - 1) % 3 = 0 deals
    return build(
        [["eagle-5"], ["eagle-9"], ["frog-10"]],
        top="dog-2",
        round_no=10,
        crowns=crowns,
        options=options,
    )


def test_the_game_ends_after_round_ten_and_most_crowns_wins():
    state = play(last_round([5, 3, 4]), (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert GAME.is_over(state)
    assert GAME.to_act(state) == []
    assert GAME.result(state) == {"scores": [5, 4, 4], "winners": [0]}
    assert GAME.view(state, 1)["result"] == {"scores": [5, 4, 4], "winners": [0]}
    assert GAME.legal_moves(state, 0) == []


def test_a_tie_for_most_crowns_starts_a_tie_brawl_for_every_player():
    state = play(last_round([5, 4, 1]), (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert not GAME.is_over(state)
    view = GAME.view(state, 2)
    assert view["tie_brawl"] is True
    assert view["brawl_tied"] == [0, 1]
    assert view["round_size"] == 1
    assert view["hand_sizes"] == [1, 1, 1]
    assert view["dealer"] == 1, "the player left of the last dealer"
    if state["pending"]["kind"] == "play":
        assert GAME.to_act(state) == [1]
    assert_conserved(state)


def brawl(hands, top, crowns, dealer=1, options=None):
    return build(hands, top=top, dealer=dealer, crowns=crowns, brawl=True, options=options)


def test_the_tie_brawl_winner_wins_the_game_whatever_the_crowns():
    state = brawl([["eagle-2"], ["eagle-emperor"], ["dog-3"]], top="dog-7", crowns=[5, 5, 2])
    assert GAME.to_act(state) == [1]
    state = play(state, (1, "eagle-emperor"), (2, "dog-3"), (0, "eagle-2"))
    assert trick_winner(state) == 2
    assert GAME.is_over(state)
    assert GAME.result(state) == {"scores": [5, 5, 3], "winners": [2]}


def test_the_tie_brawl_has_no_bids_in_hard_mode_and_the_crown_is_taken():
    state = brawl(
        [["eagle-2"], ["eagle-emperor"], ["dog-3"]], top="frog-7", crowns=[5, 5, 2], options={"mode": "hard"}
    )
    assert state["pending"]["kind"] == "play"
    state = play(state, (1, "eagle-emperor"), (2, "dog-3"), (0, "eagle-2"))
    assert GAME.result(state) == {"scores": [5, 6, 2], "winners": [1]}


def test_the_tie_brawl_reveals_specials_as_usual():
    state = brawl([["eagle-2"], ["eagle-emperor"], ["dog-3"]], top="falling-star-2", crowns=[5, 5, 2])
    assert GAME.to_act(state) == [1]
    assert state["pending"]["kind"] == "choose_clan"
    state = play(state, (1, {"type": "choose_clan", "clan": "dog"}), (1, "eagle-emperor"), (2, "dog-3"))
    state = play(state, (0, "eagle-2"))
    assert GAME.result(state)["winners"] == [2]


def test_an_assassin_reveal_in_the_tie_brawl_plays_the_dealers_only_card():
    state = brawl([["eagle-2"], ["eagle-emperor"], ["dog-3"]], top="raptor-assassin", crowns=[5, 5, 2])
    assert state["trick"] == [{"seat": 1, "card": "eagle-emperor", "how": "reveal"}]
    assert GAME.to_act(state) == [2]
    state = play(state, (2, "dog-3"), (0, "eagle-2"))
    assert GAME.result(state)["winners"] == [1]


def test_a_divine_in_the_tie_brawl_wins_it():
    state = brawl([["devil-1"], ["eagle-emperor"], ["dog-3"]], top="raptor-7", crowns=[5, 5, 2], dealer=0)
    state = play(state, (0, "devil-1"), (2, "dog-3"), (1, "eagle-emperor"))
    assert GAME.result(state)["winners"] == [0]


def test_the_reverse_variant_plays_twenty_rounds_back_up_to_ten_cards():
    state = GAME.setup(players=3, seed=2, options={"reverse": True})
    assert state["rounds"] == 20
    state = build(
        [["eagle-5"], ["eagle-9"], ["frog-10"]], top="dog-2", round_no=10, options={"reverse": True}
    )
    state = play(state, (0, "eagle-5"), (1, "eagle-9"), (2, "frog-10"))
    assert not GAME.is_over(state)
    assert (state["round"], state["round_size"], state["dealer"]) == (11, 1, 1)


def test_the_reverse_variant_ends_after_round_twenty():
    hands = [["eagle-5"], ["eagle-9"], ["frog-10"]]
    state = build(hands, top="dog-2", round_no=20, dealer=1, crowns=[0, 3, 0], options={"reverse": True})
    state = play(state, (1, "eagle-9"), (2, "frog-10"), (0, "eagle-5"))
    assert GAME.is_over(state)
    assert GAME.result(state)["winners"] == [1]
