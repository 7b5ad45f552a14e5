"""The "Your turn" page and its API: most urgent first, with opponents, time waited, clock and last move; tables
against bots alone abandoned in one click or closed by the worker after a week; "Next game"."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken
from tables import services, worker
from tables.models import Seat, Table, TableEvent

pytestmark = pytest.mark.django_db


def waiting_for(user) -> list[Table]:
    """Tables of ``user``'s where it is their turn (a started 2-player table awaits one seat at a time)."""
    return list(Table.objects.filter(seats__user=user, seats__awaited=True, status=Table.PLAYING))


def two_player(started_table, alice, bob, game="cosmic_crowns", **fields):
    """A started table where it is alice's turn."""
    table = started_table(game, [alice, bob])
    if table.to_act != [0]:
        table = started_table(game, [bob, alice])
    if fields:
        Table.objects.filter(pk=table.pk).update(**fields)
        table.refresh_from_db()
    return table


def solo(user, game="cosmic_crowns") -> Table:
    """A "Play now" table against bots, brought to its person's turn (the bots play first where they lead)."""
    table = services.play_now(user, game)
    for _ in range(20):
        if Seat.objects.get(table=table, user=user).awaited:
            return Table.objects.get(pk=table.pk)
        worker.play_bot_move(table.pk)
    raise AssertionError("the bots never handed the turn over")


def auth(user):
    return {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user)[1]}"}


def test_the_api_lists_tables_waiting_for_me_most_urgent_first(client, alice, bob, started_table):
    now = timezone.now()
    calm = two_player(started_table, alice, bob)  # no clock, waiting the longest
    Seat.objects.filter(table=calm, user=alice).update(awaited_since=now - timedelta(days=2))
    recent = two_player(started_table, alice, bob)  # no clock, waiting less
    Seat.objects.filter(table=recent, user=alice).update(awaited_since=now - timedelta(hours=1))
    soon = two_player(started_table, alice, bob, deadline=now + timedelta(minutes=5), move_time=600)
    later = two_player(started_table, alice, bob, deadline=now + timedelta(hours=5), move_time=86400)
    alone = solo(alice, "five_crowns")
    body = client.get("/api/your-turn", **auth(alice)).json()
    assert [row["table"] for row in body][:4] == [soon.pk, later.pk, calm.pk, recent.pk]
    assert alone.pk in [row["table"] for row in body]
    first = body[0]
    assert set(first) >= {"table", "game", "waiting_since", "deadline", "opponents"}
    assert first["game"] == "cosmic_crowns" and first["opponents"] == ["bob"]
    assert first["deadline"] == soon.deadline.isoformat()
    assert body[2]["deadline"] is None and body[2]["waiting_since"] == (now - timedelta(days=2)).isoformat()
    assert next(row for row in body if row["table"] == alone.pk)["opponents"] == [None]
    assert client.get("/api/your-turn", **auth(bob)).json() == []
    assert client.get("/api/your-turn").status_code == 401


def test_a_turn_records_when_it_began_and_keeps_it_while_it_lasts(alice, bob, started_table):
    table = two_player(started_table, alice, bob)
    mine = Seat.objects.get(table=table, user=alice)
    assert mine.awaited and mine.awaited_since is not None
    state = table.engine.load(table.state)
    move = table.engine.legal_moves(state, 0)[0]
    services.play_move(table.pk, alice, move, table.seq)
    mine.refresh_from_db()
    theirs = Seat.objects.get(table=table, user=bob)
    assert mine.awaited_since is None and theirs.awaited and theirs.awaited_since >= table.last_move_at


