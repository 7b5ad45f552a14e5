"""What a seat may see of a Five Crowns game, and the move log's words.

- ``build_view(game, state, seat)``: the view (keys in ``FiveCrowns.view``'s docstring).
- ``move_events(game, before, seat, move, after)`` and ``deal_event(state)``: the structured
  events of ``rules.core``. The card drawn from the stock goes to the drawer only
  (``drew_card``, ``"to": [seat]``); everyone else reads ``drew`` without it.
- ``MESSAGES`` (English and French: rulebook 004 and the glossary's pioche, défausse, Bonus,
  exposer) and ``card_name``.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.core import Event, State, Words, add_wordings
from rules.five_crowns import cards
from rules.five_crowns.cards import CARDS, JOKER, RANK_LABEL, ROUNDS, SUITS, wild_rank
from rules.five_crowns.log import round_log
from rules.five_crowns.melds import go_out_arrangement

# --- names -----------------------------------------------------------------------------

FR_RANKS = {11: "Valet", 12: "Dame", 13: "Roi"}
FR_SUITS = {"star": "Étoiles", "heart": "Cœurs", "club": "Trèfles", "spade": "Piques", "diamond": "Carreaux"}


def card_name(code: str, lang: str = "en") -> str:
    """``Queen of stars`` / ``Dame d’Étoiles``, ``7 of hearts`` / ``7 de Cœurs``, ``Joker``."""
    if code not in CARDS:
        return code
    if lang != "fr":
        return cards.card_name(code)
    if code == JOKER:
        return "Joker"
    rank, suit = CARDS[code]
    suit_name = FR_SUITS[SUITS[suit]]
    of = "d’" if suit_name[0] in "ÉAEIOU" else "de "
    return f"{FR_RANKS.get(rank, str(rank))} {of}{suit_name}"


def wilds(rank: int, lang: str) -> str:
    """The wild rank in the plural: ``7s``, ``Jacks`` / ``7``, ``Valets``."""
    if lang == "fr":
        return f"{FR_RANKS[rank]}s" if rank in FR_RANKS else str(rank)
    return f"{cards.rank_name(rank)}s"


PILES = {"en": {"stock": "stock", "discard": "discard"}, "fr": {"stock": "pioche", "discard": "défausse"}}


def pile_name(pile: str, lang: str) -> str:
    """``stock`` / ``pioche``, ``discard`` / ``défausse`` (RULINGS' glossary)."""
    return PILES.get(lang, PILES["en"])[pile]


# --- the view ----------------------------------------------------------------------------


def build_view(game: Any, state: State, seat: int | None) -> dict:
    wild = wild_rank(state["round"])
    over = game.is_over(state)
    to_act = game.to_act(state)
    out = {
        "seat": seat,
        "players": state["players"],
        "to_act": to_act,
        "turn": state["turns"],
        "over": over,
        "result": game.result(state) if over else None,
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "round": state["round"],
        "rounds": ROUNDS,
        "wild_rank": wild,
        "wild_label": RANK_LABEL[wild],
        "dealer": state["dealer"],
        "phase": state["phase"],
        "stock_size": len(state["stock"]),
        "discard_size": len(state["discard"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "taken_from_discard": state["taken"],
        "keep_taken": state["options"]["keep_taken"],
        "round_log": [dict(event) for event in round_log(state)],
        "went_out": state["went_out"],
        "final_turns": list(state["final_turns"]),
        "scores": list(state["scores"]),
        "sheet": [list(row) for row in state["sheet"]],
        "last_round": copy.deepcopy(state["last_round"]),
        "winners": game.result(state)["winners"] if over else [],
    }
    if seat is not None and 0 <= seat < state["players"]:
        mine = seat in to_act
        hand = state["hands"][seat]
        out["hand"] = list(hand)
        out["drawn"] = state["drawn"] if mine else None
        out["go_out"] = None
        if mine and state["phase"] == "discard":
            out["go_out"] = go_out_arrangement(hand, wild, game.discardable(state, hand))
    return out


# --- events ------------------------------------------------------------------------------


def deal_event(state: State) -> Event:
    """The round just dealt: its size, the wild rank, the dealer and the card turned up."""
    return {
        "kind": "new_round",
        "round": state["round"],
        "size": state["round"] + 2,
        "wild_rank": wild_rank(state["round"]),
        "seat": state["dealer"],
        "card": state["discard"][0],
    }


def move_events(game: Any, before: State, seat: int, move: dict, after: State) -> list[Event]:
    kind = move["type"]
    out: list[Event] = []
    if kind == "draw" and move["source"] == "stock":
        others = [s for s in range(before["players"]) if s != seat]
        out.append({"kind": "drew", "seat": seat, "to": [*others, None]})
        out.append({"kind": "drew_card", "seat": seat, "card": after["drawn"], "to": [seat]})
    elif kind == "draw":
        out.append({"kind": "took", "seat": seat, "card": before["discard"][-1]})
    elif kind == "discard":
        out.append({"kind": "discarded", "seat": seat, "card": move["card"]})
    elif kind == "go_out":
        out.append({"kind": "went_out", "seat": seat, "card": move["card"]})
        if before["went_out"] is None:
            out.append({"kind": "last_turns"})
    elif kind == "end_round":
        out.append({"kind": "piles_empty"})
    if after["round"] == before["round"] and after["draws"] > before["draws"]:
        out.append({"kind": "stock_rebuilt"})
    if len(after["sheet"]) > len(before["sheet"]):
        out.append({"kind": "round_scored", "round": before["round"], "penalties": list(after["sheet"][-1])})
        if game.is_over(after):
            winners = game.result(after)["winners"]
            out.append({"kind": "game_over", "seats": winners, "score": after["scores"][winners[0]]})
        else:
            out.append(deal_event(after))
    return out


# --- words -------------------------------------------------------------------------------


def _scored(text: str):
    def message(event: Event, words: Words) -> str:
        scored = ", ".join(f"{words.seat(s)} {p}" for s, p in enumerate(event["penalties"]))
        return text.format(round=event["round"], scored=scored)

    return message


def _game_over(one: str, many: str):
    def message(event: Event, words: Words) -> str:
        text = one if len(event["seats"]) == 1 else many
        return text.format(seats=words.seats(event["seats"]), score=event["score"])

    return message


def _new_round(text: str):
    def message(event: Event, words: Words) -> str:
        return text.format(**words.fields(event), wilds=wilds(event["wild_rank"], words.lang))

    return message


MESSAGES: dict[str, dict[str, Any]] = {
    "en": {
        "new_round": _new_round(
            "Round {round}: {size} cards each, {wilds} are wild; {seat} deals and turns up {card}"
        ),
        "drew": "{seat} drew from the stock",
        "drew_card": "{seat} drew {card} from the stock",
        "took": "{seat} took {card} from the discard",
        "discarded": "{seat} discarded {card}",
        "went_out": "{seat} went out, discarding {card}",
        "last_turns": "Everyone else plays one last turn",
        "piles_empty": "Both piles are empty: the round ends",
        "stock_rebuilt": "The discard was shuffled into a new stock",
        "round_scored": _scored("Round {round} scored: {scored}"),
        "game_over": "Game over: {seats} won with {score} points",
    },
    "fr": {
        "new_round": _new_round(
            "Donne {round} : {size} cartes à chacun, les {wilds} sont Bonus ; {seat} distribue et retourne {card}"
        ),
        "drew": "{seat} prend une carte de la pioche",
        "drew_card": "{seat} prend {card} de la pioche",
        "took": "{seat} prend {card} de la défausse",
        "discarded": "{seat} rejette {card} sur la défausse",
        "went_out": "{seat} expose et rejette {card}",
        "last_turns": "Les autres joueurs ont encore un tour de jeu",
        "piles_empty": "La pioche et la défausse sont vides : la donne s’arrête",
        "stock_rebuilt": "La défausse, sauf sa dernière carte, est mélangée pour former une nouvelle pioche",
        "round_scored": _scored("Donne {round} comptée : {scored}"),
        "game_over": _game_over(
            "Fin de la partie : {seats} gagne avec {score} points",
            "Fin de la partie : {seats} gagnent avec {score} points",
        ),
    },
}


# The engine's refusals in French (``rules.core.add_wordings``), keyed by their English templates;
# the rulebook's words (004): pioche, défausse, rejeter, exposer, suites et familles.
add_wordings(
    {
        "fr": {
            "There are still cards to draw.": "Il reste des cartes à prendre.",
            "Draw a card first, from the stock or the discard.": (
                "Prenez d’abord une carte de la pioche ou de la défausse."
            ),
            'Draw from "stock" or "discard".': 'Prenez une carte de la pioche ("stock") ou de la défausse ("discard").',
            "The {pile} is empty.": "La {pile} est vide.",
            "You have drawn: now discard a card (or go out).": (
                "Vous avez pris une carte : rejetez maintenant une carte (ou exposez)."
            ),
            "Name a card to discard.": "Désignez une carte à rejeter.",
            "{card} is not in your hand.": "{card} n’est pas dans votre main.",
            "House rule: you may not throw back the card you just took from the discard ({card}).": (
                "Règle maison : vous ne pouvez pas rejeter la carte que vous venez de prendre "
                "de la défausse ({card})."
            ),
            "You cannot go out: the other cards do not all form melds.": (
                "Vous ne pouvez pas exposer : les autres cartes ne forment pas toutes des suites ou des familles."
            ),
        }
    }
)
