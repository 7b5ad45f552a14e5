"""Payments: one target, pooled points, surplus lost, the right resources, canonical and free forms."""

import pytest

from rules.core import IllegalMove
from rules.cosplay import GAME
from rules.cosplay.payments import canonical_payment, check_payment

from .helpers import clear_influences, new, set_hand, to_assist, to_pile, to_zone


@pytest.fixture
def state():
    s = new(2, seed=11)
    clear_influences(s)
    return s


def recruit(state, zone, pay):
    return GAME.apply(state, 0, {"type": "recruit", "zone": zone, "pay": pay})


def test_it_pools_several_cards_for_one_recruitment(state):
    to_zone(state, 2, "c01-neon-ronin")  # B3
    to_assist(state, 0, "c33-desert-gunslinger")  # gives B2
    set_hand(state, 0, ["st-badass", "st-kawaii"])
    after = recruit(state, 2, ["st-badass", "c33-desert-gunslinger"])
    me = after["seats"][0]
    assert {"card": "c01-neon-ronin", "up": False, "equip": []} in me["assist"]
    assert sorted(me["discard"]) == ["c33-desert-gunslinger", "st-badass"]
    assert after["zones"][1] is None


def test_surplus_points_are_lost(state):
    to_zone(state, 1, "c11-pastel-ninja")  # K3
    to_zone(state, 2, "e04-pastel-wig")  # C2
    to_assist(state, 0, "c28-nebula-empress")  # gives K3
    to_assist(state, 0, "c09-starship-medic")  # gives K2
    set_hand(state, 0, ["st-craft"])
    after = recruit(state, 1, ["c28-nebula-empress", "c09-starship-medic"])  # 5 points for 3
    assert after["tp"]["bonus"] == {"badass": 0, "kawaii": 0, "craft": 0}
    assert not [m for m in GAME.legal_moves(after, 0) if m["type"] == "recruit" and m["zone"] == 2]


def test_it_refuses_too_few_points(state):
    to_zone(state, 1, "c01-neon-ronin")
    set_hand(state, 0, ["st-badass", "st-badass"])
    with pytest.raises(IllegalMove, match="Not enough points"):
        recruit(state, 1, ["st-badass", "st-badass"])


def test_it_refuses_the_wrong_resource(state):
    to_zone(state, 1, "c01-neon-ronin")  # B3
    set_hand(state, 0, ["st-badass", "st-badass", "st-badass", "st-craft"])
    with pytest.raises(IllegalMove, match="Craft gives no point"):
        recruit(state, 1, ["st-badass", "st-badass", "st-craft"])
    with pytest.raises(IllegalMove, match="Craft gives no point"):
        recruit(state, 1, ["st-badass", "st-badass", "st-badass", "st-craft"])
    to_zone(state, 2, "e04-pastel-wig")  # C2 (equipment is paid with CRAFT only)
    with pytest.raises(IllegalMove, match="Badass gives no point"):
        recruit(state, 2, ["st-craft", "st-badass"])


def test_characters_need_each_printed_resource(state):
    to_zone(state, 1, "c08-dungeon-bard")  # B2 K2
    set_hand(state, 0, ["st-badass", "st-badass", "st-badass", "st-kawaii"])
    with pytest.raises(IllegalMove, match="Not enough points"):
        recruit(state, 1, ["st-badass", "st-badass", "st-badass", "st-kawaii"])


def test_la_passion_is_a_wild_point(state):
    to_zone(state, 1, "c08-dungeon-bard")  # B2 K2
    set_hand(state, 0, ["st-badass", "st-badass", "st-kawaii", "st-passion"])
    after = recruit(state, 1, ["st-badass", "st-badass", "st-kawaii", "st-passion"])
    assert "st-passion" in after["seats"][0]["discard"]


def test_drama_and_objectives_take_any_mix_where_printed(state):
    state["drama"].append(state["drama"].pop(state["drama"].index("dr-02")))  # A3 on top
    set_hand(state, 0, ["st-badass", "st-kawaii", "st-craft"])
    after = GAME.apply(state, 0, {"type": "drama", "seat": 1, "pay": ["st-badass", "st-kawaii", "st-craft"]})
    assert after["seats"][1]["discard"] == ["dr-02"]
    to_pile(state, 0, "ob1-hallway-shoot")  # K3 A2
    set_hand(state, 0, ["st-kawaii", "st-kawaii", "st-kawaii", "st-craft", "st-badass"])
    after = GAME.apply(
        state,
        0,
        {
            "type": "objective",
            "pile": 0,
            "pay": ["st-kawaii", "st-kawaii", "st-kawaii", "st-craft", "st-badass"],
        },
    )
    assert {"card": "ob1-hallway-shoot", "up": False, "equip": []} in after["seats"][0]["assist"]


def test_a_card_used_for_its_ability_gives_no_points(state):
    # La Passion enables a poach and is not counted in it: Moon Bunny (K2) needs 2 other points.
    state["seats"][1]["assist"].append({"card": "c15-moon-bunny", "up": True, "equip": []})
    state["library"].remove("c15-moon-bunny") if "c15-moon-bunny" in state["library"] else None
    state["zones"][:] = [z if z != "c15-moon-bunny" else None for z in state["zones"]]
    set_hand(state, 0, ["st-passion", "st-kawaii"])
    move = {"type": "poach", "seat": 1, "card": "c15-moon-bunny", "with": "st-passion", "pay": ["st-kawaii"]}
    with pytest.raises(IllegalMove, match="Not enough points"):
        GAME.apply(state, 0, move)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {**move, "pay": ["st-kawaii", "st-passion"]})
    # A card activated for its ability has left: it cannot pay afterwards.
    to_zone(state, 1, "c01-neon-ronin")
    to_assist(state, 0, "c03-mecha-pilot")
    after = GAME.apply(state, 0, {"type": "activate", "card": "c03-mecha-pilot"})  # +3 BADASS
    with pytest.raises(IllegalMove):
        recruit(after, 1, ["c03-mecha-pilot"])
    assert recruit(after, 1, [])["zones"][0] is None  # the bonus pays instead


