"""The on-demand move preview (GET /tables/<id>/preview/?move=…): Chronica's honour, one move at a time,
only for the seat whose turn it is, never a hidden card, never a 500."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import quote

import pytest

from rules.chronica import GAME, catalog
from tables.models import Table
from tests.rules.chronica.helpers import board, visible_to
from tests.tables.positions import put_state, state_of

pytestmark = pytest.mark.django_db

CHARLES, CITEAUX, ODILE = "charles-le-chauve", "abbaye-notre-dame-de-citeaux", "sainte-odile"
NAMES = {c["code"]: c["name"] for c in catalog()}


def action(card, seat, slot, reinforce=None):
    return {"type": "action", "card": card, "target": {"seat": seat, "slot": slot}, "reinforce": reinforce}


def ask(client, table, move, raw: str | None = None):
    query = raw if raw is not None else quote(json.dumps(move))
    return client.get(f"/tables/{table.pk}/preview/?move={query}")


@pytest.fixture
def table(started_table, alice, bob):
    """Alice to play Charles le Chauve against Bob's Cîteaux occupied by Sainte Odile (the rulebook's −9)."""
    table = started_table("chronica", [alice, bob])
    state = board(
        hands={0: [CHARLES, "roland"], 1: ["clovis", "alcuin"]}, provinces={1: {0: (CITEAUX, ODILE)}}
    )
    return put_state(table, state)


def test_it_previews_one_legal_move_as_the_engine_does(table, client_for, alice):
    move = action(CHARLES, 1, 0)
    expected = GAME.preview(state_of(table), 0, move)
    answer = ask(client_for(alice), table, move)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert 'data-delta="-9"' in body and "Your honour \u22129" in body
    assert "bob \u22121" in body  # the opponent's loss, by name
    assert (
        html.unescape(re.search(r'<p class="cu-explain">(.*?)</p>', body).group(1))
        == expected["explanation"]["en"]
    )
    assert len(body) < 1024, "a small fragment"


def test_it_changes_nothing(table, client_for, alice):
    before = (table.seq, state_of(table))
    ask(client_for(alice), table, action(CHARLES, 1, 0))
    table.refresh_from_db()
    assert (table.seq, state_of(table)) == before and table.moves.count() == 0


@pytest.mark.parametrize(
    "raw, message",
    [
        ("", "The move must be a JSON object."),
        ("not-json", "The move must be a JSON object."),
        (quote("[1, 2]"), "The move must be a JSON object."),
        (quote('"play"'), "The move must be a JSON object."),
        (quote("{"), "The move must be a JSON object."),
    ],
)
def test_it_refuses_a_malformed_move(table, client_for, alice, raw, message):
    answer = ask(client_for(alice), table, None, raw=raw)
    assert answer.status_code == 400 and answer.content.decode() == message


@pytest.mark.parametrize(
    "move",
    [
        action("philippe-auguste", 1, 0),  # not in her hand
        action(CHARLES, 1, 5),  # an empty slot
        action(CHARLES, 0, 0),  # her own province
        {"type": "action", "card": CHARLES, "target": "bob"},
        {"type": "build", "card": CHARLES, "slot": 99},
        {"type": "place", "card": CHARLES, "slot": "x"},
        {"type": "fly"},
        {},
        {"type": "action", "card": ["x"], "target": {"seat": None, "slot": []}},
    ],
)
def test_it_refuses_an_illegal_move_with_a_message(table, client_for, alice, move):
    answer = ask(client_for(alice), table, move)
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("text/plain") and answer.content.decode().strip()


def test_only_the_seat_whose_turn_it_is_may_ask(table, client_for, client, bob, charlie):
    move = action(CHARLES, 1, 0)
    assert ask(client_for(bob), table, move).status_code == 403  # not his turn
    assert ask(client_for(bob), table, move).content.decode() == "It is not your turn."
    assert ask(client_for(charlie), table, move).status_code == 403  # no seat here
    assert ask(client, table, move).status_code == 403  # a spectator, signed out


def test_no_table_no_game_preview_or_a_table_not_in_play(table, client_for, alice, bob, started_table):
    me = client_for(alice)
    assert me.get("/tables/999999/preview/?move={}").status_code == 404
    crowns = started_table("cosmic_crowns", [alice, bob])
    assert ask(me, crowns, {"type": "play", "card": "eagle-2"}).status_code == 404
    Table.objects.filter(pk=table.pk).update(status=Table.FINISHED)
    assert ask(me, table, action(CHARLES, 1, 0)).status_code == 409
    assert me.post(f"/tables/{table.pk}/preview/?move={{}}").status_code == 405


def test_a_preview_names_no_card_the_seat_cannot_see(started_table, client_for, alice, bob):
    """Ending the turn or passing draws from the deck: the answer says what honour does, not what is drawn."""
    table = started_table("chronica", [alice, bob])
    state = board(
        hands={0: [CHARLES, "roland"], 1: ["clovis", "alcuin"]}, provinces={1: {0: (CITEAUX, None)}}
    )
    put_state(table, state)
    hidden = {NAMES[c] for c in NAMES if c not in visible_to(state, 0)} | (set(NAMES) - visible_to(state, 0))
    assert {"clovis", "alcuin"} <= hidden  # Bob's hand is hidden from Alice
    me = client_for(alice)
    legal = GAME.legal_moves(state, 0)
    assert {"pass", "action", "place"} <= {m["type"] for m in legal}
    for move in legal:
        answer = ask(me, table, move)
        assert answer.status_code == 200, move
        body = html.unescape(answer.content.decode())
        assert not [h for h in hidden if re.search(r"(?<![\w-])" + re.escape(h) + r"(?![\w-])", body)], move
