"""Replays and exports of finished games: rebuilt from the seed and the move log, never from the snapshot."""

import json

import pytest
from django.core.management import CommandError, call_command

from accounts.models import ApiToken
from tables import history
from tables.models import Table
from tests.html import card_codes
from tests.tables.history_games import GAMES, finished_game

pytestmark = pytest.mark.django_db


def bearer(user):
    return {"HTTP_AUTHORIZATION": f"Bearer {ApiToken.issue(user)[1]}"}


def strings_in(value) -> set[str]:
    """Every string anywhere in a view (the card codes it may show among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values()), set())
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value), set())
    return set()


@pytest.fixture(scope="module")
def seeded_set(django_db_setup, django_db_blocker):
    """Two finished games of each game (seeds 1 and 2), between alice and bob, kept for the module."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock():
        users = [get_user_model().objects.create_user(name) for name in ("rp_alice", "rp_bob")]
        tables = [finished_game(game, users, seed=seed).pk for game in GAMES for seed in (1, 2)]
        yield users, tables
        Table.objects.filter(pk__in=tables).delete()
        for user in users:
            user.delete()


@pytest.mark.slow
def test_every_finished_game_replays_to_its_stored_final_state(seeded_set):
    _, pks = seeded_set
    assert {t.game for t in Table.objects.filter(pk__in=pks)} == set(GAMES)
    for table in Table.objects.filter(pk__in=pks):
        assert table.status == Table.FINISHED
        replay = history.Replay.of(table)
        states = list(replay.states())
        assert len(states) == table.seq + 1 == replay.last + 1
        engine = table.engine
        assert engine.dump(states[-1]) == table.state
        assert engine.dump(replay.state_at(replay.last)) == table.state
        assert history.check_export(json.loads(json.dumps(history.export(table)))).reproduces


def test_the_replay_ignores_the_snapshot(seeded_set):
    _, pks = seeded_set
    table = Table.objects.get(pk=pks[0])
    stored = table.state
    Table.objects.filter(pk=table.pk).update(state={"garbage": True})
    table.refresh_from_db()
    assert table.engine.dump(history.Replay.of(table).state_at(table.seq)) == stored


def test_replay_page_steps_seats_and_deep_links(client, seeded_set):
    (alice, bob), pks = seeded_set
    table = Table.objects.get(pk=pks[0])
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/replay/").content.decode()
    assert 'data-step="0"' in page and f'data-last="{table.seq}"' in page
    assert f'class="seat-link current" href="/tables/{table.pk}/replay/?step=0&amp;seat=0"' in page
    assert 'rel="next"' in page and "js/replay.js" in page
    deep = client.get(f"/tables/{table.pk}/replay/?step=3&seat=1")
    assert deep.status_code == 200 and 'data-step="3"' in deep.content.decode()
    fragment = client.get(f"/tables/{table.pk}/replay/?step=3&seat=watch", HTTP_HX_REQUEST="true").content
    assert b"<html" not in fragment and b'id="replay-step"' in fragment
    # Out-of-range and garbled parameters fall back to the nearest valid step and the visitor's own seat.
    odd = client.get(f"/tables/{table.pk}/replay/?step=99999&seat=abc").content.decode()
    assert f'data-step="{table.seq}"' in odd and "Final scores" in odd


