"""bench/live.py's setup step for the site: players, their API tokens and their signed-in sessions.

Run with the venv python on an already migrated database (DATABASE_URL or SQLITE_PATH in the
environment, DJANGO_SETTINGS_MODULE=config.settings): `python bench/_live_setup.py N` creates the players
bench0 .. bench<N-1> and prints one JSON line {"cookie": NAME, "users": [{"name", "token", "session"}]}.
"""

import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import ApiToken  # noqa: E402


def main():
    users = []
    for n in range(int(sys.argv[1]) if len(sys.argv) > 1 else 4):
        user = User.objects.create_user(f"bench{n}", password=f"live-bench-{n}-passphrase")
        _, raw = ApiToken.issue(user, name="live bench")
        client = Client()
        client.force_login(user)  # a real session row, as a log-in through the form would leave
        users.append(
            {
                "name": user.username,
                "token": raw,
                "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        )
    print(json.dumps({"cookie": settings.SESSION_COOKIE_NAME, "users": users}))


if __name__ == "__main__":
    main()
