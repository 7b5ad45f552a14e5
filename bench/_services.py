"""The benches' PostgreSQL + Redis part (127.0.0.1:5432 and :6379): are they up, and a database of a
bench's own on a flushed Redis database, dropped and flushed afterwards."""

from __future__ import annotations

import uuid
from contextlib import contextmanager

PG = "postgres://postgres@127.0.0.1:5432/{}"


def services_up(redis_url: str) -> str | None:
    """None when PostgreSQL and Redis answer, else why not."""
    try:
        import psycopg
        import redis

        psycopg.connect(PG.format("test"), connect_timeout=3).close()
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except Exception as e:  # any failure to reach them means: skip this part
        return f"{type(e).__name__}: {e}".splitlines()[0]
    return None


@contextmanager
def fresh_database(label: str, redis_url: str):
    """Flushes that Redis database and creates a PostgreSQL database cardclub_<label>_<random>: yields its
    DATABASE_URL; drops the database and flushes Redis again afterwards."""
    import psycopg
    import redis

    name = f"cardclub_{label}_{uuid.uuid4().hex[:8]}"
    flush = redis.Redis.from_url(redis_url, socket_connect_timeout=3).flushdb
    flush()
    with psycopg.connect(PG.format("test"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG.format(name)
    finally:
        with psycopg.connect(PG.format("test"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        flush()
