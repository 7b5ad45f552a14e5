"""Chronica's special powers (option ``powers``): every card's power fires in a constructed position and
does what its generated text says; placement conditions and Sanctuary restrict moves the same way in
legal_moves and apply; playouts with powers keep every invariant; catalog() gives ``power``."""

from __future__ import annotations

import json
import random

import pytest

from rules.chronica import GAME, catalog, preview
from rules.chronica import powers as P
from rules.chronica.board import clash
from rules.chronica.cards import CARD_BY_CODE, CARDS, CHAR, STARTER_DECKS
from rules.chronica.view import MESSAGES
from rules.core import LANGUAGES, IllegalMove, narrate, visible
from tests.rules.chronica.helpers import all_cards, board, codes_in, visible_to
from tests.rules.chronica.test_playouts import check_narration, check_state, options_for
from tests.rules.playout import canonical, random_playout, replay

CODES = [row[0] for row in CARDS]
NAMES = ["alice", "bob"]
HONOUR = 5


def powered(**kw):
    state = board(**kw)
    state["options"] = dict(state["options"], powers=True)
    return state


def matching(condition, avoid):
    """A building (else a character) of the catalog meeting ``condition`` (a category or an era)."""
    cond, arg = condition
    field = "era" if cond == "next_to_era" else "category"
    found = [c for c in CODES if CARD_BY_CODE[c][field] == arg and c not in avoid]
    found.sort(key=lambda c: CARD_BY_CODE[c]["kind"] != "building")
    return found[0]


def fits(slot_cards):
    """A (building, character) pair for a slot from one helper card."""
    return (slot_cards, None) if CARD_BY_CODE[slot_cards]["kind"] == "building" else (None, slot_cards)


def defender(code, won, avoid):
    """(defending card, reinforcement or None): a card without a static power that ``code`` (reinforced by a
    character without a power if it must) beats (``won``) by 1 to 5 honour or loses to by 1 to 4."""
    allies = [None] + [c for c in CODES if CARD_BY_CODE[c]["kind"] == CHAR and c not in P.POWERS]
    for ally in allies:
        attack = [code] + ([ally] if ally else [])
        for other in sorted(CODES, key=lambda c: c in P.POWERS):
            card = CARD_BY_CODE[other]
            if other in avoid or other == ally or P.POWERS.get(other, {}).get("do") in P.STATIC:
                continue
            dom = card["preferred"]
            delta = sum(CARD_BY_CODE[c]["values"][dom] for c in attack) - card["values"][dom]
            if (1 <= delta <= 5) if won else (-4 <= delta <= -1):
                return other, ally
    raise AssertionError(f"no defender for {code}")


def filler(avoid):
    return next(c for c in CODES if c not in avoid and c not in P.POWERS)


def scenario(code):
    """(state, move) where ``code``'s power fires when seat 0 plays ``move``."""
    pw = P.POWERS[code]
    kind = CARD_BY_CODE[code]["kind"]
    used = {code}
    mine = {}
    theirs = {}
    cond = pw.get("needs") or pw.get("while")
    if cond:
        helper = matching(cond, used)
        used.add(helper)
        mine[1] = fits(helper)
    spare = filler(used)
    used.add(spare)
    hands = {0: [code, spare], 1: []}
    when = pw["when"]
    if when in ("placed", "welcomed"):
        part = "build" if kind == "building" else "place"
        move = {"type": part, "card": code, "slot": 0}
        if when == "welcomed" or pw["do"] == "rout":
            guest = next(c for c in CODES if c not in used and CARD_BY_CODE[c]["kind"] == CHAR)
            used.add(guest)
            theirs[0] = (None, guest)
            if when == "welcomed":
                move["welcome"] = {"seat": 1, "slot": 0}
    elif when in ("won", "lost"):
        target, ally = defender(code, when == "won", used)
        used.add(target)
        theirs[0] = fits(target)
        part = "building" if theirs[0][0] else "character"
        move = {"type": "action", "card": code, "target": {"seat": 1, "slot": 0, "part": part}}
        move["reinforce"] = ally and {"from": "hand", "card": ally}
        hands[0] = [code, ally] if ally else hands[0]
    elif when == "discarded":
        move = {"type": "pass", "discard": code}
    elif when == "end_of_turn":
        hands[0] = [spare]
        mine[0] = fits(code)
        move = {"type": "pass", "discard": spare}
    else:  # static: the card defends slot 0 of seat 1; seat 0 attacks it
        theirs = {0: fits(code)}
        if 1 in mine:
            theirs[1] = mine.pop(1)
        attacker = next(c for c in CODES if c not in used and CARD_BY_CODE[c]["kind"] == CHAR)
        hands = {0: [attacker], 1: []}
        part = "building" if kind == "building" else "character"
        move = {
            "type": "action",
            "card": hands[0][0],
            "target": {"seat": 1, "slot": 0, "part": part},
            "reinforce": None,
        }
    state = powered(hands=hands, provinces={0: mine, 1: theirs}, honour=[HONOUR, HONOUR])
    if pw["do"] == "recover":
        state["discards"][0] = [next(c for c in CODES if c not in used)]
    return state, move


