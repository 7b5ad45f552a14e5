import threading

from django.core.management.base import BaseCommand

from tables import worker


class Command(BaseCommand):
    help = "Run the worker (bots, turn clocks, reminders, e-mail, pushes) in the foreground, for a deployment with several web processes."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between checks")

    def handle(self, *args, **options):
        self.stdout.write("Worker running: bots, clocks, reminders, e-mail and pushes.")
        stop = threading.Event()
        try:
            worker.run(stop, interval=options["interval"])
        except KeyboardInterrupt:
            stop.set()
