"""Ratings (openskill Plackett–Luce), leaderboards and player pages."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from accounts.models import ApiToken
from tables import ratings, services
from tables.models import Rating, RatingChange, Table
from tests.tables.history_games import finished, finished_game

pytestmark = pytest.mark.django_db


def places(result, lowest_wins=False):
    """Each seat's place from a result, worked out here apart from the code under test."""
    keys = [
        (s not in result["winners"], result["scores"][s] if lowest_wins else -result["scores"][s])
        for s in range(len(result["scores"]))
    ]
    return [sum(1 for other in set(keys) if other < key) for key in keys]


def test_rated_games_between_personas_match_openskill(alice, bob, charlie):
    model = PlackettLuce()
    users = [alice, bob, charlie]
    expected = {u.pk: model.rating() for u in users}
    for seed in (3, 4):
        table = finished_game("cosmic_crowns", users, seed=seed)
        assert table.rated and table.status == Table.FINISHED
        rank = places(table.result)
        new = model.rate([[expected[u.pk]] for u in users], ranks=rank)
        for user, (r,) in zip(users, new, strict=True):
            expected[user.pk] = r
        for user in users:
            got = Rating.objects.get(user=user, game="cosmic_crowns")
            assert got.mu == pytest.approx(expected[user.pk].mu)
            assert got.sigma == pytest.approx(expected[user.pk].sigma)
            assert got.ordinal == pytest.approx(expected[user.pk].ordinal())
    assert got.games == 2 and ratings.provisional(got)
    assert RatingChange.objects.filter(user=alice, game="cosmic_crowns").count() == 2


def test_low_score_games_rank_the_lowest_first(alice, bob):
    finished("five_crowns", [alice, bob], [1], [80, 20])
    assert Rating.objects.get(user=bob).mu > Rating.objects.get(user=alice).mu


def test_a_rating_is_provisional_until_ten_games(alice, bob):
    for n in range(1, 11):
        finished("chronica", [alice, bob], [0], [5, 2])
        rating = Rating.objects.get(user=alice, game="chronica")
        assert rating.games == n and ratings.provisional(rating) == (n < 10)


def test_bots_and_replaced_seats_do_not_count(alice, bob, charlie):
    with_bot = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}], rated=True)
    assert not with_bot.rated
    assert services.create_table(alice, "cosmic_crowns", 2, rated=False).rated is False
    assert services.create_table(alice, "cosmic_crowns", 2).rated is True
    finished("cosmic_crowns", [alice, bob, charlie], [1], [1, 9, 3], replaced=[1])
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"alice", "charlie"}
    finished("cosmic_crowns", [alice, None], [0], [5, 1], rated=False)
    finished("cosmic_crowns", [alice, bob], [0], [5, 1], replaced=[1])  # one person left: nothing to rate
    assert Rating.objects.get(user=alice).games == 1 and not Rating.objects.filter(user=bob).exists()


def test_a_conceded_game_rates_nobody(alice, bob, settings):
    settings.BOT_DELAY = 0
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    services.start_table(table.pk, alice, seed=5)
    services.concede(table.pk, alice)
    services.concede(table.pk, bob)
    from tests.tables.test_bots_and_clocks import run_bots

    run_bots(limit=20000)
    assert Table.objects.get(pk=table.pk).status == Table.FINISHED
    assert not Rating.objects.exists()


def test_the_new_table_form_offers_rated(client, alice):
    client.force_login(alice)
    client.post("/games/cosmic_crowns/new/", {"players": "2", "rated": "on"})
    client.post("/games/cosmic_crowns/new/", {"players": "2"})
    client.post("/games/cosmic_crowns/new/", {"players": "2", "rated": "on", "bots": "1"})
    assert list(Table.objects.order_by("pk").values_list("rated", flat=True)) == [True, False, False]
    assert b'name="rated" checked' in client.get("/games/cosmic_crowns/new/").content


def many_ratings(n, game="cosmic_crowns", start=0):
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"p{start + i:05d}") for i in range(n)]
    )
    Rating.objects.bulk_create(
        [
            Rating(user=u, game=game, mu=30 - i * 0.01, sigma=2, ordinal=24 - i * 0.01, games=12)
            for i, u in enumerate(users)
        ]
    )
    return users


