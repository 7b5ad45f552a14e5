"""Chronica Universalis: what a viewer may know (``view``) and how the engine's events read, in English
and in French (``MESSAGES``). Card names stay as printed, in French, in both languages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.chronica import board as B
from rules.chronica import cards as C
from rules.chronica import powers as P
from rules.core import Event, State, Words, add_wordings

# --- the view --------------------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict:
    """What ``seat`` may know (None: a spectator). Keys:

    The shared ones: ``seat``, ``players``, ``to_act``, ``over``, ``result`` (null until over),
    ``hand_sizes``, ``hand`` (own codes; a seat's view only) and ``turn`` (the turn counter, from 1).
    Chronica's: ``phase`` (mulligan/play/fervour/draw/over), ``first`` (who played first),
    ``shared_deck``, ``deck_sizes`` (per seat; null each in the shared variant), ``pile_size`` (shared
    variant, else null), ``river`` (shared variant: list of codes, else null), ``discards`` (per seat,
    oldest first, public), ``discard_sizes``, ``honour``, ``provinces`` (per seat 8 slots null or
    {"building", "character"}), ``guests`` (per seat 8 entries: the owner seat of a welcomed opponent
    character in that slot, else null), ``protected`` (per seat 8 bools: hinterland slot behind an
    occupied frontier slot), ``victory_points`` (live), ``fervour`` (the player to act may play again),
    ``pending_draws`` (shared variant draw step), ``mulligan`` ({"seat": whose decision or null,
    "taken": per seat bool}), ``end_reason`` (honour/province/deck or null); ``powers`` (true, only at a
    table playing with the special powers) and, with them, ``extra_plays`` (how many more cards the player
    to act may play this turn: 0 outside the fervour phase; two grants in one move give two).
    """
    n = state["players"]
    phase = state["phase"]
    over = phase == "over"
    awaited = B.to_act(state)
    out = {
        "seat": seat,
        "players": n,
        "to_act": awaited,
        "over": over,
        "result": B.result(state) if over else None,
        "hand_sizes": [len(h) for h in state["hands"]],
        "turn": state["turn"],
        "phase": phase,
        "first": state["first"],
        "shared_deck": state["shared"],
        "deck_sizes": [None] * n if state["shared"] else [len(d) for d in state["decks"]],
        "pile_size": len(state["pile"]) if state["shared"] else None,
        "river": list(state["river"]) if state["shared"] else None,
        "discards": [list(d) for d in state["discards"]],
        "discard_sizes": [len(d) for d in state["discards"]],
        "honour": list(state["honour"]),
        "provinces": [
            [
                None if slot is None else {"building": slot["building"], "character": slot["character"]}
                for slot in prov
            ]
            for prov in state["provinces"]
        ],
        "guests": [[None if slot is None else slot["guest"] for slot in prov] for prov in state["provinces"]],
        "protected": [[B.protected(state, s, i) for i in range(B.SLOTS)] for s in range(n)],
        "victory_points": B.victory_points(state),
        "fervour": phase == "fervour",
        "pending_draws": state["pending_draws"],
        "mulligan": {"seat": awaited[0] if phase == "mulligan" else None, "taken": list(state["mulligans"])},
        "end_reason": state["end_reason"],
    }
    if state["options"].get("powers"):
        out["powers"] = True
        out["extra_plays"] = (1 + state.get("more_plays", 0)) if phase == "fervour" else 0
    if seat is not None:
        out["hand"] = list(state["hands"][seat])
    return out


# --- words -----------------------------------------------------------------------------------

DOMAIN_NAMES = {
    "en": {C.E: "Erudition", C.P: "Prestige", C.G: "War"},
    "fr": {C.E: "Érudition", C.P: "Prestige", C.G: "Guerre"},
}


def card_name(code: str, lang: str) -> str:
    """A card's name as printed (French), in every language; an unknown code as it is."""
    card = C.CARD_BY_CODE.get(code)
    return card["name"] if card else code


def slot_name(i: int, lang: str) -> str:
    """``frontier 1`` .. ``hinterland 4`` (``frontière 1`` .. ``arrière-pays 4``)."""
    row = ("frontier", "hinterland") if lang == "en" else ("frontière", "arrière-pays")
    return f"{row[0]} {i + 1}" if i < B.FRONTIER else f"{row[1]} {i - B.FRONTIER + 1}"


def signed(n: int) -> str:
    return f"{n:+d}".replace("-", "\u2212")


def _sum(codes: list[str], words: Words) -> str:
    return " + ".join(words.card(c) for c in codes)


def _with_slot(template: str) -> Callable[[Event, Words], str]:
    """A message naming a slot of a province in words (and an Action's cards as ``attack``, ``defence``)."""

    def say(event: Event, words: Words) -> str:
        extra = {"slot": slot_name(event["slot"], words.lang)}
        if "attack_cards" in event:
            extra.update(
                attack=_sum(event["attack_cards"], words), defence=_sum(event["defence_cards"], words)
            )
        return template.format(**words.fields(event) | extra)

    return say


REASONS = {
    "en": {"occupied": "an occupied building", "action": "Action against an occupied building"},
    "fr": {"occupied": "un Édifice occupé", "action": "Action contre un Édifice occupé"},
}
HONOUR_LOST = {
    "en": "{seat} loses {amount} honour ({reason}).",
    "fr": "{seat} perd {amount} point{s} d’Honneur ({reason}).",
}
ENDS = {
    "en": {
        "honour": "{seat} has no honour left",
        "province": "{seat}'s province is full",
        "deck": "{seat} drew the last card",
    },
    "fr": {
        "honour": "{seat} n’a plus d’Honneur",
        "province": "la Province de {seat} est pleine",
        "deck": "{seat} a pioché la dernière carte",
    },
}
GAME_OVER = {
    "en": ("Game over: {why}. Victory points: {scores}. {winners} {verb}.", ("wins", "win")),
    "fr": (
        "Fin de la partie : {why}. Points de victoire : {scores}. {winners} {verb}.",
        ("gagne", "gagnent"),
    ),
}
CLASH = {
    "en": "{attack} ({dom} {a}) against {defence} ({dom} {d}): {sign}",
    "fr": "{attack} ({dom} {a}) contre {defence} ({dom} {d}) : {sign}",
}
LIMITS = {  # why the honour moved less than the comparison says
    "en": {
        "cap": ", honour {change} (it never goes above 10)",
        "floor": ", honour {change} (it never goes below 0)",
        "replace": ", no honour gained (replacing a building can only lose honour)",
    },
    "fr": {
        "cap": ", Honneur {change} (jamais plus de 10)",
        "floor": ", Honneur {change} (jamais moins de 0)",
        "replace": ", aucun Honneur gagné (remplacer un Édifice ne peut qu’en faire perdre)",
    },
}


def _clash(event: Event, words: Words) -> str:
    line = CLASH[words.lang].format(
        attack=_sum(event["attack_cards"], words),
        defence=_sum(event["defence_cards"], words),
        dom=DOMAIN_NAMES[words.lang][event["domain"]],
        a=event["attack"],
        d=event["defence"],
        sign=signed(event["delta"]),
    )
    if event["limit"]:
        line += LIMITS[words.lang][event["limit"]].format(change=signed(event["change"]))
    return line + "."


def _honour_lost(event: Event, words: Words) -> str:
    return HONOUR_LOST[words.lang].format(
        seat=words.seat(event["seat"]),
        amount=event["amount"],
        s="s" if event["amount"] > 1 else "",
        reason=REASONS[words.lang][event["reason"]],
    )


def _game_over(event: Event, words: Words) -> str:
    text, verbs = GAME_OVER[words.lang]
    winners = event["winner_seats"]
    return text.format(
        why=ENDS[words.lang][event["reason"]].format(seat=words.seat(event["seat"])),
        scores=", ".join(map(str, event["scores"])),
        winners=words.seats(winners),
        verb=verbs[len(winners) > 1],
    )


POWER_HONOUR = {
    "en": ("{card}'s power: {seat} gains {n} honour.", "{card}'s power: {seat} loses {n} honour.",
           "{card}'s power: {seat}'s honour does not move (from 0 to 10)."),
    "fr": ("Pouvoir de {card} : {seat} gagne {n} point{s} d’Honneur.",
           "Pouvoir de {card} : {seat} perd {n} point{s} d’Honneur.",
           "Pouvoir de {card} : l’Honneur de {seat} ne bouge pas (de 0 à 10)."),
}  # fmt: skip
POWER_BONUS = {
    "en": "{card}'s power: +{n} {dom} in defence.",
    "fr": "Pouvoir de {card} : +{n} en {dom} en défense.",
}


def _power_honour(event: Event, words: Words) -> str:
    gain, loss, same = POWER_HONOUR[words.lang]
    change = event["change"]
    text = gain if change > 0 else loss if change < 0 else same
    n = abs(change)
    return text.format(**words.fields(event) | {"n": n, "s": "s" if n > 1 else ""})


def _power_bonus(event: Event, words: Words) -> str:
    dom = DOMAIN_NAMES[words.lang][event["domain"]]
    return POWER_BONUS[words.lang].format(**words.fields(event) | {"dom": dom})


def _fervour(one: str, many: str, left: dict[str, str]) -> Callable[[Event, Words], str]:
    """Popular fervour, and how many extra plays are owed when a move granted more than one; ``left``: the
    words for extra plays still owed from an earlier move (``left`` in the event), one and many."""

    def say(event: Event, words: Words) -> str:
        many_plays = event.get("plays", 1) > 1
        if event.get("left"):
            return left["many" if many_plays else "one"].format(**words.fields(event))
        return (many if many_plays else one).format(**words.fields(event))

    return say


def _count(one: str, many: str) -> Callable[[Event, Words], str]:
    def say(event: Event, words: Words) -> str:
        return (one if event["count"] == 1 else many).format(**words.fields(event))

    return say


def _passed(plain: str, discarding: str) -> Callable[[Event, Words], str]:
    def say(event: Event, words: Words) -> str:
        return (plain if event["card"] is None else discarding).format(**words.fields(event))

    return say


MESSAGES: dict[str, dict[str, Any]] = {
    "en": {
        "first_player": "{seat} plays first; the others draw a sixth card.",
        "dealt": "Your opening hand: {cards}.",
        "river": "The river: {cards}.",
        "mulligan": "{seat} shuffled their hand back and drew {count} cards.",
        "mulligan_hand": "Your new hand: {cards}.",
        "kept": "{seat} kept their hand.",
        "plays_first": "{seat} plays first.",
        "built": _with_slot("{seat} built {card} on {slot}."),
        "welcomed": "{seat} welcomed {owner_seat}'s {card} into it.",
        "built_under": _with_slot("{seat} built {card} under {character_card} on {slot}."),
        "replaced": _with_slot("{seat} replaced {old_card} with {card} on {slot}."),
        "placed": _with_slot("{seat} placed {card} on {slot} (wandering)."),
        "placed_in": "{seat} placed {card} in {building_card}.",
        "action": _with_slot("{seat} sent {attack} against {target_seat}'s {defence} on {slot}."),
        "clash": _clash,
        "honour_lost": _honour_lost,
        "fervour": _fervour(
            "Popular fervour: {seat} may play another card.",
            "{seat} may play {plays} more cards this turn.",
            {
                "one": "{seat} may still play one more card this turn.",
                "many": "{seat} may still play {plays} more cards this turn.",
            },
        ),
        "ended_turn": "{seat} ended their turn.",
        "passed": _passed("{seat} passed.", "{seat} passed, discarding {card}."),
        "drew": _count("{seat} drew a card.", "{seat} drew {count} cards."),
        "drew_cards": "You drew {cards}.",
        "took_from_river": "{seat} took {card} from the river.",
        "river_refilled": "{card} joins the river.",
        "game_over": _game_over,
        "power_drew": _count(
            "{card}'s power: {seat} draws a card.", "{card}'s power: {seat} draws {count} cards."
        ),
        "power_drew_cards": "{card}'s power: you draw {drawn_cards}.",
        "power_honour": _power_honour,
        "power_bonus": _power_bonus,
        "power_recovered": "{card}'s power: {seat} takes {recovered_card} back from their discard.",
        "power_routed": "{card}'s power: {owner_seat}'s {routed_card} goes back to their hand.",
        "power_fervour": "{card}'s power: {seat} may play another card.",
    },
    "fr": {
        "first_player": "{seat} joue en premier ; les autres piochent une sixième carte.",
        "dealt": "Votre main de départ : {cards}.",
        "river": "La rivière : {cards}.",
        "mulligan": "{seat} remélange sa main dans sa pioche et pioche {count} cartes.",
        "mulligan_hand": "Votre nouvelle main : {cards}.",
        "kept": "{seat} garde sa main.",
        "plays_first": "{seat} joue en premier.",
        "built": _with_slot("{seat} bâtit {card} en {slot}."),
        "welcomed": "{seat} y accueille {card}, Personnage Errant de {owner_seat}.",
        "built_under": _with_slot("{seat} bâtit {card} sous {character_card} en {slot}."),
        "replaced": _with_slot("{seat} remplace {old_card} par {card} en {slot}."),
        "placed": _with_slot("{seat} pose {card} en {slot} (Personnage Errant)."),
        "placed_in": "{seat} pose {card} dans {building_card}.",
        "action": _with_slot(
            "{seat} lance une Action : {attack} contre {defence}, chez {target_seat}, en {slot}."
        ),
        "clash": _clash,
        "honour_lost": _honour_lost,
        "fervour": _fervour(
            "Ferveur populaire : {seat} peut jouer une autre carte.",
            "{seat} peut jouer {plays} cartes de plus ce tour-ci.",
            {
                "one": "{seat} peut encore jouer une carte de plus ce tour-ci.",
                "many": "{seat} peut encore jouer {plays} cartes de plus ce tour-ci.",
            },
        ),
        "ended_turn": "{seat} termine son tour.",
        "passed": _passed("{seat} passe.", "{seat} passe et défausse {card}."),
        "drew": _count("{seat} pioche une carte.", "{seat} pioche {count} cartes."),
        "drew_cards": "Vous piochez {cards}.",
        "took_from_river": "{seat} prend {card} dans la rivière.",
        "river_refilled": "{card} rejoint la rivière.",
        "game_over": _game_over,
        "power_drew": _count(
            "Pouvoir de {card} : {seat} pioche une carte.",
            "Pouvoir de {card} : {seat} pioche {count} cartes.",
        ),
        "power_drew_cards": "Pouvoir de {card} : vous piochez {drawn_cards}.",
        "power_honour": _power_honour,
        "power_bonus": _power_bonus,
        "power_recovered": "Pouvoir de {card} : {seat} reprend {recovered_card} de sa défausse.",
        "power_routed": "Pouvoir de {card} : {routed_card} retourne dans la main de {owner_seat}.",
        "power_fervour": "Pouvoir de {card} : {seat} peut jouer une autre carte.",
    },
}

# --- what the rules refuse, in French (rules.core's wordings; the English is the engine's own) ---------

# Words a refusal names: a slot (``{what} must be a whole number.``), the card to play (``Name the {what} to
# play by its code.``), a card's kind (``{card} is not a {kind}.``).
SLOT_WORDS = {
    "slot": {"en": "The slot", "fr": "L’emplacement"},
    "welcomed": {"en": "The welcomed character's slot", "fr": "L’emplacement du Personnage accueilli"},
    "target": {"en": "The target slot", "fr": "L’emplacement visé"},
    "reinforcement": {"en": "The reinforcement's slot", "fr": "L’emplacement du Renfort"},
}
CARD_ROLES = {
    C.BUILD: {"en": "building", "fr": "l’Édifice"},
    C.CHAR: {"en": "character", "fr": "le Personnage"},
    "reinforcement": {"en": "reinforcement", "fr": "le Renfort"},
}
KINDS = {C.BUILD: {"en": "building", "fr": "un Édifice"}, C.CHAR: {"en": "character", "fr": "un Personnage"}}


def keyword(name: str) -> dict[str, str]:
    """A power keyword's name per language (``shield``: Sanctuary, Sanctuaire)."""
    en, fr = P.KEYWORDS[name]
    return {"en": en, "fr": fr}


add_wordings(
    {
        "fr": {
            # set-up and decks (cards.py, engine.py)
            "Choose either per-seat decks or the shared deck, not both.": (
                "Choisissez soit un deck par place, soit la pioche commune, pas les deux."
            ),
            "decks must be a list of {n} decks, one per seat.": (
                "decks doit être une liste de {n} decks, un par place."
            ),
            "Seat {seat}'s deck: {problems}": "Deck de la place {seat} : {problems}",
            "A deck is a list of card codes.": "Un deck est une liste de codes de cartes.",
            "A deck needs exactly {size} cards; this one has {count}.": (
                "Un deck compte exactement {size} cartes ; celui-ci en a {count}."
            ),
            "Card codes are text; {code} is not.": "Les codes de cartes sont du texte ; {code} n’en est pas.",
            "Unknown card: {code} is not in the catalog.": "Carte inconnue : {code} n’est pas dans le catalogue.",
            "{card} ({code}) is in the deck more than once; a deck holds distinct cards.": (
                "{card} ({code}) figure plusieurs fois dans le deck ; un deck ne contient que des cartes "
                "différentes."
            ),
            "A deck code holds at most {most} cards.": "Un code de deck contient au plus {most} cartes.",
            "A deck code is text.": "Un code de deck est du texte.",
            "This is not a Chronica deck code (it should start with {prefix}).": (
                "Ce n’est pas un code de deck Chronica (il devrait commencer par {prefix})."
            ),
            "This deck code is damaged: it holds characters a deck code never uses.": (
                "Ce code de deck est abîmé : il contient des caractères qu’un code de deck n’utilise jamais."
            ),
            "This deck code is too short.": "Ce code de deck est trop court.",
            "This deck code is damaged or mistyped (its checksum does not match).": (
                "Ce code de deck est abîmé ou mal recopié (sa somme de contrôle ne correspond pas)."
            ),
            "This deck code names a card this version of the catalog does not know.": (
                "Ce code de deck désigne une carte que cette version du catalogue ne connaît pas."
            ),
            # the phases
            "The mulligan is only offered before the first turn.": (
                "Le mulligan n’est proposé qu’avant le premier tour."
            ),
            "You draw only at the end of your turn.": "Vous ne piochez qu’à la fin de votre tour.",
            "Before the first turn, choose to keep your hand or take a mulligan.": (
                "Avant le premier tour, choisissez de garder votre main ou de prendre un mulligan."
            ),
            "Draw a card first (from the pile or the river).": (
                "Piochez d’abord une carte (dans la pioche ou dans la rivière)."
            ),
            "You can only end your turn early after Popular fervour; otherwise play or pass.": (
                "Vous ne pouvez terminer votre tour plus tôt qu’après une Ferveur populaire ; sinon, jouez "
                "ou passez."
            ),
            "Popular fervour lets you play a card or end your turn, not pass.": (
                "La Ferveur populaire vous laisse jouer une carte ou terminer votre tour, pas passer."
            ),
            "Unknown move type {kind}.": "Type de coup inconnu : {kind}.",
            # the cards and slots a move names
            "{what} must be a whole number.": "{what} doit être un nombre entier.",
            "{what} must be from {low} to {high}.": "{what} doit être compris entre {low} et {high}.",
            "Name the {what} to play by its code.": "Désignez par son code {what} à jouer.",
            "There is no card {code}.": "Il n’y a pas de carte {code}.",
            "{card} is not in your hand.": "{card} n’est pas dans votre main.",
            "{card} is not a {kind}.": "{card} n’est pas {kind}.",
            "{card} is already in play; its twin cannot be played until that one is discarded.": (
                "{card} est déjà en jeu ; son double ne peut pas être joué tant que cette carte n’est pas "
                "défaussée."
            ),
            "Name the opponent who loses 1 honour (target).": (
                "Désignez l’adversaire qui perd 1 point d’Honneur (target)."
            ),
            "The target must be an opponent's seat.": "La cible doit être la place d’un adversaire.",
            # draw and pass
            "Draw from the pile or the river.": "Piochez dans la pioche ou dans la rivière.",
            "That card is not in the river.": "Cette carte n’est pas dans la rivière.",
            "Your hand is empty: there is nothing to discard.": "Votre main est vide : il n’y a rien à défausser.",
            "Name the card to discard when you pass.": "Désignez la carte à défausser quand vous passez.",
            "You can only discard a card from your hand.": "Vous ne pouvez défausser qu’une carte de votre main.",
            # build, replace, place
            "{card} is placed only {condition}.": "{card} se pose seulement {condition}.",
            "That slot already holds a building: replace it instead, or build on a free slot.": (
                "Cet emplacement contient déjà un Édifice : remplacez-le, ou bâtissez sur un emplacement libre."
            ),
            "You can only welcome a character when building on a free slot.": (
                "Vous ne pouvez accueillir un Personnage qu’en bâtissant sur un emplacement libre."
            ),
            "Building on a free slot names no target.": "Bâtir sur un emplacement libre ne désigne aucune cible.",
            "welcome must be {{seat, slot}}.": "welcome doit être {{seat, slot}}.",
            "You can only welcome an opponent's wandering character.": (
                "Vous ne pouvez accueillir que le Personnage Errant d’un adversaire."
            ),
            "There is no wandering character in that slot.": "Il n’y a pas de Personnage Errant dans cet emplacement.",
            "There is no building of yours to replace there.": "Vous n’avez là aucun Édifice à remplacer.",
            "That slot already holds a character.": "Cet emplacement contient déjà un Personnage.",
            "A wandering character names no target.": "Un Personnage Errant ne désigne aucune cible.",
            # the Action
            "An Action needs a target {{seat, slot}}.": "Une Action a besoin d’une cible {{seat, slot}}.",
            "An Action targets an opponent's province.": "Une Action vise la Province d’un adversaire.",
            "There is nothing to target in that slot.": "Il n’y a rien à cibler dans cet emplacement.",
            "{card}'s power ({power}) keeps that slot from being targeted.": (
                "Le pouvoir de {card} ({power}) empêche de cibler cet emplacement."
            ),
            "That card is protected by the frontier card in front of it.": (
                "Cette carte est protégée par la carte de la frontière devant elle."
            ),
            "An occupied building is targeted as a whole (part: building); a wandering character as part: character.": (
                "Un Édifice occupé est ciblé en entier (part: building) ; un Personnage Errant avec "
                "part: character."
            ),
            "reinforce must be {{from: hand, card}} or {{from: province, slot}}.": (
                "reinforce doit être {{from: hand, card}} ou {{from: province, slot}}."
            ),
            "Reinforcements come from your hand or your province.": (
                "Les Renforts viennent de votre main ou de votre Province."
            ),
            "The reinforcement must be a second character.": "Le Renfort doit être un second Personnage.",
            "There is no character of yours in that slot of your province.": (
                "Vous n’avez aucun Personnage dans cet emplacement de votre Province."
            ),
            # the choices a power asks (Disgrace: the opponent; Exile: the wandering character)
            "No power of this move makes an opponent lose honour: name none (disgrace).": (
                "Aucun pouvoir de ce coup ne fait perdre d’Honneur à un adversaire : n’en désignez aucun "
                "(disgrace)."
            ),
            "Name the opponent who loses honour by the power (disgrace).": (
                "Désignez l’adversaire qui perd de l’Honneur par le pouvoir (disgrace)."
            ),
            "No power of this move sends a wandering character home: name none (exile).": (
                "Aucun pouvoir de ce coup ne renvoie de Personnage Errant : n’en désignez aucun (exile)."
            ),
            "Name the wandering character the power sends home (exile: {{seat, slot}}).": (
                "Désignez le Personnage Errant que le pouvoir renvoie (exile : {{seat, slot}})."
            ),
            "exile must be {{seat, slot}}.": "exile doit être {{seat, slot}}.",
            "The power can only send home an opponent's unprotected wandering character.": (
                "Le pouvoir ne peut renvoyer que le Personnage Errant non protégé d’un adversaire."
            ),
        }
    }
)

# --- a preview's explanation ------------------------------------------------------------------

PREVIEWED = frozenset(
    {"clash", "honour_lost", "fervour", "game_over", "power_honour", "power_bonus", "power_fervour"}
)  # what a preview tells
EXPLAIN = {
    "en": {
        "honour_lost": "The opponent loses {amount} honour ({reason}).",
        "fervour": "Popular fervour: you may play another card.",
        "fervour_left": "You may still play one more card this turn.",
        "power_fervour": "A power lets you play one more card.",
        "power_honour": {
            "mine": "{card}'s power: your honour {change}.",
            "theirs": "{card}'s power: an opponent's honour {change}.",
        },
        "game_over": "This ends the game.",
        "nothing": "No honour changes.",
    },
    "fr": {
        "honour_lost": "L’adversaire perd {amount} point{s} d’Honneur ({reason}).",
        "fervour": "Ferveur populaire : vous pourrez jouer une autre carte.",
        "fervour_left": "Vous pourrez encore jouer une carte de plus ce tour-ci.",
        "power_fervour": "Un pouvoir vous permettra de jouer une carte de plus.",
        "power_honour": {
            "mine": "Pouvoir de {card} : votre Honneur {change}.",
            "theirs": "Pouvoir de {card} : Honneur d’un adversaire {change}.",
        },
        "game_over": "La partie s’arrête là.",
        "nothing": "L’Honneur ne change pas.",
    },
}


class _Names:
    """What ``Words`` needs of a game to name cards (a preview's words name no seat)."""

    card_name = staticmethod(card_name)


def explain(events: list[Event], lang: str, seat: int | None = None) -> str:
    """A preview's events in words, addressed to the player who would move (``seat``; ``lang``: en or fr)."""
    words = Words(_Names, [], lang)
    table = EXPLAIN[lang]
    lines = []
    for event in events:
        kind = event["kind"]
        if kind == "clash":
            lines.append(_clash(event, words))
        elif kind == "power_bonus":
            lines.append(_power_bonus({k: v for k, v in event.items() if k != "seat"}, words))
        elif kind == "power_honour":
            whose = "mine" if event["seat"] == seat else "theirs"
            line = table[kind][whose].format(card=words.card(event["card"]), change=signed(event["change"]))
            lines.append(line)
        elif kind == "honour_lost":
            amount = event["amount"]
            reason = REASONS[lang][event["reason"]]
            lines.append(table[kind].format(amount=amount, s="s" if amount > 1 else "", reason=reason))
        elif kind == "fervour" and event.get("left"):
            lines.append(table["fervour_left"])
        else:
            lines.append(table[kind])
    return " ".join(lines) if lines else table["nothing"]
