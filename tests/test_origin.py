"""A socket is accepted only from the site's own origin: scheme, host and port, not the host alone."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application, origin_allowed


def scope(origin: str | None, host: str | None = "127.0.0.1:8000", scheme: str = "ws", **extra: str) -> dict:
    headers = [(name.replace("_", "-").encode(), value.encode()) for name, value in extra.items()]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if host is not None:
        headers.append((b"host", host.encode()))
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    "origin, host, scheme, allowed",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("https://127.0.0.1:1", "127.0.0.1:8000", "ws", False),  # the host alone used to be enough
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # another scheme
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "ws", False),  # another port
        ("http://localhost:8000", "127.0.0.1:8000", "ws", False),  # another (allowed) host
        ("http://127.0.0.1", "127.0.0.1:80", "ws", True),  # a default port, written or not
        ("http://127.0.0.1:80", "127.0.0.1", "ws", True),
        ("HTTP://LocalHost:8000", "localhost:8000", "ws", True),
        ("https://[::1]:8443", "[::1]:8443", "wss", True),
        ("http://[::1]:8443", "[::1]:8443", "wss", False),
        ("http://evil.example:8000", "evil.example:8000", "ws", False),  # not an allowed host
        ("null", "127.0.0.1:8000", "ws", False),
        ("http://127.0.0.1:8000/page", "127.0.0.1:8000", "ws", False),
        ("http://127.0.0.1:99999", "127.0.0.1:8000", "ws", False),
        ("", "127.0.0.1:8000", "ws", False),
        (None, "127.0.0.1:8000", "ws", False),
        ("http://127.0.0.1:8000", None, "ws", False),
    ],
)
def test_the_origin_must_be_the_requests_own(origin, host, scheme, allowed):
    assert origin_allowed(scope(origin, host, scheme)) is allowed


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.ALLOWED_HOSTS = ["cards.example.com"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = {"x_forwarded_proto": "https"}
    assert origin_allowed(scope("https://cards.example.com", "cards.example.com", **forwarded))
    assert not origin_allowed(scope("http://cards.example.com", "cards.example.com", **forwarded))
    assert not origin_allowed(scope("https://cards.example.com:1", "cards.example.com", **forwarded))
    plain = {"x_forwarded_proto": "http"}
    assert not origin_allowed(scope("https://cards.example.com", "cards.example.com", **plain))


def test_csrf_trusted_origins_are_accepted_exactly(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example.com", "https://*.cards.example.net"]
    assert origin_allowed(scope("https://cards.example.com", "127.0.0.1:8001"))
    assert origin_allowed(scope("https://cards.example.com:443", "127.0.0.1:8001"))
    assert not origin_allowed(scope("http://cards.example.com", "127.0.0.1:8001"))
    assert not origin_allowed(scope("https://cards.example.com:8443", "127.0.0.1:8001"))
    assert origin_allowed(scope("https://eu.cards.example.net", "127.0.0.1:8001"))
    assert not origin_allowed(scope("http://eu.cards.example.net", "127.0.0.1:8001"))
    assert not origin_allowed(scope("https://cards.example.net.evil.org", "127.0.0.1:8001"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin, accepted", [("http://127.0.0.1:8000", True), ("https://127.0.0.1:1", False)]
)
async def test_the_socket_is_refused_before_it_opens(alice, bob, origin, accepted):
    from asgiref.sync import sync_to_async

    from tables import services

    table = await sync_to_async(services.create_table)(alice, "cosmic_crowns", 2)
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")],
    )
    connected, _ = await comm.connect()
    assert connected is accepted
    await comm.disconnect()


def test_serving_the_local_network_any_host_is_allowed_but_the_origin_must_still_be_the_pages_own(settings):
    settings.ALLOWED_HOSTS = ["*"]  # `HOST=0.0.0.0 make run`
    assert origin_allowed(scope("http://192.168.1.20:8000", "192.168.1.20:8000"))
    assert origin_allowed(scope("http://cardclub.local:8000", "cardclub.local:8000"))
    assert not origin_allowed(scope("http://evil.example", "192.168.1.20:8000"))
    assert not origin_allowed(scope("http://192.168.1.20:8001", "192.168.1.20:8000"))
