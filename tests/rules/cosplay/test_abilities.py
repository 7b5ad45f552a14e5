"""Every ability of the card table does what its data says (a decorative ability fails here)."""

import pytest

from rules.core import IllegalMove
from rules.cosplay import GAME
from rules.cosplay.cards import CARDS
from rules.cosplay.payments import effective_cost

from .helpers import clear_influences, new, set_hand, to_assist, to_pile, to_zone

ALL_OFF = {"character": 50, "equipment": 50, "objective": 50}
PROBE = {
    "character": "c08-dungeon-bard",
    "equipment": "e05-velvet-cape",
    "objective": "ob1-panel-debut",
    "drama": "dr-01",
}


def ability_cards(kind=None):
    return sorted(
        c for c in CARDS if CARDS[c]["ability"] and (kind is None or CARDS[c]["ability"]["kind"] == kind)
    )


def effects_of(code):
    return [(e["effect"], e["args"]) for e in CARDS[code]["ability"]["effects"]]


def board(code):
    """Two players, seat 0 to act, with something to draw, trash, clear and turn up."""
    state = new(2, seed=7)
    spare = "e04-pastel-wig"  # no ability of its own
    to_assist(state, 0, spare, up=False)
    me = state["seats"][0]
    me["discard"].append(me["reserve"].pop())
    return state, spare


def drama_count(state, seat):
    return sum(1 for c in state["seats"][seat]["discard"] if CARDS[c]["kind"] == "drama")


def trigger(state, code):
    """Make ``code``'s ability fire for seat 0; returns the state after."""
    kind = CARDS[code]["ability"]["kind"]
    if kind in ("discard", "sacrifice"):
        set_hand(state, 0, [code, "st-badass"])
        return GAME.apply(state, 0, {"type": "activate", "card": code})
    if kind == "support":
        set_hand(state, 0, [code, "st-badass"])
        state["phase"] = "preparation"  # cards go from hand to the assistance zone in phase 1
        return GAME.apply(state, 0, {"type": "place", "card": code})
    assert kind == "recruit"
    state["tp"]["discount"] = {CARDS[code]["kind"]: 50}
    if CARDS[code]["kind"] == "objective":
        to_pile(state, 0, code)
        return GAME.apply(state, 0, {"type": "objective", "pile": 0, "pay": []})
    to_zone(state, 1, code)
    return GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": []})


TRIGGERED = [
    c
    for c in ability_cards()
    if CARDS[c]["ability"]["kind"] != "influence" and not any(e == "poach" for e, _a in effects_of(c))
]


@pytest.mark.parametrize("code", TRIGGERED)
def test_every_triggered_ability_has_its_effects(code):
    state, spare = board(code)
    before_drama = drama_count(state, 1)
    after = trigger(state, code)
    effects = effects_of(code)
    drawn = sum(len(e["cards"]) for e in after["events"] if e["kind"] == "drew_cards" and e["seat"] == 0)
    assert drawn == sum(a["n"] for e, a in effects if e == "draw")
    for res in ("badass", "kawaii", "craft"):
        assert after["tp"]["bonus"][res] == sum(a["n"] for e, a in effects if e == "gain" and a["res"] == res)
    for what in ("character", "equipment", "objective", "any"):
        expected = sum(a["n"] for e, a in effects if e == "discount" and a["what"] == what)
        assert after["tp"]["discount"].get(what, 0) == expected
    assert drama_count(after, 1) - before_drama == sum(a["n"] for e, a in effects if e == "drama")
    spare_entry = next(e for e in after["seats"][0]["assist"] if e["card"] == spare)
    assert spare_entry["up"] == any(e == "ready" for e, _a in effects)
    pending = after["pending"]
    names = [e for e, _a in effects]
    if "trash" in names:
        n = dict(effects)["trash"]["n"]
        assert pending == {"kind": "trash", "seat": 0, "n": n, "source": code}
        graveyard = len(after["graveyard"])
        for _ in range(n):
            where = "hand" if after["seats"][0]["hand"] else "discard"
            card = after["seats"][0][where][0]
            after = GAME.apply(after, 0, {"type": "trash", "card": card, "from": where})
        assert len(after["graveyard"]) == graveyard + n
        assert after["pending"] is None
    elif "clear" in names:
        assert pending["kind"] == "clear"
        card = after["zones"][1]
        after = GAME.apply(after, 0, {"type": "clear", "zone": 2})
        assert after["zones"][1] is None and after["graveyard"][-1] == card
    else:
        assert pending is None


