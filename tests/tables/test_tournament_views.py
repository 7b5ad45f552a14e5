"""The tournaments' pages: the list, the create form, a tournament's page and its live part."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables import tournament_live, tournaments
from tables.models import Tournament

pytestmark = pytest.mark.django_db

SWISS = {"game": "cosmic_crowns", "format": "swiss", "table_size": 2, "rounds": 3, "move_time": 3600}


def test_the_form_opens_a_tournament_its_creator_plays_in(client_for, alice):
    client = client_for(alice)
    assert client.get("/tournaments/new/?game=five_crowns").status_code == 200
    response = client.post(
        "/tournaments/new/",
        {
            "game": "five_crowns",
            "format": "arena",
            "minutes": "60",
            "rounds": "3",
            "table_size": "3",
            "move_time": "120",
            "bots": "2",
            "bot_level": "casual",
            "rated": "on",
            "play": "on",
            "description": "Tonight <b>only</b>",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.format, tournament.minutes, tournament.rounds, tournament.table_size) == (
        "arena",
        60,
        None,
        3,
    )
    assert tournament.bot_count == 2 and tournament.rated
    page = client.get(response["Location"]).content.decode()
    assert "Tonight &lt;b&gt;only&lt;/b&gt;" in page and 'data-player="alice"' in page
    assert f'ws-connect="/ws/tournaments/{tournament.pk}/"' in page and "Start now" in page


def test_the_form_says_what_is_wrong_and_creates_nothing(client_for, alice):
    response = client_for(alice).post(
        "/tournaments/new/", {"game": "cosmic_crowns", "format": "swiss", "rounds": "x", "table_size": "2"}
    )
    assert response.status_code == 200 and b"must be a whole number" in response.content
    assert not Tournament.objects.exists()


def test_joining_and_starting_from_the_page(client_for, alice, bob):
    tournament = tournaments.create(alice, SWISS)
    bob_client, alice_client = client_for(bob), client_for(alice)
    assert b"Join" in bob_client.get(f"/tournaments/{tournament.pk}/").content
    bob_client.post(f"/tournaments/{tournament.pk}/join/")
    alice_client.post(f"/tournaments/{tournament.pk}/join/")
    assert b"Start now" not in bob_client.get(f"/tournaments/{tournament.pk}/").content
    bob_client.post(f"/tournaments/{tournament.pk}/start/")  # not the creator: refused, said on the page
    tournament.refresh_from_db()
    assert tournament.status == "open"
    alice_client.post(f"/tournaments/{tournament.pk}/start/")
    tournament.refresh_from_db()
    assert tournament.status == "running"
    page = bob_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    table = tournament.tables.get()
    assert "Round 1 of 3: 1 table in play." in page and f'href="/tables/{table.pk}/"' in page
    assert "Go to your table" in page and "Withdraw from the tournament" in page
    table_page = bob_client.get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/">Tournament #{tournament.pk}' in table_page


def test_the_buttons_follow_the_rounds_for_each_viewer(client, client_for, alice, bob, settings):
    """The page's buttons are fetched again by each viewer when the live part changes: once round 2 has
    begun, "Go to your table" leads there."""
    from tables import worker
    from tests.tables.test_tournaments import concede_everyone, play_out

    settings.BOT_DELAY = 0
    tournament = tournaments.create(alice, SWISS)
    tournaments.join(tournament.pk, alice)
    tournaments.join(tournament.pk, bob)
    url = f"/tournaments/{tournament.pk}/actions/"
    page = client_for(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'hx-get="{url}"' in page and 'hx-trigger="htmx:wsAfterMessage from:body"' in page
    assert "Leave" in client_for(bob).get(url).content.decode()
    tournaments.start(tournament.pk, alice)
    first = tournament.tables.get()
    buttons = client_for(bob).get(url).content.decode()
    assert f'href="/tables/{first.pk}/" data-next-table' in buttons and "Withdraw" in buttons
    assert "data-next-table" not in client.get(url).content.decode()
    for _ in range(20):
        concede_everyone()
        play_out()
        worker.tick()
        tournament.refresh_from_db()
        if tournament.round == 2:
            break
    assert tournament.round == 2
    second = tournament.tables.exclude(pk=first.pk).get()
    for person in (alice, bob):
        buttons = client_for(person).get(url).content.decode()
        assert f'href="/tables/{second.pk}/" data-next-table' in buttons
        assert f"/tables/{first.pk}/" not in buttons
    assert client_for(bob).post(url).status_code == 405
    assert client_for(bob).get("/tournaments/999999/actions/").status_code == 404


def test_the_list_shows_upcoming_running_and_finished_by_game(client, alice):
    swiss = tournaments.create(alice, SWISS)
    other = tournaments.create(alice, {**SWISS, "game": "five_crowns", "table_size": 3})
    Tournament.objects.filter(pk=other.pk).update(status=Tournament.FINISHED)
    page = client.get("/tournaments/").content.decode()
    assert f'data-tournament="{swiss.pk}"' in page and f'data-tournament="{other.pk}"' in page
    page = client.get("/tournaments/?game=cosmic_crowns").content.decode()
    assert f'data-tournament="{swiss.pk}"' in page and f'data-tournament="{other.pk}"' not in page
    assert client.get("/tournaments/?game=nope").status_code == 200
    assert client.get("/tournaments/99999/").status_code == 404


def test_the_live_part_is_one_out_of_band_swap_in_each_language(alice, bob):
    tournament = tournaments.create(alice, SWISS)
    tournaments.join(tournament.pk, bob)
    html = tournament_live.render_live(tournament, oob=True)
    assert f'id="tournament-{tournament.pk}-live"' in html and 'hx-swap-oob="true"' in html
    assert 'data-player="bob"' in html
    with translation.override("fr"):
        assert "En attente du début." in tournament_live.render_live(tournament)


def test_your_turn_player_pages_and_history_lead_to_the_tournament(client_for, alice, bob, settings):
    from tables.models import Table
    from tests.tables.test_tournaments import bots_play_everyone

    settings.BOT_DELAY = 0
    tournament = tournaments.create(alice, {**SWISS, "rounds": 1})
    tournaments.join(tournament.pk, alice)
    tournaments.join(tournament.pk, bob)
    tournaments.start(tournament.pk, alice)
    table = Table.objects.get(tournament=tournament)
    awaited = table.seats.get(awaited=True).user
    page = client_for(awaited).get("/your-turn/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in page and f"Tournament #{tournament.pk}" in page
    assert f'href="/tables/{table.pk}/">Go to your table' in page.replace('class="button small" ', "")
    bots_play_everyone()
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page = client_for(bob).get("/players/alice/").content.decode()
    assert f'data-tournament="{tournament.pk}"' in page and "place " in page
    history = client_for(alice).get(f"/history/?tournament={tournament.pk}").content.decode()
    assert f"#{table.pk}</a>" in history and "1 finished game" in history
    other = client_for(alice).get(f"/history/?tournament={tournament.pk + 1}").content.decode()
    assert f"#{table.pk}</a>" not in other
    assert b"tournament is a tournament" in client_for(alice).get("/history/?tournament=x").content


def test_a_private_tournament_page_is_reached_through_its_invite_link(client_for, alice, bob):
    tournament = tournaments.create(alice, {**SWISS, "private": True})
    alice_page = client_for(alice).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"?invite={tournament.invite_token}" in alice_page
    bob_client = client_for(bob)
    assert bob_client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert f'data-tournament="{tournament.pk}"' not in bob_client.get("/tournaments/").content.decode()
    page = bob_client.get(f"/tournaments/{tournament.pk}/?invite={tournament.invite_token}").content.decode()
    assert f'name="invite" value="{tournament.invite_token}"' in page
    bob_client.post(f"/tournaments/{tournament.pk}/join/", {"invite": tournament.invite_token})
    assert tournament.entrants.filter(user=bob).exists()
    assert bob_client.get(f"/tournaments/{tournament.pk}/").status_code == 200
