"""Swiss pairing, points by placing, Buchholz and arena streaks (tables.pairing): pure functions, with
property-based tests over random fields and histories."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.pairing import (
    Entrant,
    arena_points,
    bye_points,
    pair_round,
    placing_points,
    sole_firsts,
    standings,
    standings_order,
    table_sizes,
)


@st.composite
def fields(draw, max_players=9):
    """(entrants, table size, legal sizes): random points, ratings, symmetric past meetings and byes."""
    low = draw(st.integers(2, 4))
    high = draw(st.integers(low, 6))
    legal = list(range(low, high + 1))
    size = draw(st.sampled_from(legal))
    n = draw(st.integers(low, max_players))
    names = [f"p{i}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs))) if pairs else []
    opponents = {name: set() for name in names}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    entrants = [
        Entrant(
            key=name,
            points=draw(st.sampled_from([0, 0.5, 1, 2, 3, 4.5])),
            rating=draw(st.integers(1200, 1800)),
            opponents=frozenset(opponents[name]),
            byes=draw(st.integers(0, 1)),
        )
        for name in names
    ]
    return entrants, size, legal


def repeats(tables, entrants) -> int:
    by_key = {e.key: e for e in entrants}
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if b in by_key[a].opponents)


def groupings(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (brute force, for small fields)."""
    if not sizes:
        yield []
        return
    size, rest = sizes[0], sizes[1:]
    first = players[0]
    for others in itertools.combinations(players[1:], size - 1):
        table = [first, *others]
        left = [p for p in players if p not in table]
        for tail in groupings(left, rest):
            yield [table, *tail]


def avoidable(entrants, sizes, bye_count) -> bool:
    """Whether some grouping with these sizes and a fair choice of byes has no repeat meeting."""
    least = min(e.byes for e in entrants)
    pool = [e.key for e in entrants if e.byes == least]
    if len(pool) < bye_count:
        pool = [e.key for e in entrants]
    for byes in itertools.combinations(pool, bye_count):
        players = [e.key for e in entrants if e.key not in byes]
        for order in set(itertools.permutations(sizes)):
            for tables in groupings(players, list(order)):
                if repeats(tables, entrants) == 0:
                    return True
    return False


@settings(max_examples=150, deadline=None)
@given(fields())
def test_every_player_is_seated_once_or_has_a_bye_at_legal_tables(field):
    entrants, size, legal = field
    result = pair_round(entrants, size, legal)
    seated = [k for t in result.tables for k in t] + result.byes
    assert sorted(seated) == sorted(e.key for e in entrants)
    assert all(min(legal) <= len(t) <= size for t in result.tables)
    sizes, bye_count = table_sizes(len(entrants), size, legal)
    assert len(result.byes) == bye_count
    assert sorted((len(t) for t in result.tables), reverse=True) == sizes


@settings(max_examples=150, deadline=None)
@given(fields())
def test_nobody_gets_a_second_bye_while_someone_has_had_none(field):
    entrants, size, legal = field
    result = pair_round(entrants, size, legal)
    fresh = [e for e in entrants if e.byes == 0]
    if len(fresh) >= len(result.byes):
        by_key = {e.key: e for e in entrants}
        assert all(by_key[k].byes == 0 for k in result.byes)


@settings(max_examples=120, deadline=None)
@given(fields(max_players=8))
def test_no_repeat_meeting_while_another_grouping_avoids_it(field):
    entrants, size, legal = field
    result = pair_round(entrants, size, legal)
    sizes, bye_count = table_sizes(len(entrants), size, legal)
    if avoidable(entrants, sizes, bye_count):
        assert repeats(result.tables, entrants) == 0


