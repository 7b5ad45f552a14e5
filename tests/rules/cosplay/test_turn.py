"""Set-up, equipment, Drama, objectives, the initialisation phase, the end and ties."""

import pytest

from rules import core
from rules.core import IllegalMove
from rules.cosplay import GAME
from rules.cosplay.cards import CARDS, DRAMA_CODES, LIBRARY
from rules.cosplay.scoring import score

from .helpers import all_cards, clear_influences, full_set, new, set_hand, take, to_assist, to_pile, to_zone


def end(state):
    return GAME.apply(state, state["active"], {"type": "end_turn"})


# --- Set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_follows_the_rulebook(players):
    state = new(players, seed=4)
    assert all(state["zones"]) and len(state["library"]) == 52 - 6
    assert len(state["objectives"]) == players + 1
    assert all(p["level"] == 1 and CARDS[p["card"]]["level"] == 1 for p in state["objectives"])
    assert sorted(state["drama"]) == sorted(DRAMA_CODES)
    for me in state["seats"]:
        assert len(me["hand"]) == 5 and len(me["reserve"]) == 5 and me["assist"] == [] and me["discard"] == []
    assert all_cards(state) == full_set(players)
    assert GAME.to_act(state) == [0]


def test_zones_are_filled_from_six_down_to_one():
    state = new(2, seed=9)
    assert state == new(2, seed=9)
    library = core.shuffle(core.new_state(9, 2, {}), LIBRARY)  # the set-up's first draw
    assert state["zones"][5] == library[0] and state["zones"][0] == library[5]
    assert state["library"] == library[6:]


def test_setup_refuses_bad_player_counts_and_options():
    for players in (1, 5):
        with pytest.raises(ValueError):
            GAME.setup(players=players, seed=1)
    with pytest.raises(ValueError):
        GAME.setup(players=2, seed=1, options={"turbo": True})


# --- Equipment ------------------------------------------------------------------------------


def equipped_state():
    state = new(2, seed=12)
    to_assist(state, 0, "c18-wasteland-rider")
    to_assist(state, 0, "c22-cosmic-cowboy")
    for e in (
        "e01-foam-greatsword",
        "e04-pastel-wig",
        "e05-velvet-cape",
        "e07-glitter-kit",
        "e08-convention-badge",
        "e10-colour-lenses",
    ):
        to_assist(state, 0, e)
    return state


def attach(state, card, to):
    return GAME.apply(state, 0, {"type": "attach", "card": card, "to": to})


def test_encumbrance_one_allows_no_other_item():
    state = attach(equipped_state(), "e01-foam-greatsword", "c18-wasteland-rider")
    for other in ("e04-pastel-wig", "e07-glitter-kit"):
        with pytest.raises(IllegalMove, match="encumbrance"):
            attach(state, other, "c18-wasteland-rider")
    state = attach(equipped_state(), "e07-glitter-kit", "c18-wasteland-rider")
    with pytest.raises(IllegalMove, match="encumbrance"):
        attach(state, "e01-foam-greatsword", "c18-wasteland-rider")


def test_encumbrance_two_allows_one_more_item():
    state = attach(equipped_state(), "e04-pastel-wig", "c18-wasteland-rider")
    state = attach(state, "e05-velvet-cape", "c18-wasteland-rider")
    with pytest.raises(IllegalMove, match="encumbrance"):
        attach(state, "e07-glitter-kit", "c18-wasteland-rider")


def test_unlimited_items_stack():
    state = equipped_state()
    for e in ("e07-glitter-kit", "e08-convention-badge", "e10-colour-lenses"):
        state = attach(state, e, "c22-cosmic-cowboy")
    assert state["seats"][0]["assist"][1]["equip"] == [
        "e07-glitter-kit",
        "e08-convention-badge",
        "e10-colour-lenses",
    ]
    moves = GAME.legal_moves(state, 0)
    assert {"type": "attach", "card": "e04-pastel-wig", "to": "c22-cosmic-cowboy"} not in moves
    assert {"type": "attach", "card": "e04-pastel-wig", "to": "c18-wasteland-rider"} in moves


