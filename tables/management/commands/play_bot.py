"""``python manage.py play_bot --token T [--url U] [--level casual|strong] [--accept-challenges]``: a bot that
plays on a running site through its HTTP API alone, the example to copy for a bot of your own. The token may
come from the environment instead (``CARDCLUB_TOKEN``), out of sight of ``ps``.

It touches no model and no database: everything goes through three calls of the API (see /api/docs).

1. ``GET /api/stream/events`` (NDJSON, one object a line, empty lines to keep the connection alive): a
   ``challenge`` is accepted (``POST /api/challenges/<id>/accept``) when asked to; a ``gameStart`` starts
   following that game in a thread of its own.
2. ``GET /api/stream/tables/<id>``: a ``full`` line, then a ``state`` line after every change, with the
   bot's own ``view``, its ``legal_moves`` and ``to_act``; a ``finish`` line ends the game.
3. ``POST /api/tables/<id>/moves`` ``{"move", "seq"}`` when the bot's seat is awaited. The move is chosen by
   the project's own bot brains (``rules.bots``), from the view and the legal moves only, like a person.

No call polls: the bot waits on its streams.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import urllib.parse

from django.core.management.base import BaseCommand, CommandError

from rules import bots

TOKEN_VARIABLE = "CARDCLUB_TOKEN"


class Api:
    """The few HTTP calls a bot needs, with its token."""

    def __init__(self, url: str, token: str):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CommandError(f"{url} is not an http(s) address.")
        self.https, self.host, self.port = parts.scheme == "https", parts.hostname, parts.port
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def connection(self, timeout: float | None = None) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        conn = self.connection(timeout=30)
        try:
            conn.request("POST", path, body=json.dumps(body), headers=self.headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()

    def stream(self, path: str):
        """Each JSON line of a stream, until it ends (keep-alive lines skipped)."""
        conn = self.connection(timeout=60)  # (a keep-alive line comes every few seconds)
        try:
            conn.request("GET", path, headers=self.headers)
            response = conn.getresponse()
            if response.status != 200:
                raise CommandError(f"GET {path}: {response.status} {response.read()[:200]!r}")
            while line := response.readline():
                if line.strip():
                    yield json.loads(line)
        finally:
            conn.close()


class Bot:
    def __init__(self, api: Api, level: str, accept: bool, games: int | None, say):
        self.api, self.level, self.accept, self.games, self.say = api, level, accept, games, say
        self.followed: set[int] = set()
        self.finished = 0

    def run(self) -> None:
        for event in self.api.stream("/api/stream/events"):
            kind = event["type"]
            if kind == "challenge" and self.accept and event["challenge"]["status"] == "pending":
                status, _ = self.api.post(f"/api/challenges/{event['challenge']['id']}/accept", {})
                self.say(f"challenge {event['challenge']['id']} from {event['challenge']['from']}: {status}")
            elif kind == "gameStart" and event["table"] not in self.followed:
                self.followed.add(event["table"])
                threading.Thread(target=self.play, args=(event["table"], event["game"]), daemon=True).start()
            elif kind == "gameFinish":
                self.finished += 1
                self.say(f"table {event['table']}: {event['status']}")
                if self.games is not None and self.finished >= self.games:
                    return

    def play(self, table: int, game: str) -> None:
        for line in self.api.stream(f"/api/stream/tables/{table}"):
            if line["type"] == "finish":
                return
            view, legal = line["view"], line["legal_moves"]
            if line["status"] != "playing" or not legal or view["seat"] not in line["to_act"]:
                continue  # (not our turn: wait for the next line)
            move = bots.choose(game, view, legal, self.level, line["seq"], seat=view["seat"])
            status, answer = self.api.post(f"/api/tables/{table}/moves", {"move": move, "seq": line["seq"]})
            if status != 200:  # (409: the table moved on meanwhile; its next line says where it is)
                self.say(f"table {table}: move refused ({status}): {answer.get('error')}")


class Command(BaseCommand):
    help = "Play as a bot on a running site, through its HTTP API only (the example bot)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--token",
            default=os.environ.get(TOKEN_VARIABLE),
            help=f"the bot account's API token (default: ${TOKEN_VARIABLE})",
        )
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site (default: %(default)s)")
        parser.add_argument("--level", choices=["casual", "strong"], default="casual")
        parser.add_argument("--accept-challenges", action="store_true", help="accept every challenge")
        parser.add_argument("--games", type=int, help="stop once this many games have ended")

    def handle(self, *args, **options):
        if not options["token"]:
            raise CommandError(f"Give the bot account's API token: --token T, or ${TOKEN_VARIABLE}.")
        api = Api(options["url"], options["token"])
        bot = Bot(api, options["level"], options["accept_challenges"], options["games"], self.stdout.write)
        try:
            bot.run()
        except (OSError, http.client.HTTPException) as exc:
            raise CommandError(f"Lost the site at {options['url']}: {exc}") from None
