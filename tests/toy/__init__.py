"""A fifth game that lives only in the test suite: "Toy High Card", registered the way a real game is.

Two players are dealt three of six cards (``t1``..``t6``); the leader plays a card, the other answers, the
higher card takes the trick and leads the next; three tricks, a point each. Its two registrations are those
README's "Adding a game" asks for: ``GAME``/``BOTS`` (the rules side) and ``PLUGIN`` (the platform side), with
its templates in tests/toy/templates/toy/ and its stylesheet in tests/toy/static/toy/. ``registered()`` adds
them for a test and takes them away after it (tests/tables/test_toy_game.py).
"""

from __future__ import annotations

import copy
import types
from contextlib import contextmanager
from pathlib import Path

from rules import IllegalMove, registry
from rules.core import BaseGame, shuffle
from tables import games
from tables.games import GamePlugin

HERE = Path(__file__).resolve().parent
DECK = [f"t{n}" for n in range(1, 7)]
HAND = 3


class ToyHighCard(BaseGame):
    slug = "toy"
    title = "Toy High Card"
    blurb = {
        "en": "Three tricks of one card each: the higher card takes it.",
        "fr": "Trois plis d'une carte.",
    }
    min_players = max_players = 2
    messages = {
        "en": {"played": "{seat} played {card}", "took": "{seat} takes the trick"},
        "fr": {"played": "{seat} joue {card}", "took": "{seat} remporte le pli"},
    }

    def _setup(self, state):
        deck = shuffle(state, DECK)
        state.update(
            hands=[sorted(deck[:HAND]), sorted(deck[HAND : 2 * HAND])], trick=[], points=[0, 0], lead=0
        )
        return state

    def to_act(self, state):
        if self.is_over(state):
            return []
        return [(state["lead"] + len(state["trick"])) % 2]

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "play", "card": code} for code in state["hands"][seat]]

    def _apply(self, state, seat, move):
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("Play a card of your hand.")
        state["hands"][seat].remove(move["card"])
        state["trick"].append({"seat": seat, "card": move["card"]})
        if len(state["trick"]) == 2:
            winner = max(state["trick"], key=lambda e: int(e["card"][1:]))["seat"]
            state["points"][winner] += 1
            state["lead"], state["trick"] = winner, []

    def is_over(self, state):
        return not state["hands"][0] and not state["hands"][1] and not state["trick"]

    def result(self, state):
        best = max(state["points"])
        return {
            "scores": list(state["points"]),
            "winners": [s for s, p in enumerate(state["points"]) if p == best],
        }

    def view(self, state, seat):
        over = self.is_over(state)
        out = {
            "seat": seat,
            "players": state["players"],
            "to_act": self.to_act(state),
            "over": over,
            "result": self.result(state) if over else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "trick": copy.deepcopy(state["trick"]),
            "points": list(state["points"]),
        }
        if seat is not None:
            out["hand"] = list(state["hands"][seat])
        return out

    def events(self, before, seat, move, after):
        out = [{"kind": "played", "seat": seat, "card": move["card"]}]
        if not after["trick"]:
            out.append({"kind": "took", "seat": after["lead"]})
        return out

    def card_name(self, code, lang):
        return f"{code[1:]}"


GAME = ToyHighCard()


def _lowest(view, legal_moves, rng, seat):
    return min(legal_moves, key=lambda m: int(m["card"][1:]))


BOTS = types.SimpleNamespace(casual=_lowest, strong=_lowest)

PLUGIN = GamePlugin(
    slug="toy",
    board="toy/board.html",
    card="toy/_card.html",
    rules_page="toy/rules.html",
    tags="table_tags",
    css="toy/toy.css",
)


@contextmanager
def registered(settings):
    """The toy game registered on both sides, its templates and stylesheet found, for the time of a test."""
    engine = copy.deepcopy(settings.TEMPLATES)
    engine[0]["DIRS"] = [*engine[0]["DIRS"], HERE / "templates"]
    settings.TEMPLATES = engine
    settings.STATICFILES_DIRS = [*getattr(settings, "STATICFILES_DIRS", []), HERE / "static"]
    registry.register(GAME, bots=BOTS)
    games.register(PLUGIN)
    try:
        yield PLUGIN
    finally:
        games.unregister(PLUGIN.slug)
        registry.unregister(GAME.slug)
