"""Chronica: the rulings of 2026-11-26 on the end and on the powers, each on a constructed position.

Every test quotes the rulebook sentence (as printed, in French) or the ruling (../shared/RULINGS.md) it
enforces, checks that ``legal_moves`` offers each choice the ruling gives, that ``apply`` accepts every
variant and refuses a bad one with a reason in both languages.
"""

from __future__ import annotations

import pytest

from rules.chronica import GAME
from rules.chronica import powers as P
from rules.core import IllegalMove, narrate
from tests.rules.chronica.helpers import all_cards, board

ALCUIN = "alcuin"
BONAGUIL = "chateau-de-bonaguil"
LOUIS = "louis-viii-le-lion"
VINCENNES = "chateau-de-vincennes"
PHILIPPE = "philippe-auguste"
BERNARD = "saint-bernard-de-clairvaux"
JEANNE = "jeanne-d-arc"
MOLIERE = "moliere"
LOUIS_XIV = "louis-xiv"
HENRI = "henri-iv"
TUILERIES = "palais-des-tuileries"
DONJON = "donjon-de-loches"
FRANCOIS = "francois-ier"
FOUQUET = "jean-fouquet"
VERCINGETORIX = "vercingetorix"  # no power
BOURGOGNE = "palais-des-ducs-de-bourgogne"  # no power
CHRETIEN = "chretien-de-troyes"
ODILE = "sainte-odile"
GODEFROY = "godefroy-de-bouillon"
CHINON = "chateau-de-chinon"
ROLAND = "roland"
NAMES = ["alice", "bob", "carol", "dave"]


def powered(**kw):
    state = board(**kw)
    state["options"] = dict(state["options"], powers=True)
    return state


def action(card, seat, slot, reinforce=None, part="building", **extra):
    target = {"seat": seat, "slot": slot, "part": part}
    return {"type": "action", "card": card, "target": target, "reinforce": reinforce, **extra}


def kinds(state, seat, move):
    after = GAME.apply(state, seat, move)
    return after, GAME.events(state, seat, move, after)


def power_events(events, kind):
    return [e for e in events if e["kind"] == kind]


def narrated(state, seat, move, after, players):
    """The move told to every viewer in both languages (a narration must exist for every event)."""
    events = GAME.events(state, seat, move, after)
    for viewer in [*range(players), None]:
        for lang in ("en", "fr"):
            assert all(narrate(GAME, events, NAMES[:players], viewer, lang))


# --- 1. 0 honour stops the move ----------------------------------------------------------------


def test_an_action_that_costs_its_actor_their_last_honour_does_not_also_cost_the_target_one():
    # « L'un des joueurs tombe à zéro point d'Honneur [...] la partie s'arrête immédiatement »; RULINGS: "an
    # Action that costs its actor their last honour against an occupied building does not also take 1
    # from the target's owner". Alcuin (Érudition 7) against Bonaguil + Louis VIII: War 0 - 12.
    state = board(hands={0: [ALCUIN]}, provinces={1: {0: (BONAGUIL, LOUIS)}}, honour=[10, 1])
    move = action(ALCUIN, 1, 0)
    after, events = kinds(state, 0, move)
    assert after["honour"] == [0, 1]  # the target's owner keeps their last honour
    assert not power_events(events, "honour_lost") and not power_events(events, "fervour")
    assert GAME.is_over(after) and GAME.result(after)["winners"] == [1]
    assert all_cards(after) == all_cards(state)  # the cards involved still go to their discards
    assert {ALCUIN} <= set(after["discards"][0]) and {BONAGUIL, LOUIS} <= set(after["discards"][1])
    narrated(state, 0, move, after, 2)


def test_a_welcome_that_costs_the_builder_their_last_honour_costs_the_opponent_nothing():
    # The rulebook's welcome, Vincennes (Guerre 5) welcoming Philippe Auguste (Guerre 8): « Cela me coûte
    # donc 3 points d'Honneur (5-8 = -3), et l'adversaire perd un point d'Honneur » — but at 0 honour the
    # game stops first (RULINGS: "The same through a welcome").
    state = board(hands={0: [VINCENNES]}, provinces={1: {0: (None, PHILIPPE)}}, honour=[3, 4])
    move = {"type": "build", "card": VINCENNES, "slot": 0, "welcome": {"seat": 1, "slot": 0}}
    assert move in GAME.legal_moves(state, 0)
    after, events = kinds(state, 0, move)
    assert after["honour"] == [0, 4] and not power_events(events, "honour_lost")
    assert GAME.is_over(after) and after["end_reason"] == "honour"
    assert GAME.result(after)["winners"] == [1]
    narrated(state, 0, move, after, 2)


