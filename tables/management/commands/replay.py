"""``python manage.py replay FILE``: replay an exported game through the rules and check its result."""

import json

from django.core.management.base import BaseCommand, CommandError

from tables import history


class Command(BaseCommand):
    help = "Replay an exported game (JSON) through the rules and say whether it reproduces its result."

    def add_arguments(self, parser):
        parser.add_argument("file", help="an export, as GET /api/tables/<id>/export gives it")

    def handle(self, *args, **options):
        try:
            with open(options["file"], encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}") from None
        except (ValueError, UnicodeDecodeError):
            raise CommandError(f"{options['file']} is not JSON.") from None
        try:
            outcome = history.check_export(data)
        except history.BadExport as exc:
            raise CommandError(f"Not an export: {exc}") from None
        if not outcome.reproduces:
            raise CommandError(f"Does not reproduce: {outcome.message}")
        self.stdout.write(self.style.SUCCESS(f"Reproduces: {outcome.message}"))
