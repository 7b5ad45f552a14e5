"""How a person is told their turn, kept by each process under their stamp (``accounts.preferences.telling``),
for real: PostgreSQL, Redis and two daphne processes. Every move is played on the first process, which keeps
alice's choice and devices from her first turn on; a device subscribed or removed through the API of the
second process, or a choice saved by a third (``manage.py shell``), is honoured at the first process's very
next move."""

from __future__ import annotations

import pytest

from tests.processes import daphnes, shell
from tests.services.test_scale_out import api, fresh_site, new_game, signed_up_with_tokens
from tests.tables.test_telling import browser_subscription

pytestmark = [pytest.mark.services, pytest.mark.slow]

PREFIX = "https://push.invalid/"  # (no worker runs here: nothing is sent, the outbox is only counted)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with fresh_site(tmp_path_factory, "telling", PUSH_ENDPOINT_PREFIXES=PREFIX) as (env, _, tmp):
        tokens = signed_up_with_tokens(env, "telling-pass-1")
        with daphnes(env, tmp, count=2) as ports:
            yield {"ports": ports, "tokens": tokens, "env": env}


def pushes_to_alice(env, then: str = "") -> int:
    """alice's queued pushes, counted by a process of its own (which then runs ``then``, if given)."""
    out = shell(
        env,
        "from django.contrib.auth.models import User\n"
        "from accounts.models import NotificationChoice, OutgoingPush\n"
        "alice = User.objects.get(username='alice')\n"
        "print('PUSHES', OutgoingPush.objects.filter(user=alice).count())\n" + then,
    )
    return int(next(line.split()[1] for line in out.splitlines() if line.startswith("PUSHES")))


def test_a_change_made_in_another_process_is_honoured_at_the_next_move(pair):
    p1, p2 = pair["ports"]
    tokens, env = pair["tokens"], pair["env"]
    cluster = {"ports": (p1, p2), "tokens": tokens}
    tid = new_game(cluster)  # (alice seat 0, bob seat 1)

    def until_alices_turn():
        """Moves on the first process until one begins alice's turn."""
        for _ in range(40):
            status, table = api(p1, "GET", f"/api/tables/{tid}", tokens["bob"])
            mover = ("alice", "bob")[table["to_act"][0]]
            _, mine = api(p1, "GET", f"/api/tables/{tid}", tokens[mover])
            move = {"move": mine["legal_moves"][0], "seq": table["seq"]}
            assert api(p1, "POST", f"/api/tables/{tid}/moves", tokens[mover], move)[0] == 200
            _, after = api(p1, "GET", f"/api/tables/{tid}", tokens["bob"])
            if mover == "bob" and after["to_act"] == [0]:
                return
        raise AssertionError("alice's turn never came")

    until_alices_turn()
    until_alices_turn()  # (the first process keeps alice's: push on, no device)
    data = browser_subscription(PREFIX + "alice-phone")
    status, answer = api(p2, "POST", "/api/push/subscriptions", tokens["alice"], data)
    assert status == 201
    device = answer["id"]
    until_alices_turn()
    switched_off = "NotificationChoice.objects.update_or_create(user=alice, defaults={'push': False})\n"
    assert pushes_to_alice(env, then=switched_off) == 1  # (her new device, pushed at once)
    until_alices_turn()
    # A bulk update() sends no signal (nothing of the site changes a choice so: its pages and API save):
    # the first process goes on with what it keeps, which shows that it does keep it; a save is seen.
    switched_on = "NotificationChoice.objects.filter(user=alice).update(push=True)\n"
    assert pushes_to_alice(env, then=switched_on) == 1  # nothing pushed to someone who switched push off
    until_alices_turn()
    assert pushes_to_alice(env) == 1  # (kept: push off)
    shell(
        env,
        "from accounts.models import NotificationChoice\n"
        "NotificationChoice.objects.get(user__username='alice').save()\n",
    )
    until_alices_turn()
    assert pushes_to_alice(env) == 2  # (saved: read again, push on)
    assert api(p2, "DELETE", f"/api/push/subscriptions/{device}", tokens["alice"])[0] == 204
    until_alices_turn()
    assert pushes_to_alice(env) == 2  # her device removed on the second process: nothing queued
