"""Refused moves read in French (rules.core's wordings, registered in rules/cosmic_crowns/view.py)."""

import pytest

from rules import IllegalMove
from rules.cosmic_crowns import GAME

from .helpers import build, play


def refused(state, seat, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, seat, move)
    return caught.value


def test_a_card_you_do_not_hold_is_named_in_french():
    state = build([["eagle-5", "eagle-6"], ["frog-10", "dog-2"]], top="dog-3")
    exc = refused(state, 0, {"type": "play", "card": "eagle-g2"})
    assert str(exc) == "You do not hold Eagle General 2★."
    assert exc.words("fr") == "Vous n’avez pas Aigle Général 2★ en main."


def test_following_the_leading_clan_names_the_clan_in_french():
    state = build([["eagle-5", "dog-4"], ["eagle-9", "raptor-thief"], []], top="frog-7", size=2)
    state = play(state, (0, "eagle-5"))
    exc = refused(state, 1, {"type": "play", "card": "raptor-thief"})
    assert str(exc) == "You must follow the Leading clan (Eagle)."
    assert exc.words("fr") == "Vous devez suivre le Clan Guide (Aigle)."


def test_the_awaited_decision_and_the_last_bid_read_in_french():
    state = build([[], []], top="eagle-2", size=4, options={"mode": "hard"})
    exc = refused(state, 0, {"type": "play", "card": state["hands"][0][0]})
    assert exc.words("fr") == "Vous devez parier maintenant."
    state = play(state, (0, {"type": "bid", "tricks": 3}))
    exc = refused(state, 1, {"type": "bid", "tricks": 1})
    assert str(exc) == "As the last bidder you may not bid 1: the bids would add up to 4."
    assert exc.words("fr") == "Dernier à parier, vous ne pouvez pas parier 1 : le total des paris ferait 4."


def test_what_a_person_sent_is_shown_as_sent():
    state = build([["eagle-5"], ["frog-10"]], top="dog-3")
    exc = refused(state, 0, {"type": "play", "card": "eagle-1"})
    assert exc.words("fr") == "Il n’y a pas de carte 'eagle-1'."
    assert refused(state, 0, {"type": "jump"}).words("fr") == "Type de coup inconnu : 'jump'."
