"""Web Push subscriptions and what gets pushed (issue #26, points 3 and 4): the API's contract, the endpoint
prefixes, the page's session URLs, and who is told what, when: turns, reminders, invitations, challenges, never
about a table in view, never to someone who switched push off, held through quiet hours. The delivery itself
(encryption, VAPID, retries) is tests/accounts/test_push_delivery.py."""

from __future__ import annotations

import base64
import json
import os
from datetime import UTC, datetime, time, timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from django.test import Client

from accounts import push
from accounts.models import (
    ApiToken,
    NotificationChoice,
    OutgoingMail,
    OutgoingPush,
    PushSubscription,
    VapidKeys,
)
from accounts.preferences import quiet_end
from tables import notifications, services, worker
from tables.models import Table

pytestmark = pytest.mark.django_db

FCM = "https://fcm.googleapis.com/fcm/send/"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_subscription(endpoint: str) -> dict:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))},
    }


@pytest.fixture
def api(client):
    def call(method, path, user=None, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user)[1]}"} if user else {}
        if method == "GET":
            return client.get(path, **headers)
        if method == "DELETE":
            return client.delete(path, **headers)
        data = body if isinstance(body, str) else json.dumps(body)
        return client.post(path, data=data, content_type="application/json", **headers)

    return call


# --- The API's contract ---------------------------------------------------------------------


def test_the_public_key_is_an_uncompressed_p256_point_and_needs_no_token(client):
    answer = client.get("/api/push/key")
    assert answer.status_code == 200
    key = answer.json()["public_key"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4 and "=" not in key
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    assert client.get("/api/push/key").json()["public_key"] == key  # generated once, kept
    assert VapidKeys.objects.count() == 1


def test_the_key_pair_comes_from_the_settings_when_they_give_one(client, settings):
    private, public = push.generate_keys()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = private, public
    assert client.get("/api/push/key").json() == {"public_key": public}
    assert VapidKeys.objects.count() == 0


def test_the_management_command_keeps_one_pair(capsys):
    call_command("vapid_keys")
    first = capsys.readouterr().out.strip()
    call_command("vapid_keys")
    assert capsys.readouterr().out.strip() == first == push.public_key()
    call_command("vapid_keys", "--new-pair")
    out = capsys.readouterr().out
    assert "VAPID_PRIVATE_KEY=" in out and "VAPID_PUBLIC_KEY=" in out and first not in out


def test_a_device_subscribes_updates_and_unsubscribes_through_the_api(api, alice):
    data = browser_subscription(FCM + "abc")
    created = api("POST", "/api/push/subscriptions", alice, data)
    assert created.status_code == 201 and set(created.json()) == {"id"}
    pk = created.json()["id"]
    renewed = browser_subscription(FCM + "abc")  # the browser renewed its keys
    again = api("POST", "/api/push/subscriptions", alice, renewed)
    assert again.status_code == 201 and again.json() == {"id": pk}
    device = PushSubscription.objects.get()
    assert device.user == alice and device.p256dh == renewed["keys"]["p256dh"]
    assert api("DELETE", f"/api/push/subscriptions/{pk}", alice).status_code == 204
    assert not PushSubscription.objects.exists()
    assert api("DELETE", f"/api/push/subscriptions/{pk}", alice).status_code == 404


def test_it_refuses_to_delete_another_accounts_device(api, alice, bob):
    pk = api("POST", "/api/push/subscriptions", alice, browser_subscription(FCM + "a")).json()["id"]
    assert api("DELETE", f"/api/push/subscriptions/{pk}", bob).status_code == 404
    for bad in ("x", "0", "99999999999999999999999", "１"):
        assert api("DELETE", f"/api/push/subscriptions/{bad}", alice).status_code == 404
    assert PushSubscription.objects.count() == 1


def test_it_needs_a_token_to_subscribe(client):
    answer = client.post(
        "/api/push/subscriptions",
        data=json.dumps(browser_subscription(FCM + "a")),
        content_type="application/json",
    )
    assert answer.status_code == 401


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/x",
        "https://updates.push.services.mozilla.com/wpush/v2/x",
        "https://wns2-par02p.notify.windows.com/w/?token=x",
        "https://web.push.apple.com/QGx",
    ],
)
def test_it_accepts_the_browsers_push_services(api, alice, endpoint):
    assert api("POST", "/api/push/subscriptions", alice, browser_subscription(endpoint)).status_code == 201


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "https://fcm.googleapis.com.evil.example/x",
        "https://evil.example/https://fcm.googleapis.com/",
        "https://wns2-x.notify.windows.com.evil.example/",
        "https://wns2-a.b.notify.windows.com/",  # one label only
        "http://127.0.0.1:9/push",  # a local address, unless the setting says so
        "https://fcm.googleapis.com/ x",
        "",
    ],
)
def test_it_refuses_an_endpoint_outside_the_prefixes(api, alice, endpoint):
    answer = api("POST", "/api/push/subscriptions", alice, browser_subscription(endpoint))
    assert answer.status_code == 400 and "error" in answer.json()
    assert not PushSubscription.objects.exists()


