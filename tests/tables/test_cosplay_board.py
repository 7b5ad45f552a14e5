"""The Cosplay Team Battle board: what each viewer sees, the moves and payments offered, the prompts; the API."""

from __future__ import annotations

import html as htmllib
import json
import pathlib
import random
import re

import pytest
from django.contrib.staticfiles import finders

from accounts.models import ApiToken
from rules import IllegalMove
from rules.cosplay import GAME
from rules.cosplay.cards import CARDS
from tables.games import css_block, plugin
from tests.html import card_codes as cards_on
from tests.html import moves_posted
from tests.rules.cosplay.helpers import clear_influences, set_hand, to_assist, to_zone
from tests.tables.positions import put_state

pytestmark = pytest.mark.django_db

UNIQUE = sorted(c for c, card in CARDS.items() if card["kind"] != "starter")
UNIQUE_SET = set(UNIQUE)


def codes_mentioned(page: str) -> set[str]:
    """Every non-starter card code written anywhere in the HTML (attributes, scripts, text)."""
    return set(re.findall(r"[a-z0-9-]+", page)) & UNIQUE_SET


def key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def page_of(client, table) -> str:
    return client.get(f"/tables/{table.pk}/").content.decode()


def board_of(page: str) -> str:
    start = page.index('class="cp-board')
    return page[start : page.index('<aside id="table-', start)]


def visible_to(state: dict, seat: int | None) -> set[str]:
    """The card codes ``seat`` may see (None: a spectator)."""
    out = {c for c in state["zones"] if c}
    out |= {p["card"] for p in state["objectives"] if p["card"]}
    if state["graveyard"]:
        out.add(state["graveyard"][-1])
    if state["drama"]:
        out.add(state["drama"][-1])
    for s, me in enumerate(state["seats"]):
        if me["discard"]:
            out.add(me["discard"][-1])
        for e in me["assist"]:
            if e["up"] or s == seat:
                out |= {e["card"], *e["equip"]}
        if s == seat:
            out |= set(me["hand"]) | set(me["discard"])
    return out


