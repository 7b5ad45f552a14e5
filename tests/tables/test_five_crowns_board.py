"""The Five Crowns board: what each viewer sees, the moves offered, the wild rank, going out, the sheet."""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.five_crowns import GAME
from rules.five_crowns.cards import CARDS
from tables import services
from tables.models import Table
from tables.rendering import render_frame
from tests.html import cards_on, moves_posted
from tests.rules.five_crowns.helpers import visible_codes
from tests.tables.positions import put_state, state_of

pytestmark = pytest.mark.django_db

CODES = sorted(CARDS)


def codes_mentioned(page: str) -> set[str]:
    """Every card code written anywhere in the HTML (attributes, text, scripts)."""
    return {c for c in CODES if re.search(r"(?<![A-Za-z0-9-])" + re.escape(c) + r"(?![A-Za-z0-9-])", page)}


def hand_on(page: str) -> list[str]:
    return re.findall(r'<li class="fc-slot[^"]*" data-code="([^"]+)"', page)


def page_of(client, table) -> str:
    r = client.get(f"/tables/{table.pk}/")
    assert r.status_code == 200
    return r.content.decode()


def play_some(table, users, steps, rnd, go_out=True):
    """Random moves through the services (going out whenever it is offered, if go_out)."""
    for _ in range(steps):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            return
        state = GAME.load(table.state)
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        outs = [m for m in moves if m["type"] == "go_out"]
        move = (
            outs[0] if outs and go_out else rnd.choice([m for m in moves if m["type"] != "go_out"] or moves)
        )
        services.play_move(table.pk, users[seat], move, table.seq)


@pytest.fixture
def three(started_table, alice, bob, charlie):
    users = [alice, bob, charlie]
    return started_table("five_crowns", users), users


def test_each_seat_sees_its_own_hand_and_no_hidden_card_anywhere(three, client_for, client):
    table, users = three
    rnd = random.Random(3)
    clients = [client_for(u) for u in users]
    for _ in range(14):
        state = state_of(table)
        for seat, c in enumerate(clients):
            page = page_of(c, table)
            allowed = visible_codes(state, seat)
            assert sorted(hand_on(page)) == sorted(state["hands"][seat]), "own hand, every copy"
            assert set(state["hands"][seat]) <= cards_on(page)
            assert codes_mentioned(page) <= allowed, "no stock card, no other hand, anywhere in the HTML"
        spectator = page_of(client, table)
        assert codes_mentioned(spectator) <= visible_codes(state, None)
        assert "Your hand" not in spectator and "data-move" not in spectator and "fc-slot" not in spectator
        play_some(table, users, rnd.choice([1, 2, 3, 5]), rnd)


def test_the_card_drawn_from_the_stock_is_shown_to_its_drawer_only(three, client_for):
    table, users = three
    state = state_of(table)
    seat = state["turn"]
    others = [s for s in range(3) if s != seat]
    # A card nobody else holds or sees, on top of the stock.
    secret = next(
        c for c in CODES if all(c not in state["hands"][s] for s in range(3)) and c != state["discard"][-1]
    )
    state["stock"].remove(secret)
    state["stock"].append(secret)
    put_state(table, state)
    services.play_move(table.pk, users[seat], {"type": "draw", "source": "stock"}, table.seq)
    mine = page_of(client_for(users[seat]), table)
    assert re.search(rf'<li class="fc-slot drawn" data-code="{secret}"', mine) and "new-tag" in mine
    for s in others:
        page = page_of(client_for(users[s]), table)
        assert secret not in codes_mentioned(page) and "new-tag" not in page