def test_the_prefixes_come_from_the_environment(monkeypatch):
    import importlib

    import config.settings as site_settings

    monkeypatch.setenv("PUSH_ENDPOINT_PREFIXES", "http://127.0.0.1:")
    try:
        assert importlib.reload(site_settings).PUSH_ENDPOINT_PREFIXES == ["http://127.0.0.1:"]
    finally:
        monkeypatch.delenv("PUSH_ENDPOINT_PREFIXES")
        importlib.reload(site_settings)


@pytest.mark.parametrize(
    "body",
    [
        "[",
        [],
        {},
        {"endpoint": FCM + "a"},
        {"endpoint": FCM + "a", "keys": {"p256dh": "AAAA", "auth": b64(b"x" * 16)}},
        {"endpoint": FCM + "a", "keys": {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b64(b"x" * 16)}},
        {"endpoint": FCM + "a", "keys": {"p256dh": 5, "auth": b64(b"x" * 16)}},
        {"endpoint": FCM + "a\x00", "keys": {"p256dh": "A", "auth": "B"}},
        {"endpoint": ["x"], "keys": {}},
    ],
)
def test_it_refuses_a_malformed_subscription(api, alice, body):
    answer = api("POST", "/api/push/subscriptions", alice, body)
    assert answer.status_code == 400 and "error" in answer.json()


def test_it_bounds_the_devices_of_an_account(api, alice, settings):
    settings.PUSH_DEVICE_LIMIT = 2
    for n in range(2):
        assert (
            api("POST", "/api/push/subscriptions", alice, browser_subscription(FCM + str(n))).status_code
            == 201
        )
    assert api("POST", "/api/push/subscriptions", alice, browser_subscription(FCM + "9")).status_code == 429
    # A known device renewing its subscription is not a new one.
    assert api("POST", "/api/push/subscriptions", alice, browser_subscription(FCM + "0")).status_code == 201


def test_a_shared_browser_follows_whoever_subscribes_it_last(api, alice, bob):
    data = browser_subscription(FCM + "family-tablet")
    pk = api("POST", "/api/push/subscriptions", alice, data).json()["id"]
    assert api("POST", "/api/push/subscriptions", bob, data).json() == {"id": pk}
    assert PushSubscription.objects.get().user == bob


# --- The page's session URLs ----------------------------------------------------------------