@pytest.mark.parametrize("code", ability_cards("discard") + ability_cards("sacrifice"))
def test_an_activated_card_leaves_for_the_discard_or_the_graveyard(code):
    state, _spare = board(code)
    state["seats"][1]["assist"].append({"card": "c15-moon-bunny", "up": True, "equip": []})
    state["zones"][:] = [z if z != "c15-moon-bunny" else None for z in state["zones"]]
    state["library"] = [c for c in state["library"] if c != "c15-moon-bunny"]
    if any(e == "poach" for e, _a in effects_of(code)):
        set_hand(state, 0, [code, "st-kawaii", "st-kawaii"])
        after = GAME.apply(
            state,
            0,
            {
                "type": "poach",
                "seat": 1,
                "card": "c15-moon-bunny",
                "with": code,
                "pay": ["st-kawaii", "st-kawaii"],
            },
        )
        assert {"card": "c15-moon-bunny", "up": False, "equip": []} in after["seats"][0]["assist"]
        assert all(e["card"] != "c15-moon-bunny" for e in after["seats"][1]["assist"])
    else:
        after = trigger(state, code)
    where = "graveyard" if CARDS[code]["ability"]["kind"] == "sacrifice" else "discard"
    pile = after["graveyard"] if where == "graveyard" else after["seats"][0]["discard"]
    assert code in pile
    assert code not in after["seats"][0]["hand"]


@pytest.mark.parametrize("code", ability_cards("discard") + ability_cards("sacrifice"))
def test_abilities_also_activate_from_the_assistance_zone(code):
    state, _spare = board(code)
    if CARDS[code]["kind"] == "starter":
        with pytest.raises(IllegalMove):  # starters never enter the assistance zone
            GAME.apply(state, 0, {"type": "place", "card": code})
        return
    to_assist(state, 0, code, up=True)
    if any(e == "poach" for e, _a in effects_of(code)):
        assert {"type": "activate", "card": code} not in GAME.legal_moves(state, 0)
        return
    after = GAME.apply(state, 0, {"type": "activate", "card": code})
    assert all(e["card"] != code for e in after["seats"][0]["assist"])


@pytest.mark.parametrize("code", ability_cards("influence"))
def test_every_influence_changes_costs_while_in_a_zone(code):
    state = new(2, seed=3)
    for item in CARDS[code]["ability"]["effects"]:
        args = item["args"]
        probe = PROBE[args["what"]]
        if args["what"] == "drama":
            base = CARDS[probe]["cost"]
        else:
            base = dict(CARDS[probe]["cost"])
            base[args["res"]] = base.get(args["res"], 0) + 2
        clear_influences(state)
        without = effective_cost(state, args["what"], base)
        if CARDS[code]["kind"] == "objective":
            to_pile(state, 0, code)
        else:
            to_zone(state, 3, code)
        with_it = effective_cost(state, args["what"], base)
        assert with_it[args["res"]] - without[args["res"]] == args["delta"]
        # Recruited, it no longer influences anything.
        if CARDS[code]["kind"] != "objective":
            state["zones"][2] = None
            assert effective_cost(state, args["what"], base) == without


