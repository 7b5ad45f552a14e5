"""Every change of whose turn it is refreshes the badge of each person whose waiting count changed, as a
move does: abandoning a table (API, page, Your turn), a bot taking a seat over (timeout, concession), a
seat reclaimed, a game aborted."""

from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import ApiToken
from tables import notifications, services
from tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def refreshed(monkeypatch, django_capture_on_commit_callbacks):
    """Run ``change`` and commit: the user ids whose badges were refreshed."""
    told = []
    monkeypatch.setattr(notifications, "refresh_badges", lambda table_id, ids: told.extend(ids))

    def run(change):
        told.clear()
        with django_capture_on_commit_callbacks(execute=True):
            change()
        return sorted(told)

    return run


def solo_at_my_turn(user) -> Table:
    from tests.tables.test_your_turn import solo

    return solo(user)


@pytest.mark.parametrize("way", ["api", "page", "your_turn"])
def test_abandoning_refreshes_the_badge_of_its_person(refreshed, alice, way):
    table = solo_at_my_turn(alice)
    client = Client()
    client.force_login(alice)
    if way == "api":
        raw = ApiToken.issue(alice)[1]
        act = lambda: client.post(  # noqa: E731
            f"/api/tables/{table.pk}/abandon", "{}", "application/json", HTTP_AUTHORIZATION=f"Bearer {raw}"
        )
    else:
        body = {"next": "dashboard"} if way == "your_turn" else {}
        act = lambda: client.post(f"/tables/{table.pk}/abandon/", body)  # noqa: E731
    assert refreshed(act) == [alice.pk]
    assert Table.objects.get(pk=table.pk).status == Table.ABORTED


def clocked(alice, bob) -> Table:
    table = services.create_table(alice, "cosmic_crowns", 2, move_time=3600)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice)


def test_a_bot_taking_over_and_a_seat_reclaimed_refresh_the_persons_badge(refreshed, alice, bob):
    table = clocked(alice, bob)
    late = [alice, bob][table.to_act[0]]
    assert refreshed(lambda: services.time_out(table.pk, now=table.deadline + timedelta(seconds=1))) == [
        late.pk
    ]
    assert refreshed(lambda: services.reclaim_seat(table.pk, late)) == [late.pk]
    assert refreshed(lambda: services.concede(table.pk, late)) == [late.pk]


def test_an_aborted_game_refreshes_the_badge_of_whoever_it_waited_for(refreshed, alice, bob):
    table = clocked(alice, bob)
    awaited = [alice, bob][table.to_act[0]]
    other = bob if awaited == alice else alice
    assert refreshed(lambda: services.vote_abort(table.pk, other)) == []
    assert refreshed(lambda: services.vote_abort(table.pk, awaited)) == [awaited.pk]