def random_state(players: int, seed: int, steps: int) -> dict:
    rnd = random.Random(seed)
    state = GAME.setup(players=players, seed=seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        busy = [m for m in moves if m["type"] != "end_turn"]
        move = rnd.choice(busy) if busy and rnd.random() < 0.85 else moves[-1]
        state = GAME.apply(state, seat, move)
    return state


@pytest.fixture
def table2(started_table, alice, bob):
    return started_table("cosplay", [alice, bob])


@pytest.fixture
def table3(started_table, alice, bob, charlie):
    return started_table("cosplay", [alice, bob, charlie])


@pytest.mark.parametrize("seed", [1, 2])
def test_each_seat_sees_its_own_cards_and_nothing_hidden(
    table3, client_for, client, alice, bob, charlie, seed
):
    users = [client_for(u) for u in (alice, bob, charlie)]
    for steps in (0, 25, 90):
        state = random_state(3, seed, steps)
        put_state(table3, state)
        for seat, user in enumerate(users):
            page = page_of(user, table3)
            board = board_of(page)
            allowed = visible_to(state, seat)
            me = state["seats"][seat]
            hand_html = board[board.index('class="cp-hand') :]
            hand_html = hand_html[: hand_html.index('class="cp-discard"')]
            assert sorted(cards_on(hand_html)) == sorted(me["hand"]), "own hand drawn, exactly"
            assert codes_mentioned(page) <= allowed, "no hidden card code anywhere in the HTML"
            for other in range(3):
                if other != seat:
                    theirs = set(state["seats"][other]["hand"]) | set(state["seats"][other]["reserve"])
                    hidden = {e["card"] for e in state["seats"][other]["assist"] if not e["up"]}
                    assert not (theirs | hidden) & codes_mentioned(page) & set(UNIQUE) - allowed
                    assert not hidden & codes_mentioned(page)
            assert not set(state["library"]) & codes_mentioned(page)
            own_down = [e["card"] for e in me["assist"] if not e["up"]]
            for code in own_down:
                assert f'face-down-mine" data-card="{code}"' in board
            # Another player's face-down cards are one back with their number (one back per card of mine).
            backs = board.count('aria-label="Face-down card"') + sum(
                int(n) for n in re.findall(r'aria-label="(\d+) face-down cards"', board)
            )
            assert board.count(" face-down-mine") + backs == sum(
                1 for s in state["seats"] for e in s["assist"] if not e["up"]
            )
        spectator = page_of(client, table3)
        assert codes_mentioned(spectator) <= visible_to(state, None)
        assert (
            "Your hand" not in spectator and 'data-pts="' not in spectator and 'data-move="' not in spectator
        )


@pytest.mark.parametrize("seed", range(3))
def test_the_moves_offered_are_exactly_the_legal_moves(table2, client_for, alice, bob, seed):
    users = [client_for(alice), client_for(bob)]
    for steps in (0, 9, 30, 70):
        state = random_state(2, seed, steps)
        if GAME.is_over(state):
            continue
        put_state(table2, state)
        seat = GAME.to_act(state)[0]
        page = page_of(users[seat], table2)
        legal = GAME.legal_moves(state, seat)
        assert sorted(map(key, moves_posted(page))) == sorted(map(key, legal))
        waiting = page_of(users[1 - seat], table2)
        assert moves_posted(waiting) == [] and 'data-pts="' not in waiting
        # (the payment panel is on every board, hidden and empty until a payment opens it: nothing opens it here)
        assert '<div class="cp-paypanel" data-cp-panel hidden aria-live="polite"></div>' in waiting


def test_the_payment_ui_offers_only_legal_payable_actions_with_their_needs(table2, client_for, alice):
    state = GAME.setup(players=2, seed=5)
    clear_influences(state)
    set_hand(state, 0, ["st-badass", "st-kawaii", "st-kawaii", "st-passion", "st-craft"])
    to_zone(state, 1, "c01-neon-ronin")
    to_assist(state, 0, "c33-desert-gunslinger")
    to_assist(state, 1, "c15-moon-bunny")
    state["tp"]["bonus"]["badass"] = 1
    put_state(table2, state)
    page = page_of(client_for(alice), table2)
    legal = GAME.legal_moves(state, 0)
    view = GAME.view(state, 0)
    pay_buttons = re.findall(r'<button[^>]*class="button small cp-pay[^"]*"[^>]*>', page)
    assert pay_buttons
    offered = []
    for tag in pay_buttons:
        move = json.loads(htmllib.unescape(re.search(r'data-move="([^"]+)"', tag).group(1)))
        need = json.loads(htmllib.unescape(re.search(r'data-need="([^"]+)"', tag).group(1)))
        assert move in legal and move["type"] in ("recruit", "objective", "drama", "poach")
        if move["type"] == "recruit":
            assert need == view["needs"]["zones"][move["zone"] - 1]
        elif move["type"] == "objective":
            assert need == view["needs"]["objectives"][move["pile"]]
        elif move["type"] == "drama":
            assert need == view["needs"]["drama"]
        else:
            assert need == view["needs"]["poach"][str(move["seat"])][move["card"]]
            assert f'data-exclude="{move["with"]}"' in tag
        offered.append(move)
    payable = [m for m in legal if m["type"] in ("recruit", "objective", "drama", "poach")]
    assert sorted(map(key, offered)) == sorted(map(key, payable))
    # Neon Ronin costs 3 BADASS; the bonus point pays one of them.
    recruit = next(m for m in offered if m["type"] == "recruit" and m["zone"] == 1)
    assert view["needs"]["zones"][0] == {"badass": 2, "kawaii": 0, "craft": 0, "any": 0}
    assert recruit["pay"]  # the engine's suggestion, pre-selected by the page
    # The cards that may be clicked to pay: hand starters/characters and face-up assistance characters.
    payers = re.findall(r'data-card="([^"]+)"[^>]*data-pts="([^"]+)" data-from="(hand|assist)"', page)
    assert sorted(c for c, _p, _w in payers) == sorted(state["seats"][0]["hand"] + ["c33-desert-gunslinger"])
    gunslinger = next(json.loads(htmllib.unescape(p)) for c, p, _w in payers if c == "c33-desert-gunslinger")
    assert gunslinger == {"badass": 2}
    # Poaching Moon Bunny with La Passion: La Passion is named as the card used for its ability.
    assert any(m["type"] == "poach" and m["card"] == "c15-moon-bunny" for m in offered)
    assert "data-cp-panel" in page


def neon_ronin_to_recruit(table2) -> dict:
    """Seat 0 holds three BADASS, a KAWAII and a CRAFT; Neon Ronin (BADASS 3) waits in zone 1."""
    state = GAME.setup(players=2, seed=5)
    set_hand(state, 0, ["st-badass", "st-badass", "st-badass", "st-kawaii", "st-craft"])
    to_zone(state, 1, "c01-neon-ronin")
    put_state(table2, state)
    return state


def test_a_chosen_payment_is_judged_by_the_engine(table2, client_for, alice):
    neon_ronin_to_recruit(table2)
    c = client_for(alice)
    seq = table2.seq
    bad = {"type": "recruit", "zone": 1, "pay": ["st-badass", "st-craft"]}
    r = c.post(f"/tables/{table2.pk}/move/", {"move": json.dumps(bad), "seq": seq}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and "CRAFT" in r.content.decode()
    good = {"type": "recruit", "zone": 1, "pay": ["st-badass", "st-badass", "st-badass"]}
    r = c.post(f"/tables/{table2.pk}/move/", {"move": json.dumps(good), "seq": seq}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    table2.refresh_from_db()
    after = GAME.load(table2.state)
    assert after["seats"][0]["assist"][-1] == {"card": "c01-neon-ronin", "up": False, "equip": []}
    page = r.content.decode()
    assert "face down · arrives next turn" in page and 'data-card="c01-neon-ronin"' in page


def test_activating_an_ability_says_the_card_gives_no_points(table2, client_for, alice):
    state = GAME.setup(players=2, seed=5)
    set_hand(state, 0, ["c08-dungeon-bard", "st-badass"])
    put_state(table2, state)
    page = page_of(client_for(alice), table2)
    buttons = re.findall(r'<button[^>]*class="button small activate"[^>]*>.*?</button>', page, re.S)
    assert len(buttons) == 1 and "(no points)" in buttons[0] and "gives no points" in buttons[0]
    assert moves_posted(buttons[0]) == [{"type": "activate", "card": "c08-dungeon-bard"}]


def test_the_drama_target_prompt_offers_each_opponent(table3, client_for, alice, bob):
    state = GAME.setup(players=3, seed=2)
    set_hand(state, 0, ["c05-kaiju-tamer"])
    state = GAME.apply(state, 0, {"type": "activate", "card": "c05-kaiju-tamer"})
    assert state["pending"]["kind"] == "drama"
    put_state(table3, state)
    page = page_of(client_for(alice), table3)
    assert "Send Drama" in page and "choose who receives the top Drama card" in page
    targets = re.findall(r'<button[^>]*class="button cp-target"[^>]*>([^<]+)</button>', page)
    assert targets == ["bob", "charlie"]
    assert [m for m in moves_posted(page)] == [{"type": "target", "seat": 1}, {"type": "target", "seat": 2}]
    waiting = page_of(client_for(bob), table3)
    assert "to choose who receives Drama" in waiting


def test_sending_drama_from_the_reserve_names_the_opponents(table3, client_for, alice):
    state = GAME.setup(players=3, seed=2)
    set_hand(state, 0, ["st-badass", "st-kawaii", "st-craft", "st-badass"])
    put_state(table3, state)
    page = page_of(client_for(alice), table3)
    drama = page[page.index('class="cp-targets"') :]
    drama = drama[: drama.index("</div>")]
    assert re.findall(r">(bob|charlie)</button>", drama) == ["bob", "charlie"]
    assert {m["seat"] for m in moves_posted(drama)} == {1, 2}


def test_the_mat_shows_zones_piles_drama_graveyard_and_scores(table2, client_for, client, alice):
    state = random_state(2, 7, 50)
    put_state(table2, state)
    page = page_of(client, table2)
    board = board_of(page)
    # Zones 1-5 point on with an arrow drawn by the stylesheet (.cp-zone:not(.leaving)::after); zone 6 leaves.
    assert (
        board.count('class="cp-zone"') == 5 and 'class="cp-zone leaving"' in board and "leaves next" in board
    )
    zone6 = board[board.index('id="t-z6"') :]
    assert state["zones"][5] is None or f'data-card="{state["zones"][5]}"' in zone6[: zone6.index("</li>")]
    assert f"<strong>{len(state['library'])}</strong> card" in board
    assert f"<strong>{len(state['graveyard'])}</strong> card" in board
    assert f"<strong>{len(state['drama'])}</strong> left" in board
    for pile in state["objectives"]:
        if pile["card"]:
            assert f'data-card="{pile["card"]}"' in board
    view = GAME.view(state, None)
    for s in range(2):
        parts = view["score_parts"][s]
        assert f"<strong>{view['scores'][s]}</strong> pts" in board
        assert f"= {parts['vp']} obj + {parts['bonus']} team (cost {parts['cost']})" in board
    assert "1 · Preparation" in board and "2 · Recruitment" in board and "3 · Initialisation" in board


def test_the_finished_game_shows_the_ranking(table2, client_for, alice):
    state = random_state(2, 3, 2000)
    assert GAME.is_over(state)
    put_state(table2, state)
    page = page_of(client_for(alice), table2)
    result = GAME.result(state)
    assert "The game is over." in page and page.count("crown-mark") >= len(result["winners"])
    assert 'data-move="' not in board_of(page)


def test_a_whole_two_player_game_through_the_api(client, alice, bob):
    tokens = {0: ApiToken.issue(alice)[1], 1: ApiToken.issue(bob)[1]}

    def call(seat, method, path, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {tokens[seat]}"}
        if method == "GET":
            r = client.get(path, **headers)
        else:
            r = client.post(path, data=json.dumps(body or {}), content_type="application/json", **headers)
        return r.status_code, r.json() if r.content else None

    status, table = call(0, "POST", "/api/tables", {"game": "cosplay", "players": 2})
    assert status == 201
    tid = table["id"]
    assert call(1, "POST", f"/api/tables/{tid}/join")[0] == 200
    status, table = call(0, "POST", f"/api/tables/{tid}/start")
    assert status == 200 and table["status"] == "playing"
    rnd = random.Random(4)
    kinds = set()
    for _ in range(3000):
        _, t = call(0, "GET", f"/api/tables/{tid}")
        if t["status"] != "playing":
            break
        seat = t["to_act"][0]
        _, mine = call(seat, "GET", f"/api/tables/{tid}")
        assert mine["view"]["hand"] is not None and "needs" in mine["view"]
        other = call(1 - seat, "GET", f"/api/tables/{tid}")[1]
        assert other["legal_moves"] == [] and "needs" not in other["view"]
        move = rnd.choice(mine["legal_moves"])
        kinds.add(move["type"])
        status, body = call(seat, "POST", f"/api/tables/{tid}/moves", {"move": move, "seq": mine["seq"]})
        assert status == 200 and body == {"seq": mine["seq"] + 1}
    _, t = call(0, "GET", f"/api/tables/{tid}")
    assert t["status"] == "finished"
    assert t["result"]["scores"] == t["view"]["result"]["scores"]
    assert {"end_turn", "recruit"} <= kinds


def test_the_clear_and_trash_prompts_offer_their_choices(table2, client_for, alice):
    state = GAME.setup(players=2, seed=2)
    set_hand(state, 0, ["c11-pastel-ninja", "c09-starship-medic", "st-badass"])
    cleared = GAME.apply(state, 0, {"type": "activate", "card": "c11-pastel-ninja"})
    assert cleared["pending"]["kind"] == "clear"
    put_state(table2, cleared)
    page = page_of(client_for(alice), table2)
    assert "Clear a zone" in page and "Leave the zones as they are" in page
    for z, code in enumerate(cleared["zones"]):
        assert f"Zone {z + 1}: {CARDS[code]['name']}" in htmllib.unescape(page)
    assert sorted(map(key, moves_posted(page))) == sorted(map(key, GAME.legal_moves(cleared, 0)))

    trashing = GAME.apply(cleared, 0, {"type": "clear", "zone": None})
    trashing = GAME.apply(trashing, 0, {"type": "activate", "card": "c09-starship-medic"})
    assert trashing["pending"]["kind"] == "trash"
    put_state(table2, trashing)
    page = page_of(client_for(alice), table2)
    assert (
        "put up to 1 card from your hand or discard into the graveyard" in page and ">Stop</button>" in page
    )
    assert sorted(map(key, moves_posted(page))) == sorted(map(key, GAME.legal_moves(trashing, 0)))


def test_drama_in_hand_is_marked_as_going_back_to_the_reserve(table2, client_for, alice):
    state = GAME.setup(players=2, seed=2)
    drama = state["drama"][0]
    state["drama"].remove(drama)
    state["seats"][0]["hand"].append(drama)
    put_state(table2, state)
    page = page_of(client_for(alice), table2)
    assert f'data-card="{drama}"' in page and "back to the Drama reserve at your next turn" in page


def test_the_generated_card_rules_in_the_stylesheet_match_the_catalogue():
    """Frames carry no per-card style nor ability word: each card's colours and the word opening its ability
    text come from a block of cosplay.css generated from the catalogue, which must not drift from it (rewrite
    it with ``manage.py game_css``)."""
    cosplay = plugin("cosplay")
    generated = cosplay.generated_css()
    block = css_block(pathlib.Path(finders.find(cosplay.css)).read_text(), generated)
    assert block == generated
    assert block.count("data-card=") == len(CARDS)


def test_a_refused_move_reads_in_the_players_language(table2, client_for, alice):
    """The engine's refusal, on the page, in French for a French reader (and in English otherwise)."""
    from accounts.preferences import set_language

    state = neon_ronin_to_recruit(table2)
    c = client_for(alice)
    bad = {
        "move": json.dumps({"type": "recruit", "zone": 1, "pay": ["st-badass", "st-craft"]}),
        "seq": table2.seq,
    }
    english = c.post(f"/tables/{table2.pk}/move/", bad, HTTP_HX_REQUEST="true")
    set_language(alice, "fr")
    french = c.post(f"/tables/{table2.pk}/move/", bad, HTTP_HX_REQUEST="true")
    assert english.status_code == french.status_code == 400
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, json.loads(bad["move"]))
    assert htmllib.escape(str(refused.value), quote=False) in english.content.decode()
    assert htmllib.escape(refused.value.words("fr"), quote=False) in french.content.decode()
    assert refused.value.words("fr") != str(refused.value)


# --- The end: the round played out (RULINGS), the house rule sudden_end ------------------------


def test_the_last_round_says_whose_turn_ends_the_game(started_table, alice, bob, client_for):
    table = started_table("cosplay", [alice, bob])
    state = GAME.load(table.state)
    state["graveyard"] += state["library"]
    state["library"] = []
    state = GAME.apply(state, 0, {"type": "end_turn"})  # seat 0's turn reaches the end; bob still plays
    put_state(table, state)
    page = htmllib.unescape(page_of(client_for(alice), table))
    assert f"Last round: the game ends after {bob.username}'s turn" in re.sub(r"<[^>]+>", "", page)
    mine = htmllib.unescape(page_of(client_for(bob), table))
    assert "Last round: the game ends after your turn" in re.sub(r"<[^>]+>", "", mine)
    french = client_for(bob).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Règle maison" not in french and "Dernier tour de table" in htmllib.unescape(french)


def test_a_sudden_end_table_ends_with_the_turn_that_reaches_the_end(started_table, alice, bob, client_for):
    table = started_table("cosplay", [alice, bob], options={"sudden_end": True})
    page = htmllib.unescape(page_of(client_for(bob), table))
    assert f'id="table-{table.pk}-house-rule"' in page and "House rule: sudden end" in page
    state = GAME.load(table.state)
    state["graveyard"] += state["library"]
    state["library"] = []
    state = GAME.apply(state, 0, {"type": "end_turn"})  # seat 0's turn reaches the end: over at once
    assert GAME.is_over(state)
    put_state(table, state)
    page = re.sub(r"<[^>]+>", "", htmllib.unescape(page_of(client_for(bob), table)))
    assert "Last round" not in page
    french = htmllib.unescape(
        client_for(bob).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    )
    assert "Règle maison : fin immédiate" in french


def test_the_rules_page_explains_the_end_and_the_house_rule_in_both_languages(client):
    english = htmllib.unescape(client.get("/games/cosplay/rules/").content.decode())
    assert "The round is then played out" in " ".join(re.sub(r"<[^>]+>", "", english).split())
    assert (
        'id="house-rule"' in english and "House rule: sudden end" in english and "off by default" in english
    )
    french = htmllib.unescape(client.get("/games/cosplay/rules/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Le tour de table est alors joué jusqu’au bout" in " ".join(re.sub(r"<[^>]+>", "", french).split())
    assert "Règle maison : fin immédiate" in french and "désactivée par défaut" in french