def test_leaderboard_best_first_with_my_rank_off_the_first_page(client, alice):
    many_ratings(60)
    Rating.objects.create(user=alice, game="cosmic_crowns", mu=25, sigma=8, ordinal=23.445, games=3)
    token = ApiToken.issue(alice)[1]
    body = client.get("/api/leaderboard/cosmic_crowns", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert body["game"] == "cosmic_crowns" and len(body["players"]) == ratings.LEADERBOARD_PAGE
    assert body["players"][0] == {
        "rank": 1,
        "username": "p00000",
        "rating": 24.0,
        "display_rating": 2652,  # 1500 + 48 × 24
        "provisional": False,
        "games": 12,
    }
    assert [p["rank"] for p in body["players"]] == list(range(1, 51))
    second = client.get("/api/leaderboard/cosmic_crowns?page=2", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [p["username"] for p in second["players"]][5:8] == ["p00055", "alice", "p00056"]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert client.get("/api/leaderboard/chess", **auth).status_code == 404
    assert client.get("/api/leaderboard/cosmic_crowns?page=zero", **auth).status_code == 400
    client.force_login(alice)
    page = client.get("/leaderboards/cosmic_crowns/").content.decode()
    assert (
        "Your rank: <strong>#57</strong>" in page
        and "provisional" in page
        and "alice" not in page.split("Your rank")[1].split("</table>")[0].split("<tbody>")[1]
    )
    assert client.get("/leaderboards/chess/").status_code == 404
    assert "Leaderboards" in client.get("/leaderboards/").content.decode()


def test_player_page_and_api(client, alice, bob):
    for winners in ([0], [1], [0], [0, 1]):
        finished("cosmic_crowns", [alice, bob], winners, [3, 3])
    token = ApiToken.issue(bob)[1]
    body = client.get("/api/players/alice", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    rating = Rating.objects.get(user=alice, game="cosmic_crowns")
    assert body["username"] == "alice"
    assert body["games"]["cosmic_crowns"] == {
        "played": 4,
        "won": 3,
        "rating": round(rating.ordinal, 1),
        "display_rating": round(1500 + 48 * rating.ordinal),
        "provisional": True,
    }
    assert body["games"]["five_crowns"] == {
        "played": 0,
        "won": 0,
        "rating": None,
        "display_rating": None,
        "provisional": True,
    }
    assert client.get("/api/players/nobody", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 404
    client.force_login(bob)
    page = client.get("/players/alice/").content.decode()
    assert "<polyline" in page and "4 played · 3 won" in page
    assert (
        "Your record against alice: <strong>1</strong> won, <strong>1</strong> shared, <strong>2</strong> lost"
        in page
    )
    assert page.count("/replay/") == 4
    assert client.get("/players/nobody/").status_code == 404


def count_queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


def test_leaderboard_and_player_pages_cost_the_same_queries_at_any_size(client, alice, bob):
    client.force_login(bob)
    finished("cosmic_crowns", [alice, bob], [0], [1, 0])
    many_ratings(5)
    board, page = (
        count_queries(client, "/leaderboards/cosmic_crowns/"),
        count_queries(client, "/players/alice/"),
    )
    for _ in range(12):
        finished("cosmic_crowns", [alice, bob], [1], [1, 0])
        finished("five_crowns", [alice, bob, None], [0], [1, 0, 3], rated=False)
    many_ratings(120, start=100)
    assert count_queries(client, "/leaderboards/cosmic_crowns/") == board
    assert count_queries(client, "/players/alice/") == page


def test_the_leaderboards_page_shows_each_games_best_players_and_ones_own_rank(client, alice, bob):
    """Each game's top five, best first, linked to their pages; the visitor's own rank where they have one; a
    game nobody is rated at says so; and the page's queries do not grow with the players."""
    many_ratings(7)
    finished("five_crowns", [alice, bob], [0], [1, 5])
    client.force_login(alice)
    before = count_queries(client, "/leaderboards/")
    page = client.get("/leaderboards/").content.decode()
    boards = dict(
        re.findall(
            r'<section class="panel player-game leaders" aria-labelledby="board-(\w+)">(.*?)</section>',
            page,
            re.S,
        )
    )
    assert set(boards) == {"chronica", "cosmic_crowns", "cosplay", "five_crowns"}
    names = re.findall(r'href="/players/(\w+)/">', boards["cosmic_crowns"])
    assert names == [f"p{i:05d}" for i in range(5)]
    assert '<span class="rank">1</span>' in boards["cosmic_crowns"] and "2652" in boards["cosmic_crowns"]
    assert re.findall(r'href="/players/(\w+)/">', boards["five_crowns"]) == ["alice", "bob"]
    assert (
        '<li class="me">' in boards["five_crowns"]
        and "Your rank: <strong>#1</strong>" in boards["five_crowns"]
    )
    assert "Your rank" not in boards["cosmic_crowns"]
    assert "No rated game of Chronica Universalis yet." in boards["chronica"]
    assert 'href="/leaderboards/cosmic_crowns/"' in boards["cosmic_crowns"]
    many_ratings(30, game="chronica", start=100)
    assert count_queries(client, "/leaderboards/") == before


@pytest.mark.django_db
def test_a_leaderboard_page_that_int_would_refuse_is_a_400_not_a_500(client, alice):
    from accounts.models import ApiToken

    headers = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(alice)[1]}"}
    for page in ("²", "0", "-1", "x"):
        answer = client.get("/api/leaderboard/cosmic_crowns", {"page": page}, **headers)
        assert answer.status_code == 400 and "page" in answer.json()["error"]


def test_a_new_player_reads_1500_and_a_class_is_200_points():
    """The familiar scale: openskill's first rating (ordinal 0) is 1500; one class of strength (openskill's
    beta, 25/6 of ordinal) is 200 points; a provisional rating carries a "?"."""
    assert ratings.display(PlackettLuce().rating().ordinal()) == 1500
    assert ratings.display(25 / 6) == 1700 and ratings.display(-25 / 6) == 1300
    assert ratings.display_text(1500, True) == "1500?" and ratings.display_text(1623, False) == "1623"
    assert ratings.signed(12) == "+12" and ratings.signed(-8) == "\u22128" and ratings.signed(0) == "±0"
    assert ratings.display(None) is None and ratings.display_text(None, True) == ""


def test_each_rated_game_shows_its_change_on_the_history_and_the_player_page(client, alice, bob):
    first = finished("cosmic_crowns", [alice, bob], [0], [3, 1])
    second = finished("cosmic_crowns", [alice, bob], [1], [1, 3])
    changes = ratings.changes_by_table(alice)
    model = PlackettLuce()
    [[a1], [b1]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    [[a2], [_b2]] = model.rate([[a1], [b1]], ranks=[1, 0])
    assert changes[first.pk]["display_before"] == 1500
    assert changes[first.pk]["display_after"] == ratings.display(a1.ordinal())
    assert changes[second.pk]["display_before"] == ratings.display(a1.ordinal())
    assert changes[second.pk]["display_after"] == ratings.display(a2.ordinal())
    win, loss = changes[first.pk]["display_change"], changes[second.pk]["display_change"]
    assert win > 0 > loss
    assert ratings.table_changes(second)[alice.pk] == changes[second.pk]
    client.force_login(alice)
    history = client.get("/history/").content.decode()
    assert f"+{win}" in history and f"\u2212{-loss}" in history
    page = client.get("/players/alice/").content.decode()
    shown = ratings.display(a2.ordinal())
    assert f"{shown}?" in page and f"\u2212{-loss}" in page
    unrated = finished("five_crowns", [alice, bob], [0], [1, 9], rated=False)
    assert unrated.pk not in ratings.changes_by_table(alice) and ratings.table_changes(unrated) == {}


def test_the_pages_write_a_rating_with_the_one_display_text():
    from django.template import Context, Template

    page = Template(
        "{% load table_tags %}{{ a|rating_text:True }} {{ b|rating_text:False }} [{{ c|rating_text:True }}]"
    )
    assert page.render(Context({"a": 1500, "b": 1623, "c": None})) == "1500? 1623 []"


def test_the_final_standings_and_the_places_rank_the_seats_alike(alice, bob, charlie):
    """The result panel's places (``ratings.ranks``) and the final standings (``selectors.ranking``) come from
    one rule: winners first, then by score (lowest first where penalties count), a tie sharing its place and
    listed in seat order."""
    from tables import selectors

    names = ["alice", "bob", "charlie", "dave"]
    cosmic = finished("cosmic_crowns", [alice, bob, charlie, None], [2], [5, 8, 12, 8])
    assert ratings.ranks(cosmic) == [2, 1, 0, 1]
    assert [r["seat"] for r in selectors.ranking(cosmic, names)] == [2, 1, 3, 0]
    five = finished("five_crowns", [alice, bob, charlie], [1], [40, 12, 25])
    assert ratings.ranks(five) == [2, 0, 1]
    assert [(r["name"], r["score"], r["winner"]) for r in selectors.ranking(five, names)] == [
        ("bob", 12, True),
        ("charlie", 25, False),
        ("alice", 40, False),
    ]