def honour_moves(events, seat):
    """The honour changes ``events`` tell for ``seat`` (clash, 1 lost for an occupied building, powers)."""
    total = 0
    for e in events:
        if e["kind"] == "clash" and e["seat"] == seat:
            total += e["change"]
        elif e["kind"] == "honour_lost" and e["seat"] == seat:
            total -= e["amount"]
        elif e["kind"] == "power_honour" and e["seat"] == seat:
            total += e["change"]
    return total


def fired(events, kind, code=None):
    """The events of ``kind`` (told for ``code``'s power if given: a neighbour may have a power too)."""
    return [e for e in events if e["kind"] == kind and code in (None, e.get("card"))]


POWERED = sorted(P.POWERS)


@pytest.mark.parametrize("code", POWERED)
def test_each_power_fires_and_does_what_its_text_says(code):
    pw = P.POWERS[code]
    state, move = scenario(code)
    if pw["do"] == "shield":
        assert state["provinces"][1][0] is not None
        assert not [
            m for m in GAME.legal_moves(state, 0) if m["type"] == "action" and m["target"]["slot"] == 0
        ]
        with pytest.raises(IllegalMove, match="Sanctuary"):
            GAME.apply(state, 0, move)
        if "while" in pw:  # without its condition, the card can be targeted again
            state["provinces"][1][1] = None
            assert move in GAME.legal_moves(state, 0)
            GAME.apply(state, 0, move)
        return
    assert move in GAME.legal_moves(state, 0), move
    if "needs" in pw:  # not placed without its condition, and refused by apply with a reason
        bare = json.loads(json.dumps(state))
        bare["provinces"][0][1] = None
        assert move not in GAME.legal_moves(bare, 0)
        with pytest.raises(IllegalMove, match="placed only"):
            GAME.apply(bare, 0, move)
    deck = list(state["decks"][0])
    after = GAME.apply(state, 0, move)
    events = GAME.events(state, 0, move, after)
    for seat in (0, 1):  # honour moved exactly as told
        assert after["honour"][seat] == state["honour"][seat] + honour_moves(events, seat)
    do, n = pw["do"], pw["n"]
    if do == "draw":
        (secret,) = fired(events, "power_drew_cards", code)
        assert secret["to"] == [0] and secret["card"] == code
        assert secret["drawn_cards"] == deck[::-1][:n]
        assert set(secret["drawn_cards"]) <= set(after["hands"][0])
        (public,) = fired(events, "power_drew", code)
        assert public["count"] == n and 0 not in public["to"]
    elif do == "gain":
        assert [(e["seat"], e["change"]) for e in fired(events, "power_honour", code)] == [(0, n)]
    elif do == "sap":
        assert [(e["seat"], e["change"]) for e in fired(events, "power_honour", code)] == [(1, -n)]
    elif do == "bonus":
        (told,) = fired(events, "power_bonus", code)
        assert (told["card"], told["domain"], told["n"]) == (code, pw["domain"], n)
        (result,) = fired(events, "clash")
        plain = clash(result["attack_cards"], result["defence_cards"])
        assert result["domain"] == pw["domain"] and result["delta"] == plain["delta"] - n
    elif do == "recover":
        back = state["discards"][0][-1]
        assert back in after["hands"][0] and back not in after["discards"][0]
        assert fired(events, "power_recovered", code)[0]["recovered_card"] == back
    elif do == "fervour":
        assert after["phase"] == "fervour" and GAME.to_act(after) == [0]
        assert fired(events, "power_fervour", code)
    elif do == "rout":
        guest = state["provinces"][1][0]["character"]
        assert after["provinces"][1][0] is None and guest in after["hands"][1]
        assert fired(events, "power_routed", code)[0]["routed_card"] == guest
    else:
        raise AssertionError(f"untested effect {do}")
    check_narration(state, 0, move, after, NAMES)


def test_every_power_event_kind_is_met_and_put_into_words_without_leaking():
    kinds = set()
    for code in POWERED:
        state, move = scenario(code)
        if P.POWERS[code]["do"] == "shield":
            continue
        after = GAME.apply(state, 0, move)
        events = GAME.events(state, 0, move, after)
        kinds |= {e["kind"] for e in events}
        for viewer in (0, 1, None):
            allowed = visible_to(state, viewer) | visible_to(after, viewer)
            assert codes_in(visible(events, viewer)) <= allowed
            for lang in LANGUAGES:
                assert all(narrate(GAME, events, NAMES, viewer, lang))
        p = preview(state, 0, move)
        assert p["honour_delta"] == after["honour"][0] - state["honour"][0]
        assert codes_in(p) <= visible_to(state, 0)
    assert {k for k in MESSAGES["en"] if k.startswith("power_")} <= kinds


