"""A move's statements, counted as they run (the benches run with DEBUG off, as `make run` serves: no query log)."""

from __future__ import annotations


class Statements:
    """``with connection.execute_wrapper(counted):`` counts (and keeps) the statements run on that connection
    meanwhile, BEGIN not, nor COMMIT, which no cursor runs: a move's queries."""

    def __init__(self):
        self.sql: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if not sql.startswith("BEGIN"):
            self.sql.append(sql)
        return execute(sql, params, many, context)

    def __len__(self) -> int:
        return len(self.sql)
