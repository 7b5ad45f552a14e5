"""Deleting an account: one transaction that removes the person and leaves the others' games whole."""

import json
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import DatabaseError
from django.utils import timezone

from accounts.forms import SignupForm
from accounts.models import ApiToken, Block, Deck, DeletedName, Follow, PushSubscription
from tables import history, leaving, services
from tables.models import Challenge, ChatMessage, Rating, RatingChange, Seat, Standing, Table
from tests.conftest import PASSWORD
from tests.tables.history_games import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(alice, bob, charlie):
    """A rated game of the three, finished; alice's token, deck, device, follows, block, chat, challenge."""
    table = finished_game("cosmic_crowns", [alice, bob, charlie], seed=11)
    assert table.rated
    ChatMessage.objects.create(table=table, user=alice, text="gg all", position=table.seq)
    ChatMessage.objects.create(table=table, user=bob, text="thanks", position=table.seq)
    ApiToken.issue(alice)
    Deck.objects.create(owner=alice, name="mine", cards=[])
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/1", p256dh="k", auth="a")
    Follow.objects.create(follower=alice, followed=bob)
    Follow.objects.create(follower=charlie, followed=alice)
    Block.objects.create(blocker=alice, blocked=charlie)
    Challenge.objects.create(
        challenger=bob, challenged=alice, game="cosmic_crowns", expires_at=timezone.now() + timedelta(days=1)
    )
    return table


def snapshot(table, user):
    return {
        "ratings": sorted(Rating.objects.filter(user=user).values_list("game", "mu", "sigma", "games")),
        "changes": sorted(RatingChange.objects.filter(user=user).values_list("table_id", "ordinal")),
        "standings": sorted(Standing.objects.filter(user=user).values_list("table_id", "outcome")),
    }


def test_deleting_an_account_keeps_the_others_games_replays_exports_and_ratings(
    world, alice, bob, charlie, client_for
):
    table = world
    before = history.export(Table.objects.get(pk=table.pk))
    bob_before, charlie_before = snapshot(table, bob), snapshot(table, charlie)
    client_for(alice)  # a session of hers
    assert Session.objects.count() == 1

    leaving.delete_account(alice, PASSWORD)

    assert not type(alice).objects.filter(username="alice").exists()
    for model, field in [
        (ApiToken, "user"),
        (Deck, "owner"),
        (PushSubscription, "user"),
        (Rating, "user"),
        (Standing, "user"),
    ]:
        assert not model.objects.filter(**{f"{field}_id": alice.pk}).exists(), model
    assert not Follow.objects.exists() and not Block.objects.exists() and not Challenge.objects.exists()
    assert Session.objects.count() == 0
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["thanks"]
    # The game stays whole for the others.
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id is None and seat.departed and seat.taken
    assert seat.display_name == "deleted player"
    after = history.export(Table.objects.prefetch_related("seats__user").get(pk=table.pk))
    assert after["players"] == [None, "bob", "charlie"]
    assert {k: v for k, v in after.items() if k != "players"} == {
        k: v for k, v in before.items() if k != "players"
    }
    assert history.check_export(after).reproduces
    replay = history.Replay.of(Table.objects.get(pk=table.pk))
    assert replay.state_at(replay.last) is not None
    assert snapshot(table, bob) == bob_before and snapshot(table, charlie) == charlie_before
    # Pages and the API of the others' games.
    c = client_for(bob)
    assert c.get(f"/tables/{table.pk}/replay/?step=3").status_code == 200
    page = c.get(f"/tables/{table.pk}/").content.decode()
    assert "deleted player" in page
    assert c.get("/leaderboards/cosmic_crowns/").status_code == 200
    assert c.get("/history/?opponent=charlie").status_code == 200
    assert table.pk in [r["table"].pk for r in c.get("/history/?opponent=charlie").context["rows"]]
    assert c.get("/players/bob/").status_code == 200
    token = ApiToken.issue(bob)[1]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    answer = c.get(f"/api/tables/{table.pk}", **auth).json()
    assert answer["seats"][0]["user"] is None and answer["status"] == "finished"
    assert c.get(f"/api/tables/{table.pk}/export", **auth).json()["players"] == [None, "bob", "charlie"]
    assert [m["text"] for m in c.get(f"/api/tables/{table.pk}/chat", **auth).json()] == ["thanks"]
    rows = c.get("/api/history?user=charlie", **auth).json()
    assert rows[0]["players"] == [None, "bob", "charlie"]
    assert c.get("/api/leaderboard/cosmic_crowns", **auth).status_code == 200


def test_a_game_in_play_goes_on_with_a_bot_in_the_deleted_seat(alice, bob, started_table, settings):
    settings.WORKER_IN_PROCESS = False
    table = started_table("five_crowns", [alice, bob])
    open_table = services.create_table(alice, "cosmic_crowns", 2)
    leaving.delete_account(alice, PASSWORD)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.bot == "casual" and seat.conceded and seat.departed
    assert Table.objects.get(pk=table.pk).status == Table.PLAYING
    assert Table.objects.get(pk=open_table.pk).status == Table.ABORTED


def test_a_deleted_username_is_free_again_only_after_30_days(alice):
    leaving.delete_account(alice, PASSWORD)
    form = SignupForm(
        data={"username": "Alice", "password1": "a-long pass 123", "password2": "a-long pass 123"}
    )
    assert not form.is_valid() and "username" in form.errors
    DeletedName.objects.update(deleted_at=timezone.now() - timedelta(days=31))
    form = SignupForm(
        data={"username": "alice", "password1": "a-long pass 123", "password2": "a-long pass 123"}
    )
    assert form.is_valid(), form.errors
    assert "alice" not in DeletedName.objects.get().name_hash  # only a hash is kept


def test_deletion_is_one_transaction(alice, bob, started_table, monkeypatch):
    table = started_table("five_crowns", [alice, bob])

    def fail(*args, **kwargs):
        raise DatabaseError("the disk is full")

    monkeypatch.setattr("tables.leaving.names.leave_behind", fail)
    with pytest.raises(DatabaseError):
        leaving.delete_account(alice, PASSWORD)
    assert type(alice).objects.filter(pk=alice.pk).exists()
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id == alice.pk and not seat.conceded and not seat.departed


def test_deleting_ends_the_accounts_sockets_after_commit(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    closed = []
    monkeypatch.setattr("tables.leaving.close_account_sockets", closed.append)
    alice_id = alice.pk
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        leaving.delete_account(alice, PASSWORD)
    assert closed == []  # not before the commit
    for callback in callbacks:
        callback()
    assert closed == [alice_id]


def test_the_profile_downloads_the_data_and_deletes_with_the_password(alice, client_for):
    c = client_for(alice)
    r = c.get("/me/data/")
    assert r.status_code == 200 and json.loads(r.content)["profile"]["username"] == "alice"
    r = c.post("/me/delete/", {"password": "wrong"})
    assert r.status_code == 400 and type(alice).objects.filter(pk=alice.pk).exists()
    r = c.post("/me/delete/", {"password": PASSWORD})
    assert r.status_code == 302 and not type(alice).objects.filter(pk=alice.pk).exists()
