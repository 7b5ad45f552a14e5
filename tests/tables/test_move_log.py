"""The move log: stored as events, put into words for each viewer in their language when shown."""

import pytest
from django.contrib.auth.models import AnonymousUser

from tables import selectors, services
from tables.models import Move
from tables.rendering import render_frame

pytestmark = pytest.mark.django_db

MESSAGES = {
    "en": {
        "dealt": "{seat} was dealt a card",
        "dealt_card": "You were dealt {card}",
        "moved": "{seat} moved",
    },
    "fr": {
        "dealt": "{seat} a reçu une carte",
        "dealt_card": "Vous avez reçu {card}",
        "moved": "{seat} a joué",
    },
}


@pytest.fixture
def worded(monkeypatch):
    """Cosmic Crowns with events of our own: a deal one seat reads in full, and a move everybody reads."""
    from rules import registry

    cls = type(registry.get("cosmic_crowns"))
    monkeypatch.setattr(cls, "messages", MESSAGES)
    monkeypatch.setattr(
        cls,
        "setup_events",
        lambda self, state: [
            {"kind": "dealt", "seat": 0},
            {"kind": "dealt_card", "seat": 0, "card": state["hands"][0][0], "to": [0]},
        ],
    )
    monkeypatch.setattr(
        cls, "events", lambda self, before, seat, move, after: [{"kind": "moved", "seat": seat}]
    )
    selectors._dealt.cache_clear()  # (the process keeps each deal's events: these are not the engine's)
    yield
    selectors._dealt.cache_clear()


def test_each_viewer_reads_the_log_in_its_language_and_only_what_it_may(alice, bob, started_table, worded):
    table = started_table("cosmic_crowns", [alice, bob])
    seat = table.to_act[0]
    move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
    services.play_move(table.pk, [alice, bob][seat], move, 0)
    assert Move.objects.get(table=table).events == [{"kind": "moved", "seat": seat}]
    first_card = table.state["hands"][0][0]
    mover = ["alice", "bob"][seat]

    alice_fr = render_frame(table, alice, "fr")
    assert (
        "alice a reçu une carte" in alice_fr
        and "Vous avez reçu" in alice_fr
        and f"{mover} a joué" in alice_fr
    )
    assert alice_fr.index("alice a reçu une carte") < alice_fr.index(
        f"{mover} a joué"
    )  # the deal comes first
    bob_en = render_frame(table, bob, "en")
    assert "alice was dealt a card" in bob_en and f"{mover} moved" in bob_en
    assert "You were dealt" not in bob_en and "a joué" not in bob_en
    watching = render_frame(table, AnonymousUser(), "fr")
    assert "alice a reçu une carte" in watching and "Vous avez reçu" not in watching
    assert first_card not in render_frame(table, AnonymousUser(), "en").split('class="move-log"')[1]


def test_the_deal_leaves_the_log_once_its_first_moves_have(alice, bob, started_table, worded):
    table = started_table("cosmic_crowns", [alice, bob])
    users = [alice, bob]
    for _ in range(13):  # one more than a live log shows
        table.refresh_from_db()
        seat = table.to_act[0]
        move = table.engine.legal_moves(table.engine.load(table.state), seat)[0]
        services.play_move(table.pk, users[seat], move, table.seq)
    table.refresh_from_db()
    frame = render_frame(table, alice, "en")
    assert "was dealt" not in frame and frame.count(" moved<") == 12
