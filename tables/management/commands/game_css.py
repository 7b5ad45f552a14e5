"""Write the generated part of each game's stylesheet (a registration's ``generated_css``), or check it."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandError

from tables import games


class Command(BaseCommand):
    help = "Write into each game's stylesheet the rules its registration generates (--check: only compare)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="fail if a stylesheet is not up to date")

    def handle(self, *args, check=False, **options):
        stale = []
        for plugin in games.plugins():
            if plugin.generated_css is None:
                continue
            path = finders.find(plugin.css)
            with open(path, encoding="utf-8") as f:
                css = f.read()
            generated = plugin.generated_css()
            old = games.css_block(css, generated)
            if old == generated:
                continue
            stale.append(plugin.css)
            if check:
                continue
            css = css.replace(old, generated) if old else css.rstrip("\n") + "\n" + generated + "\n"
            with open(path, "w", encoding="utf-8") as f:
                f.write(css)
            self.stdout.write(f"wrote {path}")
        if check and stale:
            raise CommandError(f"not up to date (run manage.py game_css): {', '.join(stale)}")
