"""The move log as events (rules.core's contract): messages in every language, nothing hidden named."""

import pytest

from rules import core
from rules.cosplay import GAME
from rules.cosplay.cards import CARDS
from rules.cosplay.view import MESSAGES
from tests.rules.playout import random_playout

CASES = [(2, 0), (2, 1), (3, 2), (4, 3)]
NAMES = ["alice", "bob", "carol", "dave"]
UNIQUE = [c for c, card in CARDS.items() if card["kind"] != "starter"]  # one copy each: a name is one card
# names that appear inside another card's name cannot be told apart in a line
CLEAR = [c for c in UNIQUE if not any(CARDS[c]["name"] in CARDS[o]["name"] for o in CARDS if o != c)]


@pytest.fixture(scope="module")
def playouts():
    return {(p, s): random_playout(GAME, p, s) for p, s in CASES}


def each_move(playouts):
    for (players, _seed), (states, log) in playouts.items():
        for i, (seat, move) in enumerate(log):
            yield players, states[i], seat, move, states[i + 1]


def test_every_language_has_the_same_message_kinds():
    assert set(MESSAGES) == set(core.LANGUAGES)
    assert set(MESSAGES["fr"]) == set(MESSAGES["en"])


def test_every_event_kind_met_in_playouts_reads_in_both_languages(playouts):
    met = set()
    for players, before, seat, move, after in each_move(playouts):
        events = GAME.events(before, seat, move, after)
        assert events, move  # every move says something
        for event in events:
            assert isinstance(event["kind"], str) and event["kind"] in MESSAGES["en"], event
            met.add(event["kind"])
            assert set(event.get("to", [])) <= {*range(players), None}
        for lang in core.LANGUAGES:
            for viewer in [None, *range(players)]:
                lines = GAME.narrate(before, seat, move, after, NAMES[:players], viewer, lang)
                assert lines and all(isinstance(line, str) and line for line in lines)
                assert not any("{" in line or "None" in line for line in lines), lines
    # the playouts meet the common kinds; the rare ones are shown by the constructed tests of test_view
    assert {"end_turn", "recruit", "drew", "drew_cards", "refill", "turn", "over", "turned_up"} <= met


def test_french_narration_uses_the_rulebook_words(playouts):
    (states, log) = playouts[(2, 0)]
    seat, move = log[0]
    end = next(i for i, (_s, m) in enumerate(log) if m["type"] == "end_turn")
    lines = GAME.narrate(states[end], log[end][0], log[end][1], states[end + 1], NAMES[:2], None, "fr")
    assert lines[0] == f"{NAMES[log[end][0]]} termine son tour"
    assert any(line.startswith("Nouvelles cartes en zone de recrutement : ") for line in lines)


def hidden_from(state, viewer):
    """Unique cards ``viewer`` cannot see in ``state``: others' hands and face-down cards, every reserve,
    the library and the objective decks (every card that reaches a discard was shown on its way there)."""
    out = set()
    for s, me in enumerate(state["seats"]):
        out |= set(me["reserve"])
        if s != viewer:
            out |= set(me["hand"]) | {e["card"] for e in me["assist"] if not e["up"]}
    # the Drama reserve is a face-up pile (« toutes les cartes Drama face visible »): cards put on it are shown
    out |= set(state["library"])
    for deck in state["obj_decks"].values():
        out |= set(deck)
    return out


def test_narration_never_names_a_card_its_reader_may_not_see(playouts):
    checked = 0
    for players, before, seat, move, after in each_move(playouts):
        for viewer in [None, *range(players)]:
            # hidden before the move and still hidden after it: no line may name it
            secret = hidden_from(before, viewer) & hidden_from(after, viewer)
            secret &= set(CLEAR)
            if not secret:
                continue
            for lang in core.LANGUAGES:
                text = "\n".join(GAME.narrate(before, seat, move, after, NAMES[:players], viewer, lang))
                named = [c for c in secret if GAME.card_name(c, lang) in text]
                assert not named, (viewer, move, named, text)
                checked += 1
    assert checked > 1000


def test_a_draw_tells_the_others_how_many_and_the_drawer_which():
    state = GAME.setup(players=3, seed=4)
    state = GAME.apply(state, 0, next(m for m in GAME.legal_moves(state, 0) if m["type"] == "drama"))
    after = GAME.apply(state, 0, {"type": "end_turn"})
    drew = [e for e in GAME.events(state, 0, {"type": "end_turn"}, after) if e["kind"].startswith("drew")]
    n = 5 - len(state["seats"][0]["hand"])
    assert n > 0 and drew == [
        {"kind": "drew", "seat": 0, "n": n, "to": [1, 2, None]},
        {"kind": "drew_cards", "seat": 0, "cards": after["seats"][0]["hand"][-n:], "to": [0]},
    ]


def test_every_kind_the_engine_emits_has_a_message_and_no_message_is_dead():
    import re
    from pathlib import Path

    from rules.cosplay import engine

    source = "".join(p.read_text() for p in sorted(Path(engine.__file__).parent.glob("*.py")))
    kinds = set(re.findall(r'event\(\s*state,\s*"(\w+)"', source))
    kinds |= {"discard", "sacrifice"}  # an activation's event is named by its ability kind
    assert kinds == set(MESSAGES["en"]) == set(MESSAGES["fr"])
