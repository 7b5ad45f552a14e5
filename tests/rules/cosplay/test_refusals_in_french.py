"""Refused moves read in French (rules.core's wordings, registered in rules/cosplay/view.py).

Cosplay's cards keep their printed names in French (``card_name``); the resources stay as printed
(BADASS, KAWAII, CRAFT), "any" reads "au choix", and a player's piles read main / défausse."""

import pytest

from rules.core import IllegalMove
from rules.cosplay import GAME

from .helpers import clear_influences, new, set_hand, to_assist, to_zone


@pytest.fixture
def state():
    s = new(2, seed=11)
    clear_influences(s)
    return s


def refused(state, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, move)
    return caught.value


def test_a_payment_names_the_card_and_the_amounts_in_french(state):
    to_zone(state, 1, "c01-neon-ronin")  # B3
    to_assist(state, 0, "c33-desert-gunslinger", up=False)
    set_hand(state, 0, ["st-badass", "st-badass", "st-craft"])
    exc = refused(state, {"type": "recruit", "zone": 1, "pay": ["st-badass", "st-badass", "st-craft"]})
    assert str(exc) == "Craft gives no point this payment can use (1 CRAFT for 3 BADASS)."
    assert exc.words("fr") == "Craft ne donne aucun point utile à ce paiement (1 CRAFT pour 3 BADASS)."
    exc = refused(state, {"type": "recruit", "zone": 1, "pay": ["st-badass", "c33-desert-gunslinger"]})
    assert exc.words("fr") == "Desert Gunslinger est encore face cachée."


def test_a_multicolour_need_reads_au_choix(state):
    state["drama"][-1] = "dr-09"  # costs 2 any
    exc = refused(state, {"type": "drama", "seat": 1, "pay": []})
    assert str(exc) == "Not enough points: 2 any still needed after your bonus points."
    assert exc.words("fr") == "Pas assez de points : il manque encore 2 au choix après vos points bonus."


def test_a_pending_choice_and_the_trashed_pile_read_in_french(state):
    state["pending"] = {"kind": "trash", "seat": 0, "n": 1, "source": "c09-starship-medic"}
    exc = refused(state, {"type": "end_turn"})
    assert exc.words("fr") == "Terminez d’abord le choix demandé par Starship Medic."
    exc = refused(state, {"type": "trash", "card": "c01-neon-ronin", "from": "discard"})
    assert str(exc) == "That card is not in your discard."
    assert exc.words("fr") == "Cette carte n’est pas dans votre défausse."
