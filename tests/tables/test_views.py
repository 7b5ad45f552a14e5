"""Pages: lobby, creating and joining tables, playing through htmx, the dashboard and history."""

import html
import json
import random
import re

import pytest
from django.core import mail

from accounts.mail import drain as send_queued_mail
from tables import services
from tables.models import Table
from tests.html import cards_on

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_games_and_open_tables(client, alice):
    table = services.create_table(alice, "cosmic_crowns", 3)
    private = services.create_table(alice, "cosmic_crowns", 3, private=True)
    html = client.get("/").content.decode()
    assert "Cosmic Crowns" in html
    assert f"/tables/{table.pk}/" in html and f"/tables/{private.pk}/" not in html


# (game, option, its label on the form, what the board says while the table plays it)
HOUSE_RULES = [
    (
        "five_crowns",
        "keep_taken",
        "House rule: a card taken from the discard may not be thrown back that turn",
        "House rule: a card taken from the discard stays in hand that turn",
    ),
    (
        "cosplay",
        "sudden_end",
        "House rule: sudden end (the game ends with the turn that reaches the end)",
        "House rule: sudden end (the game ends with the turn that reaches the end)",
    ),
]


@pytest.mark.parametrize("slug,option,label,badge", HOUSE_RULES)
def test_the_board_shows_a_house_rule_only_when_the_table_plays_it(
    started_table, alice, bob, client_for, slug, option, label, badge
):
    plain = started_table(slug, [alice, bob])
    assert "House rule" not in client_for(alice).get(f"/tables/{plain.pk}/").content.decode()
    house = started_table(slug, [alice, bob], options={option: True})
    for user in (alice, bob):
        page = html.unescape(client_for(user).get(f"/tables/{house.pk}/").content.decode())
        assert f'id="table-{house.pk}-house-rule"' in page and badge in page


@pytest.mark.parametrize("slug,option,label,badge", HOUSE_RULES)
def test_the_new_table_form_offers_each_house_rule_off_by_default(
    alice, client_for, slug, option, label, badge
):
    c = client_for(alice)
    form = html.unescape(c.get(f"/games/{slug}/new/").content.decode())
    assert label in form and f'name="{option}"' in form
    c.post(f"/games/{slug}/new/", {"players": "2", option: "on"})
    c.post(f"/games/{slug}/new/", {"players": "2"})
    made = Table.objects.filter(game=slug).order_by("pk")
    assert [t.options for t in made] == [{option: True}, {option: False}]


@pytest.mark.parametrize("slug,option,label,badge", HOUSE_RULES)
def test_the_lobby_tags_an_open_table_that_plays_a_house_rule(client, alice, bob, slug, option, label, badge):
    plain = services.create_table(alice, slug, 2)
    house = services.create_table(bob, slug, 2, {option: True})
    page = client.get("/").content.decode()
    row = {pk: page[page.index(f"/tables/{pk}/") :].split("</li>")[0] for pk in (plain.pk, house.pk)}
    assert "house rule" in row[house.pk] and "house rule" not in row[plain.pk]


