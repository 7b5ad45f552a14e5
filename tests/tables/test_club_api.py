"""The club's API (CONTRACTS §2): presence, follow, block, challenges, Live now, export and delete."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken, Block, ClubSetting, Follow
from tables import challenges, services, worker
from tables.models import Challenge, Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


class Api:
    def __init__(self, client, user):
        self.client = client
        self.token = ApiToken.issue(user)[1]

    def call(self, method, path, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}
        if method == "GET":
            r = self.client.get(path, **headers)
        elif method == "DELETE":
            r = self.client.delete(path, **headers)
        else:
            r = self.client.post(
                path, data=json.dumps(body or {}), content_type="application/json", **headers
            )
        body = None
        if r.content and r["Content-Type"].startswith("application/json"):
            body = json.loads(r.content)
        return r.status_code, body


@pytest.fixture
def api(client):
    return lambda user: Api(client, user)


def test_player_shows_presence_public_tables_and_whether_the_caller_follows(
    api, alice, bob, charlie, started_table
):
    public = started_table("cosmic_crowns", [bob, charlie])
    private = services.create_table(bob, "five_crowns", 2, private=True)
    services.join_table(private.pk, charlie, invite=private.invite_token)
    services.start_table(private.pk, bob)
    a = api(alice)
    status, body = a.call("GET", "/api/players/bob")
    assert status == 200
    assert body["online"] is False and body["followed"] is False
    assert body["playing"] == [public.pk]  # never the private table
    assert a.call("POST", "/api/players/bob/follow") == (204, None)
    assert a.call("GET", "/api/players/bob")[1]["followed"] is True
    assert a.call("GET", "/api/following") == (200, [{"username": "bob", "online": False}])
    assert a.call("DELETE", "/api/players/bob/follow") == (204, None)
    assert a.call("GET", "/api/following") == (200, [])


def test_it_refuses_to_follow_no_such_player_saying_only_not_possible(api, alice):
    status, body = api(alice).call("POST", "/api/players/nobody/follow")
    assert status == 404 and body == {"error": "This is not possible."}
    assert not Follow.objects.exists()


def test_a_challenge_is_seen_accepted_and_becomes_a_started_table(api, alice, bob):
    status, body = api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns"})
    assert status == 201 and set(body) == {"id"}
    challenge = Challenge.objects.get(pk=body["id"])
    assert challenge.expires_at - challenge.created_at > timedelta(hours=23)  # no clock: a day to answer
    b = api(bob)
    status, listed = b.call("GET", "/api/challenges")
    assert [c["from"] for c in listed["received"]] == ["alice"]
    assert api(alice).call("GET", "/api/challenges")[1]["sent"][0]["status"] == "pending"
    status, table = b.call("POST", f"/api/challenges/{body['id']}/accept")
    assert status == 200
    assert table["status"] == "playing"
    assert [s["user"] for s in table["seats"]] == ["alice", "bob"]
    assert table["view"] is not None and table["legal_moves"] or table["to_act"]
    assert api(alice).call("GET", "/api/challenges")[1]["sent"][0]["table"] == table["id"]
    # Accepted once only.
    assert b.call("POST", f"/api/challenges/{body['id']}/accept")[0] == 409


def test_a_challenge_with_more_players_fills_the_other_seats_with_bots_or_leaves_them_open(api, alice, bob):
    a, b = api(alice), api(bob)
    _, made = a.call(
        "POST",
        "/api/challenges",
        {"username": "bob", "game": "five_crowns", "players": 3, "move_time": 120, "rated": True},
    )
    challenge = Challenge.objects.get(pk=made["id"])
    assert challenge.expires_at - challenge.created_at <= timedelta(minutes=5)  # a live clock: minutes
    assert challenge.rated is False  # a bot seat: never rated
    _, table = b.call("POST", f"/api/challenges/{made['id']}/accept")
    assert table["status"] == "playing" and table["seats"][2]["bot"] == "casual"
    assert table["move_time"] == 120
    _, made = a.call(
        "POST", "/api/challenges", {"username": "bob", "game": "five_crowns", "players": 3, "others": "open"}
    )
    _, table = b.call("POST", f"/api/challenges/{made['id']}/accept")
    assert table["status"] == "open" and table["seats"][2] == {"seat": 2, "user": None, "bot": None}


def test_a_declined_challenge_is_told_to_the_challenger(api, alice, bob):
    _, made = api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns"})
    assert api(bob).call("POST", f"/api/challenges/{made['id']}/decline") == (204, None)
    assert api(alice).call("GET", "/api/challenges")[1]["sent"][0]["status"] == "declined"
    assert api(bob).call("GET", "/api/challenges")[1]["received"] == []
    assert not Table.objects.exists()


def test_it_refuses_to_let_the_challenger_accept_their_own_challenge(api, alice, bob):
    _, made = api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns"})
    assert api(alice).call("POST", f"/api/challenges/{made['id']}/accept")[0] == 404
    assert api(alice).call("POST", "/api/challenges/abc/accept")[0] == 404
    assert not Table.objects.exists()


def test_the_worker_expires_challenges_past_their_time(api, alice, bob):
    _, made = api(alice).call(
        "POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns", "expires_in": 60}
    )
    assert worker.tick()["challenges_expired"] == 0
    assert worker.tick(timezone.now() + timedelta(seconds=61))["challenges_expired"] == 1
    assert Challenge.objects.get(pk=made["id"]).status == Challenge.EXPIRED
    assert api(bob).call("POST", f"/api/challenges/{made['id']}/accept")[0] == 409


@pytest.mark.parametrize("setting", ["nobody", "followed", "blocked", "blocked_by_challenger", "no_such"])
def test_every_refused_challenge_says_only_not_possible_and_changes_nothing(api, alice, bob, setting):
    if setting in ("nobody", "followed"):
        ClubSetting.objects.create(user=bob, challenges=setting)
    elif setting == "blocked":
        Block.objects.create(blocker=bob, blocked=alice)
    elif setting == "blocked_by_challenger":
        Block.objects.create(blocker=alice, blocked=bob)
    name = "nobody" if setting == "no_such" else "bob"
    status, body = api(alice).call("POST", "/api/challenges", {"username": name, "game": "cosmic_crowns"})
    assert status in (403, 404) and body == {"error": "This is not possible."}
    assert not Challenge.objects.exists()


def test_a_person_who_takes_challenges_from_people_they_follow_takes_them(api, alice, bob):
    ClubSetting.objects.create(user=bob, challenges="followed")
    Follow.objects.create(follower=bob, followed=alice)
    assert api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns"})[0] == 201


@pytest.mark.parametrize(
    "body",
    [
        {"username": "bob", "game": "nope"},
        {"username": "bob", "game": "cosmic_crowns", "players": 9},
        {"username": "bob", "game": "cosmic_crowns", "players": "2"},
        {"username": "bob", "game": "cosmic_crowns", "options": []},
        {"username": "bob", "game": "cosmic_crowns", "move_time": 5},
        {"username": "bob", "game": "cosmic_crowns", "rated": "yes"},
        {"username": "bob", "game": "cosmic_crowns", "others": "robots"},
        {"username": "bob", "game": "cosmic_crowns", "expires_in": 10},
        {"username": "alice", "game": "cosmic_crowns"},
    ],
)
def test_it_refuses_a_malformed_challenge_with_a_clear_message(api, alice, bob, body):
    status, answer = api(alice).call("POST", "/api/challenges", body)
    assert status in (400, 404) and answer["error"]
    assert not Challenge.objects.exists()


def test_a_block_keeps_the_blocked_person_from_inviting_and_joining(api, alice, bob):
    b = api(bob)
    assert b.call("POST", "/api/players/alice/block") == (204, None)
    table = services.create_table(bob, "cosmic_crowns", 2)
    status, body = api(alice).call("POST", f"/api/tables/{table.pk}/join")
    assert status == 403 and body == {"error": "This is not possible."}
    own = services.create_table(alice, "cosmic_crowns", 2)
    status, body = api(alice).call("POST", f"/api/tables/{own.pk}/invite", {"username": "bob"})
    assert status == 403 and body == {"error": "This is not possible."}
    assert b.call("DELETE", "/api/players/alice/block") == (204, None)
    assert api(alice).call("POST", f"/api/tables/{table.pk}/join")[0] == 200


def test_the_blocker_does_not_read_the_blocked_persons_chat(api, alice, bob, charlie, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    services.post_chat(table.pk, bob, text="rude words")
    services.post_chat(table.pk, alice, text="hello")
    api(alice).call("POST", "/api/players/bob/block")
    assert [m["text"] for m in api(alice).call("GET", f"/api/tables/{table.pk}/chat")[1]] == ["hello"]
    assert [m["text"] for m in api(charlie).call("GET", f"/api/tables/{table.pk}/chat")[1]] == [
        "rude words",
        "hello",
    ]


def test_live_lists_public_tables_in_play_only(api, alice, bob, charlie, started_table):
    shown = started_table("cosmic_crowns", [alice, bob])
    private = services.play_now(charlie, "five_crowns")
    services.create_table(alice, "five_crowns", 2)  # open: not in play
    status, rows = api(charlie).call("GET", "/api/live")
    assert status == 200
    assert [r["id"] for r in rows] == [shown.pk] and private.pk not in [r["id"] for r in rows]
    row = rows[0]
    assert row["game"] == "cosmic_crowns" and row["spectators"] == 0 and row["move"] == 0
    assert row["players"] == [{"username": "alice", "rating": None}, {"username": "bob", "rating": None}]
    assert api(charlie).call("GET", "/api/live?game=five_crowns") == (200, [])
    assert api(charlie).call("GET", "/api/live?game=nope")[0] == 404
    assert api(charlie).call("GET", "/api/live?sort=rating")[0] == 200
    assert api(charlie).call("GET", "/api/live?sort=age")[0] == 400


def test_export_gives_profile_decks_ratings_and_every_game_with_its_export(
    api, client, alice, bob, started_table
):
    from tests.tables.history_games import finished_game

    table = finished_game("cosmic_crowns", [alice, bob])
    r = client.get("/api/account/export", HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(alice)[1]}")
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    data = json.loads(r.content)
    assert data["profile"]["username"] == "alice"
    assert {"decks", "ratings", "rating_history", "games", "following", "blocked", "chat"} <= set(data)
    (game,) = data["games"]
    assert game["id"] == table.pk and game["export"]["players"] == ["alice", "bob"]
    status, checked = api(bob).call("POST", "/api/replay", game["export"])
    assert status == 200 and checked["reproduces"] is True


def test_delete_refuses_a_wrong_password_and_changes_nothing(api, alice):
    status, body = api(alice).call("POST", "/api/account/delete", {"password": "nope"})
    assert status == 403 and body["error"]
    assert type(alice).objects.filter(pk=alice.pk).exists()


def test_delete_removes_the_account_and_its_tokens(api, alice):
    a = api(alice)
    assert a.call("POST", "/api/account/delete", {"password": PASSWORD}) == (204, None)
    assert not type(alice).objects.filter(username="alice").exists()
    assert a.call("GET", "/api/following")[0] == 401


def test_challenge_helpers_pick_the_default_expiry_by_clock():
    assert challenges.default_expiry(None) == 86400
    assert challenges.default_expiry(24 * 3600) == 86400
    assert challenges.default_expiry(600) == 300


def test_a_challenge_is_pushed_and_mailed_as_the_challenged_person_chose(api, alice, bob):
    from accounts.models import NotificationChoice, OutgoingMail, OutgoingPush, PushSubscription

    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", p256dh="k", auth="a")
    api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "cosmic_crowns"})
    (pushed,) = OutgoingPush.objects.filter(user=bob)
    assert pushed.payload["title"] == "alice challenges you to Cosmic Crowns"
    assert pushed.payload["url"].endswith("/your-turn/")
    (mailed,) = OutgoingMail.objects.filter(to="bob@example.com")
    assert "alice challenges you to a game of Cosmic Crowns" in mailed.body
    NotificationChoice.objects.create(user=bob, email=False, push=False)
    api(alice).call("POST", "/api/challenges", {"username": "bob", "game": "five_crowns"})
    assert OutgoingPush.objects.filter(user=bob).count() == 1 and OutgoingMail.objects.count() == 1


def test_a_blocked_person_cannot_follow_the_blocker(api, alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    status, body = api(alice).call("POST", "/api/players/bob/follow")
    assert status == 403 and body == {"error": "This is not possible."}
    assert not Follow.objects.exists()


def test_blocking_ends_the_blocked_persons_follow_and_the_pending_challenges(api, alice, bob):
    Follow.objects.create(follower=alice, followed=bob)
    made = challenges.create(alice, "bob", "cosmic_crowns")
    assert api(bob).call("POST", "/api/players/alice/block") == (204, None)
    assert not Follow.objects.exists()
    assert Challenge.objects.get(pk=made.pk).status == Challenge.CANCELLED
    assert api(bob).call("POST", f"/api/challenges/{made.pk}/accept")[0] == 409
