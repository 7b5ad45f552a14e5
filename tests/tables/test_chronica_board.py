"""The Chronica Universalis board: what each viewer sees, the moves offered, the prompts and previews."""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.chronica import GAME
from tables import services
from tables.models import Table
from tests.html import cards_on, moves_posted
from tests.rules.chronica.helpers import board, visible_to
from tests.tables.positions import put_state, state_of

pytestmark = pytest.mark.django_db

ALL_CODES = sorted(c["code"] for c in __import__("rules.chronica", fromlist=["catalog"]).catalog())


def codes_mentioned(page: str) -> set[str]:
    """Every catalog code written anywhere in the HTML (attributes, scripts, text)."""
    return {c for c in ALL_CODES if re.search(r"(?<![a-z0-9-])" + re.escape(c) + r"(?![a-z0-9-])", page)}


def moves_embedded(page: str) -> list[dict] | None:
    m = re.search(r'<script id="cu-moves" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(m.group(1)) if m else None


def page_of(client, table) -> str:
    return client.get(f"/tables/{table.pk}/").content.decode()


def play_some(table, users, steps, seed=1):
    rnd = random.Random(seed)
    for _ in range(steps):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            return
        state = GAME.load(table.state)
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        nice = [m for m in moves if m["type"] != "pass"] or moves
        services.play_move(table.pk, users[seat], rnd.choice(nice), table.seq)


def test_each_seat_sees_its_own_hand_and_no_hidden_card_anywhere(
    started_table, client_for, client, alice, bob
):
    table = started_table("chronica", [alice, bob])
    users = [alice, bob]
    for round_ in range(4):
        state = state_of(table)
        for seat, user in enumerate(users):
            page = page_of(client_for(user), table)
            allowed = visible_to(state, seat)
            assert set(state["hands"][seat]) <= cards_on(page), "own hand is drawn"
            assert cards_on(page) <= allowed
            assert codes_mentioned(page) <= allowed, "no hidden card code anywhere in the HTML"
            other = state["hands"][1 - seat]
            assert not set(other) & codes_mentioned(page)
        spectator = page_of(client, table)
        assert codes_mentioned(spectator) <= visible_to(state, None)
        assert "Your hand" not in spectator and "cu-moves" not in spectator
        play_some(table, users, 5, seed=round_)


def test_the_moves_offered_are_exactly_the_legal_moves_and_each_preview_is_asked_for(
    started_table, client_for, alice, bob
):
    table = started_table("chronica", [alice, bob])
    play_some(table, [alice, bob], 8)
    state = state_of(table)
    seat = GAME.to_act(state)[0]
    mover, waiter = [alice, bob][seat], [alice, bob][1 - seat]
    page = page_of(client_for(mover), table)
    legal = GAME.legal_moves(state, seat)
    assert moves_embedded(page) == legal
    assert "honour_delta" not in page, "no preview is drawn into the page: the board asks for one"
    assert f'data-preview-url="/tables/{table.pk}/preview/"' in page
    for m in moves_posted(page):
        assert m in legal
    picks = set(re.findall(r'data-pick="([^"]+)"', page))
    assert picks == {m["card"] for m in legal if "card" in m}
    other = page_of(client_for(waiter), table)
    assert moves_posted(other) == [] and moves_embedded(other) is None
    assert "data-pick" not in other and "data-preview-url" not in other


def test_the_opening_mulligan_is_offered_to_the_player_who_decides(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = state_of(table)
    first = state["first"]
    users = [alice, bob]
    page = page_of(client_for(users[first]), table)
    assert "Your opening hand." in page and "Keep this hand" in page
    assert f"Mulligan: draw {len(state['hands'][first]) - 1}" in page
    assert sorted(m["type"] for m in moves_posted(page)) == ["keep", "mulligan"]
    waiting = page_of(client_for(users[1 - first]), table)
    assert "to keep their hand or take a mulligan" in waiting


def test_the_action_targets_and_locks_are_drawn(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = board(
        hands={0: ["roland", "alcuin", "la-sorbonne"]},
        provinces={
            0: {4: (None, "sainte-odile")},
            1: {
                0: ("chateau-de-vincennes", "philippe-auguste"),
                4: ("abbaye-de-cluny", None),
                2: (None, "clovis"),
            },
        },
    )
    put_state(table, state)
    page = page_of(client_for(alice), table)
    # The hinterland slot behind an occupied frontier slot is locked (drawn by its class; its label says so);
    # the occupant overlaps its building.
    bobs = page[page.index('data-seat="1" data-name') : page.index('data-seat="0" data-name')]
    assert re.search(
        r'class="cu-slot protected" data-slot="4" role="group" aria-label="Hinterland 1 \(protected\)"', bobs
    )
    assert re.search(r'class="cu-slot occupied" data-slot="0"', bobs)
    assert 'cu-card c-couronne era-ma pref-g occupant" data-card="philippe-auguste"' in bobs
    assert re.search(r'class="cu-slot wandering" data-slot="2"', bobs)
    moves = moves_embedded(page)
    targets = {(m["target"]["seat"], m["target"]["slot"]) for m in moves if m["type"] == "action"}
    assert targets == {(1, 0), (1, 2)}
    helpers = {
        json.dumps(m["reinforce"], sort_keys=True)
        for m in moves
        if m["type"] == "action" and m["card"] == "roland"
    }
    assert helpers == {"null", '{"card": "alcuin", "from": "hand"}', '{"from": "province", "slot": 4}'}
    # Alice's own province is at the bottom (frontier row on top); Bob's at the top, frontier row facing her.
    assert page.index('data-seat="1" data-name') < page.index('data-seat="0" data-name')
    top = page[page.index('class="cu-side top') : page.index('class="cu-side bottom')]
    assert top.index('data-slot="4"') < top.index('data-slot="0"')
    bottom = page[page.index('class="cu-side bottom') :]
    assert bottom.index('data-slot="0"') < bottom.index('data-slot="4"')


def test_ferveur_populaire_offers_another_card_or_the_end_of_the_turn(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = board(
        hands={0: ["philippe-auguste", "alcuin"]}, provinces={1: {0: ("citadelle-de-besancon", "roland")}}
    )
    after = GAME.apply(
        state, 0, {"type": "action", "card": "philippe-auguste", "target": {"seat": 1, "slot": 0}}
    )
    assert after["phase"] == "fervour"
    put_state(table, after)
    page = page_of(client_for(alice), table)
    # (RULINGS' glossary: "Popular fervour" in English, "Ferveur populaire" in French; the English board once
    # said "You have Ferveur populaire")
    assert "Popular fervour!" in page and "End turn" in page and "Ferveur" not in page
    french = client_for(alice).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ferveur populaire\u00a0!" in french and "avez la Ferveur populaire" in french
    assert {"type": "end_turn"} in moves_posted(page)
    assert not [m for m in moves_posted(page) if m["type"] == "pass"]


def test_passing_offers_each_hand_card_to_discard(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = board(hands={0: ["roland", "la-sorbonne"]})
    put_state(table, state)
    page = page_of(client_for(alice), table)
    assert "Pass: discard 1, draw 2" in page
    passes = [m for m in moves_posted(page) if m["type"] == "pass"]
    assert passes == [{"type": "pass", "discard": "roland"}, {"type": "pass", "discard": "la-sorbonne"}]


def test_the_shared_variant_shows_the_river_and_the_draw_choices(
    started_table, client_for, client, alice, bob
):
    table = started_table("chronica", [alice, bob], {"shared_deck": True})
    state = board(hands={0: ["roland"]}, shared=True)
    state["phase"] = "draw"
    state["pending_draws"] = 2
    put_state(table, state)
    page = page_of(client_for(alice), table)
    river = state["river"]
    assert set(river) <= cards_on(page)
    assert "Draw 2 cards:" in page and "Draw from the pile" in page
    posted = moves_posted(page)
    assert {"type": "draw", "source": "pile"} in posted
    assert {m["card"] for m in posted if m.get("source") == "river"} == set(river)
    assert f"Pile <strong>{len(state['pile'])}</strong>" in page
    board_html = page.split(f'id="table-{table.pk}-board"', 1)[1]
    assert "deck " not in re.sub(r"<[^>]+>", "", board_html).lower().replace("shared deck", "")
    assert codes_mentioned(page_of(client, table)) <= visible_to(state, None)


def test_honour_track_and_victory_points_are_shown(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = board(
        provinces={0: {0: ("chateau-de-vincennes", "charles-le-chauve"), 1: (None, "roland")}}, honour=[7, 4]
    )
    put_state(table, state)
    page = page_of(client_for(bob), table)
    assert 'aria-label="Honour 7 of 10"' in page and 'aria-label="Honour 4 of 10"' in page
    assert "<strong>4</strong> VP" in page and "<strong>0</strong> VP" in page


def test_the_creator_brings_a_saved_deck_to_a_new_table(client_for, alice, bob):
    from accounts.models import Deck
    from rules.chronica import starter_decks

    cards = starter_decks()[2]["cards"]
    deck = Deck.objects.create(owner=alice, name="Mine", cards=cards)
    bad = Deck.objects.create(owner=alice, name="Half", cards=cards[:10])
    c = client_for(alice)
    form = c.get("/games/chronica/new/").content.decode()
    assert f'value="deck:{deck.pk}"' in form and f'value="deck:{bad.pk}"' not in form
    assert 'value="starter:couronne-et-foi"' in form
    r = c.post("/games/chronica/new/", {"players": "2", "deck": f"deck:{deck.pk}"})
    table = Table.objects.get()
    assert r.status_code == 302
    assert table.seats.get(index=0).deck == cards
    # Someone else's deck is not a choice.
    r = client_for(bob).post("/games/chronica/new/", {"players": "2", "deck": f"deck:{deck.pk}"})
    assert r.status_code == 200 and "Choose one of your decks" in r.content.decode()
    assert Table.objects.count() == 1
    services.join_table(table.pk, bob, deck=starter_decks()[0]["cards"])
    table = services.start_table(table.pk, alice)
    state = GAME.load(table.state)
    assert sorted(state["decks"][0] + state["hands"][0]) == sorted(cards)


def test_set_deck_refuses_an_illegal_deck_and_strangers(alice, bob):
    table = services.create_table(alice, "chronica", 2)
    with pytest.raises(services.BadRequest, match="exactly 30 cards"):
        services.set_deck(table.pk, alice, ["roland"])
    with pytest.raises(services.Conflict):
        services.set_deck(table.pk, bob, ["roland"])


def test_the_end_of_the_game_is_announced_on_the_board(started_table, client_for, alice, bob):
    table = started_table("chronica", [alice, bob])
    state = board(
        hands={0: ["roland"]}, provinces={1: {0: ("abbaye-de-cluny", "sainte-odile")}}, honour=[3, 10]
    )
    after = GAME.apply(state, 0, {"type": "action", "card": "roland", "target": {"seat": 1, "slot": 0}})
    assert after["phase"] == "over"
    put_state(table, after)
    page = page_of(client_for(bob), table)
    assert "The game is over" in page and "a player has no honour left" in page
    assert moves_posted(page) == [] and moves_embedded(page) is None


def test_the_powers_option_is_offered_and_shown_with_each_power(
    started_table, client_for, client, alice, bob
):
    form = client_for(alice).get("/games/chronica/new/").content.decode()
    assert 'name="powers"' in form and "Special powers" in form
    assert (
        "Pouvoirs spéciaux"
        in client_for(alice).get("/games/chronica/new/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    )
    table = started_table("chronica", [alice, bob], {"powers": True})
    state = board(hands={0: ["jeanne-d-arc"]}, provinces={1: {0: ("abbaye-du-mont-saint-michel", None)}})
    state["options"] = dict(state["options"], powers=True)
    put_state(table, state)
    page = page_of(client_for(alice), table)
    assert "Special powers" in page
    assert "When it wins an Action it performs (not as a Reinforcement): you may play one more card." in page
    assert "In your province: it cannot be the target of an Action." in page  # in play
    assert codes_mentioned(page_of(client, table)) <= visible_to(state, None)
    plain = started_table("chronica", [alice, bob])
    assert "Powers of" not in page_of(client_for(alice), plain)


def test_the_board_offers_the_opponent_a_disgrace_hits_and_the_character_an_exile_sends_home(
    started_table, client_for, alice, bob, charlie
):
    # RULINGS (2026-11-26): "The opponent loses n honour": with 3 or 4 players, the player names one opponent;
    # Exile "lets the player choose which one among those it may reach". The board draws its choices from
    # the legal moves it embeds (static/js/games/chronica.js puts each variant on a button).
    table = started_table("chronica", [alice, bob, charlie], {"powers": True})
    state = board(
        players=3,
        hands={0: ["moliere", "palais-des-tuileries", "donjon-de-loches"]},
        provinces={
            1: {0: ("palais-des-ducs-de-bourgogne", None), 1: (None, "alcuin")},
            2: {2: (None, "roland")},
        },
    )
    state["options"] = dict(state["options"], powers=True)
    put_state(table, state)
    page = page_of(client_for(alice), table)
    legal = GAME.legal_moves(state, 0)
    assert moves_embedded(page) == legal
    attacks = [
        m for m in legal if m["type"] == "action" and m["card"] == "moliere" and m["target"]["slot"] == 0
    ]
    assert {m["disgrace"] for m in attacks} == {1, 2}
    builds = [
        m for m in legal if m["type"] == "build" and m["card"] == "donjon-de-loches" and "welcome" not in m
    ]
    assert {(m["exile"]["seat"], m["exile"]["slot"]) for m in builds} == {(1, 1), (2, 2)}
    passes = [m for m in moves_posted(page) if m["type"] == "pass" and m["discard"] == "palais-des-tuileries"]
    assert [m["disgrace"] for m in passes] == [1, 2]
    assert "Discard Palais des Tuileries (bob loses honour by its power)" in page
    assert "Discard Palais des Tuileries (charlie loses honour by its power)" in page
    words = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "loses honour by the power" in words and "goes home by the power" in words
    french = client_for(alice).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "perd de l’Honneur par son pouvoir" in french


def test_two_extra_plays_are_announced(started_table, client_for, alice, bob):
    # RULINGS: "two grants in one move give two": Ferveur populaire and Jeanne d'Arc's Zeal.
    table = started_table("chronica", [alice, bob], {"powers": True})
    state = board(
        hands={0: ["jeanne-d-arc", "vercingetorix", "alcuin"]},
        provinces={1: {0: ("chateau-de-chinon", "roland")}},
        honour=[5, 5],
    )
    state["options"] = dict(state["options"], powers=True)
    move = {
        "type": "action",
        "card": "jeanne-d-arc",
        "target": {"seat": 1, "slot": 0, "part": "building"},
        "reinforce": {"from": "hand", "card": "vercingetorix"},
    }
    put_state(table, GAME.apply(state, 0, move))
    page = page_of(client_for(alice), table)
    assert "You may play 2 more cards, or end your turn." in page
