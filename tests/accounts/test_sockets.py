"""Logging out closes that session's sockets (issue #17, finding 6): no more frames of the player's hand."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.sockets import SESSION_ENDED_CODE, session_group
from config.asgi import application
from tables import services

pytestmark = pytest.mark.django_db(transaction=True)  # async tests run under asyncio_mode = "auto"


@sync_to_async
def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def open_socket(path, client):
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=20)  # the first frame
    return comm


@sync_to_async
def someone_moves(table_id, users):
    from tables.models import Table

    table = Table.objects.get(pk=table_id)
    seat = table.to_act[0]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    services.play_move(table_id, users[seat], move, table.seq)


async def test_logging_out_closes_that_sessions_sockets_and_only_those(alice, bob, started_table):
    table = await sync_to_async(started_table)("cosmic_crowns", [alice, bob])
    phone, laptop, opponent = await signed_in(alice), await signed_in(alice), await signed_in(bob)
    on_phone = await open_socket(f"/ws/tables/{table.pk}/", phone)
    badge_on_phone = await open_socket("/ws/notifications/", phone)
    on_laptop = await open_socket(f"/ws/tables/{table.pk}/", laptop)
    bobs = await open_socket(f"/ws/tables/{table.pk}/", opponent)

    assert (await sync_to_async(phone.post)("/accounts/logout/")).status_code == 302
    for comm in (on_phone, badge_on_phone):
        closed = await comm.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": SESSION_ENDED_CODE}

    await someone_moves(table.pk, [alice, bob])
    assert 'data-seq="1"' in await on_laptop.receive_from(timeout=20)  # her other session goes on
    assert 'data-seq="1"' in await bobs.receive_from(timeout=20)
    assert await on_phone.receive_nothing(timeout=1)
    assert await badge_on_phone.receive_nothing(timeout=0.5)
    for comm in (on_phone, badge_on_phone, on_laptop, bobs):
        await comm.disconnect()


async def test_a_spectator_socket_joins_no_session_group(alice, bob, started_table):
    table = await sync_to_async(started_table)("cosmic_crowns", [alice, bob])
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=20)
    await sync_to_async((await signed_in(alice)).post)("/accounts/logout/")
    await someone_moves(table.pk, [alice, bob])
    assert 'data-seq="1"' in await comm.receive_from(timeout=20)
    await comm.disconnect()


def test_the_session_group_name_hides_the_session_key():
    key = "abcdefghijklmnopqrstuvwxyz012345"
    name = session_group(key)
    assert key not in name and name.startswith("session-") and len(name) < 100
    assert name == session_group(key) and name != session_group(key[:-1] + "6")
