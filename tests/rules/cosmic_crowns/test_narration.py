"""The move log as events: every kind has words in both languages, no line names a hidden card,
the lines follow the rulebooks (002 in English, 000 in French); the turn counter; take-backs."""

from __future__ import annotations

import pytest

from rules.core import LANGUAGES, narrate, visible
from rules.cosmic_crowns import CARDS, GAME
from rules.cosmic_crowns.view import MESSAGES, card_name
from tests.rules.playout import random_playout

from .helpers import build, play

DIVINES = {code for code, card in CARDS.items() if card["divine"]}
NAMES = ["alice", "bob", "carol", "dan", "erin", "fay"]
PLAYOUTS = [
    (2, 11, {}),
    (3, 12, {"mode": "hard"}),
    (4, 13, {"reverse": True}),
    (5, 14, {"mode": "hard", "reverse": True}),
    (6, 15, {}),
]


def moves_of(players, seed, options):
    """Each step of a seeded playout as (before, seat, move, after)."""
    states, log = random_playout(GAME, players, seed, options)
    return [(states[i], seat, move, states[i + 1]) for i, (seat, move) in enumerate(log)]


@pytest.fixture(scope="module")
def steps():
    return [(case, moves_of(*case)) for case in PLAYOUTS]


def test_both_languages_have_the_same_event_kinds():
    assert set(LANGUAGES) <= set(MESSAGES)
    assert set(MESSAGES["en"]) == set(MESSAGES["fr"])


def test_every_event_kind_met_in_playouts_has_words_in_both_languages(steps):
    seen = set()
    for case, moves in steps:
        names = NAMES[: case[0]]
        state = GAME.setup(players=case[0], seed=case[1], options=case[2])
        all_events = [GAME.setup_events(state)] + [GAME.events(*step) for step in moves]
        for events in all_events:
            seen.update(e["kind"] for e in events)
            for lang in LANGUAGES:
                lines = narrate(GAME, events, names, None, lang)
                assert all(isinstance(line, str) and line for line in lines)
                assert "{" not in "".join(lines), lines
    assert seen <= set(MESSAGES["en"])
    for kind in (
        "deal",
        "battleground_card",
        "played",
        "discarded",
        "bid",
        "chose_clan",
        "won_trick",
        "bids_scored",
        "game_over",
        "assassinated",
        "stole",
    ):
        assert kind in seen, kind


def test_no_viewer_reads_a_card_still_hidden_from_them_in_either_language(steps):
    """Cosmic Crowns has one copy of each card: a card in another hand or in the stack after the
    move is hidden, and no event the viewer may read, and no line, may name it. A move that ends a
    round is told up to the new deal from the cards it played; from the deal on (the events that
    name the new round's cards) it is checked like any other."""
    checked = 0
    for (players, _seed, _options), moves in steps:
        names = NAMES[:players]
        for before, seat, move, after in moves:
            events = GAME.events(before, seat, move, after)
            deals = [i for i, e in enumerate(events) if e["kind"] in ("deal", "brawl_deal")]
            for viewer in [None, *range(players)]:
                hidden = set(after["stack"])
                for s in range(players):
                    if s != viewer:
                        hidden |= set(after["hands"][s])
                new_round = visible(events[deals[-1] :] if deals else events, viewer)
                named = {e[k] for e in new_round for k in e if k == "card" or k.endswith("_card")}
                assert not named & hidden, (viewer, named & hidden)
                if deals:
                    continue
                for lang in LANGUAGES:
                    text = "\n".join(GAME.narrate(before, seat, move, after, names, viewer, lang))
                    for code in hidden - DIVINES:  # "Devil" is also in "The Devil reveals: ..."
                        assert card_name(code, lang) not in text, (viewer, code, text)
                checked += 1
    assert checked > 1000


def test_card_names_follow_the_glossary():
    assert card_name("eagle-g2", "en") == "Eagle General 2★"
    assert card_name("eagle-g2", "fr") == "Aigle Général 2★"
    assert card_name("frog-7", "fr") == "Grenouille 7"
    assert card_name("dog-emperor", "fr") == "Chien Empereur"
    assert card_name("raptor-thief", "fr") == "Raptor Voleur"
    assert card_name("falling-star-2", "fr") == "Étoile Filante"
    assert card_name("devil-1", "en") == "Devil"
    assert card_name("devil-1", "fr") == "Le Diable"
    assert GAME.card_name("dog-assassin", "fr") == "Chien Assassin"


def test_the_thief_line_follows_the_rulebook():
    """002: "When you play the Thief, take a Cosmic Crown from a player who has at least one";
    000: « Quand tu joues le Voleur, prends une Couronne Cosmique à un joueur qui en possède au moins une »."""
    names = ["alice", "bob", "carol"]
    state = build(
        [["eagle-thief", "eagle-2"], ["frog-3", "frog-4"], ["dog-4", "dog-5"]],
        top="raptor-2",
        crowns=[0, 2, 1],
    )
    state = play(state, (0, "eagle-thief"))
    move = {"type": "steal", "from": 2}
    after = GAME.apply(state, 0, move)
    assert GAME.events(state, 0, move, after) == [{"kind": "stole", "seat": 0, "from_seat": 2}]
    assert GAME.narrate(state, 0, move, after, names, 1, "fr") == [
        "Le Voleur de alice vole une couronne à carol"
    ]
    assert GAME.narrate(state, 0, move, after, names, 1) == ["alice's Thief steals a crown from carol"]