def test_the_page_subscribes_with_its_session_and_csrf_token(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    page = browser.get("/accounts/profile/")
    token = page.context["csrf_token"]
    data = json.dumps(browser_subscription(FCM + "page"))
    refused = browser.post("/accounts/push/subscriptions/", data=data, content_type="application/json")
    assert refused.status_code == 403  # no CSRF token
    answer = browser.post(
        "/accounts/push/subscriptions/",
        data=data,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=str(token),
        HTTP_USER_AGENT="Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0",
    )
    assert answer.status_code == 201
    device = PushSubscription.objects.get(pk=answer.json()["id"])
    assert device.user_agent == "Edge · Windows"
    profile = browser.get("/accounts/profile/").content.decode()
    assert "Edge · Windows" in profile and f'data-device="{device.pk}"' in profile
    gone = browser.delete(f"/accounts/push/subscriptions/{device.pk}/", HTTP_X_CSRFTOKEN=str(token))
    assert gone.status_code == 204 and not PushSubscription.objects.exists()


def test_the_page_urls_refuse_a_visitor(client):
    data = json.dumps(browser_subscription(FCM + "page"))
    assert (
        client.post("/accounts/push/subscriptions/", data=data, content_type="application/json").status_code
        == 401
    )
    assert (
        client.post("/accounts/push/viewing/", data="{}", content_type="application/json").status_code == 401
    )


def test_the_profile_removes_a_device(client_for, alice, bob):
    device, _ = push.subscribe(alice, browser_subscription(FCM + "old"))
    assert client_for(bob).post(f"/accounts/push/devices/{device.pk}/remove/").status_code == 302
    assert PushSubscription.objects.filter(pk=device.pk).exists()  # not bob's to remove
    answer = client_for(alice).post(f"/accounts/push/devices/{device.pk}/remove/")
    assert answer.status_code == 302 and not PushSubscription.objects.exists()
    assert client_for(alice).post("/accounts/push/devices/99999999999999999999999/remove/").status_code == 302


# --- Who is pushed what ---------------------------------------------------------------------


def until_her_turn(table, users, capture):
    """Moves by the others until the last of ``users`` is awaited."""
    table.refresh_from_db()
    while len(users) - 1 not in table.to_act:
        play_first_move(table, users[table.to_act[0]], capture)
        table.refresh_from_db()


def play_first_move(table, user, capture):
    state = table.engine.load(table.state)
    seat = table.to_act[0]
    with capture(execute=True):
        services.play_move(table.pk, user, table.engine.legal_moves(state, seat)[0], table.seq)


def test_a_turn_is_pushed_to_every_device_of_the_person_whose_turn_it_is(
    alice, bob, started_table, django_capture_on_commit_callbacks
):
    for name in ("phone", "laptop"):
        push.subscribe(alice, browser_subscription(FCM + name))
    push.subscribe(bob, browser_subscription(FCM + "bob"))
    table = started_table("cosmic_crowns", [bob, alice])
    OutgoingPush.objects.filter(user=bob).delete()  # (his turn, at the start)
    play_first_move(table, bob, django_capture_on_commit_callbacks)
    rows = OutgoingPush.objects.all()
    assert {r.subscription.endpoint for r in rows} == {FCM + "phone", FCM + "laptop"}
    assert {r.user_id for r in rows} == {alice.pk} and {r.table_id for r in rows} == {table.pk}
    assert rows[0].payload["url"].endswith(f"/tables/{table.pk}/") and rows[0].payload["tag"] == str(table.pk)


def test_no_push_about_a_table_the_person_has_in_view(
    client_for, alice, bob, started_table, django_capture_on_commit_callbacks
):
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    table = started_table("cosmic_crowns", [bob, alice])
    page = client_for(alice)
    seen = page.post(
        "/accounts/push/viewing/",
        data=json.dumps({"table": table.pk, "visible": True}),
        content_type="application/json",
    )
    assert seen.status_code == 204
    play_first_move(table, bob, django_capture_on_commit_callbacks)
    assert not OutgoingPush.objects.exists()
    # Hidden again (the tab went to the background): the next turn is pushed.
    page.post(
        "/accounts/push/viewing/",
        data=json.dumps({"table": table.pk, "visible": False}),
        content_type="application/json",
    )
    table.refresh_from_db()
    play_first_move(table, alice, django_capture_on_commit_callbacks)
    play_first_move(Table.objects.get(pk=table.pk), bob, django_capture_on_commit_callbacks)
    assert OutgoingPush.objects.filter(user=alice).count() == 1


def test_a_push_queued_before_the_table_came_into_view_is_skipped(alice):
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    push.notify(alice, "Your turn", "b", "https://x/", tag=7, table_id=7)
    push.mark_viewing(alice.pk, 7, True)
    assert push.drain()["skipped"] == 1
    assert OutgoingPush.objects.get().status == OutgoingPush.SKIPPED


@pytest.mark.parametrize("body", ["[", {"table": "1"}, {"table": True}, {"table": 2**70}, {"visible": True}])
def test_the_view_beacon_refuses_bad_input(client_for, alice, body):
    data = body if isinstance(body, str) else json.dumps(body)
    assert (
        client_for(alice)
        .post("/accounts/push/viewing/", data=data, content_type="application/json")
        .status_code
        == 400
    )


def test_nothing_is_pushed_or_mailed_to_someone_who_switched_them_off(
    alice, bob, started_table, django_capture_on_commit_callbacks
):
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    NotificationChoice.objects.create(user=alice, push=False, email=False)
    table = started_table("cosmic_crowns", [bob, alice])
    play_first_move(table, bob, django_capture_on_commit_callbacks)
    assert not OutgoingPush.objects.exists()
    assert not OutgoingMail.objects.filter(to=alice.email).exists()


def test_quiet_hours_hold_mail_and_pushes_until_they_end(
    alice, bob, started_table, django_capture_on_commit_callbacks, monkeypatch
):
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    # Quiet 22:00-07:00 in Paris; it is 23:30 there (22:30 UTC, winter).
    NotificationChoice.objects.create(
        user=alice, time_zone="Europe/Paris", quiet_from=time(22, 0), quiet_until=time(7, 0)
    )
    night = datetime(2026, 11, 26, 22, 30, tzinfo=UTC)
    monkeypatch.setattr("django.utils.timezone.now", lambda: night)
    table = started_table("cosmic_crowns", [bob, alice])
    play_first_move(table, bob, django_capture_on_commit_callbacks)
    morning = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)  # 07:00 in Paris
    assert OutgoingPush.objects.get().next_attempt_at == morning
    assert OutgoingMail.objects.get(to=alice.email).next_attempt_at == morning
    assert push.drain(now=night + timedelta(hours=1))["sent"] == 0  # held


