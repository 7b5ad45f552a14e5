"""A tiny game for the take-back tests: a turn is any number of marks (taken back freely), rolls (a random
draw) and one "end" that passes the turn. Registered only while a test asks for the ``tally`` fixture."""

from __future__ import annotations

import pytest

from rules import IllegalMove, registry
from rules.core import BaseGame, below


class Tally(BaseGame):
    slug = "tally"
    title = "Tally"
    min_players = max_players = 2
    takeback_moves = frozenset({"mark"})
    permissive = False  # True: the engine (wrongly) says a roll may be taken back too

    def _setup(self, state):
        state.update(turn=0, marks=[0, 0], rolls=[0, 0], rounds=0)
        return state

    def mutable_copy(self, state):
        return {**state, "marks": list(state["marks"]), "rolls": list(state["rolls"])}

    def to_act(self, state):
        return [] if self.is_over(state) else [state["turn"]]

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "mark"}, {"type": "roll"}, {"type": "end"}]

    def _apply(self, state, seat, move):
        kind = move["type"]
        if kind == "mark":
            state["marks"][seat] += 1
        elif kind == "roll":
            state["rolls"][seat] += below(state, 6) + 1
        elif kind == "end":
            state["turn"], state["rounds"] = 1 - seat, state["rounds"] + 1
        else:
            raise IllegalMove("mark, roll or end")

    def view(self, state, seat):
        return {
            "seat": seat,
            "players": 2,
            "to_act": self.to_act(state),
            "over": self.is_over(state),
            "result": self.result(state) if self.is_over(state) else None,
            "hand_sizes": [0, 0],
            "marks": list(state["marks"]),
        }

    def is_over(self, state):
        return state["rounds"] >= 4

    def result(self, state):
        scores = [m + r for m, r in zip(state["marks"], state["rolls"], strict=True)]
        return {"scores": scores, "winners": [i for i, s in enumerate(scores) if s == max(scores)]}

    def can_take_back(self, before, seat, move, after):
        return move["type"] == "mark" or (self.permissive and move["type"] == "roll")

    messages = {lang: {"did": "{seat}: {what}"} for lang in ("en", "fr")}

    def events(self, before, seat, move, after):
        return [{"kind": "did", "seat": seat, "what": move["type"]}]


@pytest.fixture
def tally():
    """The game registered on both sides for one test. Its pages are never drawn (the tests read the services
    and a viewer's context), so its platform registration names templates it does not have."""
    from tables import games

    game = registry.register(Tally())
    games.register(
        games.GamePlugin(
            slug="tally",
            board="tally/board.html",
            card="tally/_card.html",
            rules_page="tally/rules.html",
            tags="table_tags",
            css="tally/tally.css",
        )
    )
    yield game
    games.unregister("tally")
    registry.unregister("tally")