def test_a_power_that_would_follow_the_last_honour_does_not_fire():
    # Godefroy de Bouillon gains 1 when it wins (Guerre 5 + Philippe Auguste's 8 against Chinon + Roland's
    # 10); the target's owner's last honour (the occupied building's −1) ends the game before it.
    state = powered(hands={0: [GODEFROY, PHILIPPE]}, provinces={1: {0: (CHINON, ROLAND)}}, honour=[5, 1])
    after, events = kinds(state, 0, action(GODEFROY, 1, 0, {"from": "hand", "card": PHILIPPE}))
    assert after["honour"] == [8, 0] and GAME.is_over(after) and GAME.result(after)["winners"] == [0]
    assert not power_events(events, "power_honour") and not power_events(events, "fervour")


# --- 2. the reinforcement does not perform the Action -------------------------------------------


def test_a_reinforcement_does_not_trigger_its_when_it_wins_power():
    # « Notez que la carte venant en Renfort n'est pas considérée comme réalisant l'Action. » Vercingétorix
    # (no power) performs, Saint Bernard (+1 when it wins) reinforces: Prestige 4 + 2 against Bourgogne's 5.
    state = powered(hands={0: [VERCINGETORIX, BERNARD]}, provinces={1: {0: (BOURGOGNE, None)}}, honour=[5, 5])
    move = action(VERCINGETORIX, 1, 0, {"from": "hand", "card": BERNARD})
    after, events = kinds(state, 0, move)
    (clash,) = power_events(events, "clash")
    assert clash["delta"] == 1 and after["honour"][0] == 6  # the comparison alone
    assert not power_events(events, "power_honour")
    # performing the Action, Saint Bernard gains his honour (Érudition 6 against Bourgogne's Prestige 5...)
    state = powered(hands={0: [BERNARD, VERCINGETORIX]}, provinces={1: {0: (BOURGOGNE, None)}}, honour=[5, 5])
    after, events = kinds(state, 0, action(BERNARD, 1, 0, {"from": "hand", "card": VERCINGETORIX}))
    assert [(e["seat"], e["change"]) for e in power_events(events, "power_honour")] == [(0, 1)]


def test_a_reinforcing_jeanne_d_arc_grants_no_extra_play():
    # Jeanne d'Arc: "When it wins an Action it performs (not as a Reinforcement): you may play one more card."
    state = powered(
        hands={0: [VERCINGETORIX, JEANNE, ALCUIN]}, provinces={1: {0: (BOURGOGNE, None)}}, honour=[5, 5]
    )
    after, events = kinds(state, 0, action(VERCINGETORIX, 1, 0, {"from": "hand", "card": JEANNE}))
    assert not power_events(events, "power_fervour") and after["phase"] == "play" and after["current"] == 1
    assert "(not as a Reinforcement)" in P.text(P.POWERS[JEANNE], "en")
    assert "(pas en Renfort)" in P.text(P.POWERS[JEANNE], "fr")


# --- 3. Disgrace names one opponent ---------------------------------------------------------------


def test_with_three_players_the_player_names_the_opponent_a_disgrace_hits():
    # RULINGS: "The opponent loses n honour": with 3 or 4 players, the player names one opponent, as when
    # placing a character on a building. Molière (Prestige 6) wins against Bourgogne (Prestige 5) at seat 1.
    state = powered(players=3, hands={0: [MOLIERE]}, provinces={1: {0: (BOURGOGNE, None)}}, honour=[5, 5, 5])
    offered = [m for m in GAME.legal_moves(state, 0) if m["type"] == "action" and m["card"] == MOLIERE]
    assert sorted(m["disgrace"] for m in offered) == [1, 2]  # both opponents, and nothing without a name
    for victim in (1, 2):
        move = action(MOLIERE, 1, 0, disgrace=victim)
        after, events = kinds(state, 0, move)
        assert [(e["seat"], e["change"]) for e in power_events(events, "power_honour")] == [(victim, -1)]
        assert after["honour"] == [6, 5 - (victim == 1), 5 - (victim == 2)]
        narrated(state, 0, move, after, 3)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, action(MOLIERE, 1, 0))
    assert str(caught.value) == "Name the opponent who loses honour by the power (disgrace)."
    assert (
        caught.value.words("fr") == "Désignez l’adversaire qui perd de l’Honneur par le pouvoir (disgrace)."
    )
    for bad in (0, 3, True, "1"):
        with pytest.raises(IllegalMove, match="opponent's seat"):
            GAME.apply(state, 0, action(MOLIERE, 1, 0, disgrace=bad))


