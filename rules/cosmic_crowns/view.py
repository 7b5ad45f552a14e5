"""What a seat may see of a Cosmic Crowns game, and the move log's words.

- ``build_view(game, state, seat)``: the view (keys in ``CosmicCrowns.view``'s docstring).
- ``turn_number(state)``: the turn counter of the shared view vocabulary.
- ``public_events(internal)``: the engine's record of what a move caused (``state["events"]``)
  as the structured events of ``rules.core``; every card in them is face up for everyone
  (played, discarded, revealed, or played at random for an assassinated player), so none has ``to``.
- ``MESSAGES`` (English and French, the rulebooks' words: 002 and 000) and ``card_name``; the
  French of the engine's refusals (``add_wordings``) and ``asked`` (the decision a refusal names).
"""

from __future__ import annotations

from typing import Any

from rules.core import Event, State, Words, add_wordings
from rules.cosmic_crowns.cards import CARDS, CLAN_NAMES, leading_clan, round_sizes

# --- names -----------------------------------------------------------------------------

CLAN_WORDS = {
    "en": CLAN_NAMES,
    "fr": {"eagle": "Aigle", "frog": "Grenouille", "dog": "Chien", "raptor": "Raptor"},
}
RANK_WORDS_FR = {
    "thief": "Voleur",
    "assassin": "Assassin",
    "g1": "Général 1★",
    "g2": "Général 2★",
    "g3": "Général 3★",
    "emperor": "Empereur",
}
DIVINE_WORDS = {
    "en": {"falling_star": "Falling Star", "devil": "Devil"},
    "fr": {"falling_star": "Étoile Filante", "devil": "Le Diable"},
}


def clan_name(clan: str | None, lang: str) -> str:
    return CLAN_WORDS.get(lang, CLAN_NAMES).get(clan, "—")


def card_name(code: str, lang: str = "en") -> str:
    """``Eagle General 2★`` / ``Aigle Général 2★``, ``Frog 7`` / ``Grenouille 7``, ``Devil`` / ``Le Diable``."""
    card = CARDS.get(code)
    if card is None:
        return code
    if lang != "fr":
        return card["name"]
    if card["divine"]:
        return DIVINE_WORDS["fr"][card["kind"]]
    rank = code.split("-", 1)[1]
    return f"{clan_name(card['clan'], 'fr')} {RANK_WORDS_FR.get(rank, rank)}"


# The decision a seat is awaited for, as a refusal names it ("You must {ask} now.").
ASK = {
    "en": {
        "play": "play a card",
        "discard": "discard a card",
        "bid": "bid",
        "choose_clan": "choose the Battleground clan",
        "assassinate": "name the player to assassinate",
        "steal": "choose whom to steal a crown from",
    },
    "fr": {
        "play": "jouer une carte",
        "discard": "vous défausser d’une carte",
        "bid": "parier",
        "choose_clan": "choisir le clan du Champ de Bataille",
        "assassinate": "désigner le joueur à assassiner",
        "steal": "choisir à qui voler une couronne",
    },
}


def asked(kind: str, lang: str) -> str:
    return ASK.get(lang, ASK["en"])[kind]


# --- the view ----------------------------------------------------------------------------


def turn_number(state: State) -> int:
    """How many turns have begun in the game (from 1). A turn is one seat's go: its card in a
    trick (played by it, or for it by an Assassin) or its Hard-mode bid; a seat awaited to play,
    discard or bid has begun its turn. The game's first turn counts as begun at the deal, also
    while a Battleground clan is being chosen before it. Read from the state: every card dealt
    in an earlier round went into a trick, and every seat bid in every earlier Hard-mode round."""
    n = state["players"]
    sizes = round_sizes(state["options"]["reverse"])
    done_rounds = len(sizes) if state["tie_brawl"] else state["round"] - 1
    cards = n * sum(sizes[:done_rounds]) + len(state["spent"]) + len(state["trick"])
    bids = n * done_rounds if state["options"]["mode"] == "hard" else 0
    bids += sum(b is not None for b in state["bids"])
    pending = state["pending"]
    awaited = 0
    if pending is not None and not state["over"]:
        awaited = {"play": 1, "bid": 1, "discard": len(pending["seats"])}.get(pending["kind"], 0)
    return max(1, cards + bids + awaited)


