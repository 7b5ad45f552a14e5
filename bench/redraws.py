"""Frame parts drawn again to give the markup they gave before: a part keyed by a value it does not show.

Run:  .venv/bin/python bench/redraws.py                      (every game, 60 positions each; a minute)
      .venv/bin/python bench/redraws.py --games cosplay --positions 200

A ``{% shared %}`` part (tables.parts) is drawn anew whenever one of the values it reads changed. When it
reads more than it shows (the whole view for one count, every legal move for the few it draws as buttons,
the viewer for a line that only says "you" to the seat to act), a change to the rest draws it again, for
every viewer, with the markup it had already given: work for nothing on every move. For each game, this
plays a seeded 4-player game as bench/instructions.py does, draws every position's frame for each seat and
a spectator (the memo on, as a change draws them), and prints per part: its draws, how many gave markup the
part had given before, and the inputs that differed then from the first time (the ones to read narrower:
``{% with x=value|when:condition %}`` outside the part, a filter applied outside, the part split by case).
A few may be real: a position that comes back, a viewer's value that shows only sometimes.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from instructions import GAMES, ROOT, django_in, seeded_game  # noqa: E402


def redraws(game: str, positions: int) -> dict[str, tuple[int, int, float, collections.Counter]]:
    """{part: (draws, draws of markup given before, seconds those took, Counter of the input names that
    differed then)}."""
    from django.contrib.auth.models import AnonymousUser

    from tables import parts

    users, snapshots = seeded_game(game, positions, prefix=f"{game}-")
    parts._kept.clear()
    open_parts: list[tuple[str, dict]] = []  # (name, inputs' values) of the parts being drawn, innermost last
    first: dict[tuple[str, str], dict] = {}
    draws, again, wasted = collections.Counter(), collections.Counter(), collections.Counter()
    differed: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    render, drawn = parts.SharedNode.render, parts.drawn

    def noted_render(node, context):
        values = {v.var: parts._value(v, context) for v in node.inputs}
        open_parts.append((str(node.name.resolve(context)), values))
        try:
            return render(node, context)
        finally:
            open_parts.pop()

    def noted_drawn(digest, draw):
        name, values = open_parts[-1]

        def noted():
            started = time.perf_counter()
            html = draw()
            draws[name] += 1
            before = first.setdefault((name, html), values)
            if before is not values:
                again[name] += 1
                wasted[name] += time.perf_counter() - started  # (the parts inside it included)
                differed[name][", ".join(sorted(k for k in values if values[k] != before.get(k)))] += 1
            return html

        return drawn(digest, noted)

    parts.SharedNode.render, parts.drawn = noted_render, noted_drawn
    try:
        for snapshot in snapshots:
            for user in [*users, AnonymousUser()]:
                snapshot.frame(user, "en")
    finally:
        parts.SharedNode.render, parts.drawn = render, drawn
    return {name: (draws[name], again[name], wasted[name], differed[name]) for name in sorted(draws)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game slugs")
    parser.add_argument("--positions", type=int, default=60, help="positions of each game drawn")
    args = parser.parse_args()
    django_in(str(ROOT))
    print(
        f"Frame parts drawn again with the markup they gave before ({args.positions} positions x 5 viewers)"
    )
    print(f"{'game':<15}{'part':<22}{'draws':>7}{'again':>7}{'ms again':>10}  inputs that differed (times)")
    for game in args.games.split(","):
        for name, (n, repeated, seconds, differed) in redraws(game, args.positions).items():
            why = "; ".join(f"{inputs or '(none)'} ({times})" for inputs, times in differed.most_common(3))
            print(f"{game:<15}{name:<22}{n:>7}{repeated:>7}{seconds * 1000:>10.2f}  {why}")


if __name__ == "__main__":
    main()
