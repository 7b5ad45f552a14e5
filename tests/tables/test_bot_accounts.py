"""Bot accounts (issue #32, point 3): made from an account with no rated game, flagged, rated against people
only when a person chose so, on a leaderboard of their own, answering challenges through the API."""

from __future__ import annotations

import pytest

from accounts.models import ApiToken
from accounts.preferences import is_bot_account
from tables import bot_accounts, challenges, services
from tables.errors import Conflict
from tables.models import Rating, Table

pytestmark = pytest.mark.django_db


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user, 'bot')[1]}"}


def started(creator, other, rated=True):
    table = services.create_table(creator, "cosmic_crowns", 2, rated=rated)
    services.join_table(table.pk, other)
    return services.start_table(table.pk, creator, seed=7)


def test_an_account_with_no_rated_game_becomes_a_bot_account_through_the_api(client, alice):
    answer = client.post("/api/account/bot", content_type="application/json", **bearer(alice))
    assert answer.status_code == 200
    assert answer.json() == {"username": "alice", "bot": True}
    alice.refresh_from_db()
    assert is_bot_account(type(alice).objects.get(pk=alice.pk))


def test_it_refuses_an_account_that_has_played_a_rated_game(client, alice):
    Rating.objects.create(user=alice, game="cosmic_crowns", mu=25, sigma=8, ordinal=1, games=1)
    answer = client.post("/api/account/bot", content_type="application/json", **bearer(alice))
    assert answer.status_code == 409
    assert "rated game" in answer.json()["error"]
    assert not is_bot_account(type(alice).objects.get(pk=alice.pk))
    with pytest.raises(Conflict):
        bot_accounts.become_bot(alice)


def test_it_refuses_an_account_playing_a_rated_game_now(alice, bob):
    started(alice, bob)
    with pytest.raises(Conflict):
        bot_accounts.become_bot(bob)
    assert not is_bot_account(type(bob).objects.get(pk=bob.pk))


def test_a_bot_accounts_rated_table_with_a_person_plays_unrated(alice, bob):
    bot_accounts.become_bot(alice)
    assert started(alice, bob).rated is False


def test_a_person_who_makes_a_rated_table_plays_a_bot_account_rated(alice, bob):
    bot_accounts.become_bot(bob)
    assert started(alice, bob).rated is True
    assert started(alice, bob, rated=False).rated is False


def test_bot_accounts_among_themselves_and_people_among_themselves_keep_the_choice(
    alice, bob, charlie, make_user
):
    bot_accounts.become_bot(alice)
    bot_accounts.become_bot(bob)
    assert started(alice, bob).rated is True
    assert started(charlie, make_user("dora")).rated is True


def test_a_person_accepting_a_bot_accounts_rated_challenge_plays_it_rated(client, alice, bob):
    bot_accounts.become_bot(alice)
    challenge = challenges.create(alice, "bob", "cosmic_crowns")
    assert challenges.accept(challenge.pk, bob).rated is True


def test_a_bot_account_accepts_and_declines_challenges_through_the_api(client, alice, bob):
    bot_accounts.become_bot(bob)
    first = challenges.create(alice, "bob", "cosmic_crowns")
    answer = client.post(f"/api/challenges/{first.pk}/accept", content_type="application/json", **bearer(bob))
    assert answer.status_code == 200 and answer.json()["status"] == "playing"
    assert Table.objects.get(pk=answer.json()["id"]).rated  # (alice, a person, asked for a rated game)
    second = challenges.create(alice, "bob", "cosmic_crowns")
    assert (
        client.post(
            f"/api/challenges/{second.pk}/decline", content_type="application/json", **bearer(bob)
        ).status_code
        == 204
    )


def test_the_profile_makes_a_bot_account_and_says_why_it_refuses(client, alice, bob):
    client.force_login(alice)
    page = client.get("/accounts/profile/")
    assert "Make this a bot account" in page.content.decode()
    answer = client.post("/account/bot/", follow=True)
    assert "This account is now a bot account." in answer.content.decode()
    assert is_bot_account(type(alice).objects.get(pk=alice.pk))
    Rating.objects.create(user=bob, game="cosmic_crowns", mu=25, sigma=8, ordinal=1, games=1)
    client.force_login(bob)
    answer = client.post("/account/bot/", follow=True)
    assert (
        "Only an account that has played no rated game can become a bot account." in answer.content.decode()
    )
    assert not is_bot_account(type(bob).objects.get(pk=bob.pk))


def test_a_bot_account_is_flagged_on_its_page_and_its_seat(client, alice, bob):
    bot_accounts.become_bot(bob)
    assert "bot-badge" in client.get("/players/bob/").content.decode()
    assert "bot-badge" not in client.get("/players/alice/").content.decode()
    table = started(alice, bob)
    client.force_login(alice)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    chips = html.split('class="seat-bar"')[1].split("</ol>")[0]
    assert chips.count("bot-badge") == 1 and chips.index("bob") < chips.index("bot-badge")


def test_bot_accounts_have_their_own_leaderboard(client, alice, bob):
    bot_accounts.become_bot(bob)
    for user in (alice, bob):
        Rating.objects.create(user=user, game="cosmic_crowns", mu=25, sigma=8, ordinal=1, games=1)
    people = client.get("/api/leaderboard/cosmic_crowns", **bearer(alice)).json()
    bots = client.get("/api/leaderboard/cosmic_crowns?bots=1", **bearer(alice)).json()
    assert [p["username"] for p in people["players"]] == ["alice"] and people["bots"] is False
    assert [p["username"] for p in bots["players"]] == ["bob"] and bots["bots"] is True
    assert client.get("/api/leaderboard/cosmic_crowns?bots=2", **bearer(alice)).status_code == 400
    page = client.get("/leaderboards/cosmic_crowns/?bots=1").content.decode()
    assert "/players/bob/" in page and "/players/alice/" not in page
    page = client.get("/leaderboards/cosmic_crowns/").content.decode()
    assert "/players/alice/" in page and "/players/bob/" not in page