def test_quiet_hours_read_in_the_persons_time_zone():
    choice = NotificationChoice(time_zone="America/New_York", quiet_from=time(9, 0), quiet_until=time(17, 0))
    at = datetime(2026, 7, 1, 14, 0, tzinfo=UTC)  # 10:00 in New York (summer time)
    assert quiet_end(choice, at) == datetime(2026, 7, 1, 21, 0, tzinfo=UTC)
    assert quiet_end(choice, datetime(2026, 7, 1, 22, 0, tzinfo=UTC)) is None  # 18:00 there
    overnight = NotificationChoice(time_zone="UTC", quiet_from=time(23, 0), quiet_until=time(6, 0))
    assert quiet_end(overnight, datetime(2026, 7, 1, 23, 30, tzinfo=UTC)) == datetime(
        2026, 7, 2, 6, 0, tzinfo=UTC
    )
    assert quiet_end(overnight, datetime(2026, 7, 2, 3, 0, tzinfo=UTC)) == datetime(
        2026, 7, 2, 6, 0, tzinfo=UTC
    )
    assert quiet_end(overnight, datetime(2026, 7, 2, 12, 0, tzinfo=UTC)) is None
    assert quiet_end(
        NotificationChoice(time_zone="Nowhere/Land", quiet_from=time(1), quiet_until=time(2)),
        datetime(2026, 7, 2, 1, 30, tzinfo=UTC),
    ) == datetime(2026, 7, 2, 2, 0, tzinfo=UTC)


def test_a_clock_about_to_run_out_is_pushed(alice, bob, started_table, django_capture_on_commit_callbacks):
    push.subscribe(alice, browser_subscription(FCM + "phone"))
    table = started_table("cosmic_crowns", [alice, bob])
    Table.objects.filter(pk=table.pk).update(
        move_time=3600, deadline=datetime.now(UTC) + timedelta(minutes=10)
    )
    OutgoingPush.objects.all().delete()
    assert worker.send_reminders(datetime.now(UTC)) == 1
    row = OutgoingPush.objects.get()
    assert row.payload["title"].startswith("Reminder") and "minutes" in row.payload["body"]


def test_an_invitation_is_pushed_with_its_link(alice, bob, django_capture_on_commit_callbacks):
    push.subscribe(bob, browser_subscription(FCM + "bob"))
    table = services.create_table(alice, "five_crowns", 3, {})
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(table.pk, alice, "bob")
    row = OutgoingPush.objects.get()
    assert row.user == bob and "alice" in row.payload["title"]
    table.refresh_from_db()
    assert row.payload["url"].endswith(table.invite_path) and row.payload["tag"] == str(table.pk)
    assert OutgoingMail.objects.filter(to=bob.email).count() == 1


