"""Demo content for `make run`: three players, an open table, a game in progress and finished games.

Idempotent: does nothing when the demo players already exist.
"""

import random

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from rules import bots, registry
from tables import selectors, services
from tables.models import Table

DEMO_PASSWORD = "cardclub-demo"
DEMO_USERS = ("alice", "bob", "carol")


def play_sensibly(table: Table, users_by_seat, rnd: random.Random, limit: int) -> None:
    """Play casual-bot moves through the real service, as the seated players would."""
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != Table.PLAYING:
            return
        seat = table.to_act[0]
        position = selectors.position(table, seat)
        move = bots.choose(
            table.game, position.view, position.legal_moves, "casual", rnd.randrange(2**62), seat=seat
        )
        services.play_move(table.pk, users_by_seat[seat], move, table.seq)


class Command(BaseCommand):
    help = "Create demo players and tables (idempotent)."

    def handle(self, *args, **options):
        # The demo players are not told by e-mail about the demo moves.
        with override_settings(
            MAILERS={"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
        ):
            self.seed()

    def seed(self):
        if User.objects.filter(username=DEMO_USERS[0]).exists():
            self.stdout.write("Demo content already there.")
            return
        users = [
            User.objects.create_user(name, email=f"{name}@example.com", password=DEMO_PASSWORD)
            for name in DEMO_USERS
        ]
        alice, bob, carol = users
        rnd = random.Random(2026)
        for slug, engine in sorted(registry.games().items()):
            opts = {"mode": "hard"} if "mode" in engine.options else {}
            services.create_table(alice, slug, engine.min_players, opts)
            # A finished game for the history pages, then one in progress.
            for limit in (5000, 7):
                players = [alice, bob] if engine.max_players < 3 else [alice, bob, carol]
                table = services.create_table(players[0], slug, len(players), {})
                for user in players[1:]:
                    services.join_table(table.pk, user)
                table = services.start_table(table.pk, players[0])
                play_sensibly(table, players, rnd, limit)
        self.stdout.write(
            self.style.SUCCESS(f"Demo players {', '.join(DEMO_USERS)} (password {DEMO_PASSWORD}).")
        )