def test_influence_applies_to_the_players_payment():
    state = new(2, seed=3)
    clear_influences(state)
    to_zone(state, 1, "c12-robot-barista")  # equipment cost 1 CRAFT less
    to_zone(state, 2, "e07-glitter-kit")  # C2
    set_hand(state, 0, ["st-craft", "st-badass"])
    after = GAME.apply(state, 0, {"type": "recruit", "zone": 2, "pay": ["st-craft"]})
    assert {"card": "e07-glitter-kit", "up": False, "equip": []} in after["seats"][0]["assist"]


def test_support_fires_when_face_down_cards_turn_up_at_preparation():
    state = new(2, seed=5)
    to_assist(state, 0, "c02-pixel-witch", up=False)  # Support: +1 KAWAII
    state = GAME.apply(state, 0, {"type": "end_turn"})
    assert state["active"] == 1
    assert not state["seats"][0]["assist"][0]["up"]
    state = GAME.apply(state, 1, {"type": "end_turn"})
    assert state["seats"][0]["assist"][0]["up"]
    assert state["tp"]["bonus"]["kawaii"] == 1


def test_drama_ability_asks_for_a_target_with_three_players():
    state = new(3, seed=2)
    set_hand(state, 0, ["c05-kaiju-tamer"])
    state = GAME.apply(state, 0, {"type": "activate", "card": "c05-kaiju-tamer"})
    assert state["pending"]["kind"] == "drama" and state["pending"]["n"] == 2
    assert GAME.legal_moves(state, 0) == [{"type": "target", "seat": 1}, {"type": "target", "seat": 2}]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "end_turn"})
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "target", "seat": 0})
    state = GAME.apply(state, 0, {"type": "target", "seat": 1})
    state = GAME.apply(state, 0, {"type": "target", "seat": 2})
    assert state["pending"] is None
    assert drama_count(state, 1) == 1 and drama_count(state, 2) == 1


def test_trash_may_stop_early_and_sends_drama_home():
    state = new(2, seed=2)
    state["seats"][0]["discard"].append(state["drama"].pop(0))
    drama_card = state["seats"][0]["discard"][-1]
    set_hand(state, 0, ["c19-candy-lich", "st-badass"])
    state = GAME.apply(state, 0, {"type": "activate", "card": "c19-candy-lich"})
    state = GAME.apply(state, 0, {"type": "trash", "card": drama_card, "from": "discard"})
    assert state["drama"][-1] == drama_card
    assert state["pending"]["n"] == 1
    state = GAME.apply(state, 0, {"type": "trash", "card": None})
    assert state["pending"] is None and "st-badass" in state["seats"][0]["hand"]


def test_effects_queue_behind_a_pending_choice():
    # Dragon Knight: send 1 Drama, then draw 1; with three players the draw waits for the target.
    state = new(3, seed=2)
    state["tp"]["discount"] = dict(ALL_OFF)
    to_zone(state, 1, "c20-dragon-knight")
    hand = len(state["seats"][0]["hand"])
    state = GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": []})
    assert state["pending"]["kind"] == "drama" and len(state["seats"][0]["hand"]) == hand
    state = GAME.apply(state, 0, {"type": "target", "seat": 2})
    assert len(state["seats"][0]["hand"]) == hand + 1


def test_draw_during_a_turn_does_not_reshuffle():
    state = new(2, seed=2)
    set_hand(state, 0, ["c08-dungeon-bard"])
    me = state["seats"][0]
    me["discard"].extend(me["reserve"])
    me["reserve"] = []
    state = GAME.apply(state, 0, {"type": "activate", "card": "c08-dungeon-bard"})
    assert state["seats"][0]["hand"] == []


def test_ready_lets_a_fresh_recruit_be_used_this_turn():
    state = new(2, seed=2)
    state["tp"]["discount"] = dict(ALL_OFF)
    to_zone(state, 1, "c14-laser-paladin")
    state = GAME.apply(state, 0, {"type": "recruit", "zone": 1, "pay": []})
    assert state["seats"][0]["assist"] == [{"card": "c14-laser-paladin", "up": True, "equip": []}]
