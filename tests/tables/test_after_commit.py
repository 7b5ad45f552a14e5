"""A committed move is answered as committed, whatever happens to its frames and badges afterwards
(issue #29, finding 2: a badge refresh that raised after commit turned a saved move into a 500)."""

import json
import logging

import pytest
from django.test import Client

from accounts.models import ApiToken
from tables import live, notifications, services
from tables.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def started(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    return services.start_table(table.pk, alice, seed=20261126)


def post_first_legal(table, users):
    seat = table.to_act[0]
    raw = ApiToken.issue(users[seat])[1]
    view = Client().get(f"/api/tables/{table.pk}", HTTP_AUTHORIZATION=f"Bearer {raw}").json()
    body = json.dumps({"move": view["legal_moves"][0], "seq": view["seq"]})
    return Client().post(
        f"/api/tables/{table.pk}/moves",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )


@pytest.mark.parametrize("failing", ["badges", "frames"])
def test_a_move_whose_announcements_fail_is_answered_as_committed(alice, bob, monkeypatch, caplog, failing):
    def broken(*args, **kwargs):
        raise ConnectionError("Redis went away")

    if failing == "badges":  # (drawn with the move's frames, for the people it concerns: tables.live.Also)
        monkeypatch.setattr(notifications, "badge_messages", broken)
        monkeypatch.setattr(live, "listened", lambda layer, groups, streams=(): set(groups) | set(streams))
    else:
        monkeypatch.setattr(live.Publication, "run", broken)
    table = started(alice, bob)
    with caplog.at_level(logging.ERROR):
        response = post_first_legal(table, [alice, bob])
    assert response.status_code == 200 and response.json() == {"seq": 1}
    assert Move.objects.filter(table=table, seq=0).exists()
    logged = {"badges": "beside its frames failed", "frames": "on_commit"}[failing]
    assert any(logged in record.getMessage() for record in caplog.records)  # logged, not raised