def build_view(game: Any, state: State, seat: int | None) -> dict:
    pending = state["pending"]
    shown = None
    if pending is not None and not state["over"]:
        shown = {"kind": pending["kind"]}
        if "cause" in pending:
            shown["cause"] = pending["cause"]
    last_trick = state["last_trick"]
    out = {
        "seat": seat,
        "players": state["players"],
        "to_act": game.to_act(state),
        "turn": turn_number(state),
        "over": state["over"],
        "result": game.result(state) if state["over"] else None,
        "hand_sizes": [len(h) for h in state["hands"]],
        "mode": state["options"]["mode"],
        "reverse": state["options"]["reverse"],
        "round": state["round"],
        "rounds": state["rounds"],
        "round_size": state["round_size"],
        "dealer": state["dealer"],
        "leader": state["leader"],
        "battleground": state["battleground"],
        "battleground_card": state["revealed"][-1] if state["revealed"] else None,
        "revealed": list(state["revealed"]),
        "leading_clan": leading_clan(state["trick"]),
        "crowns": list(state["crowns"]),
        "tricks": list(state["tricks"]),
        "bids": list(state["bids"]),
        "trick": [dict(e) for e in state["trick"]],
        "divine_winner": state["divine"],
        "last_trick": (
            {"cards": [dict(e) for e in last_trick["cards"]], "winner": last_trick["winner"]}
            if last_trick
            else None
        ),
        "last_round": dict(state["last_round"]) if state["last_round"] else None,
        "stack_size": len(state["stack"]),
        "pending": shown,
        "legal_moves": game.legal_moves(state, seat) if seat is not None else [],
        "tie_brawl": state["tie_brawl"],
        "brawl_tied": list(state["brawl_tied"]),
    }
    if seat is not None:
        out["hand"] = list(state["hands"][seat])
    return out


# --- events ------------------------------------------------------------------------------


def public_event(ev: dict) -> Event:
    """One engine record (``{"e": ...}``) as a structured event."""
    kind = ev["e"]
    if kind == "deal":
        if ev["brawl"]:
            return {"kind": "brawl_deal", "seat": ev["dealer"]}
        return {"kind": "deal", "seat": ev["dealer"], "round": ev["round"], "size": ev["size"]}
    if kind == "reveal":
        clan = CARDS[ev["card"]]["clan"]
        what = "devil_reveal" if ev["cause"] == "devil" else "battleground_card"
        return {"kind": what, "card": ev["card"], "clan": clan}
    if kind == "robbed":
        return {"kind": "thief_reveal" if ev["lost"] else "thief_reveal_no_crown", "seat": ev["seat"]}
    if kind == "assassin_reveal":
        return {"kind": "assassin_reveal", "seat": ev["seat"], "card": ev["card"]}
    if kind in ("play", "discard"):
        return {"kind": "played" if kind == "play" else "discarded", "seat": ev["seat"], "card": ev["card"]}
    if kind == "bid":
        return {"kind": "bid", "seat": ev["seat"], "tricks": ev["tricks"]}
    if kind == "clan":
        return {"kind": "chose_clan", "seat": ev["seat"], "clan": ev["clan"]}
    if kind == "assassinated":
        return {"kind": "assassinated", "seat": ev["seat"], "target_seat": ev["target"], "card": ev["card"]}
    if kind == "no_victim":
        return {"kind": "no_victim", "seat": ev["seat"]}
    if kind == "steal":
        if ev["from"] is None:
            return {"kind": "stole_from_pile", "seat": ev["seat"]}
        return {"kind": "stole", "seat": ev["seat"], "from_seat": ev["from"]}
    if kind == "stack_empty":
        return {"kind": "stack_empty", "clan": ev["clan"]}
    if kind == "trick":
        return {"kind": "won_trick", "seat": ev["winner"], "crown": ev["crown"]}
    if kind == "scored":
        return {"kind": "bids_scored", "gains": list(ev["gains"])}
    if kind == "brawl":
        return {"kind": "tie_brawl", "seats": list(ev["tied"])}
    if kind == "over":
        return {"kind": "game_over", "seats": list(ev["winners"]), "crowns": list(ev["crowns"])}
    raise AssertionError(f"no event for {kind!r}")


