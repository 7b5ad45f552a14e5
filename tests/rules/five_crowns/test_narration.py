"""The move log as events: every kind has words in both languages, nobody but the drawer reads the
card drawn from the stock, the lines follow rulebook 004; the turn counter; no take-backs; previews."""

from __future__ import annotations

import json
import random

import pytest

from rules.core import LANGUAGES, narrate, visible
from rules.five_crowns import GAME
from rules.five_crowns.view import MESSAGES, card_name
from tests.rules.five_crowns.helpers import codes_in, crafted

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
PLAYOUTS = [(2, 21, {}), (4, 22, {"keep_taken": True})]


@pytest.fixture(scope="module")
def steps():
    """Whole seeded random games: ((players, seed, options), states, log)."""
    out = []
    for players, seed, options in PLAYOUTS:
        rnd = random.Random(seed)
        states, log = [GAME.setup(players=players, seed=seed, options=options)], []
        while not GAME.is_over(states[-1]):
            seat = GAME.to_act(states[-1])[0]
            move = rnd.choice(GAME.legal_moves(states[-1], seat))
            states.append(GAME.apply(states[-1], seat, move))
            log.append((seat, move))
        out.append(((players, seed, options), states, log))
    return out


def each_move(steps):
    for (players, _seed, _options), states, log in steps:
        for i, (seat, move) in enumerate(log):
            yield players, states[i], seat, move, states[i + 1]


def test_both_languages_have_the_same_event_kinds():
    assert set(LANGUAGES) <= set(MESSAGES)
    assert set(MESSAGES["en"]) == set(MESSAGES["fr"])


def test_every_event_kind_met_in_playouts_has_words_in_both_languages(steps):
    seen = set()
    for (players, _seed, _options), states, _log in steps:
        events = GAME.setup_events(states[0])
        seen.update(e["kind"] for e in events)
        for lang in LANGUAGES:
            assert narrate(GAME, events, NAMES[:players], None, lang)
    for players, before, seat, move, after in each_move(steps):
        events = GAME.events(before, seat, move, after)
        seen.update(e["kind"] for e in events)
        for viewer in (seat, None):
            for lang in LANGUAGES:
                lines = narrate(GAME, events, NAMES[:players], viewer, lang)
                assert lines and all(isinstance(line, str) and line for line in lines)
                assert "{" not in "".join(lines)
    assert seen <= set(MESSAGES["en"])
    assert seen >= set(MESSAGES["en"]) - {"piles_empty"}, "both piles never run out with 116 cards"
    piles = crafted(hands=[["K-club"], ["5-heart"], ["J-star"]], stock=[], discard=[])
    events = GAME.events(piles, 1, {"type": "end_round"}, GAME.apply(piles, 1, {"type": "end_round"}))
    assert events[0] == {"kind": "piles_empty"}
    assert (
        narrate(GAME, events, NAMES[:3], 0, "fr")[0]
        == "La pioche et la défausse sont vides : la donne s’arrête"
    )


def seen_by(viewer, before, after) -> set[str]:
    """What ``viewer`` saw of the move: its own hand before and after, the discard piles (every card
    in them went there face up), the laid melds of the last round scored; never the stock."""
    shown = codes_in(before["discard"]) | codes_in(after["discard"]) | codes_in(after["last_round"])
    if viewer is not None:
        shown |= set(before["hands"][viewer]) | set(after["hands"][viewer])
    return shown


def test_nobody_reads_a_card_they_may_not_see_in_either_language(steps):
    """Every card an event shows a viewer is one the viewer saw (``seen_by``) or the card the move
    discarded; the card drawn from the stock is named to the drawer only."""
    checked = 0
    for players, before, seat, move, after in each_move(steps):
        events = GAME.events(before, seat, move, after)
        for viewer in [None, *range(players)]:
            shown = seen_by(viewer, before, after) | {move.get("card")}
            named = {e[k] for e in visible(events, viewer) for k in e if k == "card" or k.endswith("_card")}
            assert named <= shown, (viewer, named - shown)
            if move == {"type": "draw", "source": "stock"} and viewer != seat:
                drawn = after["drawn"]
                assert all(e["kind"] != "drew_card" for e in visible(events, viewer))
                for lang in LANGUAGES:
                    text = "\n".join(GAME.narrate(before, seat, move, after, NAMES[:players], viewer, lang))
                    assert card_name(drawn, lang) not in text
            checked += 1
    assert checked > 5000