def test_equipment_attaches_only_face_up_to_a_face_up_character():
    state = new(2, seed=12)
    to_assist(state, 0, "c18-wasteland-rider", up=False)
    to_assist(state, 0, "e04-pastel-wig")
    to_assist(state, 0, "e07-glitter-kit", up=False)
    to_assist(state, 0, "c22-cosmic-cowboy")
    with pytest.raises(IllegalMove):
        attach(state, "e04-pastel-wig", "c18-wasteland-rider")
    with pytest.raises(IllegalMove):
        attach(state, "e07-glitter-kit", "c22-cosmic-cowboy")
    with pytest.raises(IllegalMove):
        attach(state, "c22-cosmic-cowboy", "e04-pastel-wig")


def test_equipment_from_hand_is_placed_then_attached():
    state = new(2, seed=12)
    to_assist(state, 0, "c22-cosmic-cowboy")
    set_hand(state, 0, ["e04-pastel-wig"])
    state["phase"] = "preparation"
    state = GAME.apply(state, 0, {"type": "place", "card": "e04-pastel-wig"})
    state = attach(state, "e04-pastel-wig", "c22-cosmic-cowboy")
    assert state["seats"][0]["assist"] == [
        {"card": "c22-cosmic-cowboy", "up": True, "equip": ["e04-pastel-wig"]}
    ]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "place", "card": "st-badass"})


def test_poaching_a_character_drops_its_equipment_in_its_owners_discard():
    state = new(2, seed=12)
    clear_influences(state)
    state["seats"][1]["assist"].append({"card": "c15-moon-bunny", "up": True, "equip": []})
    state["library"] = [c for c in state["library"] if c != "c15-moon-bunny"]
    state["zones"][:] = [z if z != "c15-moon-bunny" else None for z in state["zones"]]
    to_assist(state, 1, "e04-pastel-wig")
    state["seats"][1]["assist"][0]["equip"].append(state["seats"][1]["assist"].pop()["card"])
    set_hand(state, 0, ["st-passion", "st-kawaii", "st-kawaii"])
    state = GAME.apply(
        state,
        0,
        {
            "type": "poach",
            "seat": 1,
            "card": "c15-moon-bunny",
            "with": "st-passion",
            "pay": ["st-kawaii", "st-kawaii"],
        },
    )
    assert state["seats"][1]["discard"] == ["e04-pastel-wig"]
    assert state["seats"][0]["assist"] == [{"card": "c15-moon-bunny", "up": False, "equip": []}]
    assert score(state, 0) == 0 and all_cards(state) == full_set(2)


def test_it_refuses_poaching_face_down_cards_or_objectives_or_oneself():
    state = new(2, seed=12)
    to_assist(state, 1, "c15-moon-bunny", up=False)
    to_assist(state, 1, "ob1-first-con")
    to_assist(state, 1, "c02-pixel-witch")
    to_assist(state, 0, "c01-neon-ronin")
    set_hand(state, 0, ["st-passion", "st-kawaii", "st-kawaii", "st-badass", "st-badass"])
    base = {"type": "poach", "with": "st-passion", "pay": ["st-kawaii", "st-kawaii"]}
    for extra in (
        {"seat": 1, "card": "c15-moon-bunny"},
        {"seat": 1, "card": "ob1-first-con"},
        {"seat": 0, "card": "c01-neon-ronin"},
    ):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, {**base, **extra})
    with pytest.raises(IllegalMove, match="Poaching needs"):
        GAME.apply(state, 0, {**base, "seat": 1, "card": "c02-pixel-witch", "with": "st-badass"})


# --- Drama ----------------------------------------------------------------------------------


def test_drama_goes_from_the_reserve_top_to_the_targets_discard():
    state = new(3, seed=5)
    clear_influences(state)
    top = state["drama"][-1]
    cost = CARDS[top]["cost"]["any"]
    set_hand(state, 0, ["st-craft", "st-craft", "st-craft"][:cost])
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "drama"]
    assert [m["seat"] for m in moves] == [1, 2]
    after = GAME.apply(state, 0, moves[1])
    assert after["seats"][2]["discard"] == [top] and len(after["drama"]) == 19
    with pytest.raises(IllegalMove, match="another player"):
        GAME.apply(state, 0, {**moves[0], "seat": 0})
    with pytest.raises(IllegalMove, match="another player"):
        GAME.apply(state, 0, {**moves[0], "seat": 7})