def public_events(internal: list[dict]) -> list[Event]:
    return [public_event(ev) for ev in internal]


# --- words -------------------------------------------------------------------------------


def _clan(text: str, divine: str | None = None):
    """A message naming the event's clan in the language as ``{clan}``; ``divine``: the words
    when the event has no clan (a Divine card turned up)."""

    def message(event: Event, words: Words) -> str:
        fields = {**words.fields(event), "clan": clan_name(event["clan"], words.lang)}
        return (divine if event["clan"] is None and divine else text).format(**fields)

    return message


def _either(test, yes: str, no: str):
    """A message with two wordings: ``yes`` for an event that passes ``test``, else ``no``."""

    def message(event: Event, words: Words) -> str:
        return (yes if test(event) else no).format(**words.fields(event))

    return message


def _scored(label: str):
    def message(event: Event, words: Words) -> str:
        return label + ", ".join(f"{words.seat(s)} +{g}" for s, g in enumerate(event["gains"]))

    return message


def _one_card(event: Event) -> bool:
    return event["size"] == 1


def _crown(event: Event) -> bool:
    return event["crown"]


def _sole(event: Event) -> bool:
    return len(event["seats"]) == 1


MESSAGES: dict[str, dict[str, Any]] = {
    "en": {
        "deal": _either(
            _one_card,
            "Round {round}: {seat} deals 1 card each",
            "Round {round}: {seat} deals {size} cards each",
        ),
        "brawl_deal": "Tie brawl: {seat} deals one card to everyone",
        "battleground_card": _clan(
            "Battleground card: {card} (Battleground {clan})", "Battleground card: {card}"
        ),
        "devil_reveal": _clan("The Devil reveals: {card} (Battleground {clan})", "The Devil reveals: {card}"),
        "thief_reveal": "Thief revealed: {seat} returns a crown to the pile",
        "thief_reveal_no_crown": "Thief revealed: {seat} has no crown to return",
        "assassin_reveal": "Assassin revealed: {seat} is assassinated and plays {card} at random",
        "played": "{seat} played {card}",
        "discarded": "{seat} discarded {card}",
        "bid": "{seat} bids {tricks}",
        "chose_clan": _clan("{seat} chooses Battleground {clan}"),
        "assassinated": "{seat} assassinates {target_seat}: {card} is played at random",
        "no_victim": "{seat}'s Assassin has nobody left to name",
        "stole": "{seat}'s Thief steals a crown from {from_seat}",
        "stole_from_pile": "{seat}'s Thief takes a crown from the pile",
        "stack_empty": _clan("The stack is empty: Battleground stays {clan}"),
        "won_trick": _either(_crown, "{seat} won the trick (+1 crown)", "{seat} won the trick"),
        "bids_scored": _scored("Bids scored: "),
        "tie_brawl": "Tie for most crowns between {seats}: Tie brawl!",
        "game_over": _either(
            _sole,
            "Game over: {seats} wins, Ruler of the Universe",
            "Game over: {seats} win, Rulers of the Universe",
        ),
    },
    "fr": {
        "deal": _either(
            _one_card,
            "Manche {round} : {seat} distribue 1 carte à chacun",
            "Manche {round} : {seat} distribue {size} cartes à chacun",
        ),
        "brawl_deal": "Égalité Furieuse : {seat} distribue une carte à chacun",
        "battleground_card": _clan(
            "Carte du Champ de Bataille : {card} (Champ de Bataille {clan})",
            "Carte du Champ de Bataille : {card}",
        ),
        "devil_reveal": _clan(
            "Le Diable révèle : {card} (Champ de Bataille {clan})", "Le Diable révèle : {card}"
        ),
        "thief_reveal": "Voleur révélé : {seat} remet une couronne dans la réserve",
        "thief_reveal_no_crown": "Voleur révélé : {seat} n’a aucune couronne à remettre",
        "assassin_reveal": "Assassin révélé : {seat} est assassiné et joue {card} au hasard",
        "played": "{seat} joue {card}",
        "discarded": "{seat} se défausse de {card}",
        "bid": "{seat} parie {tricks}",
        "chose_clan": _clan("{seat} choisit le clan du Champ de Bataille : {clan}"),
        "assassinated": "{seat} assassine {target_seat} : {card} est joué au hasard",
        "no_victim": "L’Assassin de {seat} n’a plus personne à désigner",
        "stole": "Le Voleur de {seat} vole une couronne à {from_seat}",
        "stole_from_pile": "Le Voleur de {seat} prend une couronne dans la réserve",
        "stack_empty": _clan("La pile est vide : le clan du Champ de Bataille reste {clan}"),
        "won_trick": _either(_crown, "{seat} remporte le tour (+1 couronne)", "{seat} remporte le tour"),
        "bids_scored": _scored("Paris comptés : "),
        "tie_brawl": "Égalité pour le plus de couronnes entre {seats} : Égalité Furieuse !",
        "game_over": _either(
            _sole,
            "Fin de la partie : {seats} gagne et devient Souverain de l’Univers",
            "Fin de la partie : {seats} gagnent et deviennent Souverains de l’Univers",
        ),
    },
}