def test_the_moves_offered_are_exactly_the_legal_moves(three, client_for):
    table, users = three
    rnd = random.Random(5)
    seen = set()
    for _ in range(16):
        state = state_of(table)
        if table.status != Table.PLAYING:
            break
        for seat, user in enumerate(users):
            page = page_of(client_for(user), table)
            posted = moves_posted(page)
            legal = GAME.legal_moves(state, seat)
            key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
            assert {key(m) for m in posted} == {key(m) for m in legal}
            if legal:
                seen.add(state["phase"])
                if state["phase"] == "draw":
                    assert 'class="pile-button playable"' in page
                else:  # one discard button per card in hand (the one just taken too), none on the piles
                    assert len([m for m in posted if m["type"] == "discard"]) == len(state["hands"][seat])
                    assert 'class="pile-button playable"' not in page
            else:
                assert "playable" not in page
        play_some(table, users, 1, rnd)
    assert seen == {"draw", "discard"}


@pytest.mark.parametrize(("round_number", "label"), [(1, "3s"), (5, "7s"), (9, "Jacks"), (11, "Kings")])
def test_the_wild_rank_shows_at_a_glance_and_marks_the_wild_cards(three, client_for, round_number, label):
    table, users = three
    state = state_of(table)
    state["round"] = round_number
    wild = {3: "3", 7: "7", 11: "J", 13: "K"}[round_number + 2]
    state["hands"][0] = [f"{wild}-heart", "joker", "8-club"]
    put_state(table, state)
    page = page_of(client_for(users[0]), table)
    assert f"Wild: <strong>{label}</strong>" in page
    assert re.search(rf'class="fc-card suit-heart wild[^"]*" data-card="{wild}-heart"', page)
    assert re.search(r'class="fc-card suit-joker wild[^"]*" data-card="joker"', page)
    assert re.search(r'class="fc-card suit-club" data-card="8-club"', page)
    assert page.count('class="fc-wild-badge"') >= 2


def go_out_position(table):
    """Seat 1 to discard in round 1 holding 5 6 7 of hearts and a Queen: it can go out."""
    state = state_of(table)
    state.update(turn=1, phase="discard", drawn="Q-diamond", taken=None)
    state["hands"][1] = ["5-heart", "6-heart", "7-heart", "Q-diamond"]
    return put_state(table, state)


def test_the_go_out_prompt_shows_the_melds_and_the_discard(three, client_for):
    table, users = three
    go_out_position(table)
    page = page_of(client_for(users[1]), table)
    assert "You can go out!" in page
    prompt = page.split('class="fc-go-out"')[1].split('class="fc-hand"')[0]
    assert re.findall(r'data-card="([^"]+)"', prompt)[:4] == ["5-heart", "6-heart", "7-heart", "Q-diamond"]
    assert "Run" in prompt and "Discard" in prompt
    posted = moves_posted(prompt)
    assert posted[0] == {"type": "go_out", "card": "Q-diamond"}
    assert "Go out — discard Queen of diamonds" in prompt
    for other in (users[0], users[2]):
        assert "You can go out!" not in page_of(client_for(other), table)


def test_the_go_out_prompt_appears_exactly_when_going_out_is_legal(three, client_for):
    table, users = three
    rnd = random.Random(11)
    offered = 0
    for _ in range(40):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            break
        state = GAME.load(table.state)
        seat = state["turn"]
        page = page_of(client_for(users[seat]), table)
        outs = [m for m in GAME.legal_moves(state, seat) if m["type"] == "go_out"]
        assert ("You can go out!" in page) == bool(outs)
        offered += bool(outs)
        if outs:
            assert {m["card"] for m in moves_posted(page) if m["type"] == "go_out"} == {
                m["card"] for m in outs
            }
        play_some(table, users, 1, rnd, go_out=False)
    assert offered  # round 1 (three cards, 3s wild) offers it often


def test_after_someone_goes_out_the_others_see_their_final_turn(three, client_for, client):
    table, users = three
    go_out_position(table)
    services.play_move(table.pk, users[1], {"type": "go_out", "card": "Q-diamond"}, table.seq)
    table.refresh_from_db()
    state = state_of(table)
    assert state["went_out"] == 1 and state["turn"] == 2
    page = page_of(client_for(users[2]), table)
    assert "bob went out</strong> — your final turn!" in page
    page = page_of(client_for(users[0]), table)
    assert "bob went out</strong> — you get one final turn." in page
    page = page_of(client_for(users[1]), table)
    assert "You went out</strong>" in page and "charlie, alice to go" in page
    assert "bob went out</strong> — final turns for charlie, alice." in page_of(client, table)
    assert 'class="tag-out"' in page


