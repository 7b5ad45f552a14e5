"""The site's VAPID key pair for Web Push: generated once and kept in the database, unless the settings
give one (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY). `--new-pair` prints a fresh pair to put in the environment."""

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts import push


class Command(BaseCommand):
    help = "Show the VAPID public key (generating and keeping the pair once), or print a new pair for the settings."

    def add_arguments(self, parser):
        parser.add_argument(
            "--new-pair", action="store_true", help="print a new pair as environment variables"
        )

    def handle(self, *args, new_pair=False, **options):
        if new_pair:
            private, public = push.generate_keys()
            self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
            return
        source = "settings" if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY else "database"
        self.stdout.write(f"{push.public_key()}\n")
        self.stderr.write(f"(from the {source}; subject {push.subject()})\n")
