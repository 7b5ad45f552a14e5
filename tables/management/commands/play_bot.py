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

No call polls: the bot waits on its streams. A stream lost (the site restarting, the network gone a while)
is opened again after 1, 2, 4, ... 30 seconds, and again every 30 seconds until it comes back: its first lines
say where things stand (the games under way, each table's ``full`` line), so nothing is missed. Only a refusal
for good (the token unknown or revoked: 401, 403) stops the bot.
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
BACK_OFF = (1, 2, 4, 8, 15, 30)  # seconds before each new try after a loss, the last one repeated
LOST = (OSError, http.client.HTTPException, ValueError)  # (ValueError: a line or an answer cut short)


def told(exc: BaseException) -> str:
    """What a loss says in the bot's output: ``ConnectionRefusedError: [Errno 111] ...``."""
    return f"{type(exc).__name__}: {exc}"


class Refused(Exception):
    """The site refused the bot for good (401, 403: its token unknown or revoked; 404: no such table)."""


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
        """Each JSON line of a stream until it ends, and None for each keep-alive line (every few seconds)."""
        conn = self.connection(timeout=60)
        try:
            conn.request("GET", path, headers=self.headers)
            response = conn.getresponse()
            if response.status in (401, 403, 404):
                raise Refused(f"GET {path}: {response.status} {response.read()[:200]!r}")
            if response.status != 200:  # (a site starting or overloaded: 502, 503, 429; tried again)
                raise http.client.HTTPException(f"GET {path}: {response.status}")
            while line := response.readline():
                yield json.loads(line) if line.strip() else None
        finally:
            conn.close()


class Bot:
    def __init__(self, api: Api, level: str, accept: bool, games: int | None, say):
        self.api, self.level, self.accept, self.games, self.say = api, level, accept, games, say
        self.followed: set[int] = set()
        self.ended: set[int] = set()  # the games seen over, by their gameFinish or their table's finish line
        self.lock = threading.Lock()
        self.done = threading.Event()  # set once --games games are over

    def lasting(self, path: str, what: str):
        """The lines of the stream at ``path``, opened again after each loss (``BACK_OFF``) until the bot is
        done; the stream's own end counts as a loss (a table's stream ends on its finish line, which the caller
        returns on first)."""
        tries = 0
        while not self.done.is_set():
            try:
                for line in self.api.stream(path):
                    tries = 0
                    yield line
                lost = "the stream ended"
            except LOST as exc:
                lost = told(exc)
            wait = BACK_OFF[min(tries, len(BACK_OFF) - 1)]
            tries += 1
            self.say(f"{what}: lost ({lost}); opened again in {wait} s")
            self.done.wait(wait)

    def over(self, table: int, how: str) -> None:
        with self.lock:
            if table in self.ended:
                return
            self.ended.add(table)
            self.say(f"table {table}: {how}")
            if self.games is not None and len(self.ended) >= self.games:
                self.done.set()

    def run(self) -> None:
        for event in self.lasting("/api/stream/events", "events"):
            if self.done.is_set():
                return
            kind = event and event["type"]
            if kind == "challenge" and self.accept and event["challenge"]["status"] == "pending":
                try:
                    status, _ = self.api.post(f"/api/challenges/{event['challenge']['id']}/accept", {})
                except LOST as exc:  # (still pending: the stream opened again says it again)
                    status = told(exc)
                self.say(f"challenge {event['challenge']['id']} from {event['challenge']['from']}: {status}")
            elif kind == "gameStart" and event["table"] not in self.followed:
                self.followed.add(event["table"])
                threading.Thread(
                    target=self.follow, args=(event["table"], event["game"]), daemon=True
                ).start()
            elif kind == "gameFinish":
                self.over(event["table"], event["status"])

    def follow(self, table: int, game: str) -> None:
        try:
            self.play(table, game)
        except Refused as exc:
            self.say(f"table {table}: {exc}")

    def play(self, table: int, game: str) -> None:
        for line in self.lasting(f"/api/stream/tables/{table}", f"table {table}"):
            if line is None:
                continue  # (a keep-alive line)
            if line["type"] == "finish":
                self.over(table, "over")
                return
            view, legal = line["view"], line["legal_moves"]
            if line["status"] != "playing" or not legal or view["seat"] not in line["to_act"]:
                continue  # (not our turn: wait for the next line)
            move = bots.choose(game, view, legal, self.level, line["seq"], seat=view["seat"])
            try:
                status, answer = self.api.post(
                    f"/api/tables/{table}/moves", {"move": move, "seq": line["seq"]}
                )
            except LOST as exc:  # (committed or not, the table's next line, or its full line, says which)
                status, answer = told(exc), {}
            if status != 200:  # (409: the table moved on meanwhile; its next line says where it is)
                why = f": {answer['error']}" if answer.get("error") else ""
                self.say(f"table {table}: move not taken ({status}){why}")


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
        except Refused as exc:
            raise CommandError(f"Refused by the site at {options['url']}: {exc}") from None
