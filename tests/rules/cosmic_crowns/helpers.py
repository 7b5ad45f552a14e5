"""Hand-built Cosmic Crowns situations and invariant checks shared by the tests."""

from __future__ import annotations

import json

from rules.cosmic_crowns import DECK, GAME


def build(
    hands,
    top,
    stack=(),
    dealer=0,
    size=None,
    options=None,
    crowns=None,
    round_no=1,
    brawl=False,
):
    """A state at the start of a round with chosen hands.

    ``hands`` lists each seat's cards (shorter lists are filled up to ``size`` from the unused
    cards in deck order); ``top`` is the Battleground card turned up; ``stack`` the next cards
    under it (the rest of the deck follows). The engine's own dealing and reveal code runs.
    """
    n = len(hands)
    size = size or max(len(h) for h in hands)
    state = GAME.setup(players=n, seed=7, options=options or {})
    state["round"] = state["rounds"] if brawl else round_no
    state["tie_brawl"] = brawl
    state["dealer"] = dealer
    state["crowns"] = list(crowns) if crowns else [0] * n
    chosen = [c for h in hands for c in h] + [top, *stack]
    assert len(set(chosen)) == len(chosen), "a card is chosen twice"
    spare = [c for c in DECK if c not in chosen]
    full = []
    for hand in hands:
        hand = list(hand)
        while len(hand) < size:
            hand.append(spare.pop(0))
        full.append(hand)
    deck = [c for h in full for c in h] + [top, *stack] + spare
    state["events"] = []
    GAME._deal_from(state, deck, size)
    GAME._advance(state)
    return state


def play(state, *moves):
    """Apply ``(seat, move)`` pairs; a bare code string stands for a play or discard of it."""
    for seat, move in moves:
        if isinstance(move, str):
            kind = "discard" if state["pending"]["kind"] == "discard" else "play"
            move = {"type": kind, "card": move}
        state = GAME.apply(state, seat, move)
    return state


def card_places(state) -> list[str]:
    return (
        [c for h in state["hands"] for c in h]
        + list(state["stack"])
        + list(state["revealed"])
        + [e["card"] for e in state["trick"]]
        + list(state["spent"])
    )


def assert_conserved(state) -> None:
    places = card_places(state)
    assert sorted(places) == sorted(DECK), "every card is in exactly one place"


def codes_in(obj) -> set[str]:
    found = set()
    text = json.dumps(obj)
    for code in DECK:
        if f'"{code}"' in text:
            found.add(code)
    return found


def assert_no_leak(state) -> None:
    """No view holds a card its viewer may not see, nor the seed or draw counter."""
    n = state["players"]
    hidden_all = set(state["stack"])
    for viewer in [None, *range(n)]:
        view = GAME.view(state, viewer)
        text = json.dumps(view)
        assert '"seed"' not in text and '"draws"' not in text
        hidden = set(hidden_all)
        for s in range(n):
            if s != viewer:
                hidden |= set(state["hands"][s])
        leaked = codes_in(view) & hidden
        assert not leaked, f"viewer {viewer} sees {leaked}"
        if viewer is None:
            assert "hand" not in view
        else:
            assert view["hand"] == state["hands"][viewer]


def trick_winner(state) -> int:
    """The winner of the trick completed by the last move (from its events)."""
    won = [e["winner"] for e in state["events"] if e["e"] == "trick"]
    assert won, "the last move completed no trick"
    return won[-1]
