"""Real pushes to a local push service (issue #26, point 3): a receiver on 127.0.0.1 holds the subscription's
private keys, as a browser would, decrypts what arrives (RFC 8291, aes128gcm) and checks the VAPID signature
(RFC 8292) against the site's public key. Also: 410 deletes the subscription, a service that hangs times out
and is tried again later, and attempts are bounded."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.utils import timezone

from accounts import push
from accounts.models import ApiToken, OutgoingPush, PushSubscription
from accounts.preferences import set_language
from tables import services

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    """What a browser keeps for one subscription: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self, endpoint: str):
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def to_json(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


class Receiver:
    """A push service on 127.0.0.1: /ok/... answers 201, /gone/... 410, /hang/... holds the request open."""

    def __init__(self):
        self.received: list[dict] = []
        self.release = threading.Event()
        self.hanging = threading.Event()  # set once a request is held open
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                if self.path.startswith("/hang/"):
                    receiver.hanging.set()
                    receiver.release.wait(10)
                    status = 201
                elif self.path.startswith("/gone/"):
                    status = 410
                elif self.path.startswith("/unknown/"):
                    status = 404
                elif self.path.startswith("/busy/"):
                    status = 503
                else:
                    status = 201
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the client gave up waiting

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    r = Receiver()
    settings.PUSH_ENDPOINT_PREFIXES = ["http://127.0.0.1:"]
    settings.PUSH_TIMEOUT = 0.5
    settings.VAPID_SUBJECT = "mailto:keeper@cardclub.example"
    yield r
    r.close()


def subscribe_through_the_api(client, user, device: Device) -> int:
    raw = ApiToken.issue(user)[1]
    answer = client.post(
        "/api/push/subscriptions",
        data=json.dumps(device.to_json()),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
        HTTP_USER_AGENT="Mozilla/5.0 (Android 14; Mobile; rv:130.0) Gecko/130.0 Firefox/130.0",
    )
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def verify_vapid(headers: dict, origin: str, public_key: str) -> dict:
    """The claims of the request's VAPID token, once its signature checks against the site's public key."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header_b64, claims_b64, signature_b64 = fields["t"].split(".")
    assert json.loads(unb64(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    signature = unb64(signature_b64)
    assert len(signature) == 64
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(claims_b64))
    assert claims["aud"] == origin
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"] == "mailto:keeper@cardclub.example"
    return claims


def test_a_turn_arrives_encrypted_and_signed_at_the_devices_push_service(
    client, alice, bob, started_table, receiver, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://cards.example.com"
    set_language(alice, "fr")
    device = Device(f"{receiver.origin}/ok/alice-phone")
    subscription_id = subscribe_through_the_api(client, alice, device)
    table = started_table("cosmic_crowns", [bob, alice])  # bob (seat 0) moves first
    state = table.engine.load(table.state)
    move = table.engine.legal_moves(state, 0)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.play_move(table.pk, bob, move, table.seq)
    assert push.drain() == {"sent": 1, "retry": 0, "failed": 0, "gone": 0, "skipped": 0}

    (request,) = receiver.received
    assert request["path"] == "/ok/alice-phone"
    assert request["headers"]["content-encoding"] == "aes128gcm"
    assert int(request["headers"]["ttl"]) > 0
    verify_vapid(request["headers"], receiver.origin, push.public_key())
    payload = device.decrypt(request["body"])
    assert set(payload) == {"title", "body", "url", "tag"}
    assert payload["url"] == f"https://cards.example.com/tables/{table.pk}/"
    assert payload["tag"] == str(table.pk)
    assert payload["title"].startswith("À vous de jouer") and payload["title"].endswith(f"n° {table.pk}")
    assert "votre tour" in payload["body"]  # in alice's language, not the mover's
    # Nothing hidden: none of the cards in anyone's hand is named.
    hands = [card for seat in (0, 1) for card in table.engine.view(state, seat).get("hand", [])]
    assert not any(card in json.dumps(payload) for card in hands)

    row = OutgoingPush.objects.get()
    assert (row.status, row.attempts, row.last_status) == (OutgoingPush.SENT, 1, 201)
    assert PushSubscription.objects.get(pk=subscription_id).last_success_at is not None


def test_a_forged_signature_does_not_verify(receiver, alice):
    """The check above can fail: a token signed by another key is refused."""
    device = Device(f"{receiver.origin}/ok/x")
    subscription, _ = push.subscribe(alice, device.to_json())
    push.notify(alice, "t", "b", "https://x/", tag=1)
    push.drain()
    headers = receiver.received[0]["headers"]
    other_private, other_public = push.generate_keys()
    assert other_public != push.public_key()
    fields = dict(part.split("=", 1) for part in headers["authorization"].split(" ", 1)[1].split(","))
    forged = {"authorization": f"vapid t={fields['t']},k={other_public}"}
    with pytest.raises(InvalidSignature):
        verify_vapid(forged, receiver.origin, other_public)


@pytest.mark.parametrize("path, status", [("gone", 410), ("unknown", 404)])
def test_a_push_service_answering_410_or_404_deletes_the_subscription(receiver, alice, path, status):
    gone = Device(f"{receiver.origin}/{path}/old-laptop")
    kept = Device(f"{receiver.origin}/ok/phone")
    push.subscribe(alice, gone.to_json())
    push.subscribe(alice, kept.to_json())
    assert push.notify(alice, "Your turn", "b", "https://x/", tag=3) == 2
    assert push.drain() == {"sent": 1, "retry": 0, "failed": 0, "gone": 1, "skipped": 0}
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    gone_row = OutgoingPush.objects.get(status=OutgoingPush.GONE)
    assert gone_row.last_status == status and gone_row.subscription is None


def test_a_push_service_that_hangs_times_out_and_is_tried_again_later(receiver, alice):
    push.subscribe(alice, Device(f"{receiver.origin}/hang/tablet").to_json())
    push.notify(alice, "Your turn", "b", "https://x/", tag=4)
    started = time.monotonic()
    assert push.drain()["retry"] == 1
    assert time.monotonic() - started < 5  # PUSH_TIMEOUT (0.5 s) ended the wait, not the receiver
    row = OutgoingPush.objects.get()
    assert row.status == OutgoingPush.PENDING and row.attempts == 1 and "Timeout" in row.last_error
    assert row.next_attempt_at > timezone.now()
    assert push.drain()["retry"] == 0  # not again before its backoff
    assert push.drain(now=row.next_attempt_at + timedelta(seconds=1))["retry"] == 1
    assert OutgoingPush.objects.get().attempts == 2


def test_attempts_are_bounded(receiver, alice, settings):
    settings.PUSH_MAX_ATTEMPTS = 3
    push.subscribe(alice, Device(f"{receiver.origin}/busy/desk").to_json())
    push.notify(alice, "Your turn", "b", "https://x/", tag=5)
    later = timezone.now()
    outcomes = []
    for _ in range(5):
        outcomes.append(push.drain(now=later))
        later += timedelta(hours=2)
    row = OutgoingPush.objects.get()
    assert [o["retry"] for o in outcomes] == [1, 1, 0, 0, 0]
    assert [o["failed"] for o in outcomes] == [0, 0, 1, 0, 0]
    assert (row.status, row.attempts, row.last_status) == (OutgoingPush.FAILED, 3, 503)
    assert len(receiver.received) == 3
    assert PushSubscription.objects.count() == 1  # a busy service is not a gone device


def test_no_request_goes_to_an_endpoint_outside_the_prefixes(receiver, alice, settings):
    push.subscribe(alice, Device(f"{receiver.origin}/ok/phone").to_json())
    push.notify(alice, "Your turn", "b", "https://x/", tag=6)
    settings.PUSH_ENDPOINT_PREFIXES = ["https://fcm.googleapis.com/"]  # changed since the device subscribed
    push.drain()
    assert receiver.received == []
    assert OutgoingPush.objects.get().status == OutgoingPush.PENDING


def test_old_outcomes_are_forgotten_and_pending_pushes_kept(receiver, alice):
    push.subscribe(alice, Device(f"{receiver.origin}/ok/phone").to_json())
    push.notify(alice, "Your turn", "b", "https://x/", tag=8)
    push.notify(alice, "Your turn", "b", "https://x/", tag=9)
    push.drain(limit=1)
    month_later = timezone.now() + push.KEEP_OUTCOMES + timedelta(minutes=1)
    assert push.prune(month_later) == 1
    assert list(OutgoingPush.objects.values_list("status", flat=True)) == [OutgoingPush.PENDING]


@pytest.mark.django_db(transaction=True)  # the push thread must see the queued row
def test_a_hanging_push_service_does_not_hold_up_the_bots(receiver, alice, settings):
    """The push thread may wait on a service (up to PUSH_TIMEOUT); the worker's own loop plays bots meanwhile."""
    from tables import worker

    settings.PUSH_TIMEOUT = 8
    settings.BOT_DELAY = 0
    push.subscribe(alice, Device(f"{receiver.origin}/hang/tablet").to_json())
    push.notify(alice, "Your turn", "b", "https://x/", tag=10)
    stop = threading.Event()
    sender = threading.Thread(target=push.run_push, args=(stop, 0.05))
    sender.start()
    try:
        assert receiver.hanging.wait(8)  # the push thread is now stuck talking to the service
        table = services.create_table(alice, "cosmic_crowns", 2, bots=[{"level": "casual"}])
        table = services.start_table(table.pk, alice, seed=3)
        if table.to_act == [0]:
            move = table.engine.legal_moves(table.engine.load(table.state), 0)[0]
            services.play_move(table.pk, alice, move, table.seq)
        started = time.monotonic()
        assert worker.tick()["bot_moves"] == 1
        assert time.monotonic() - started < 5
        assert sender.is_alive() and not receiver.release.is_set()  # the bot moved while the push still hangs
    finally:
        stop.set()
        receiver.release.set()
        sender.join(timeout=10)