# The engine's refusals in French (``rules.core.add_wordings``), keyed by their English templates.
add_wordings(
    {
        "fr": {
            "Unknown move type {kind}.": "Type de coup inconnu : {kind}.",
            "You must {ask} now.": "Vous devez {ask} maintenant.",
            "A {move} move needs {key}.": "Un coup {move} doit indiquer {key}.",
            "A card is given by its code.": "Une carte se désigne par son code.",
            "There is no card {card}.": "Il n’y a pas de carte {card}.",
            "You do not hold {card}.": "Vous n’avez pas {card} en main.",
            "You must follow the Leading clan ({clan}).": "Vous devez suivre le Clan Guide ({clan}).",
            "A bid is a whole number of tricks.": "Un pari est un nombre entier de tours.",
            "A bid is from 0 to {size}.": "Un pari va de 0 à {size}.",
            "As the last bidder you may not bid {bid}: the bids would add up to {size}.": (
                "Dernier à parier, vous ne pouvez pas parier {bid} : le total des paris ferait {size}."
            ),
            "Choose one of {clans}.": "Choisissez l’un de ces clans : {clans}.",
            "Name the target by seat number.": "Désignez la cible par son numéro de place.",
            "Name a player who has not played in this trick.": (
                "Désignez un joueur qui n’a pas encore joué dans ce tour."
            ),
            "Steal from a seat number (or null for the pile).": (
                "Volez à un numéro de place (ou null pour la réserve)."
            ),
            "Another player has a crown: steal from one of them.": (
                "Un autre joueur a une couronne : volez l’un des joueurs qui en ont."
            ),
            "Steal from another player who has at least one crown.": (
                "Volez un autre joueur qui a au moins une couronne."
            ),
            "That move is not allowed now.": "Ce coup n’est pas permis maintenant.",
        }
    }
)
