"""`make run` as a newcomer meets it: on a copy of the checkout (its installed dependencies borrowed from
this interpreter's environment), it serves the demo with the site's own 404 page, its static files and a
working log-in; Ctrl-C stops it; `make reset` starts the demo again; HOST=0.0.0.0 answers the local network."""

from __future__ import annotations

import http.cookiejar
import os
import pathlib
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def checkout(tmp_path):
    """A copy of the tracked tree, without var/ or staticfiles/, its .venv this interpreter's."""
    tree = tmp_path / "cardclub"
    shutil.copytree(
        ROOT,
        tree,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "var", "staticfiles", "artifacts", "__pycache__", ".*_cache", "*.egg-info"
        ),
    )
    (tree / ".venv").symlink_to(pathlib.Path(sys.executable).parent.parent)
    return tree


def make_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))}
    env.pop("SQLITE_PATH", None)
    return env


def start(tree: pathlib.Path, port: int, *extra: str) -> subprocess.Popen:
    # -o: the borrowed environment is taken as installed (the copy's pyproject.toml is newer than its marker).
    return subprocess.Popen(
        ["make", "-o", ".venv/.installed", "run", f"PORT={port}", *extra],
        cwd=tree,
        env=make_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def wait_until_served(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"make run stopped: {proc.stdout.read()}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise AssertionError(f"nothing served at {url} within {seconds} s")


def stop(proc: subprocess.Popen) -> str:
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's process group
    out, _ = proc.communicate(timeout=30)
    return out


def tables_in(tree: pathlib.Path) -> int:
    with sqlite3.connect(tree / "var" / "db.sqlite3") as db:
        return db.execute("select count(*) from tables_table").fetchone()[0]


def test_make_run_serves_the_demo_with_the_sites_own_404_and_make_reset_starts_it_again(checkout):
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    proc = start(checkout, port)
    try:
        wait_until_served(site + "/", proc)
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(site + "/no-such-page/")
        page = missing.value.read().decode()
        assert missing.value.code == 404
        assert "Nothing here" in page and 'class="topbar"' in page and "URLconf" not in page
        home = urllib.request.urlopen(site + "/").read().decode()
        css = re.search(r'href="(/static/css/[^"]+\.css)"', home).group(1)
        assert urllib.request.urlopen(site + css).status == 200

        # The demo players log in over plain HTTP (the cookies are not marked secure).
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        form = browser.open(site + "/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": "alice", "password": "cardclub-demo"}
        ).encode()
        request = urllib.request.Request(
            site + "/accounts/login/", data=data, headers={"Referer": site + "/"}
        )
        assert "alice" in browser.open(request).read().decode()
    finally:
        out = stop(proc)
    assert "Ctrl-C" in out and "var/" in out
    assert "be careful" not in out and "Traceback" not in out

    seeded = tables_in(checkout)
    with sqlite3.connect(checkout / "var" / "db.sqlite3") as db:
        db.execute("delete from tables_table where id in (select id from tables_table limit 1)")
    assert tables_in(checkout) == seeded - 1
    reset = subprocess.run(
        ["make", "-o", ".venv/.installed", "reset"],
        cwd=checkout,
        env=make_env(),
        capture_output=True,
        text=True,
    )
    assert reset.returncode == 0, reset.stdout + reset.stderr
    assert tables_in(checkout) == seeded


def test_with_host_0000_make_run_answers_the_local_network(checkout):
    port = free_port()
    proc = start(checkout, port, "HOST=0.0.0.0")
    try:
        wait_until_served(f"http://127.0.0.1:{port}/", proc)
        # A phone asks for the computer by its address on the network: any name the request carries is served.
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"Host": f"192.168.1.20:{port}"}
        )
        assert urllib.request.urlopen(request).status == 200
        listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        assert re.search(rf"(0\.0\.0\.0|\*):{port}\b", listening), listening
    finally:
        stop(proc)