def test_bonus_points_pay_first_and_only_what_is_needed(state):
    to_zone(state, 1, "c15-moon-bunny")  # K2
    state["tp"]["bonus"] = {"badass": 0, "kawaii": 3, "craft": 0}
    after = recruit(state, 1, [])
    assert after["tp"]["bonus"]["kawaii"] == 1


def test_discount_and_surcharge(state):
    to_zone(state, 1, "c01-neon-ronin")  # B3
    state["tp"]["discount"] = {"character": 2}
    state["tp"]["surcharge"] = 1
    set_hand(state, 0, ["st-badass", "st-craft"])
    after = recruit(state, 1, ["st-badass", "st-craft"])  # B1 + 1 any
    assert after["tp"]["discount"] == {} and after["tp"]["surcharge"] == 0


def test_duo_and_equipment_add_points(state):
    to_zone(state, 1, "c05-kaiju-tamer")  # B3 K2
    to_assist(state, 0, "c07-chrome-samurai", equip=["e11-resin-crown"])  # B2 + K2
    to_assist(state, 0, "c34-sakura-swordmaid")  # duo: Samurai +1 B
    state["seats"][0]["hand"] = []
    plan = check_payment(state, 0, "character", {"badass": 3, "kawaii": 2}, ["c07-chrome-samurai"])
    assert plan["items"] == [("c07-chrome-samurai", "assist")]
    after = recruit(state, 1, ["c07-chrome-samurai"])
    assert sorted(after["seats"][0]["discard"]) == ["c07-chrome-samurai", "e11-resin-crown"]
    # Without the partner the duo bonus is gone.
    state["seats"][0]["assist"] = [
        e for e in state["seats"][0]["assist"] if e["card"] != "c34-sakura-swordmaid"
    ]
    with pytest.raises(IllegalMove):
        recruit(state, 1, ["c07-chrome-samurai"])


def test_it_refuses_cards_that_cannot_pay(state):
    to_zone(state, 1, "c01-neon-ronin")
    to_assist(state, 0, "c18-wasteland-rider", up=False)
    to_assist(state, 0, "e01-foam-greatsword")
    set_hand(state, 0, ["st-badass", "e03-power-armour"])
    for pay, message in [
        (["c18-wasteland-rider", "st-badass"], "face down"),
        (["e01-foam-greatsword", "st-badass"], "attached"),
        (["e03-power-armour", "st-badass"], "attached"),
        (["st-badass", "st-badass"], "no Badass"),
        (["c20-dragon-knight"], "no Dragon Knight"),
        (["nope"], "Unknown card"),
        ("st-badass", "list of card codes"),
        ([3], "Unknown card"),
    ]:
        with pytest.raises(IllegalMove, match=message):
            recruit(state, 1, pay)


def test_the_canonical_payment_wastes_least(state):
    to_zone(state, 1, "c01-neon-ronin")  # B3
    to_assist(state, 0, "c33-desert-gunslinger")  # B2
    set_hand(state, 0, ["st-badass", "st-badass", "st-kawaii", "st-passion"])
    pay = canonical_payment(state, 0, "character", {"badass": 3})
    assert sorted(pay) == ["st-badass", "st-badass", "st-passion"] or sorted(pay) == [
        "c33-desert-gunslinger",
        "st-badass",
    ]
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "recruit" and m["zone"] == 1]
    assert len(moves) == 1 and moves[0]["pay"] == pay


def test_apply_accepts_any_valid_payment_not_only_the_canonical_one(state):
    to_zone(state, 1, "c01-neon-ronin")  # B3
    to_assist(state, 0, "c33-desert-gunslinger")  # B2
    set_hand(state, 0, ["st-badass", "st-badass", "st-badass", "st-passion"])
    canonical = next(m for m in GAME.legal_moves(state, 0) if m["type"] == "recruit" and m["zone"] == 1)[
        "pay"
    ]
    for pay in (
        ["st-badass", "st-badass", "st-badass"],
        ["c33-desert-gunslinger", "st-badass"],
        ["c33-desert-gunslinger", "st-passion"],
        ["c33-desert-gunslinger", "st-badass", "st-badass"],  # overpaying is allowed; the surplus is lost
        ["st-passion", "st-badass", "st-badass", "st-badass"],
    ):
        after = recruit(state, 1, pay)
        assert after["zones"][0] is None
    assert canonical


def test_canonical_payment_leaves_out_the_excluded_cards_also_with_precomputed_rows(state):
    from rules.cosplay.payments import payment_rows

    to_zone(state, 1, "c01-neon-ronin")  # B3
    set_hand(state, 0, ["st-badass", "st-badass", "st-badass", "st-passion"])
    cost = {"badass": 3}
    rows = payment_rows(state, 0)
    alone = canonical_payment(state, 0, "character", cost, exclude=["st-badass"])
    given = canonical_payment(state, 0, "character", cost, exclude=["st-badass"], rows=rows)
    # without one Badass, the two others and La Passion's wild point pay: the same answer either way
    assert alone == given == ["st-badass", "st-badass", "st-passion"]
    assert (
        canonical_payment(state, 0, "character", cost, exclude=["st-badass", "st-passion"], rows=rows) is None
    )