def test_creating_a_table_from_the_form(client_for, alice):
    c = client_for(alice)
    r = c.post("/games/cosmic_crowns/new/", {"players": "4", "mode": "hard", "reverse": "on"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert table.players == 4 and table.options == {"mode": "hard", "reverse": True}


def test_the_form_explains_a_bad_choice(client_for, alice):
    r = client_for(alice).post("/games/cosmic_crowns/new/", {"players": "9", "mode": "easy"})
    assert r.status_code == 200 and "2 to 6 players" in r.content.decode()
    assert not Table.objects.exists()


def test_join_leave_and_start_from_the_page(client_for, alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    cb = client_for(bob)
    page = cb.get(f"/tables/{table.pk}/").content.decode()
    assert "Join this table" in page
    assert cb.post(f"/tables/{table.pk}/join/", HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"
    assert client_for(alice).post(f"/tables/{table.pk}/start/").status_code == 302
    assert Table.objects.get().status == Table.PLAYING


def test_an_open_table_counts_the_seats_still_free(client_for, alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 3)
    assert (
        "Waiting for players: 2 seats free." in client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    )
    services.join_table(table.pk, bob)
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "Waiting for players: 1 seat free." in page
    french = client_for(bob).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "En attente de joueurs\u00a0: 1 place libre." in french


def test_each_seat_sees_its_own_hand_and_spectators_none(client, client_for, alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    state = table.engine.load(table.state)
    hands = state["hands"]
    pa = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    pb = client_for(bob).get(f"/tables/{table.pk}/").content.decode()
    ps = client.get(f"/tables/{table.pk}/").content.decode()
    assert set(hands[0]) <= cards_on(pa) and not set(hands[1]) & cards_on(pa)
    assert set(hands[1]) <= cards_on(pb) and not set(hands[0]) & cards_on(pb)
    assert not (set(hands[0]) | set(hands[1])) & cards_on(ps)
    for page in (pa, pb, ps):
        assert str(table.seed) not in page


def test_the_playable_cards_are_buttons_posting_legal_moves(client_for, alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    seat = table.to_act[0]
    user = [alice, bob][seat]
    page = client_for(user).get(f"/tables/{table.pk}/").content.decode()
    legal = table.engine.legal_moves(table.engine.load(table.state), seat)
    posted = [
        json.loads(m.replace("&quot;", '"'))
        for m in re.findall(r'hx-post="[^"]*/move/"[^>]*data-move="([^"]+)"', page)
    ]
    # (the seq a move button plays at is the page's, added as the move leaves: static/js/site.js)
    assert posted and not re.search(r'hx-vals="[^"]*"[^>]*data-move="\{', page)

    def key(m):
        return json.dumps(m, sort_keys=True)

    assert sorted(map(key, posted)) == sorted(map(key, legal))


def test_a_move_through_htmx_answers_with_the_new_frame(client_for, alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    seat = table.to_act[0]
    user = [alice, bob][seat]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    r = client_for(user).post(
        f"/tables/{table.pk}/move/", {"move": json.dumps(move), "seq": "0"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 200
    body = r.content.decode()
    assert f'id="table-{table.pk}-board"' in body and 'hx-swap-oob="true"' in body


@pytest.mark.parametrize(
    "data, status",
    [
        ({"move": "{not json", "seq": "0"}, 400),
        ({"move": '{"type": "play", "card": "x"}', "seq": "0"}, 400),
        ({"seq": "0"}, 400),
    ],
)
def test_bad_moves_from_the_page_get_a_message_not_a_500(client_for, alice, bob, started_table, data, status):
    table = started_table("cosmic_crowns", [alice, bob])
    user = [alice, bob][table.to_act[0]]
    r = client_for(user).post(f"/tables/{table.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert r.status_code == status
    assert "move-error" in r.content.decode()


def test_a_spectator_cannot_move(client, alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    r = client.post(f"/tables/{table.pk}/move/", {"move": "{}", "seq": "0"})
    assert r.status_code == 403


def test_the_dashboard_lists_tables_waiting_for_me_and_mail_is_sent(
    client_for, alice, bob, started_table, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table = started_table("cosmic_crowns", [alice, bob])
    seat = table.to_act[0]
    waiting_user = [alice, bob][seat]
    page = client_for(waiting_user).get("/your-turn/").content.decode()
    assert f"/tables/{table.pk}/" in page and "Your turn" in page
    send_queued_mail()  # the worker's job: the request only queued it
    assert any(waiting_user.email in m.to for m in mail.outbox)


def test_history_lists_finished_games_and_the_table_shows_scores_and_log(
    client_for, alice, bob, started_table
):
    table = started_table("cosmic_crowns", [alice, bob])
    rnd = random.Random(4)
    while table.status == Table.PLAYING:
        seat = table.to_act[0]
        move = rnd.choice(table.engine.legal_moves(table.engine.load(table.state), seat))
        table = services.play_move(table.pk, [alice, bob][seat], move, table.seq).table
    page = client_for(alice).get("/history/").content.decode()
    assert f"/tables/{table.pk}/" in page and "bob" in page
    detail = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "Final scores" in detail and "Move log" in detail and "won the trick" in detail


def test_the_rules_page_exists_for_each_game(client):
    assert client.get("/games/cosmic_crowns/rules/").status_code == 200
    assert client.get("/games/chess/rules/").status_code == 404


def test_your_turn_mail_goes_out_once_per_table_per_window(
    alice, bob, started_table, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table = started_table("cosmic_crowns", [alice, bob])
        for _ in range(6):
            seat = table.to_act[0]
            move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
            table = services.play_move(table.pk, [alice, bob][seat], move, table.seq).table
    send_queued_mail()
    turn_mails = [m for m in mail.outbox if m.subject.startswith("Your turn")]
    assert sorted(m.to[0] for m in turn_mails) == sorted({m.to[0] for m in turn_mails})
    assert 1 <= len(turn_mails) <= 2


def test_a_card_opens_large_with_its_full_text_in_the_readers_language(client):
    english = client.get("/games/chronica/cards/charles-le-chauve/", HTTP_ACCEPT_LANGUAGE="en")
    french = client.get("/games/chronica/cards/charles-le-chauve/", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == french.status_code == 200
    english, french = english.content.decode(), french.content.decode()
    assert "Charles le Chauve" in english and "King" in english and "Early Middle Ages" in english
    assert "Roi" in french and "Haut Moyen Âge" in french and "Fermer" in french
    assert 'data-card="charles-le-chauve"' in english and "Erudition <strong>2</strong>" in english
    cosplay = client.get("/games/cosplay/cards/st-badass/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Badass" in cosplay and "cp-card" in cosplay and "zoom" in cosplay


def test_it_refuses_to_open_an_unknown_card_or_game(client):
    assert client.get("/games/chronica/cards/no-such-card/").status_code == 404
    assert client.get("/games/no_such_game/cards/roland/").status_code == 404
    assert client.get("/games/cosmic_crowns/cards/%3Cscript%3E/").status_code == 404


def test_the_special_cards_open_large_with_what_they_do_in_the_readers_language(client):
    def zoom(game, code, lang):
        answer = client.get(f"/games/{game}/cards/{code}/", HTTP_ACCEPT_LANGUAGE=lang)
        assert answer.status_code == 200
        return answer.content.decode()

    assert "chooses the Battleground clan" in zoom("cosmic_crowns", "falling-star-1", "en")
    assert "choisit le Clan du Champ de Bataille" in zoom("cosmic_crowns", "falling-star-1", "fr")
    assert "The next card of the stack is turned up" in zoom("cosmic_crowns", "devil-2", "en")
    assert "Une carte de sa main, tirée au hasard" in zoom("cosmic_crowns", "frog-assassin", "fr")
    assert "returns a crown to the pile" in zoom("cosmic_crowns", "dog-thief", "en")
    assert "Aucun effet spécial" in zoom("cosmic_crowns", "eagle-7", "fr")
    assert "Wild in every round." in zoom("five_crowns", "joker", "en")
    assert "50 points" in zoom("five_crowns", "joker", "en")
    seven = zoom("five_crowns", "7-heart", "en")
    assert "Wild in round 5, when 7 cards are dealt" in seven and "7 points" in seven and "20 points" in seven
    assert "Bonus à la donne 11, quand 13 cartes sont distribuées" in zoom("five_crowns", "K-star", "fr")
