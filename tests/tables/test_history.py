"""The match history: who sees which finished game, the filters (page and API), counts and query cost."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import ApiToken
from tables import history
from tables.models import Table
from tests.tables.history_games import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(alice, bob, charlie):
    return {
        "won": finished("cosmic_crowns", [alice, bob], [0], [10, 3], day=1),
        "lost": finished("five_crowns", [bob, alice], [0], [5, 40], day=2),
        "shared": finished("cosmic_crowns", [charlie, alice, bob], [1, 0], [7, 7, 1], day=3),
        "bot": finished("chronica", [None, alice], [1], day=4, rated=False),
        "won_late_seat": finished("cosplay", [bob, charlie, None, alice], [3], day=5),
        "theirs_private": finished("cosmic_crowns", [bob, charlie], [0], private=True, day=6),
        "mine_private": finished("cosmic_crowns", [alice, charlie], [1], private=True, day=7),
    }


def pks(tables):
    return {t.pk for t in tables}


def test_visible_tables_hide_other_peoples_private_games(games, alice, bob):
    mine = pks(history.visible_tables(alice))
    assert games["mine_private"].pk in mine and games["theirs_private"].pk not in mine
    assert games["theirs_private"].pk in pks(history.visible_tables(bob))
    from django.contrib.auth.models import AnonymousUser

    anonymous = pks(history.visible_tables(AnonymousUser()))
    assert (
        games["won"].pk in anonymous
        and not {games["mine_private"].pk, games["theirs_private"].pk} & anonymous
    )
    playing = Table.objects.create(game="cosmic_crowns", players=2, status=Table.PLAYING)
    assert playing.pk not in pks(history.visible_tables(alice))


@pytest.mark.parametrize(
    "query, expected",
    [
        ({}, {"won", "lost", "shared", "bot", "won_late_seat", "mine_private"}),
        ({"game": "cosmic_crowns"}, {"won", "shared", "mine_private"}),
        ({"result": "won"}, {"won", "bot", "won_late_seat"}),
        ({"result": "lost"}, {"lost", "mine_private"}),
        ({"result": "shared"}, {"shared"}),
        ({"opponent": "charlie"}, {"shared", "won_late_seat", "mine_private"}),
        ({"opponent": "CHARLIE", "result": "won"}, {"won_late_seat"}),
        ({"from": "2026-03-02", "to": "2026-03-04"}, {"lost", "shared", "bot"}),
        ({"game": "cosmic_crowns", "result": "won", "opponent": "bob"}, {"won"}),
        ({"rated": "no"}, {"bot"}),
        ({"rated": "yes", "result": "won"}, {"won", "won_late_seat"}),
    ],
)
def test_filters_combine(games, alice, query, expected):
    filters = history.HistoryFilters.from_query(query)
    assert pks(history.player_history(alice, alice, filters)) == {games[k].pk for k in expected}


@pytest.mark.parametrize(
    "query, message",
    [
        ({"game": "chess"}, "No game"),
        ({"result": "draw"}, "won, lost, shared"),
        ({"from": "yesterday"}, "YYYY"),
    ],
)
def test_bad_filters_are_refused_clearly(alice, query, message):
    with pytest.raises(history.FilterError, match=message):
        history.HistoryFilters.from_query(query)


def test_history_page_counts_filters_and_links(client, games, alice):
    client.force_login(alice)
    page = client.get("/history/").content.decode()
    assert "6 finished games" in page
    assert f'href="/tables/{games["won"].pk}/replay/"' in page and 'href="/players/bob/"' in page
    filtered = client.get("/history/?game=cosmic_crowns&result=won&rated=yes").content.decode()
    assert "1 finished game<" in filtered and 'name="result"' in filtered
    assert (
        "No finished game matches these filters." in client.get("/history/?opponent=nobody").content.decode()
    )
    bad = client.get("/history/?from=soon")
    assert bad.status_code == 200 and "YYYY-MM-DD" in bad.content.decode()


def test_an_empty_history_says_so(client, alice):
    client.force_login(alice)
    assert "No finished game yet." in client.get("/history/").content.decode()
    assert "No finished game yet." in client.get("/history/?game=cosplay").content.decode()


def test_history_page_keeps_the_filters_across_pages(client, alice, bob):
    for day in range(1, 28):
        finished("cosmic_crowns", [alice, bob], [0], day=day)
    client.force_login(alice)
    page = client.get("/history/?game=cosmic_crowns&result=won").content.decode()
    assert "27 finished games" in page and "Page 1 of 2" in page
    assert 'href="?game=cosmic_crowns&amp;result=won&amp;page=2"' in page


def test_api_history_keeps_its_contract_and_gains_the_filters(client, games, alice, bob):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(bob)[1]}"}
    rows = client.get("/api/history?user=alice", **auth).json()
    # bob does not see alice's private game with charlie.
    assert [r["id"] for r in rows] == [games[k].pk for k in ("won_late_seat", "bot", "shared", "lost", "won")]
    assert rows[0] == {
        "id": games["won_late_seat"].pk,
        "game": "cosplay",
        "players": ["bob", "charlie", None, "alice"],
        "scores": [0, 0, 0, 0],
        "winners": [3],
        "finished_at": "2026-03-05T12:00:00+00:00",
    }
    lost = client.get("/api/history?user=alice&result=lost&game=five_crowns", **auth).json()
    assert [r["id"] for r in lost] == [games["lost"].pk]
    own = client.get("/api/history", **auth).json()
    assert games["theirs_private"].pk in [r["id"] for r in own]
    bad = client.get("/api/history?result=maybe", **auth)
    assert bad.status_code == 400 and "won, lost, shared" in bad.json()["error"]
    assert client.get("/api/history?user=nobody", **auth).json() == []


def test_history_page_queries_do_not_grow_with_games(client, alice, bob, charlie):
    client.force_login(alice)

    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/history/?result=won").status_code == 200
        return len(ctx)

    for day in range(1, 4):
        finished("cosmic_crowns", [alice, bob, charlie], [0], day=day)
    small = count()
    for day in range(1, 28):
        finished("five_crowns", [alice, bob, charlie, None], [0], day=day)
    assert count() == small


def test_the_migration_fills_the_standings_of_games_finished_before_it(games, alice, bob):
    import importlib

    from django.apps import apps

    from tables.models import Standing

    Standing.objects.all().delete()
    importlib.import_module("tables.migrations.0005_ratings").standings_of_finished_games(apps, None)
    mine = dict(Standing.objects.filter(user=alice).values_list("table_id", "outcome"))
    assert mine[games["won"].pk] == "won" and mine[games["shared"].pk] == "shared"
    assert mine[games["lost"].pk] == "lost" and len(mine) == 6
    assert Standing.objects.filter(table=games["bot"]).count() == 1  # the bot's seat has none


def test_a_game_of_more_than_two_that_was_not_won_says_the_place_it_ended_in(client, alice, bob, charlie):
    """A loss at a table of three or more is a place among the players (ties sharing one), on the history page
    and the player's page, in both languages; at two it is a loss."""
    second = finished("cosmic_crowns", [charlie, alice, bob], [0], [9, 5, 2], day=1)
    tied = finished("cosmic_crowns", [charlie, bob, alice], [0], [9, 4, 4], day=2)
    last = finished("five_crowns", [alice, bob, charlie], [1], [60, 10, 30], day=3)
    finished("cosmic_crowns", [alice, bob], [1], [2, 8], day=4)
    rows = {r["table"].pk: r for r in history.history_rows(Table.objects.filter(seats__user=alice), alice)}
    assert [(rows[t.pk]["place"], rows[t.pk]["players"]) for t in (second, tied, last)] == [
        (2, 3),
        (2, 3),
        (3, 3),
    ]
    client.force_login(alice)
    for url in ("/history/", "/players/alice/"):
        page = client.get(url).content.decode()
        assert page.count("Place 2 of 3") == 2 and page.count("Place 3 of 3") == 1, url
        assert page.count(">Lost</td>") == 1, url  # (the game of two)
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        assert french.count("2e place sur 3") == 2 and "3e place sur 3" in french, url