def test_a_challenge_is_pushed_in_the_challenged_persons_language(bob):
    from accounts.preferences import set_language

    set_language(bob, "fr")
    push.subscribe(bob, browser_subscription(FCM + "bob"))
    assert (
        notifications.challenged(bob, "alice", "Five Crowns", "https://cards.example.com/c/3/", tag="c3") == 1
    )
    payload = OutgoingPush.objects.get().payload
    assert payload["url"] == "https://cards.example.com/c/3/" and payload["tag"] == "c3"
    assert "alice" in payload["title"] and "défie" in payload["title"]


# --- The daily digest ------------------------------------------------------------------------


def test_a_digest_reader_gets_one_mail_a_day_listing_the_tables_waiting(
    alice, bob, started_table, django_capture_on_commit_callbacks
):
    NotificationChoice.objects.create(user=alice, email_digest=True, time_zone="UTC")
    tables = [started_table("cosmic_crowns", [bob, alice], seed=s) for s in (1, 2)]
    for table in tables:
        until_her_turn(table, [bob, alice], django_capture_on_commit_callbacks)
    assert not OutgoingMail.objects.filter(to=alice.email).exists()  # no mail per turn
    early = datetime(2026, 11, 26, 6, 0, tzinfo=UTC)
    assert notifications.send_digests(early) == 0  # before DIGEST_HOUR
    morning = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    assert notifications.send_digests(morning) == 1
    assert notifications.send_digests(morning + timedelta(hours=5)) == 0  # once a day
    digest = OutgoingMail.objects.get(to=alice.email)
    assert all(f"/tables/{t.pk}/" in digest.body for t in tables) and "2" in digest.subject
    assert notifications.send_digests(morning + timedelta(days=1)) == 1  # the next day, still waiting
    assert notifications.send_digests(morning + timedelta(days=2)) == 1
    OutgoingMail.objects.all().delete()
    bob_only = NotificationChoice.objects.create(user=bob, email_digest=True)
    assert notifications.send_digests(morning + timedelta(days=3)) == 1  # alice; bob has nothing waiting
    bob_only.refresh_from_db()
    assert bob_only.digest_sent_on is None


# --- The profile's section -------------------------------------------------------------------


def test_the_profile_saves_the_notification_choices(client_for, alice):
    page = client_for(alice)
    assert b'id="notifications"' in page.get("/accounts/profile/").content
    answer = page.post(
        "/accounts/notifications/",
        {
            "email": "on",
            "email_digest": "on",
            "sound": "on",
            "time_zone": "Europe/Paris",
            "quiet_from": "22:00",
            "quiet_until": "07:30",
        },
    )
    assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/#notifications"
    choice = NotificationChoice.objects.get(user=alice)
    assert (choice.email, choice.email_digest, choice.push, choice.sound) == (True, True, False, True)
    assert (choice.time_zone, choice.quiet_from, choice.quiet_until) == (
        "Europe/Paris",
        time(22),
        time(7, 30),
    )
    assert b'data-turn-sound="on"' in page.get("/").content


def test_the_turn_sound_is_off_by_default_and_for_visitors(client, client_for, alice):
    assert b"data-turn-sound" not in client_for(alice).get("/").content
    assert b"data-turn-sound" not in client.get("/").content


@pytest.mark.parametrize(
    "form",
    [
        {"time_zone": "Mars/Olympus"},
        {"time_zone": "UTC", "quiet_from": "22:00"},
        {"time_zone": "UTC", "quiet_from": "25:00", "quiet_until": "07:00"},
    ],
)
def test_it_refuses_bad_notification_choices_and_changes_nothing(client_for, alice, form):
    answer = client_for(alice).post(
        "/accounts/notifications/", {"push": "on", "email": "on", **form}, follow=True
    )
    assert answer.status_code == 200 and answer.context["messages"]
    assert not NotificationChoice.objects.filter(user=alice).exists()


# --- The installable site --------------------------------------------------------------------


def test_the_manifest_the_worker_and_the_offline_page_are_served(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["start_url"] == "/" and data["display"] == "standalone" and data["theme_color"]
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512", "any"}
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    worker_script = client.get("/sw.js")
    assert worker_script.status_code == 200 and worker_script["Content-Type"].startswith("text/javascript")
    assert worker_script["Service-Worker-Allowed"] == "/"
    body = worker_script.content.decode()
    assert '"/offline/"' in body and "showNotification" in body and "notificationclick" in body
    offline = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="fr")
    assert offline.status_code == 200 and b'lang="fr"' in offline.content
    home = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in home and "js/push.js" in home
