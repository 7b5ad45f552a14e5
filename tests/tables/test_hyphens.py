"""Where a card's name may break on a small card (tables.hyphens): French syllables, never a letter apart."""

import pytest

from rules.chronica import cards as C
from tables.hyphens import SOFT, soft_hyphens


@pytest.mark.parametrize(
    "name, broken",
    [
        ("Vercingétorix", "Ver-cin-gé-to-rix"),  # one consonant between two vowels starts the next syllable
        ("Cité de Carcassonne", "Cité de Car-cas-sonne"),  # two consonants are split
        ("Cathédrale Notre-Dame de Chartres", "Cathé-drale Notre-Dame de Chartres"),  # dr sounds as one
        ("Université de Montpellier", "Uni-ver-sité de Mont-pel-lier"),  # of ntp, the p goes on alone
        ("Aliénor d'Aquitaine", "Aliénor d'Aqui-taine"),  # the u of qu belongs to the consonant
        ("Château de Versailles", "Château de Ver-sailles"),  # a silent e's syllable never goes on alone
        ("Palais des ducs de Bourgogne", "Palais des ducs de Bour-gogne"),  # nor -gne
        ("Palais Jacques-Cœur", "Palais Jacques-Cœur"),  # nor -ques
        ("Observatoire de Paris", "Obser-va-toire de Paris"),  # three letters at least on each side
        ("Saint Bernard de Clairvaux", "Saint Bernard de Clair-vaux"),  # words under nine letters stay whole
    ],
)
def test_a_name_breaks_between_its_syllables(name, broken):
    assert soft_hyphens(name).replace(SOFT, "-") == broken


def test_every_card_name_reads_the_same_once_its_soft_hyphens_are_taken_out():
    for card in C.CARD_BY_CODE.values():
        marked = soft_hyphens(card["name"])
        assert marked.replace(SOFT, "") == card["name"]
        # (at least three letters at each end of every word)
        for word in marked.replace("-", " ").replace("'", " ").split():
            pieces = word.split(SOFT)
            assert len(pieces) == 1 or min(len(pieces[0]), len(pieces[-1])) >= 3, (card["name"], word)