def test_no_drama_when_the_reserve_is_empty():
    state = new(2, seed=5)
    state["seats"][1]["discard"].extend(state["drama"])
    state["drama"] = []
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "drama"]
    with pytest.raises(IllegalMove, match="empty"):
        GAME.apply(state, 0, {"type": "drama", "seat": 1, "pay": []})


def test_drama_drawn_returns_to_the_reserve_at_preparation_with_its_sting():
    state = new(2, seed=5)
    clear_influences(state)
    for code in ("dr-02", "dr-04"):  # fatigue, tax
        state["drama"].remove(code)
    set_hand(state, 1, ["st-badass", "st-kawaii"])
    state["seats"][1]["hand"] += ["dr-02", "dr-04"]
    state = end(state)
    assert state["active"] == 1
    assert state["seats"][1]["hand"] == ["st-badass", "st-kawaii"]
    assert state["drama"][-2:] == ["dr-02", "dr-04"]
    assert state["tp"]["surcharge"] == 1 and state["tp"]["fatigue"] == 1
    to_zone(state, 1, "c15-moon-bunny")  # K2 + 1 any (tax)
    with pytest.raises(IllegalMove, match="Not enough"):
        GAME.apply(state, 1, {"type": "recruit", "zone": 1, "pay": ["st-kawaii"]})
    state = end(state)
    assert len(state["seats"][1]["hand"]) == 4  # fatigue: one card fewer


# --- Objectives -------------------------------------------------------------------------------


def test_fulfilled_objectives_go_face_down_and_the_pile_levels_up():
    state = new(2, seed=6)
    to_pile(state, 1, "ob1-group-selfie")
    state["tp"]["bonus"] = {"badass": 5, "kawaii": 0, "craft": 0}
    state = GAME.apply(state, 0, {"type": "objective", "pile": 1, "pay": []})
    assert state["seats"][0]["assist"] == [{"card": "ob1-group-selfie", "up": False, "equip": []}]
    assert GAME.view(state, 0)["objectives"][1] is None
    assert score(state, 0) == CARDS["ob1-group-selfie"]["vp"]
    state = end(state)
    pile = state["objectives"][1]
    assert pile["level"] == 2 and CARDS[pile["card"]]["level"] == 2
    # Level 2 gives way to level 3, and level 3 to nothing.
    state = end(state)
    for level in (3, None):
        state["tp"]["bonus"] = {"badass": 30, "kawaii": 30, "craft": 30}
        state = GAME.apply(state, 0, {"type": "objective", "pile": 1, "pay": []})
        state = end(end(state))
        pile = state["objectives"][1]
        if level:
            assert pile["level"] == 3 and CARDS[pile["card"]]["level"] == 3
        else:
            assert pile["card"] is None and GAME.view(state, 0)["objectives"][1] is None
    assert not GAME.is_over(state)


def test_objectives_cannot_pay():
    state = new(2, seed=6)
    clear_influences(state)
    to_assist(state, 0, "ob1-group-selfie")
    to_zone(state, 1, "c15-moon-bunny")
    with pytest.raises(IllegalMove, match="cannot pay"):
        GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": ["ob1-group-selfie"]})


# --- Initialisation ----------------------------------------------------------------------------


def test_initialisation_moves_the_zones_towards_six_and_refills():
    state = new(2, seed=8)
    z = list(state["zones"])
    state["zones"][1] = None  # as if recruited from zone 2 and zone 4
    state["zones"][3] = None
    state["library"][:0] = []
    top3 = state["library"][:3]
    state["seats"][0]["discard"] += [z[1], z[3]]  # keep them accounted for
    after = end(state)
    assert after["graveyard"] == [z[5]]
    assert after["zones"][3:] == [z[0], z[2], z[4]]
    assert after["zones"][:3] == [top3[2], top3[1], top3[0]]  # filled from the highest empty zone down
    assert len(after["library"]) == len(state["library"]) - 3


def test_draw_up_to_five_reshuffling_the_discard():
    state = new(2, seed=8)
    me = state["seats"][0]
    cards = me["hand"] + me["reserve"]
    me["hand"], me["reserve"], me["discard"] = cards[:2], cards[2:3], cards[3:]
    after = end(state)
    me = after["seats"][0]
    assert len(me["hand"]) == 5 and me["hand"][:3] == cards[:3]
    assert me["discard"] == [] and len(me["reserve"]) == 5
    assert [e["kind"] for e in after["events"] if e["kind"] in ("drew", "reshuffle")] == ["reshuffle", "drew"]


