"""``manage.py play_bot`` (issue #32, point 4) against a running daphne: two bots, one accepting challenges,
play a whole game of each of the four games through the API's streams alone (daphne's log shows every
request they made: no polling call among them). The bots take their tokens from the environment, as a bot
that keeps its token out of ``ps`` does."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request

import pytest
from django.core.management import CommandError, call_command

from tests.processes import ROOT, daphnes, free_port, migrate, shell, sqlite_env, start_daphne, stop

pytestmark = pytest.mark.slow

GAMES = ("chronica", "cosmic_crowns", "cosplay", "five_crowns")


def challenge(url: str, token: str, game: str) -> int:
    body = json.dumps({"username": "alice", "game": game}).encode()
    request = urllib.request.Request(
        f"{url}/api/challenges",
        data=body,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["id"]


def finished(bots, timeout: float) -> list[str]:
    """What each bot printed once both have ended; if one has not ended in time, both are stopped and the
    test fails with what each printed (a bot's threads print why they stopped)."""
    deadline = time.monotonic() + timeout
    try:
        return [bot.communicate(timeout=max(1.0, deadline - time.monotonic()))[0] for bot in bots]
    except subprocess.TimeoutExpired:
        for bot in bots:
            bot.kill()
        pytest.fail(f"the bots did not end within {timeout:.0f}s: {[bot.communicate()[0] for bot in bots]}")


def two_players(tmp_path) -> tuple[dict, str, str]:
    """A fresh SQLite site's environment, and the API tokens of its two people, alice and bob."""
    env = sqlite_env(tmp_path / "db.sqlite3", DJANGO_DEBUG="true", WORKER_IN_PROCESS="false")
    migrate(env)
    script = (
        "from django.contrib.auth.models import User\n"
        "from accounts.models import ApiToken\n"
        "alice = User.objects.create_user('alice', password='bot-pass-1')\n"
        "bob = User.objects.create_user('bob', password='bot-pass-2')\n"
        "print(ApiToken.issue(alice, 'bot')[1], ApiToken.issue(bob, 'bot')[1])\n"
    )
    alice, bob = shell(env, script).split()[-2:]
    return env, alice, bob


def two_bots(env: dict, url: str, games: int, alice: str, bob: str) -> list[subprocess.Popen]:
    """alice's bot, accepting challenges, and bob's, each to stop after ``games`` games."""
    command = [sys.executable, "manage.py", "play_bot", "--url", url, "--games", str(games)]
    return [
        subprocess.Popen(
            [*command, *extra],
            cwd=ROOT,
            env={**env, "CARDCLUB_TOKEN": token},
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for token, extra in ((alice, ["--accept-challenges"]), (bob, []))
    ]


def tables_of(env: dict) -> list[tuple[str, str, int]]:
    """(game, status, seq) of every table, by game."""
    ended = shell(
        env,
        "from tables.models import Table\n"
        "for t in Table.objects.order_by('game'): print('TABLE', t.game, t.status, t.seq)\n",
    ).split("\n")
    return [
        (game, status, int(seq))
        for _, game, status, seq in (r.split() for r in ended if r.startswith("TABLE "))
    ]


def test_two_bots_play_a_whole_game_of_each_game_from_the_streams(tmp_path):
    env, alice, bob = two_players(tmp_path)
    with daphnes(env, tmp_path) as (port,):
        url = f"http://127.0.0.1:{port}"
        bots = two_bots(env, url, len(GAMES), alice, bob)
        try:
            # (whether or not alice's event stream is open yet: it opens with the challenges waiting)
            for game in GAMES:
                challenge(url, bob, game)
            outputs = finished(bots, timeout=300)  # (about 30 s here; 60 in a busy CI)
        finally:
            for bot in bots:
                bot.kill()
        assert [bot.returncode for bot in bots] == [0, 0], outputs
    rows = tables_of(env)
    assert [(game, status) for game, status, _seq in rows] == [(g, "finished") for g in GAMES], rows
    moves = sum(seq for _game, _status, seq in rows)
    log = (tmp_path / f"daphne-{port}.log").read_text()
    calls = re.findall(r'"(GET|POST|PUT|DELETE|PATCH) (/api/[^ "?]*)', log)
    kinds = {(method, re.sub(r"\d+", "N", path)) for method, path in calls}
    streams_and_moves = {
        ("GET", "/api/stream/events"),  # (logged when it ends: a stream the bot left may not be)
        ("POST", "/api/challenges/N/accept"),
        ("GET", "/api/stream/tables/N"),
        ("POST", "/api/tables/N/moves"),
    }
    assert kinds - {("POST", "/api/challenges")} <= streams_and_moves, kinds  # (the test's own challenges)
    assert {("POST", "/api/challenges/N/accept"), ("GET", "/api/stream/tables/N")} <= kinds
    assert sum(1 for _method, path in calls if "/stream/tables/" in path) == 2 * len(GAMES)  # one each
    posted = sum(1 for method, path in calls if method == "POST" and path.endswith("/moves"))
    assert posted >= moves  # every move was posted by a bot (a few more refused as stale at most)


def test_the_bots_play_on_when_the_site_restarts_under_them(tmp_path):
    """daphne stopped in the middle of a game and started again: each bot opens its streams again (after 1, 2,
    4 ... s) and the game goes on to its end, as a bot on a site that restarts for a deploy must."""
    env, alice, bob = two_players(tmp_path)
    port = free_port()
    first, again = tmp_path / "daphne-first.log", tmp_path / "daphne-again.log"
    site = start_daphne(env, port, first)
    url = f"http://127.0.0.1:{port}"
    bots = two_bots(env, url, 1, alice, bob)
    try:
        challenge(url, bob, "cosmic_crowns")
        deadline = time.monotonic() + 120
        while first.read_text().count("/moves") < 6:  # (a few moves made: the game is under way)
            assert time.monotonic() < deadline and all(bot.poll() is None for bot in bots), first.read_text()
            time.sleep(0.1)
        stop(site)
        site = start_daphne(env, port, again)
        outputs = finished(bots, timeout=300)
    finally:
        for bot in bots:
            bot.kill()
        stop(site)
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    assert all("lost" in output and "table 1: " in output for output in outputs), outputs
    assert [(game, status) for game, status, _seq in tables_of(env)] == [("cosmic_crowns", "finished")]
    assert '"POST /api/tables/1/moves" 200' in again.read_text()  # (the game went on on the new site)


@pytest.mark.django_db(transaction=True)
def test_a_bot_whose_token_is_refused_stops_at_once_and_says_why(live_server):
    """A stream lost is opened again, but a 401 is not a loss: the bot stops (a revoked token stays revoked)."""
    started = time.monotonic()
    with pytest.raises(CommandError, match=r"Refused by the site .*: GET /api/stream/events: 401"):
        call_command("play_bot", "--token", "not-a-token", "--url", live_server.url)
    assert time.monotonic() - started < 10