def test_the_assassin_and_the_devil_lines_follow_the_rulebook():
    """000: « Choisis un joueur qui n'a pas encore joué ce tour. Prends une carte au hasard dans sa
    main et joue-la à sa place. » and « Le Diable change le Clan du Champ de Bataille. Révèle la carte
    au sommet de la pile »."""
    names = ["alice", "bob", "carol"]
    state = build([["eagle-assassin", "eagle-2"], ["frog-3"], ["dog-4"]], top="raptor-2", size=2)
    before = play(state, (0, "eagle-assassin"))
    move = {"type": "assassinate", "target": 2}
    after = GAME.apply(before, 0, move)
    victim = after["trick"][-1]["card"]
    assert GAME.narrate(before, 0, move, after, names, None, "fr")[0] == (
        f"alice assassine carol : {card_name(victim, 'fr')} est joué au hasard"
    )
    state = build(
        [["devil-1", "eagle-2"], ["frog-3", "frog-4"], ["dog-4", "dog-5"]], top="raptor-2", stack=("frog-9",)
    )
    move = {"type": "play", "card": "devil-1"}
    after = GAME.apply(state, 0, move)
    assert GAME.narrate(state, 0, move, after, names, 1, "fr") == [
        "alice joue Le Diable",
        "Le Diable révèle : Grenouille 9 (Champ de Bataille Grenouille)",
    ]
    assert GAME.narrate(state, 0, move, after, names, 1, "en") == [
        "alice played Devil",
        "The Devil reveals: Frog 9 (Battleground Frog)",
    ]


def test_the_end_and_the_tie_brawl_are_told_in_french():
    names = ["alice", "bob"]
    end = build([["eagle-5"], ["eagle-10"]], top="frog-3", round_no=10, crowns=[3, 3])
    move = {"type": "play", "card": "eagle-10"}
    before = play(end, (0, "eagle-5"))
    after = GAME.apply(before, 1, move)
    assert GAME.narrate(before, 1, move, after, names, 0, "fr")[-1] == (
        "Fin de la partie : bob gagne et devient Souverain de l’Univers"
    )
    tied = build([["eagle-10"], ["eagle-5"]], top="frog-3", round_no=10, crowns=[3, 4])
    before = play(tied, (0, "eagle-10"))
    after = GAME.apply(before, 1, {"type": "play", "card": "eagle-5"})
    lines = GAME.narrate(before, 1, {"type": "play", "card": "eagle-5"}, after, names, None, "fr")
    assert lines[2:4] == [
        "Égalité pour le plus de couronnes entre alice et bob : Égalité Furieuse !",
        "Égalité Furieuse : bob distribue une carte à chacun",
    ]


def test_the_turn_counter_starts_at_one_never_goes_back_and_counts_every_go(steps):
    for (players, seed, options), moves in steps:
        first = GAME.setup(players=players, seed=seed, options=options)
        assert GAME.view(first, None)["turn"] in (1, 2)  # 2: an Assassin reveal played the dealer's go
        final = moves[-1][3]
        turns = [GAME.view(state, None)["turn"] for state in [first] + [after for *_, after in moves]]
        assert turns == sorted(turns)
        for before, seat, move, after in moves:  # a card or a bid that hands the go on starts the next turn
            if (
                move["type"] in ("play", "bid")
                and after["pending"]
                and after["pending"]["kind"] in ("play", "bid")
            ):
                assert GAME.view(after, seat)["turn"] > GAME.view(before, seat)["turn"]
        cards = players * (sum(range(1, 11)) * (2 if options.get("reverse") else 1) + final["tie_brawl"])
        bids = players * final["rounds"] if options.get("mode") == "hard" else 0
        assert turns[-1] == cards + bids, "every card dealt went into a trick, every seat bid every round"


def test_only_a_clan_choice_that_leaves_the_same_seat_to_act_can_be_taken_back(steps):
    allowed = 0
    for _case, moves in steps:
        for before, seat, move, after in moves:
            back = GAME.can_take_back(before, seat, move, after)
            if back:
                allowed += 1
                assert move["type"] in GAME.takeback_moves
                assert GAME.to_act(after) == [seat] and after["draws"] == before["draws"]
            elif move["type"] != "choose_clan":
                assert not back
    state = build([["eagle-5", "eagle-6"], ["dog-4", "dog-5"]], top="falling-star-1")
    move = {"type": "choose_clan", "clan": "frog"}
    assert GAME.can_take_back(state, 0, move, GAME.apply(state, 0, move))
    state = build([["eagle-5", "eagle-6"], ["dog-4", "dog-5"]], top="devil-1")
    assert not GAME.can_take_back(state, 1, move, GAME.apply(state, 1, move)), "the dealer leads next"
    assert allowed, "the playouts hold a clan choice that can be taken back"