@settings(max_examples=150, deadline=None)
@given(fields())
def test_without_past_meetings_the_tables_follow_the_score_groups(field):
    entrants, size, legal = field
    fresh = [Entrant(e.key, e.points, e.rating, frozenset(), e.byes) for e in entrants]
    result = pair_round(fresh, size, legal)
    order = [e.key for e in standings_order(fresh) if e.key not in result.byes]
    flat = [k for t in result.tables for k in sorted(t, key=order.index)]
    assert flat == order  # the best players together at the first table, and so on down


def test_a_round_pairs_the_leaders_and_avoids_a_rematch():
    a = Entrant("a", points=3, rating=1500, opponents=frozenset({"b"}))
    b = Entrant("b", points=3, rating=1400, opponents=frozenset({"a"}))
    c = Entrant("c", points=0, rating=1600)
    d = Entrant("d", points=0, rating=1300)
    result = pair_round([d, c, b, a], 2, [2])
    assert result.tables == [["a", "c"], ["b", "d"]] and result.byes == []


def test_odd_duels_give_the_bye_to_the_lowest_placed_who_had_none():
    field = [Entrant("a", 2), Entrant("b", 1), Entrant("c", 0, byes=1), Entrant("d", 0), Entrant("e", 0)]
    # d and e both at 0 points: e is below d on the name, and c has had a bye already
    assert pair_round(field, 2, [2]).byes == ["e"]


def test_the_count_that_does_not_divide_takes_smaller_legal_tables_before_byes():
    assert table_sizes(8, 4, [2, 3, 4, 5, 6]) == ([4, 4], 0)
    assert table_sizes(7, 4, [3, 4, 5]) == ([4, 3], 0)
    assert table_sizes(5, 4, [3, 4]) == ([4], 1)
    assert table_sizes(9, 4, [2, 3, 4]) == ([4, 3, 2], 0)
    assert table_sizes(5, 2, [2]) == ([2, 2], 1)
    assert table_sizes(1, 2, [2, 3]) is None


def test_placing_points_go_from_k_minus_one_to_zero_and_ties_share():
    assert placing_points([0, 1, 2, 3]) == [3, 2, 1, 0]
    assert placing_points([1, 0]) == [0, 1]
    assert placing_points([0, 0, 1]) == [1.5, 1.5, 0]
    assert placing_points([0, 1, 1, 2]) == [3, 1.5, 1.5, 0]
    assert bye_points(4) == 3


@given(st.lists(st.integers(0, 3), min_size=2, max_size=6))
def test_placing_points_sum_to_what_the_places_give_out(places):
    points = placing_points(places)
    k = len(places)
    assert sum(points) == k * (k - 1) / 2
    for s, t in itertools.permutations(range(k), 2):
        if places[s] < places[t]:
            assert points[s] > points[t]
        if places[s] == places[t]:
            assert points[s] == points[t]


def test_two_firsts_in_a_row_double_the_next_first():
    streak, scored = 0, []
    for points, won in [(1, True), (1, True), (1, True), (1, True), (0, False), (1, True)]:
        got, streak = arena_points(points, won, streak)
        scored.append(got)
    assert scored == [1, 1, 2, 2, 0, 1]
    assert sole_firsts([0, 0, 1]) == [False, False, False]
    assert sole_firsts([1, 0, 2]) == [False, True, False]


def test_standings_break_ties_by_buchholz_then_rating():
    points = {"a": 2, "b": 2, "c": 1, "d": 0, "e": 2}
    meetings = [["a", "c"], ["b", "d"], ["e", "d"]]
    table = standings(points, {"b": 1700, "e": 1500}, meetings, {"a": 1, "b": 1, "c": 1, "d": 2, "e": 1})
    assert [(s.key, s.tiebreak) for s in table] == [("a", 1), ("b", 0), ("e", 0), ("c", 2), ("d", 4)]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]


def test_standings_leave_out_a_player_gone_since():
    table = standings({"a": 1, "b": 0}, {}, [["a", "gone"], ["b", "a"]])
    assert [(s.key, s.tiebreak) for s in table] == [("a", 0), ("b", 1)]