def test_a_disgrace_that_does_not_fire_asks_no_opponent():
    # Molière losing (Prestige 6 against Louis XIV's 7 on a wandering slot): no Disgrace, no name to give.
    state = powered(players=3, hands={0: [MOLIERE]}, provinces={1: {0: (None, LOUIS_XIV)}}, honour=[5, 5, 5])
    offered = [m for m in GAME.legal_moves(state, 0) if m["type"] == "action"]
    assert offered and all("disgrace" not in m for m in offered)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, action(MOLIERE, 1, 0, part="character", disgrace=2))
    assert caught.value.words("fr").startswith("Aucun pouvoir de ce coup ne fait perdre d’Honneur")
    # with two players the opponent is implied, and may still be named
    state = powered(hands={0: [MOLIERE]}, provinces={1: {0: (BOURGOGNE, None)}}, honour=[5, 5])
    assert action(MOLIERE, 1, 0) in GAME.legal_moves(state, 0)
    assert GAME.apply(state, 0, action(MOLIERE, 1, 0, disgrace=1))["honour"] == [6, 4]


def test_a_placed_disgrace_and_a_passed_one_name_their_opponent_too():
    # Louis XIV (placed next to a Crown card) and Palais des Tuileries discarded by a pass, at 4 players.
    state = powered(players=4, hands={0: [LOUIS_XIV, TUILERIES]}, provinces={0: {1: (None, HENRI)}})
    places = [m for m in GAME.legal_moves(state, 0) if m["type"] == "place" and m["slot"] == 0]
    assert sorted(m["disgrace"] for m in places) == [1, 2, 3]
    passes = [m for m in GAME.legal_moves(state, 0) if m["type"] == "pass" and m["discard"] == TUILERIES]
    assert sorted(m["disgrace"] for m in passes) == [1, 2, 3]
    after = GAME.apply(state, 0, {"type": "place", "card": LOUIS_XIV, "slot": 0, "disgrace": 3})
    assert after["honour"] == [10, 10, 10, 9]
    after = GAME.apply(state, 0, {"type": "pass", "discard": TUILERIES, "disgrace": 2})
    assert after["honour"] == [10, 10, 9, 10]


def test_a_disgrace_discarded_by_an_opponents_action_hits_that_opponent():
    # The Tuileries' owner is not playing: "if an opponent's Action discards it: that opponent".
    state = powered(players=3, hands={2: [MOLIERE]}, provinces={1: {0: (TUILERIES, None)}}, current=2)
    state["honour"] = [7, 7, 7]
    # Molière (Prestige 6) against the Tuileries (Prestige 6): a draw, no Disgrace of Molière's own
    move = action(MOLIERE, 1, 0)
    assert move in GAME.legal_moves(state, 2)
    after, events = kinds(state, 2, move)
    assert [(e["seat"], e["change"]) for e in power_events(events, "power_honour")] == [(2, -1)]
    assert "(if an opponent's Action discards it: that opponent)" in P.text(P.POWERS[TUILERIES], "en")


def test_the_disgrace_text_says_an_opponent_of_your_choice():
    assert P.text(P.POWERS[MOLIERE], "en") == (
        "When it wins an Action it performs (not as a Reinforcement): an opponent of your choice loses 1 honour."
    )
    assert P.text(P.POWERS[MOLIERE], "fr") == (
        "Quand elle gagne une Action qu’elle réalise (pas en Renfort) : un adversaire de votre choix perd "
        "1 point d’Honneur."
    )


# --- 4. Exile: the player chooses the wandering character ----------------------------------------