def test_adjacency_is_side_by_side_only():
    assert P.adjacent(0) == [1] and P.adjacent(3) == [2] and P.adjacent(1) == [0, 2]
    assert P.adjacent(4) == [5] and P.adjacent(7) == [6]  # hinterland: its own row
    assert 4 not in P.adjacent(0) and 0 not in P.adjacent(4)  # behind is not adjacent
    assert 4 not in P.adjacent(3) and 3 not in P.adjacent(4)  # the rows do not wrap


def test_a_placement_condition_is_checked_only_when_the_card_is_placed():
    state, move = scenario("francois-ier")  # needs an Arts card next to it
    after = GAME.apply(state, 0, move)
    after["provinces"][0][1] = None  # the neighbour leaves: François Ier stays
    assert after["provinces"][0][0]["character"] == "francois-ier"


def test_without_the_option_no_power_fires_and_conditions_do_not_apply():
    state, move = scenario("francois-ier")
    state["options"].pop("powers")
    state["provinces"][0][1] = None
    after = GAME.apply(state, 0, move)
    assert not [e for e in GAME.events(state, 0, move, after) if e["kind"].startswith("power_")]
    plain = GAME.setup(players=2, seed=5)
    assert "powers" not in plain["options"] and "powers" not in GAME.view(plain, 0)
    assert GAME.view(GAME.setup(players=2, seed=5, options={"powers": True}), 0)["powers"] is True


def test_catalog_gives_every_card_a_power_entry():
    entries = catalog()
    assert len(entries) == 78
    with_power = [e for e in entries if e["power"] is not None]
    assert len(with_power) > 39  # most cards
    for e in entries:
        assert "power" in e
        if e["power"] is not None:
            texts = e["power"]["texts"]
            assert e["power"]["text"] == texts["en"] == P.text(P.POWERS[e["code"]], "en")
            assert texts["fr"] == P.text(P.POWERS[e["code"]], "fr") and texts["fr"] != texts["en"]
            assert set(e["power"]["keywords"]) <= set(P.KEYWORDS)
    json.dumps(entries)


CONFIGS = [(players, kind) for players in (2, 3, 4) for kind in ("starters", "decks", "shared")]


@pytest.mark.parametrize(("players", "kind"), CONFIGS)
def test_seeded_playouts_with_powers_keep_every_invariant(players, kind):
    names = ["alice", "bob", "carol", "dave"][:players]
    for seed in range(4):
        options = dict(options_for(kind, players, seed), powers=True)
        states, log = random_playout(GAME, players, seed, options)
        assert GAME.is_over(states[-1])
        initial = all_cards(states[0])
        for k, state in enumerate(states):
            check_state(state, initial, names)
            if k < len(log):
                seat, move = log[k]
                check_narration(state, seat, move, states[k + 1], names)
                moves = GAME.legal_moves(state, seat)
                assert json.dumps(moves) == json.dumps(GAME.legal_moves(GAME.load(GAME.dump(state)), seat))
        assert canonical(GAME, replay(GAME, players, seed, options, log)) == canonical(GAME, states[-1])


def test_the_bots_play_whole_games_with_powers():
    from rules.chronica.bots import casual, strong

    for seed, (bot0, bot1) in enumerate([(casual, casual), (strong, casual), (casual, strong)]):
        rng = random.Random(seed)
        decks = [STARTER_DECKS[0]["cards"], STARTER_DECKS[1]["cards"]]
        state = GAME.setup(players=2, seed=seed, options={"powers": True, "decks": decks})
        for _ in range(400):
            if GAME.is_over(state):
                break
            (seat,) = GAME.to_act(state)
            bot = (bot0, bot1)[seat]
            move = bot(GAME.view(state, seat), GAME.legal_moves(state, seat), rng, seat)
            state = GAME.apply(state, seat, move)
        assert GAME.is_over(state)


def test_a_power_refusing_a_move_reads_in_french():
    placed_only = next(code for code in POWERED if P.POWERS[code].get("needs") == (P.NEXT_TO, "foi"))
    state, move = scenario(placed_only)
    state["provinces"][0][1] = None  # its condition no longer holds
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, move)
    name = CARD_BY_CODE[placed_only]["name"]
    assert str(caught.value) == f"{name} is placed only next to a Faith card."
    assert caught.value.words("fr") == f"{name} se pose seulement à côté d’une carte Foi."
    shield = next(
        code for code in POWERED if P.POWERS[code]["do"] == "shield" and "while" not in P.POWERS[code]
    )
    state, move = scenario(shield)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, 0, move)
    name = CARD_BY_CODE[shield]["name"]
    assert caught.value.words("fr") == f"Le pouvoir de {name} (Sanctuaire) empêche de cibler cet emplacement."