def test_hand_is_kept_and_topped_up_at_the_end_of_the_turn():
    state = new(2, seed=8)
    clear_influences(state)
    keep = list(state["seats"][0]["hand"])
    after = end(state)
    assert after["seats"][0]["hand"] == keep


def test_recruited_cards_turn_face_up_at_the_owners_next_preparation():
    state = new(2, seed=8)
    state["tp"]["bonus"] = {"badass": 30, "kawaii": 30, "craft": 30}
    card = state["zones"][0]
    state = GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": []})
    while state["pending"]:
        state = GAME.apply(state, 0, GAME.legal_moves(state, 0)[0])
    entry = next(e for e in state["seats"][0]["assist"] if e["card"] == card)
    assert not entry["up"]
    state = end(state)
    assert not next(e for e in state["seats"][0]["assist"] if e["card"] == card)["up"]
    state = end(state)
    assert next(e for e in state["seats"][0]["assist"] if e["card"] == card)["up"]


def test_bonus_and_discounts_end_with_the_turn():
    state = new(2, seed=8)
    state["tp"]["bonus"]["badass"] = 4
    state["tp"]["discount"]["any"] = 2
    state = end(state)
    assert state["tp"] == {
        "bonus": {"badass": 0, "kawaii": 0, "craft": 0},
        "discount": {},
        "surcharge": 0,
        "drawn": [],
        "fatigue": 0,
    }


# --- End and ties -------------------------------------------------------------------------------


def test_the_game_ends_when_the_library_cannot_refill_the_zones():
    state = new(2, seed=8)
    state["graveyard"] += state["library"][1:]
    state["library"] = state["library"][:1]
    state = end(state)  # one empty zone, one card: refilled
    assert not GAME.is_over(state) and state["library"] == []
    state = end(state)  # zone 6 leaves, nothing to refill with
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert state["zones"][0] is None
    assert GAME.legal_moves(state, 0) == [] and GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, 0, {"type": "end_turn"})
    assert GAME.result(state)["scores"] == [0, 0]


def test_the_game_ends_when_no_objective_remains():
    state = new(2, seed=8)
    for pile in state["objectives"][1:]:
        state["obj_decks"]["1"].append(pile["card"])
        pile["card"], pile["level"] = None, 3
    pile = state["objectives"][0]
    state["obj_decks"]["1"].append(pile["card"])
    to_pile(state, 0, "ob3-world-final")
    state["tp"]["bonus"] = {"badass": 30, "kawaii": 30, "craft": 30}
    state = GAME.apply(state, 0, {"type": "objective", "pile": 0, "pay": []})
    assert not GAME.is_over(state)  # the turn goes on
    state = end(state)
    assert not GAME.is_over(state) and GAME.to_act(state) == [1]  # the round is played out (RULINGS)
    state = end(state)
    assert GAME.is_over(state)
    assert GAME.result(state) == {"scores": [7, 0], "winners": [0]}


def test_score_counts_one_point_per_full_ten_of_recruitment_cost():
    state = new(2, seed=8)
    for code in ("c20-dragon-knight", "c37-crystal-golem"):  # 6 + 6
        to_assist(state, 0, code)
    assert score(state, 0) == 1
    to_assist(state, 0, "ob1-first-con")
    state["seats"][0]["discard"].append("c01-neon-ronin")
    state["library"].remove("c01-neon-ronin") if "c01-neon-ronin" in state["library"] else None
    assert score(state, 0) == 1 + 1
    assert GAME.view(state, None)["scores"] == [2, 0]


def finish(state):
    state["graveyard"] += state["library"]
    state["library"] = []
    state["zones"][0] = None if state["zones"][0] is None else state["zones"][0]
    return end(state)


def test_ties_go_to_more_objectives_then_are_shared():
    state = new(2, seed=8)
    to_assist(state, 0, "ob3-museum")  # 6
    to_assist(state, 1, "ob2-viral-tutorial")  # 4
    to_assist(state, 1, "ob1-first-con")  # 1
    to_assist(state, 1, "ob1-group-selfie")  # 1
    over = finish(state)
    assert GAME.result(over) == {"scores": [6, 6], "winners": [1]}
    state = new(2, seed=8)
    to_assist(state, 0, "ob1-first-con")
    to_assist(state, 1, "ob1-group-selfie")
    over = finish(state)
    assert GAME.result(over) == {"scores": [1, 1], "winners": [0, 1]}