def test_donjon_de_loches_lets_the_player_choose_which_wandering_character_goes_home():
    # RULINGS: "An effect that moves 'an opponent's wandering character' (Exile) lets the player choose which
    # one among those it may reach." Seat 1 has two unprotected wanderers, seat 2 one, and one protected.
    state = powered(
        players=3,
        hands={0: [DONJON]},
        provinces={1: {0: (None, ALCUIN), 2: (None, PHILIPPE)}, 2: {1: (BOURGOGNE, None), 5: (None, ODILE)}},
    )
    builds = [
        m
        for m in GAME.legal_moves(state, 0)
        if m["type"] == "build" and m["slot"] == 3 and "welcome" not in m
    ]
    assert sorted((m["exile"]["seat"], m["exile"]["slot"]) for m in builds) == [(1, 0), (1, 2)]
    move = {"type": "build", "card": DONJON, "slot": 3, "exile": {"seat": 1, "slot": 2}}
    after, events = kinds(state, 0, move)
    assert after["provinces"][1][2] is None and PHILIPPE in after["hands"][1]
    assert after["provinces"][1][0]["character"] == ALCUIN
    (routed,) = power_events(events, "power_routed")
    assert (routed["owner_seat"], routed["routed_card"]) == (1, PHILIPPE)
    narrated(state, 0, move, after, 3)
    with pytest.raises(IllegalMove) as caught:  # Sainte Odile is behind Bourgogne: protected
        GAME.apply(state, 0, {**move, "exile": {"seat": 2, "slot": 5}})
    assert (
        caught.value.words("fr")
        == "Le pouvoir ne peut renvoyer que le Personnage Errant non protégé d’un adversaire."
    )
    with pytest.raises(IllegalMove, match="exile"):
        GAME.apply(state, 0, {"type": "build", "card": DONJON, "slot": 3})
    with pytest.raises(IllegalMove, match="exile must be"):
        GAME.apply(state, 0, {**move, "exile": [1, 2]})


def test_an_exile_may_reach_the_character_a_welcome_unprotects():
    # Building Donjon de Loches welcomes the frontier wanderer in front of another: the one behind is no
    # longer protected when the Exile fires (after the welcome), so the player may choose it.
    state = powered(hands={0: [DONJON]}, provinces={1: {0: (None, FOUQUET), 4: (None, CHRETIEN)}})
    state["honour"] = [10, 10]
    welcome = {"seat": 1, "slot": 0}
    builds = [m for m in GAME.legal_moves(state, 0) if m["type"] == "build" and m.get("welcome") == welcome]
    assert {(m["slot"], m.get("exile", {}).get("slot")) for m in builds if m["slot"] == 0} == {(0, None)}
    move = next(m for m in builds if m["slot"] == 0)  # one reachable: implied
    after = GAME.apply(state, 0, move)
    assert after["provinces"][1][4] is None and CHRETIEN in after["hands"][1]
    assert after["provinces"][0][0]["character"] == FOUQUET
    assert "of your choice" in P.text(P.POWERS[DONJON], "en") and "de votre choix" in P.text(
        P.POWERS[DONJON], "fr"
    )


def test_a_move_without_an_exile_names_none():
    state = powered(hands={0: [BOURGOGNE]}, provinces={1: {0: (None, ALCUIN)}})
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, {"type": "build", "card": BOURGOGNE, "slot": 0, "exile": {"seat": 1, "slot": 0}})
    assert str(caught.value) == "No power of this move sends a wandering character home: name none (exile)."


# --- 5. a Renown defends in a replacement ----------------------------------------------------------


def test_a_replaced_buildings_renown_counts_in_the_comparison():
    # « résolvez le cas comme une Action du nouvel Édifice contre l'ancien »; RULINGS: "A building's defending
    # bonus counts whenever it defends, a replacement included". Bourgogne (Prestige 5) replaces Bonaguil
    # (Prestige 3, +3 Prestige in defence): 5 - 6 = -1.
    state = powered(hands={0: [BOURGOGNE]}, provinces={0: {0: (BONAGUIL, None)}}, honour=[5, 5])
    move = {"type": "replace", "card": BOURGOGNE, "slot": 0}
    after, events = kinds(state, 0, move)
    (bonus,) = power_events(events, "power_bonus")
    assert (bonus["card"], bonus["domain"], bonus["n"]) == (BONAGUIL, "prestige", 3)
    (clash,) = power_events(events, "clash")
    assert (clash["attack"], clash["defence"], clash["delta"]) == (5, 6, -1)
    assert after["honour"] == [4, 5]
    assert GAME.preview(state, 0, move)["honour_delta"] == -1
    narrated(state, 0, move, after, 2)
    # a character on the old building stays and does not defend: only the old building's Renown counts
    state["provinces"][0][0]["character"] = ALCUIN
    after, events = kinds(state, 0, move)
    assert power_events(events, "clash")[0]["defence_cards"] == [BONAGUIL]
    assert after["provinces"][0][0]["character"] == ALCUIN


# --- 6. a power may draw the last card ---------------------------------------------------------------


