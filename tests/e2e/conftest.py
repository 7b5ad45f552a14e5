"""Browser tests: a real daphne (HTTP + WebSockets + whitenoise static files) and the system Chromium.

Run apart from the asyncio tests: `pytest -m browser tests/e2e` (the Makefile does).
Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.conftest import require_or_skip

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "e2e-passphrase-31"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url: str, env: dict):
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout


def start_daphne(env: dict, port: int, log_path: pathlib.Path) -> subprocess.Popen:
    daphne = pathlib.Path(sys.executable).with_name("daphne")
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"daphne did not start; see {log_path}")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        require_or_skip("REQUIRE_BROWSER", "Chromium is not installed (apt-get install chromium)")
    tmp = tmp_path_factory.mktemp("e2e")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SQLITE_PATH": str(tmp / "e2e.sqlite3"),
        "DJANGO_DEBUG": "true",
        "BOT_DELAY": "0",
        "LOGIN_FAILURE_LIMIT": "1000",
        "SIGNUP_LIMIT": "1000",  # every browser test signs its players up from 127.0.0.1
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    proc = start_daphne(env, port, tmp / "daphne.log")
    yield Server(f"http://127.0.0.1:{port}", env)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        require_or_skip("REQUIRE_BROWSER", "Chromium is not installed (apt-get install chromium)")
    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def new_page(browser):
    """new_page(width=1280) -> a page in a fresh browser context (its own cookies: another person)."""
    contexts = []

    def make(width: int = 1280, height: int = 900):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def shot(page, name: str) -> pathlib.Path:
    page.evaluate("window.scrollTo(0, 0)")  # else the sticky top bar lands mid-page in a full-page shot
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_up(page, server, username: str) -> None:
    """Create an account through the real sign-up form; the page is then logged in."""
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.card-form button")
    page.wait_for_url(f"{server.url}/")


_counter = {"n": 0}


def unique(name: str) -> str:
    _counter["n"] += 1
    return f"{name}{os.getpid()}x{_counter['n']}"


def seq_of(page) -> int:
    """The table's seq as this page shows it (the status section carries it)."""
    return int(page.locator("section.table-status").get_attribute("data-seq"))


def wait_for_seq(page, at_least: int, timeout: int = 10000) -> None:
    """Wait until this page has been brought to at least that seq (live, over its socket)."""
    page.wait_for_function(
        "n => Number(document.querySelector('section.table-status').dataset.seq) >= n",
        arg=at_least,
        timeout=timeout,
    )


def open_two_player_table(server, host, guest, game: str, guest_name: str, **choices: str) -> str:
    """The host creates a 2-player table through the form (with any other <select> choices), the guest joins
    from the invite link, the host sees the guest arrive live and starts. Returns the table's URL."""
    import re

    host.goto(f"{server.url}/games/{game}/new/")
    host.select_option("select[name=players]", "2")
    for name, value in choices.items():
        host.select_option(f"select[name={name}]", value)
    host.click("form.card-form button")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = host.url
    guest.goto(table_url)
    with guest.expect_navigation():  # the action answers htmx with a refresh
        guest.click("text=Join this table")
    guest.wait_for_selector(f".seat-chip.me >> text={guest_name}")
    host.wait_for_selector(f".seat-chip >> text={guest_name}")  # live, without reloading
    with host.expect_navigation():  # the action answers htmx with a refresh
        host.click("button:has-text('Start')")
    return table_url
