"""Bot players for the four games (issue #6). Pure Python, deterministic for a given seed.

    from rules.bots import choose
    move = choose(game_slug, view, legal_moves, level, seed)           # seat read from the view
    move = choose(game_slug, view, legal_moves, level, seed, seat=1)   # or given

- ``view`` is exactly ``game.view(state, seat)`` for the bot's seat and ``legal_moves`` is
  ``game.legal_moves(state, seat)``: a bot decides from what its seat may know, never from the
  hidden state. The seat is ``view["seat"]`` (every game's view has it, CONTRACTS §1) unless
  ``seat`` is given.
- ``level``: ``"random"`` (a uniformly random legal move), ``"casual"`` (simple game-specific
  rules of thumb) or ``"strong"`` (determinized Monte Carlo: sample hidden cards consistent
  with the view, try each candidate move on every sample, play on with the casual policy or
  look one turn ahead, keep the best on average).
  Per game (``rules/<game>/bots.py``, the ``BOTS`` of its registration in rules.registry, each with ``determinize(view, rng, seat)``, ``casual`` and
  ``strong``): Cosmic Crowns tries every card on 12 deals, rolling out the round with the casual
  policy (crown margin); Five Crowns samples 40 sequences of its next draws from the unseen cards (the
  round's public log tells it the discard pile and the cards a rival took from it) and
  keeps the discard (or the draw) that scores best two draws ahead (the lowest penalty it could
  keep, a bonus for going out, a chance that an opponent goes out first); Chronica shortlists
  10 moves and plays each on up to 4 deals against the opponent's greedy reply (at most 8,000
  positions judged); Cosplay tries every move on 4 deals, rolling out casual play to the end of
  its next turn (score margin).
- The result is always one of ``legal_moves`` (the same dict). The same arguments and seed give
  the same move: randomness comes only from ``random.Random(seed)``; budgets are counts, never
  a clock.
"""

from __future__ import annotations

import random

from rules import registry

LEVELS = ("random", "casual", "strong")


def seat_of(view: dict) -> int:
    """The bot's seat as its view tells it (a spectator's view has none: ValueError)."""
    seat = view.get("seat")
    if seat is None:
        raise ValueError("the view is not a seat's (its 'seat' is missing or null): pass seat=")
    return seat


def choose(
    game_slug: str, view: dict, legal_moves: list[dict], level: str, seed: int, seat: int | None = None
) -> dict:
    """One move of ``legal_moves`` for the seat whose ``view`` this is."""
    try:
        brain = registry.bots(game_slug)
    except (KeyError, TypeError):
        raise ValueError(f"no bot for game {game_slug!r}") from None
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if not legal_moves:
        raise ValueError("there is no legal move to choose from")
    rng = random.Random(seed)
    if level == "random" or len(legal_moves) == 1:
        return legal_moves[rng.randrange(len(legal_moves))]
    if brain is None:
        raise ValueError(f"the game {game_slug!r} has only random bots")
    if seat is None:
        seat = seat_of(view)
    pick = brain.casual if level == "casual" else brain.strong
    move = pick(view, legal_moves, rng, seat)
    for legal in legal_moves:
        if legal == move:
            return legal
    raise AssertionError(f"bot chose a move that is not legal: {move!r}")