def test_rulebook_example_two_drama_drawn_leave_three_cards_to_play():
    state = new(2, seed=5)
    dramas = ["dr-01", "dr-03"]  # plain Drama, no sting
    for code in dramas:
        state["drama"].remove(code)
    set_hand(state, 1, ["st-badass", "st-kawaii", "st-craft"])
    state["seats"][1]["hand"] += dramas
    assert len(state["seats"][1]["hand"]) == 5
    state = end(state)
    assert state["active"] == 1 and len(state["seats"][1]["hand"]) == 3
    assert state["tp"]["surcharge"] == 0 and state["tp"]["fatigue"] == 0


@pytest.mark.parametrize("players,piles", [(2, 3), (3, 4), (4, 5)])
def test_rulebook_example_objective_piles_are_players_plus_one(players, piles):
    assert len(GAME.view(new(players, seed=1), None)["objectives"]) == piles


# Rulebook 003, « 1/ Phase de préparation (ne s'applique pas au 1er tour) » … « Si le joueur à des
# cartes de personnages, d'équipements et /ou d'objectifs en main, le joueur peut les poser faces
# visibles en zone d'assistance. » Then « 2/ Phase de recrutement ».
def second_turn_of_seat_0(seed=3):
    state = end(end(new(2, seed=seed)))
    assert state["active"] == 0 and state["turn"] == 3 and state["phase"] == "preparation"
    return state


def test_cards_from_hand_go_to_the_assistance_zone_during_the_preparation_phase_only():
    state = second_turn_of_seat_0()
    clear_influences(state)
    set_hand(state, 0, ["c22-cosmic-cowboy", "e04-pastel-wig", "st-badass", "st-badass", "st-badass"])
    state = GAME.apply(state, 0, {"type": "place", "card": "c22-cosmic-cowboy"})
    assert state["phase"] == "preparation" and GAME.view(state, 0)["phase"] == "preparation"
    assert {"type": "place", "card": "e04-pastel-wig"} in GAME.legal_moves(state, 0)
    to_zone(state, 1, "c01-neon-ronin")  # B3, Recruit: draw 1
    state = GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": ["st-badass"] * 3})
    assert state["phase"] == "recruitment" and GAME.view(state, 0)["phase"] == "recruitment"
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "place"]
    with pytest.raises(IllegalMove, match="preparation phase only"):
        GAME.apply(state, 0, {"type": "place", "card": "e04-pastel-wig"})


def test_the_first_turn_has_no_preparation_phase():
    state = new(3, seed=5)
    assert [GAME.view(state, s)["phase"] for s in range(3)] == ["recruitment"] * 3
    state = end(state)
    assert state["active"] == 1 and state["phase"] == "recruitment"
    state = end(end(state))
    assert state["active"] == 0 and state["phase"] == "preparation"


def test_a_card_drawn_mid_turn_cannot_fire_its_support_that_turn():
    state = second_turn_of_seat_0()
    set_hand(state, 0, ["c06-magical-idol", "st-badass"])  # Support: draw 1
    take(state, "c02-pixel-witch")  # Support: +1 KAWAII this turn
    state["seats"][0]["reserve"].insert(0, "c02-pixel-witch")
    state = GAME.apply(state, 0, {"type": "place", "card": "c06-magical-idol"})
    assert "c02-pixel-witch" in state["seats"][0]["hand"] and state["phase"] == "preparation"
    assert GAME.view(state, 0)["drawn"] == ["c02-pixel-witch"]
    assert {"type": "place", "card": "c02-pixel-witch"} not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="drawn this turn"):
        GAME.apply(state, 0, {"type": "place", "card": "c02-pixel-witch"})
    state = end(end(state))  # its owner's next preparation phase
    assert state["active"] == 0 and "c02-pixel-witch" in state["seats"][0]["hand"]
    state = GAME.apply(state, 0, {"type": "place", "card": "c02-pixel-witch"})
    assert state["tp"]["bonus"]["kawaii"] == 1