def test_the_round_end_shows_everyones_laid_melds_and_the_score_sheet(three, client_for):
    table, users = three
    go_out_position(table)
    rnd = random.Random(2)
    services.play_move(table.pk, users[1], {"type": "go_out", "card": "Q-diamond"}, table.seq)
    play_some(table, users, 4, rnd, go_out=False)  # the two final turns: draw, discard each
    state = state_of(table)
    assert state["round"] == 2 and len(state["sheet"]) == 1
    page = page_of(client_for(users[0]), table)
    assert "Round 1 result — bob went out" in page
    rows = page.split('class="fc-laid"')[1].split("</ol>")[0].split("<li")[1:]
    assert len(rows) == 3
    for seat, (row, arrangement) in enumerate(zip(rows, state["last_round"]["laid"], strict=True)):
        assert f"<strong>{users[seat].username}</strong>" in row
        shown = re.findall(r'data-card="([^"]+)"', row)
        assert shown == [c for m in arrangement["melds"] for c in m["cards"]] + arrangement["leftover"]
        assert f"+{arrangement['penalty']}</span>" in row
    assert '<tr data-round="1">' in page and '<tr data-round="2">' not in page
    assert page.count("<polyline") == 3


def test_the_score_sheet_lists_every_round_with_a_chart(three, client_for):
    table, users = three
    state = state_of(table)
    state["sheet"] = [[0, 10, 20], [5, 0, 30], [7, 8, 0]]
    state["scores"] = [12, 18, 50]
    put_state(table, state)
    page = page_of(client_for(users[0]), table)
    for r in (1, 2, 3):
        assert f'<tr data-round="{r}">' in page
    foot = page.split("<tfoot>")[1].split("</tfoot>")[0]
    assert re.findall(r"<th[^>]*>(\d+)</th>", foot) == ["12", "18", "50"]
    lines = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(lines) == 3 and all(len(p.split()) == 4 for p in lines)  # round 0 plus 3 rounds


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_chart_draws_in_svg_numbers_in_both_languages(three, client_for, lang):
    """The chart's coordinates are SVG numbers, "132.0", in a French page and frame as in an English one: a
    French decimal comma ("132,0") is no coordinate, and the browser drew the chart's lines nowhere."""
    table, users = three
    state = state_of(table)
    state["sheet"] = [[0, 10, 25], [3, 0, 30]]
    state["scores"] = [3, 10, 55]
    put_state(table, state)
    page = client_for(users[0]).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    frame = render_frame(Table.objects.get(pk=table.pk), users[0], lang)
    for html in (page, frame):
        chart = html.split('<svg class="fc-chart"')[1].split("</svg>")[0]
        number = r"-?\d+(?:\.\d+)?"
        coordinates = re.findall(r'\b(?:x1|x2|y1|y2|x|y|cx|cy)="([^"]*)"', chart)
        assert len(coordinates) > 20
        assert all(re.fullmatch(number, c) for c in coordinates), coordinates
        for points in re.findall(r'<polyline points="([^"]+)"', chart):
            assert all(re.fullmatch(f"{number},{number}", p) for p in points.split()), points
        assert "132.0" in chart  # (the zero line of a chart up to 60: 8 + 124 * (1 - 0 / 60))


def test_a_finished_game_shows_the_winners_and_no_hand(three, client_for):
    table, users = three
    state = state_of(table)
    state.update(phase="over", turn=None, round=11, scores=[40, 30, 30])
    state["sheet"] = [[4, 3, 3]] * 10 + [[0, 0, 0]]
    put_state(table, state)
    page = page_of(client_for(users[0]), table)
    assert "The game is over." in page and "bob and charlie win with the lowest total" in page
    assert "Your hand" not in page and "data-move" not in page
    assert page.count('<tr data-round="') == 11
