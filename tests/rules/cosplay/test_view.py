"""The view's keys, what each seat sees of the assistance zones, and the move log."""

from rules.cosplay import GAME

from .helpers import new, set_hand, to_assist, to_zone

NAMES = ["alice", "bob", "carol"]


def test_the_view_has_the_documented_keys():
    state = new(3, seed=1)
    view = GAME.view(state, 0)
    for key in (
        "hand",
        "zones",
        "zone_costs",
        "objectives",
        "objective_decks",
        "influences",
        "scores",
        "score_parts",
        "library",
        "graveyard",
        "drama",
        "seats",
        "seat",
        "players",
        "to_act",
        "result",
        "hand_sizes",
        "drawn",
        "turn",
        "phase",
        "turn_state",
        "points",
        "pending",
        "over",
    ):
        assert key in view
    assert len(view["zones"]) == 6 and all(view["zones"])
    assert [set(o) for o in view["objectives"]] == [{"level", "card", "cost"}] * 4
    assert view["score_parts"] == [{"vp": 0, "cost": 0, "bonus": 0}] * 3
    assert "active" not in view  # whose turn it is: to_act, the shared key
    assert view["seat"] == 0 and view["players"] == 3 and view["to_act"] == [0] and view["turn"] == 1
    assert view["result"] is None and view["hand_sizes"] == [5, 5, 5] and not view["over"]
    # the rulebook's phase 1 "ne s'applique pas au 1er tour": the first turn starts in phase 2
    assert view["scores"] == [0, 0, 0] and view["library"] == 46 and view["phase"] == "recruitment"
    assert view["drama"]["count"] == 20 and view["drama"]["top"] == state["drama"][-1]
    assert view["seats"][1] == {
        "seat": 1,
        "hand_size": 5,
        "reserve": 5,
        "discard": {"count": 0, "top": None},
        "assist": [],
        "face_down": 0,
        "objectives": 0,
        "turns": 0,
    }
    assert len(view["needs"]["zones"]) == 6 and len(view["needs"]["objectives"]) == 4
    spectator = GAME.view(state, None)
    assert spectator["seat"] is None and spectator["hand_sizes"] == [5, 5, 5]
    assert "hand" not in spectator and "points" not in spectator and "needs" not in spectator
    assert "needs" not in GAME.view(state, 1)


def test_needs_take_the_bonus_points_off_the_cost():
    state = new(2, seed=1)
    to_zone(state, 1, "c01-neon-ronin")
    state["tp"]["bonus"]["badass"] = 1
    state["tp"]["bonus"]["craft"] = 1
    needs = GAME.view(state, 0)["needs"]
    assert needs["zones"][0] == {"badass": 2, "kawaii": 0, "craft": 0, "any": 0}
    to_assist(state, 1, "c02-pixel-witch")
    assert GAME.view(state, 0)["needs"]["poach"] == {
        "1": {"c02-pixel-witch": {"badass": 0, "kawaii": 3, "craft": 0, "any": 0}}
    }


def test_face_down_cards_are_seen_by_their_owner_only():
    state = new(2, seed=1)
    to_assist(state, 1, "c01-neon-ronin", up=False)
    to_assist(state, 1, "c02-pixel-witch", up=True, equip=["e07-glitter-kit"])
    mine = GAME.view(state, 1)["seats"][1]
    theirs = GAME.view(state, 0)["seats"][1]
    assert mine["face_down_cards"] == ["c01-neon-ronin"] and mine["face_down"] == 1
    assert "face_down_cards" not in theirs and theirs["face_down"] == 1
    assert theirs["assist"] == [
        {
            "card": "c02-pixel-witch",
            "equip": ["e07-glitter-kit"],
            "combo": False,
            "points": {"kawaii": 2},
        }
    ]
    assert "c01-neon-ronin" not in str(GAME.view(state, 0)) and "c01-neon-ronin" not in str(
        GAME.view(state, None)
    )


def test_points_show_what_the_viewer_could_pay():
    state = new(2, seed=1)
    set_hand(state, 0, ["st-badass", "st-kawaii", "st-passion"])
    to_assist(state, 0, "c33-desert-gunslinger")
    state["tp"]["bonus"]["craft"] = 2
    assert GAME.view(state, 0)["points"] == {"badass": 3, "kawaii": 1, "craft": 2, "wild": 1}


def test_narrate_tells_the_story_and_keeps_draws_private():
    state = new(2, seed=1)
    set_hand(state, 0, ["st-craft", "st-craft", "st-craft"])
    after = GAME.apply(state, 0, {"type": "drama", "seat": 1, "pay": ["st-craft", "st-craft", "st-craft"]})
    lines = GAME.narrate(state, 0, {"type": "drama"}, after, NAMES, None)
    assert lines[0].startswith("alice sent Drama ") and lines[0].endswith("to bob's discard")
    end = GAME.apply(after, 0, {"type": "end_turn"})
    for viewer, expect in ((0, "You drew "), (1, "alice drew 5 cards"), (None, "alice drew 5 cards")):
        lines = GAME.narrate(after, 0, {"type": "end_turn"}, end, NAMES, viewer)
        assert lines[0] == "alice ended their turn"
        assert any(line.startswith(expect) for line in lines)
        assert "bob's turn" in lines


def test_narrate_announces_the_end():
    state = new(2, seed=1)
    to_assist(state, 1, "ob1-first-con")
    state["graveyard"] += state["library"]
    state["library"] = []
    last = GAME.apply(state, 0, {"type": "end_turn"})  # the end is reached: bob's turn ends the round
    lines = GAME.narrate(state, 0, {"type": "end_turn"}, last, NAMES, None)
    assert "Last round: it is played out; the game ends after bob's turn" in lines
    end = GAME.apply(last, 1, {"type": "end_turn"})
    lines = GAME.narrate(last, 1, {"type": "end_turn"}, end, NAMES, None)
    assert lines[-1] == "Game over (alice 0, bob 1): bob wins"
    assert GAME.view(end, None)["result"] == {"scores": [0, 1], "winners": [1]}
