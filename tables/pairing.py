"""Tournament arithmetic as pure functions (no Django, no clock): Swiss pairing, points by placing, the
Buchholz tie-break and the arena's streaks. The tournament services (tables.tournaments) feed them what the
database holds and store what they answer.

Swiss pairing, for a round:

- the table sizes: as many tables of the tournament's size as possible; when the count does not divide,
  the game's smaller legal tables take the rest, and only when no such split exists do byes fill the gap
  (the fewest byes, given to the lowest-placed players who have had none);
- the players, in standings order (points, then rating), fill the tables from the top: the best remaining
  player opens the next table with the next best players (score groups, then rating), skipping whoever they
  met already. A search backtracks over that order, so a repeat meeting happens only when no grouping of
  these sizes (and bye choices) avoids it; past a budget of steps (large fields) it keeps the standings order
  and accepts the fewest repeats it found greedily.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

SEARCH_BUDGET = 200_000  # steps of the backtracking search before settling for the greedy grouping


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them: a key (any hashable), points, rating, past opponents, byes had."""

    key: object
    points: float = 0.0
    rating: float = 0.0
    opponents: frozenset = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True)
class Round:
    tables: list[list[object]]  # the keys at each table, best placed first
    byes: list[object]


def standings_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Score groups, then rating; the key (as text) settles the rest so that the order is total."""
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, str(e.key)))


def table_sizes(count: int, size: int, legal: Sequence[int]) -> tuple[list[int], int] | None:
    """(the table sizes, largest first, the number of byes) for ``count`` players at tables of ``size``: the
    fewest byes, then the most tables of ``size``, then the largest other tables. None if nobody can play."""
    allowed = sorted({s for s in legal if 2 <= s <= size}, reverse=True)
    if size not in allowed:
        raise ValueError(f"the table size {size} is not among the legal sizes {sorted(legal)}")
    for byes in range(count + 1):
        seated = count - byes
        if seated < allowed[-1]:
            break
        best = _split(seated, allowed)
        if best is not None:
            return best, byes
    return None


def _split(total: int, allowed: list[int]) -> list[int] | None:
    """``total`` as a sum of the allowed sizes: most of the largest first (then of the next, and so on)."""
    if total == 0:
        return []
    head, rest = allowed[0], allowed[1:]
    for count in range(total // head, -1, -1):
        left = total - count * head
        if left == 0:
            return [head] * count
        if rest:
            tail = _split(left, rest)
            if tail is not None:
                return [head] * count + tail
    return None


def pair_round(entrants: Sequence[Entrant], size: int, legal: Sequence[int]) -> Round:
    """One Swiss round (see the module's docstring). Raises ValueError if fewer players than the smallest
    legal table are given."""
    ordered = standings_order(entrants)
    shape = table_sizes(len(ordered), size, legal)
    if shape is None:
        raise ValueError("too few players for a table")
    sizes, bye_count = shape
    # Bye candidates: the lowest placed who have had the fewest byes (nobody two while others have none).
    fewest = sorted(range(len(ordered)), key=lambda i: (ordered[i].byes, -i))
    search = _Search(ordered, sizes, SEARCH_BUDGET)
    for byes in _bye_choices(ordered, fewest, bye_count):
        found = search.run(byes)
        if found is not None:
            return _as_round(ordered, found, byes)
        if search.exhausted():
            break
    byes = next(iter(_bye_choices(ordered, fewest, bye_count)))
    return _as_round(ordered, _greedy(ordered, sizes, byes), byes)


def _as_round(ordered: list[Entrant], tables: list[list[int]], byes: tuple[int, ...]) -> Round:
    return Round(
        tables=[[ordered[i].key for i in sorted(t)] for t in tables],
        byes=[ordered[i].key for i in sorted(byes)],
    )


def _bye_choices(ordered: list[Entrant], fewest: list[int], count: int):
    """Sets of ``count`` bye receivers, the preferred first: only among those with the fewest byes had while
    there are enough of them."""
    if count == 0:
        yield ()
        return
    least = ordered[fewest[0]].byes
    pool = [i for i in fewest if ordered[i].byes == least]
    if len(pool) < count:
        pool = fewest
    yield from _combinations(pool, count)


def _combinations(pool: list[int], count: int):
    if count == 0:
        yield ()
        return
    for n, first in enumerate(pool):
        for rest in _combinations(pool[n + 1 :], count - 1):
            yield (first, *rest)


class _Search:
    def __init__(self, ordered: list[Entrant], sizes: list[int], budget: int):
        self.ordered = ordered
        self.sizes = sizes
        self.budget = budget
        index = {e.key: i for i, e in enumerate(ordered)}
        self.met = [{index[o] for o in e.opponents if o in index} for e in ordered]

    def exhausted(self) -> bool:
        return self.budget <= 0

    def run(self, byes: tuple[int, ...]) -> list[list[int]] | None:
        free = [i for i in range(len(self.ordered)) if i not in byes]
        return self._tables(free, list(self.sizes))

    def _tables(self, free: list[int], sizes: list[int]) -> list[list[int]] | None:
        if not free:
            return []
        for size in sorted(set(sizes), reverse=True):  # the best remaining player opens a table of each size
            rest_sizes = list(sizes)
            rest_sizes.remove(size)
            for table in self._members(free[0], free[1:], size - 1):
                remaining = [i for i in free if i not in table]
                tail = self._tables(remaining, rest_sizes)
                if tail is not None:
                    return [table, *tail]
                if self.budget <= 0:
                    return None
        return None

    def _members(self, opener: int, candidates: list[int], wanted: int):
        """The tables ``opener`` may open with ``wanted`` others, nobody meeting anyone again, in standings
        order (the next best first)."""

        def extend(table: list[int], start: int):
            self.budget -= 1
            if self.budget <= 0:
                return
            if len(table) == wanted + 1:
                yield list(table)
                return
            for n in range(start, len(candidates)):
                if len(candidates) - n < wanted + 1 - len(table):
                    return
                c = candidates[n]
                if any(c in self.met[t] for t in table):
                    continue
                table.append(c)
                yield from extend(table, n + 1)
                table.pop()

        yield from extend([opener], 0)


def _greedy(ordered: list[Entrant], sizes: list[int], byes: tuple[int, ...]) -> list[list[int]]:
    """Tables filled from the top, each seat given to the next player who met the fewest already seated."""
    index = {e.key: i for i, e in enumerate(ordered)}
    met = [{index[o] for o in e.opponents if o in index} for e in ordered]
    free = [i for i in range(len(ordered)) if i not in byes]
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(free, key=lambda c: (sum(c in met[t] for t in table), free.index(c)))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


# --- Points ----------------------------------------------------------------------------------------------


def placing_points(places: Sequence[int]) -> list[float]:
    """Points for each seat of one table from its places (0 best; equal places for a tie): for a table of k,
    k−1 for the first down to 0 for the last, tied seats sharing the points of the places they fill."""
    k = len(places)
    order = sorted(range(k), key=lambda s: places[s])
    points = [0.0] * k
    position = 0
    while position < k:
        tied = [s for s in order if places[s] == places[order[position]]]
        share = sum(k - 1 - p for p in range(position, position + len(tied))) / len(tied)
        for s in tied:
            points[s] = share
        position += len(tied)
    return points


def bye_points(size: int) -> float:
    """A bye scores as a win at a table of the tournament's size."""
    return float(size - 1)


def sole_firsts(places: Sequence[int]) -> list[bool]:
    """Which seats won alone (a shared first place is not a win for a streak)."""
    best = min(places)
    alone = sum(1 for p in places if p == best) == 1
    return [alone and p == best for p in places]


def arena_points(points: float, won: bool, streak: int) -> tuple[float, int]:
    """(the points an arena game scores, the streak after it): two first places in a row double the points of
    each next first place, until a game is not won."""
    if not won:
        return points, 0
    return (points * 2 if streak >= 2 else points), streak + 1


@dataclass(frozen=True)
class Standing:
    rank: int
    key: object
    points: float
    tiebreak: float
    games: int


def standings(
    points: dict, ratings: dict, meetings: Iterable[Sequence[object]], games: dict | None = None
) -> list[Standing]:
    """The ranking: points, then Buchholz (the sum of the points of every opponent met, once per meeting),
    then rating, then the key. ``meetings``: the keys at each table played."""
    buchholz = {key: 0.0 for key in points}
    for table in meetings:
        for key in table:
            if key in buchholz:  # (a player gone since, such as a deleted account, is left out)
                buchholz[key] += sum(points.get(other, 0.0) for other in table if other != key)
    order = sorted(points, key=lambda k: (-points[k], -buchholz[k], -ratings.get(k, 0.0), str(k)))
    return [
        Standing(rank=n + 1, key=k, points=points[k], tiebreak=buchholz[k], games=(games or {}).get(k, 0))
        for n, k in enumerate(order)
    ]