def test_the_drawer_reads_the_card_in_french_and_the_others_a_twin_line():
    state = crafted(
        hands=[[], ["5-heart", "9-club", "K-spade"], []], stock=["Q-club", "K-star"], discard=["8-heart"]
    )
    move = {"type": "draw", "source": "stock"}
    after = GAME.apply(state, 1, move)
    assert GAME.events(state, 1, move, after) == [
        {"kind": "drew", "seat": 1, "to": [0, 2, None]},
        {"kind": "drew_card", "seat": 1, "card": "K-star", "to": [1]},
    ]
    assert GAME.narrate(state, 1, move, after, NAMES[:3], 1, "fr") == ["bob prend Roi d’Étoiles de la pioche"]
    assert GAME.narrate(state, 1, move, after, NAMES[:3], None, "fr") == ["bob prend une carte de la pioche"]


def test_going_out_is_told_in_the_rulebooks_words():
    """Rulebook 004: « il étale ses combinaisons sur la table et rejette une carte sur la défausse »
    and « Quand un joueur expose, les autres joueurs ont encore un tour de jeu »."""
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []], stock=["Q-club"], discard=["Q-diamond"]
    )
    state = GAME.apply(state, 1, {"type": "draw", "source": "discard"})
    move = {"type": "go_out", "card": "Q-diamond"}
    after = GAME.apply(state, 1, move)
    assert GAME.narrate(state, 1, move, after, NAMES[:3], 0, "fr") == [
        "bob expose et rejette Dame de Carreaux",
        "Les autres joueurs ont encore un tour de jeu",
    ]


def test_a_new_round_names_its_wild_rank_as_the_rulebook_does():
    """Rulebook 004: « quand trois cartes sont distribuées, les 3 sont le Bonus … les Rois (K)
    deviennent Bonus »."""
    state = GAME.setup(players=2, seed=4)
    (event,) = GAME.setup_events(state)
    top = card_name(state["discard"][0], "fr")
    assert narrate(GAME, [event], NAMES[:2], None, "fr") == [
        f"Donne 1 : 3 cartes à chacun, les 3 sont Bonus ; alice distribue et retourne {top}"
    ]
    king = {**event, "round": 11, "size": 13, "wild_rank": 13}
    assert narrate(GAME, [king], NAMES[:2], None, "fr")[0].startswith(
        "Donne 11 : 13 cartes à chacun, les Rois sont"
    )
    assert narrate(GAME, [king], NAMES[:2], None, "en")[0].startswith(
        "Round 11: 13 cards each, Kings are wild;"
    )


def test_card_names_in_both_languages():
    assert [
        card_name(c, "fr") for c in ("K-star", "Q-diamond", "J-club", "10-heart", "3-spade", "joker")
    ] == [
        "Roi d’Étoiles",
        "Dame de Carreaux",
        "Valet de Trèfles",
        "10 de Cœurs",
        "3 de Piques",
        "Joker",
    ]
    assert GAME.card_name("Q-star", "en") == "Queen of stars"


def test_the_turn_counter_counts_every_seats_go_from_one(steps):
    for (_players, _seed, _options), states, log in steps:
        turns = [GAME.view(state, None)["turn"] for state in states]
        assert turns[0] == 1
        draws = sum(move["type"] == "draw" for _seat, move in log)
        assert turns[-1] == draws, "every turn starts with a draw; the last one ended the game"
        ends_turn = [move["type"] in ("discard", "go_out") for _seat, move in log]
        ends_turn[-1] = False  # the discard that ends the game starts no turn
        assert [b - a for a, b in zip(turns, turns[1:], strict=False)] == [int(e) for e in ends_turn]


def test_no_move_can_be_taken_back(steps):
    """A draw shows a card (to the drawer, or everyone's view of the taker's hand); a discard ends the turn."""
    assert GAME.takeback_moves == frozenset()
    for _players, before, seat, move, after in each_move(steps):
        assert GAME.can_take_back(before, seat, move, after) is False


@pytest.mark.parametrize(
    "move",
    [
        None,
        "go_out",
        {},
        {"type": "go_out"},
        {"type": "go_out", "card": ["x"]},
        {"type": "go_out", "card": "2-star"},
    ],
)
def test_a_preview_of_anything_but_a_legal_way_out_is_none(move):
    state = crafted(
        hands=[[], ["5-heart", "6-heart", "7-heart"], []], stock=["Q-club"], discard=["Q-diamond"]
    )
    assert GAME.preview(state, 1, move) is None
    drawn = GAME.apply(state, 1, {"type": "draw", "source": "discard"})
    assert GAME.preview(drawn, 1, move) is None
    assert GAME.preview(drawn, 0, {"type": "go_out", "card": "Q-diamond"}) is None, "not seat 0's turn"
    preview = GAME.preview(drawn, 1, {"type": "go_out", "card": "Q-diamond"})
    assert preview == {
        "discard": "Q-diamond",
        "melds": [{"kind": "run", "cards": ["5-heart", "6-heart", "7-heart"]}],
    }
    json.dumps(preview)