@pytest.mark.parametrize("index", range(8))
def test_each_step_shows_only_what_that_seat_saw(client, seeded_set, index):
    """At every few steps, from every seat and the spectator's chair: no card the engine's view hides."""
    (alice, _), pks = seeded_set
    table = Table.objects.get(pk=pks[index])
    replay = history.Replay.of(table)
    engine = table.engine
    states = list(replay.states())
    steps = sorted({0, 1, len(states) // 2, len(states) - 1})
    for seat in [None, *range(table.players)]:
        for step in steps:
            shown = strings_in(engine.view(states[step], seat))
            param = "watch" if seat is None else seat
            page = client.get(f"/tables/{table.pk}/replay/?step={step}&seat={param}").content.decode()
            leaked = set(card_codes(page)) - shown
            assert not leaked, (table.game, seat, step, leaked)


def test_no_replay_or_export_of_a_game_being_played(client, alice, bob, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/replay/")
    assert page.status_code == 409 and b"not finished" in page.content
    assert client.get(f"/tables/{table.pk}/export/").status_code == 409
    status = client.get(f"/api/tables/{table.pk}/export", **bearer(alice))
    assert status.status_code == 409 and "finished" in status.json()["error"]
    assert str(table.seed) not in client.get(f"/api/tables/{table.pk}", **bearer(alice)).content.decode()
    assert client.get("/tables/999999/replay/").status_code == 404
    assert client.get("/api/tables/999999/export", **bearer(alice)).status_code == 404


def test_a_private_game_is_replayed_and_exported_only_by_its_players(client, seeded_set, make_user):
    (alice, _), pks = seeded_set
    Table.objects.filter(pk=pks[0]).update(private=True)
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(f"/tables/{pks[0]}/replay/").status_code == 404
    assert client.get(f"/api/tables/{pks[0]}/export", **bearer(stranger)).status_code == 404
    assert client.get(f"/api/tables/{pks[1]}/export", **bearer(stranger)).status_code == 200
    client.force_login(alice)
    assert client.get(f"/tables/{pks[0]}/replay/").status_code == 200
    Table.objects.filter(pk=pks[0]).update(private=False)


def test_export_has_the_contract_shape_and_replays(client, seeded_set):
    (alice, bob), pks = seeded_set
    table = Table.objects.get(pk=pks[2])
    body = client.get(f"/api/tables/{table.pk}/export", **bearer(bob)).json()
    assert set(body) == {"game", "options", "players", "seed", "moves", "result"}
    assert body["players"] == ["rp_alice", "rp_bob"] and body["seed"] == table.seed == 1
    assert [m["seq"] for m in body["moves"]] == list(range(table.seq))
    assert set(body["moves"][0]) == {"seq", "seat", "move"}
    from rules import registry

    engine = registry.get(body["game"])
    state = engine.setup(players=len(body["players"]), seed=body["seed"], options=body["options"])
    for m in body["moves"]:
        state = engine.apply(state, m["seat"], m["move"])
    assert json.loads(json.dumps(engine.result(state))) == body["result"]
    download = client.get(f"/tables/{table.pk}/export/")
    assert download["Content-Disposition"].startswith("attachment") and json.loads(download.content) == body


def test_replay_command_and_api_say_whether_a_file_reproduces(client, seeded_set, tmp_path, capsys):
    (alice, _), pks = seeded_set
    data = history.export(Table.objects.get(pk=pks[4]))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    call_command("replay", str(good))
    assert "Reproduces" in capsys.readouterr().out
    forged = dict(data, result={**data["result"], "winners": [9]})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged))
    with pytest.raises(CommandError, match="different result"):
        call_command("replay", str(bad))
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(dict(data, moves=data["moves"][:-1])))
    with pytest.raises(CommandError, match="not over"):
        call_command("replay", str(cut))
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("replay", str(junk))

    def post(body):
        raw = body if isinstance(body, str) else json.dumps(body)
        r = client.post("/api/replay", raw, content_type="application/json", **bearer(alice))
        return r.status_code, r.json()

    status, body = post(data)
    assert status == 200 and body["reproduces"] is True and body["result"] == data["result"]
    assert post(forged)[1]["reproduces"] is False
    swapped = dict(data, moves=[dict(m, seat=1 - m["seat"]) for m in data["moves"]])
    status, body = post(swapped)
    assert status == 200 and body["reproduces"] is False and "refused" in body["message"]
    for broken in (
        {},
        {"game": "nope"},
        dict(data, seed="1"),
        dict(data, game="chess"),
        dict(data, moves=[1]),
    ):
        status, body = post(broken)
        assert status == 400 and body["error"]
    assert post("{not json")[0] == 400
    status, body = post(dict(data, players=[None] * 40))
    assert status == 200 and body["reproduces"] is False and "setup" in body["message"]
