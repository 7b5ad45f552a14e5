"""Real processes for the tests that need them: manage.py in a given environment, daphne started on a free
port (waited for until it answers) and stopped, and a fresh PostgreSQL database dropped afterwards."""

from __future__ import annotations

import os
import pathlib
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from contextlib import contextmanager

ROOT = pathlib.Path(__file__).resolve().parents[1]
PG = "postgres://postgres@127.0.0.1:5432/{}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sqlite_env(path: pathlib.Path, **settings: str) -> dict:
    """The environment of a site on its own SQLite file, in memory channel layer (no DATABASE_URL, no REDIS_URL)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SQLITE_PATH": str(path), **settings}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    return env


def migrate(env: dict) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )


def manage(env: dict, *args: str) -> str:
    """Run `manage.py ARGS` in that environment; what it printed (an error if it failed)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def shell(env: dict, script: str) -> str:
    """Run a script with `manage.py shell -c` in that environment; what it printed."""
    return manage(env, "shell", "-c", script)


def start_daphne(env: dict, port: int, log_path: pathlib.Path) -> subprocess.Popen:
    """daphne on 127.0.0.1:port, once it answers; its output goes to log_path."""
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


def stop(proc: subprocess.Popen) -> None:
    """Ask a process to end; kill it if it has not within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@contextmanager
def daphnes(env: dict, tmp: pathlib.Path, count: int = 1):
    """`count` daphne processes on that environment, each on a free port (logs in tmp): yields the ports,
    stops them all afterwards."""
    procs = []
    try:
        ports = []
        for _ in range(count):
            port = free_port()
            procs.append(start_daphne(env, port, tmp / f"daphne-{port}.log"))
            ports.append(port)
        yield ports
    finally:
        for proc in procs:
            stop(proc)


@contextmanager
def fresh_database(label: str):
    """A new, empty PostgreSQL database on 127.0.0.1:5432: yields its name, drops it afterwards."""
    import psycopg

    name = f"cardclub_{label}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG.format("test"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with psycopg.connect(PG.format("test"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_bench(script: str, *args: str, timeout: float) -> str:
    """Run bench/SCRIPT ARGS with this python; what it printed (a failed test, with its output, unless it
    exits 0)."""
    out = subprocess.run(
        [sys.executable, f"bench/{script}", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout
