"""Refused moves read in French (rules.core's wordings, registered in rules/five_crowns/view.py)."""

import pytest

from rules import IllegalMove
from rules.five_crowns import GAME

from .helpers import crafted


def refused(state, seat, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, seat, move)
    return caught.value


def test_a_card_not_in_hand_is_named_in_french():
    state = crafted(hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club"], discard=["8-heart"])
    state = GAME.apply(state, 1, {"type": "draw", "source": "stock"})
    exc = refused(state, 1, {"type": "discard", "card": "3-star"})
    assert str(exc) == "3 of stars is not in your hand."
    assert exc.words("fr") == "3 d’Étoiles n’est pas dans votre main."


def test_the_house_rule_names_the_card_just_taken_in_french():
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []],
        stock=["Q-club"],
        discard=["7-star", "K-spade"],
        options={"keep_taken": True},
    )
    state = GAME.apply(state, 1, {"type": "draw", "source": "discard"})
    exc = refused(state, 1, {"type": "go_out", "card": "K-spade"})
    assert str(exc).endswith("the card you just took from the discard (King of spades).")
    assert exc.words("fr") == (
        "Règle maison : vous ne pouvez pas rejeter la carte que vous venez de prendre "
        "de la défausse (Roi de Piques)."
    )


def test_an_empty_pile_and_the_turn_order_read_in_french():
    state = crafted(hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club"], discard=[])
    exc = refused(state, 1, {"type": "draw", "source": "discard"})
    assert (str(exc), exc.words("fr")) == ("The discard is empty.", "La défausse est vide.")
    exc = refused(state, 1, {"type": "discard", "card": "K-spade"})
    assert exc.words("fr") == "Prenez d’abord une carte de la pioche ou de la défausse."