def test_the_page_shows_opponents_time_waited_clock_and_the_last_move_in_words(
    client_for, alice, bob, started_table
):
    table = two_player(started_table, alice, bob, "five_crowns")
    engine = table.engine
    for _ in range(2):  # alice draws from the stock and discards; bob does the same: alice's turn again
        seat = table.to_act[0]
        user = [alice, bob][[s.index for s in table.seats.filter(user=alice)][0] != seat]
        state = engine.load(table.state)
        draw = next(m for m in engine.legal_moves(state, seat) if m["type"] == "draw")
        table = services.play_move(table.pk, user, draw, table.seq).table
        state = engine.load(table.state)
        discard = engine.legal_moves(state, seat)[0]
        table = services.play_move(table.pk, user, discard, table.seq).table
    assert Seat.objects.get(table=table, user=alice).awaited
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() + timedelta(hours=3), move_time=86400)
    fresh = client_for(alice).get("/your-turn/").content.decode()
    assert (
        "waiting for you since a moment ago" in fresh.split(f'data-table="{table.pk}"')[1].split("</li>")[0]
    )
    Seat.objects.filter(table=table, user=alice).update(awaited_since=timezone.now() - timedelta(hours=3))
    page = client_for(alice).get("/your-turn/").content.decode()
    row = page.split(f'data-table="{table.pk}"')[1].split("</li>")[0]
    assert "Five Crowns" in row and "bob" in row and "waiting for you for 3\xa0hours" in row
    assert "data-deadline" in row and "left" in row
    assert "Last move:" in row and "bob" in row.split("Last move:")[1]
    # put into words as alice's seat reads it (rules.core.narrate: what that seat may know, nothing else)
    from rules.core import narrate

    last = table.moves.order_by("-seq").first()
    mine = next(s.index for s in table.seats.filter(user=alice))
    names = [s.display_name for s in table.seats.order_by("index")]
    for line in narrate(engine, last.events, names, mine, "en"):
        assert line in row.replace("&#x27;", "'")
    french = client_for(alice).get("/your-turn/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Dernier coup" in french


def test_the_page_names_bots_as_bots_and_offers_to_abandon_only_their_tables(
    client_for, alice, bob, started_table
):
    alone = solo(alice)
    people = two_player(started_table, alice, bob)
    page = client_for(alice).get("/your-turn/").content.decode()
    solo_row = page.split(f'data-table="{alone.pk}"')[1].split("</li>")[0]
    people_row = page.split(f'data-table="{people.pk}"')[1].split("</li>")[0]
    assert "casual bot" in solo_row and f"/tables/{alone.pk}/abandon/" in solo_row
    assert "data-confirm" in solo_row
    assert "abandon" not in people_row


def test_a_player_abandons_a_table_against_bots_in_one_click(client_for, alice):
    table = services.play_now(alice, "five_crowns")
    client = client_for(alice)
    r = client.post(f"/tables/{table.pk}/abandon/", {"next": "dashboard"})
    assert r.status_code == 302 and r["Location"] == "/your-turn/"
    table.refresh_from_db()
    assert table.status == Table.ABORTED and not table.rated and table.to_act == []
    assert not Seat.objects.filter(table=table, awaited=True).exists()
    event = TableEvent.objects.get(table=table, kind="abandon")
    assert event.actor == alice
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "abandoned the game against the bots" in page
    assert f'data-table="{table.pk}"' not in client.get("/your-turn/").content.decode()
    # once aborted, it cannot be abandoned again
    assert client.post(f"/tables/{table.pk}/abandon/").status_code == 302
    assert TableEvent.objects.filter(table=table, kind="abandon").count() == 1


def test_it_refuses_to_abandon_a_table_with_another_person(client, alice, bob, started_table):
    table = two_player(started_table, alice, bob)
    r = client.post(f"/api/tables/{table.pk}/abandon", **auth(alice), content_type="application/json")
    assert r.status_code == 409 and "abort" in r.json()["error"]
    table.refresh_from_db()
    assert table.status == Table.PLAYING
    solo = services.play_now(bob, "cosmic_crowns")
    assert (
        client.post(
            f"/api/tables/{solo.pk}/abandon", **auth(alice), content_type="application/json"
        ).status_code
        == 404
    )  # private, not hers
    r = client.post(f"/api/tables/{solo.pk}/abandon", **auth(bob), content_type="application/json")
    assert r.status_code == 200 and r.json()["status"] == "aborted"


def test_the_abandon_button_is_on_the_table_page_of_a_game_against_bots_only(
    client_for, alice, bob, started_table
):
    solo = services.play_now(alice, "cosmic_crowns")
    page = client_for(alice).get(f"/tables/{solo.pk}/").content.decode()
    assert (
        f"/tables/{solo.pk}/abandon/" in page
        and "hx-confirm" in page.split(f"/tables/{solo.pk}/abandon/")[1][:300]
    )
    people = two_player(started_table, alice, bob)
    assert "/abandon/" not in client_for(alice).get(f"/tables/{people.pk}/").content.decode()


def test_the_worker_closes_tables_against_bots_untouched_for_a_week(alice, bob, started_table):
    old = timezone.now() - timedelta(days=8)
    idle = services.play_now(alice, "five_crowns")
    fresh = services.play_now(alice, "cosmic_crowns")
    people = two_player(started_table, alice, bob)
    Table.objects.filter(pk__in=[idle.pk, people.pk]).update(last_move_at=old)
    assert services.close_idle_bot_tables() == 1
    idle.refresh_from_db()
    assert idle.status == Table.ABORTED and not idle.rated
    event = TableEvent.objects.get(table=idle, kind="idle_closed")
    assert event.data == {"days": 7}
    assert Table.objects.get(pk=fresh.pk).status == Table.PLAYING
    assert Table.objects.get(pk=people.pk).status == Table.PLAYING  # a person waits there: not for the worker
    assert services.close_idle_bot_tables() == 0  # once


def test_the_worker_tick_runs_the_idle_sweep_and_the_log_says_so(client_for, alice):
    idle = services.play_now(alice, "cosmic_crowns")
    Table.objects.filter(pk=idle.pk).update(last_move_at=timezone.now() - timedelta(days=7, minutes=1))
    worker._last_idle_sweep = None
    assert worker.tick()["closed"] == 1
    page = client_for(alice).get(f"/tables/{idle.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "for 7 days: it is closed, unrated" in page


def test_next_game_goes_to_the_most_urgent_other_table_or_says_none_waits(
    client_for, alice, bob, started_table
):
    now = timezone.now()
    here = two_player(started_table, alice, bob, deadline=now + timedelta(minutes=2), move_time=600)
    other = two_player(started_table, alice, bob, deadline=now + timedelta(hours=2), move_time=86400)
    client = client_for(alice)
    assert client.get("/your-turn/next/")["Location"] == f"/tables/{here.pk}/"
    assert client.get(f"/your-turn/next/?from={here.pk}")["Location"] == f"/tables/{other.pk}/"
    r = client.get(f"/your-turn/next/?from={here.pk}", follow=True)
    assert r.redirect_chain[-1][0] == f"/tables/{other.pk}/"
    for table in (here, other):
        services.play_move(
            table.pk, alice, table.engine.legal_moves(table.engine.load(table.state), 0)[0], table.seq
        )
    r = client.get(f"/your-turn/next/?from={here.pk}", follow=True)
    assert r.redirect_chain[-1][0] == f"/tables/{here.pk}/"
    assert "No game is waiting for you." in r.content.decode()
    assert client.get("/your-turn/next/?from=abc")["Location"] == "/your-turn/"


def test_the_badge_names_the_waiting_tables_most_urgent_first(client_for, alice, bob, started_table):
    now = timezone.now()
    late = two_player(started_table, alice, bob)
    soon = two_player(started_table, alice, bob, deadline=now + timedelta(minutes=2), move_time=600)
    page = client_for(alice).get("/").content.decode()
    badge = page.split('id="your-turn-badge"')[1].split(">")[0]
    assert f'data-waiting="/tables/{soon.pk}/ /tables/{late.pk}/"' in badge and 'data-count="2"' in badge


def test_the_badges_of_several_people_read_together_are_each_persons_own(
    alice, bob, charlie, started_table, django_assert_num_queries
):
    """A move's badges are read for all its people at once (tables.notifications.refresh_badges): in three
    queries however many they are, each person's turns, open invitations and challenges exactly as read
    for them alone (the page's badge)."""
    from tables import social
    from tables.context_processors import waiting_for, waiting_for_people
    from tables.models import Challenge, Invitation
    from tables.selectors import challenges_received
    from tables.your_turn import waiting_ids

    two_player(started_table, alice, bob)
    two_player(started_table, bob, charlie)  # (bob's turn there: he leads it)
    invited_to = services.create_table(charlie, "cosmic_crowns", 3)
    Invitation.objects.create(table=invited_to, user=alice, invited_by=charlie)
    Invitation.objects.create(table=invited_to, user=bob, invited_by=charlie)
    services.join_table(invited_to.pk, bob)  # (seated there: no longer an open invitation of his)
    later = timezone.now() + timedelta(days=1)
    Challenge.objects.create(challenger=bob, challenged=alice, game="cosmic_crowns", expires_at=later)
    Challenge.objects.create(challenger=charlie, challenged=alice, game="cosmic_crowns", expires_at=later)
    Challenge.objects.create(
        challenger=alice, challenged=bob, game="cosmic_crowns", expires_at=timezone.now() - timedelta(hours=1)
    )
    people = [alice, bob, charlie]
    with django_assert_num_queries(3):
        together = waiting_for_people([p.pk for p in people])
    for person in people:
        alone = waiting_for(person)
        assert together[person.pk] == alone
        assert alone.tables == tuple(waiting_ids(person, limit=None))
        assert alone.invitations == social.open_invitations(person).count()
        assert alone.challenges == challenges_received(person).count()
    assert (together[alice.pk].invitations, together[alice.pk].challenges) == (1, 2)
    assert (together[bob.pk].invitations, together[bob.pk].challenges) == (0, 0)
    assert [together[p.pk].turns for p in people] == [1, 1, 0]