@pytest.mark.parametrize("left", [1, 2])
def test_a_power_may_draw_the_last_card_and_the_game_ends_at_once(left):
    # « L'un des joueurs a pioché sa dernière carte [...] la partie s'arrête immédiatement »; RULINGS: "'Draw
    # n' may draw its owner's last card; the game then ends at once". François Ier draws 2.
    state = powered(hands={0: [FRANCOIS]}, provinces={0: {1: (None, FOUQUET)}})
    state["decks"][0] = state["decks"][0][-left:]
    deck = list(state["decks"][0])
    move = {"type": "place", "card": FRANCOIS, "slot": 0}
    after, events = kinds(state, 0, move)
    (secret,) = power_events(events, "power_drew_cards")
    assert secret["drawn_cards"] == deck[::-1]
    assert after["decks"][0] == [] and GAME.is_over(after) and after["end_reason"] == "deck"
    assert not power_events(events, "drew")  # no end-of-turn draw: the game ended first
    (over,) = power_events(events, "game_over")
    assert over["seat"] == 0
    narrated(state, 0, move, after, 2)


def test_in_the_shared_variant_a_power_drawing_the_piles_last_card_ends_the_game():
    state = powered(shared=True, hands={0: [FRANCOIS]}, provinces={0: {1: (None, FOUQUET)}})
    state["pile"] = state["pile"][-1:]
    after = GAME.apply(state, 0, {"type": "place", "card": FRANCOIS, "slot": 0})
    assert after["pile"] == [] and GAME.is_over(after) and after["end_reason"] == "deck"


# --- 7. two grants, two extra plays ------------------------------------------------------------------


def test_popular_fervour_and_a_zeal_in_one_move_give_two_extra_plays():
    # « vous avez le droit de jouer une nouvelle carte. C'est la Ferveur Populaire. »; RULINGS: "Each grant of
    # an extra play (Ferveur populaire, a power) gives one extra play; two grants in one move give two."
    # Jeanne d'Arc (Guerre 6) and Vercingétorix (5) win against Chinon + Roland (occupied, Guerre 5 + 5).
    state = powered(
        hands={0: [JEANNE, VERCINGETORIX, ALCUIN, BONAGUIL, ODILE]},
        provinces={1: {0: (CHINON, ROLAND)}},
        honour=[5, 5],
    )
    zeal = action(JEANNE, 1, 0, {"from": "hand", "card": VERCINGETORIX})
    after, events = kinds(state, 0, zeal)
    (clash,) = power_events(events, "clash")
    assert clash["delta"] > 0 and power_events(events, "power_fervour")
    assert after["phase"] == "fervour" and GAME.view(after, 0)["extra_plays"] == 2
    (told,) = power_events(events, "fervour")
    assert told["plays"] == 2
    narrated(state, 0, zeal, after, 2)
    odile = {"type": "place", "card": ODILE, "slot": 0}
    first = GAME.apply(after, 0, odile)
    assert first["phase"] == "fervour" and GAME.view(first, 0)["extra_plays"] == 1
    (left,) = power_events(GAME.events(after, 0, odile, first), "fervour")
    assert left["left"] and "plays" not in left  # the one still owed, not a new Popular fervour
    lines = narrate(GAME, GAME.events(after, 0, odile, first), NAMES[:2], 1, "fr")
    assert "alice peut encore jouer une carte de plus ce tour-ci." in lines
    assert "You may still play one more card this turn." in GAME.preview(after, 0, odile)["explanation"]["en"]
    assert GAME.to_act(first) == [0]
    assert GAME.load(GAME.dump(first)) == first
    second = GAME.apply(first, 0, {"type": "build", "card": BONAGUIL, "slot": 1})
    assert second["current"] == 1 and "more_plays" not in second  # both used: the draw, the next player
    # ending the turn gives up the plays left
    ended = GAME.apply(after, 0, {"type": "end_turn"})
    assert ended["current"] == 1 and "more_plays" not in ended
    assert GAME.view(ended, 1)["extra_plays"] == 0


def test_without_powers_popular_fervour_gives_one_extra_play_and_the_view_has_no_count():
    state = board(
        hands={0: [JEANNE, VERCINGETORIX, ODILE]}, provinces={1: {0: (CHINON, ROLAND)}}, honour=[5, 5]
    )
    after = GAME.apply(state, 0, action(JEANNE, 1, 0, {"from": "hand", "card": VERCINGETORIX}))
    assert after["phase"] == "fervour" and "more_plays" not in after
    assert "extra_plays" not in GAME.view(after, 0)
    after = GAME.apply(after, 0, {"type": "place", "card": ODILE, "slot": 0})
    assert after["current"] == 1
