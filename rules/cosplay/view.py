"""What a seat may see, and the move log's lines.

``build_view(state, seat)`` returns (keys are stable; the board template reads them):

- ``hand``: the viewer's own card codes (absent for a spectator).
- ``zones``: recruitment zones 1..6, a code or null each.
- ``zone_costs``: the cost of each zone's card for the active player now (after Influence,
  discounts and surcharge), ``{"badass", "kawaii", "craft", "any"}`` or null.
- ``objectives``: one entry per pile, ``{"level", "card", "cost"}`` or null (fulfilled this turn,
  or closed after level 3).
- ``objective_decks``: cards left per level, ``{"1": n, "2": n, "3": n}``.
- ``influences``: codes whose Influence is active now.
- ``scores``: projected score per seat (objective points + 1 per full 10 of recruitment cost owned).
- ``score_parts``: per seat ``{"vp": objective points, "cost": recruitment cost owned, "bonus": cost // 10}``.
- ``library``: cards left in the library; ``graveyard``: ``{"count", "top"}``;
  ``drama``: the Drama reserve, ``{"count", "top", "cost"}`` (a face-up pile).
- ``seats``: per seat ``{"seat", "hand_size", "reserve", "discard": {"count", "top"},
  "assist": [{"card", "equip": [codes], "combo": bool, "points": {res: n} or null}] (face-up cards;
  ``points`` is what a face-up character pays with, equipment and duo/trio bonus included; null for
  cards that cannot pay), "face_down": n,
  "objectives": n fulfilled, "turns": n}``; the owner's own entry also has ``face_down_cards``
  (their own face-down codes) and ``discard_cards`` (the whole discard, for trashing).
- the shared keys: ``seat`` (the viewer, None for a spectator), ``players``, ``to_act`` (the seat
  awaited, [] once over), ``over``, ``result`` (None until over), ``hand_sizes`` (per seat), ``turn``
  (the turn counter, from 1), ``phase`` ("preparation": phase 1, cards from hand may be placed;
  "recruitment": phase 2; "over"),
- ``drawn``: for a seat's own view, the cards of its hand drawn during its turn (placed at its
  next preparation phase at the earliest; [] when it is not the viewer's turn).
- ``turn_state``: the active player's ``{"bonus": {res: n}, "discount": {what: n}, "surcharge", "fatigue"}``.
- ``points``: for the viewer, the points their hand and face-up assistance cards plus the bonus
  could pay now, ``{"badass", "kawaii", "craft", "wild"}`` (absent for a spectator).
- ``pending``: the choice awaited, ``{"kind": "drama"|"trash"|"clear", "seat", "n", "source"}`` or null
  (``source`` is null for others when the card that asks lies face down, e.g. just recruited).
- ``needs``: for the active seat only (absent otherwise), what each payable action still needs after
  the turn's bonus points: ``{"zones": [need or null] * 6, "objectives": [need or null],
  "drama": need or null, "poach": {"<seat>": {code: need}}}``, a need being
  ``{"badass", "kawaii", "craft", "any"}`` (the payment UI's tally; the engine still judges the move).
- ``short``: the library could not refill the zones; ``sudden_end``: the table plays the house rule
  ``sudden_end``; ``last_round``: the game's end is reached and it is not over yet (it ends with the
  round's last turn, seat ``round_ender``'s, or under ``sudden_end`` with this turn).
- once over, ``result``: ``{"scores", "winners"}``.
"""

from __future__ import annotations

from rules.core import add_wordings
from rules.cosplay.cards import CARDS, RESOURCES, where_name
from rules.cosplay.moves import PAYABLE_KIND, last_round, round_ender, sudden_end
from rules.cosplay.payments import (
    _apply_bonus,
    combo_active,
    effective_cost,
    entry_points,
    influences,
    payers,
)
from rules.cosplay.scoring import score, score_parts, winners


def _seat_view(state: dict, s: int, viewer: int | None) -> dict:
    me = state["seats"][s]
    out = {
        "seat": s,
        "hand_size": len(me["hand"]),
        "reserve": len(me["reserve"]),
        "discard": {"count": len(me["discard"]), "top": me["discard"][-1] if me["discard"] else None},
        "assist": [
            {
                "card": e["card"],
                "equip": list(e["equip"]),
                "combo": combo_active(state, s, e["card"]),
                "points": entry_points(state, s, e) if CARDS[e["card"]]["kind"] == "character" else None,
            }
            for e in me["assist"]
            if e["up"]
        ],
        "face_down": sum(1 for e in me["assist"] if not e["up"]),
        "objectives": score_parts(state, s)[2],
        "turns": state["turns"][s],
    }
    if viewer == s:
        out["face_down_cards"] = [e["card"] for e in me["assist"] if not e["up"]]
        out["discard_cards"] = list(me["discard"])
    return out


def _pending(state: dict, seat: int | None) -> dict | None:
    """The awaited choice; its source card is named only if the viewer may see it (not face down)."""
    pending = state["pending"]
    if pending is None:
        return None
    source = pending["source"]
    for s, me in enumerate(state["seats"]):
        for entry in me["assist"]:
            if entry["card"] == source and not entry["up"] and s != seat:
                source = None
    return {**pending, "source": source}


def _score_parts(state: dict, s: int) -> dict:
    vp, cost, _count = score_parts(state, s)
    return {"vp": vp, "cost": cost, "bonus": cost // 10}


def _needs(state: dict) -> dict:
    """What each payable action still needs after the active seat's bonus points."""

    def need(what: str, base: dict) -> dict:
        return _apply_bonus(effective_cost(state, what, base), state["tp"]["bonus"])[0]

    def card_need(code: str | None) -> dict | None:
        return need(CARDS[code]["kind"], CARDS[code]["cost"]) if code else None

    poach = {}
    for s, me in enumerate(state["seats"]):
        if s != state["active"]:
            poach[str(s)] = {
                e["card"]: card_need(e["card"])
                for e in me["assist"]
                if e["up"] and CARDS[e["card"]]["kind"] in PAYABLE_KIND
            }
    return {
        "zones": [card_need(c) for c in state["zones"]],
        "objectives": [
            need("objective", CARDS[p["card"]]["cost"]) if p["card"] else None for p in state["objectives"]
        ],
        "drama": need("drama", CARDS[state["drama"][-1]]["cost"]) if state["drama"] else None,
        "poach": poach,
    }


def build_view(state: dict, seat: int | None) -> dict:
    players = state["players"]
    zone_costs = [
        effective_cost(state, CARDS[c]["kind"], CARDS[c]["cost"]) if c else None for c in state["zones"]
    ]
    view = {
        "seat": seat,
        "players": players,
        "to_act": [] if state["over"] else [state["active"]],
        "over": state["over"],
        "result": None,
        "hand_sizes": [len(me["hand"]) for me in state["seats"]],
        "zones": list(state["zones"]),
        "zone_costs": zone_costs,
        "objectives": [
            {
                "level": p["level"],
                "card": p["card"],
                "cost": effective_cost(state, "objective", CARDS[p["card"]]["cost"]),
            }
            if p["card"]
            else None
            for p in state["objectives"]
        ],
        "objective_decks": {k: len(v) for k, v in state["obj_decks"].items()},
        "influences": influences(state),
        "scores": [score(state, s) for s in range(players)],
        "score_parts": [_score_parts(state, s) for s in range(players)],
        "library": len(state["library"]),
        "graveyard": {
            "count": len(state["graveyard"]),
            "top": state["graveyard"][-1] if state["graveyard"] else None,
        },
        "drama": {
            "count": len(state["drama"]),
            "top": state["drama"][-1] if state["drama"] else None,
            "cost": effective_cost(state, "drama", CARDS[state["drama"][-1]]["cost"])
            if state["drama"]
            else None,
        },
        "seats": [_seat_view(state, s, seat) for s in range(players)],
        "turn": state["turn"],
        "phase": "over" if state["over"] else state["phase"],
        "turn_state": {
            "bonus": dict(state["tp"]["bonus"]),
            "discount": dict(state["tp"]["discount"]),
            "surcharge": state["tp"]["surcharge"],
            "fatigue": state["tp"]["fatigue"],
        },
        "pending": _pending(state, seat),
        "short": state["short"],
        "sudden_end": sudden_end(state),
        "last_round": last_round(state) and not state["over"],
        "round_ender": round_ender(state),
    }
    if seat is not None:
        view["hand"] = list(state["seats"][seat]["hand"])
        # the viewer's own cards drawn this turn: they wait for the next preparation phase
        mine = seat == state["active"] and not state["over"]  # the turn's own figures are the viewer's
        view["drawn"] = list(state["tp"]["drawn"]) if mine else []
        points = {k: 0 for k in (*RESOURCES, "wild")}
        for _code, _where, vec in payers(state, seat):
            for k, v in vec.items():
                points[k] += v
        if mine:
            for r in RESOURCES:
                points[r] += state["tp"]["bonus"][r]
        view["points"] = points
        if mine:
            view["needs"] = _needs(state)
    if state["over"]:
        scores = view["scores"]
        view["result"] = {"scores": scores, "winners": winners(state, scores)}
    return view


# --- The move log: message formats per language ------------------------------------------------
# Every event kind of the engine (``effects.event``) has a message in each language of
# ``rules.core.LANGUAGES``: a format over the event's fields in words, or a function
# ``(event, words) -> str``. French follows rulebook 003 and RULINGS' glossary (bibliothèque,
# zone de recrutement, zone d’assistance, réserve, défausse, cimetière, Drama).

RES_WORD = {"badass": "BADASS", "kawaii": "KAWAII", "craft": "CRAFT"}
WHAT = {
    "en": {
        "any": "payment",
        "character": "character",
        "equipment": "equipment",
        "objective": "objective",
        "drama": "Drama",
    },
    "fr": {
        "any": "paiement",
        "character": "personnage",
        "equipment": "équipement",
        "objective": "objectif",
        "drama": "Drama",
    },
}


def _paid(template: str):
    """A message: ``template`` in words, then the cards that paid, when there were any (a free
    payment names none)."""

    def message(event: dict, words) -> str:
        text = template.format(**words.fields(event))
        if not event["pay_cards"]:
            return text
        return (
            f"{text} ({'paid with' if words.lang == 'en' else 'payé avec'} {words.cards(event['pay_cards'])})"
        )

    return message


def _over(event: dict, words) -> str:
    board = ", ".join(f"{words.seat(s)} {n}" for s, n in enumerate(event["scores"]))
    won = event["winner_seats"]
    if words.lang == "fr":
        verb = "gagne" if len(won) == 1 else "gagnent"
        return f"Fin de la partie ({board}) : {words.seats(won)} {verb}"
    return f"Game over ({board}): {words.seats(won)} win{'s' if len(won) == 1 else ''}"


def _drew(event: dict, words) -> str:
    n = event["n"]
    if words.lang == "fr":
        return f"{words.seat(event['seat'])} pioche {n} carte{'s' if n > 1 else ''}"
    return f"{words.seat(event['seat'])} drew {n} card{'s' if n > 1 else ''}"


def _trash(event: dict, words) -> str:
    who, card = words.seat(event["seat"]), words.card(event["card"])
    where = where_name(event["where"], words.lang)
    if words.lang == "fr":
        to = "la réserve de Drama" if event["back_to_drama"] else "le cimetière"
        return f"{who} remet {card} de sa {where} dans {to}"
    to = "the Drama reserve" if event["back_to_drama"] else "the graveyard"
    return f"{who} put {card} from their {where} into {to}"


MESSAGES: dict[str, dict] = {
    "en": {
        "end_turn": "{seat} ended their turn",
        "place": "{seat} placed {card} in their assistance zone",
        "attach": "{seat} attached {card} to {host_card}",
        "discard": "{seat} discarded {card} for its ability",
        "sacrifice": "{seat} sacrificed {card} for its ability",
        "recruit": _paid("{seat} recruited {card} from zone {zone}"),
        "objective": _paid("{seat} fulfilled {card} (+{vp} objective points)"),
        "poach": _paid("{seat} poached {card} from {victim_seat} with {enabler_card}"),
        "drama": "{seat} sent Drama {card} to {target_seat}'s discard",
        "gain": lambda e, w: f"{w.seat(e['seat'])} gains {e['n']} {RES_WORD[e['res']]} this turn",
        "discount": lambda e, w: f"{w.seat(e['seat'])}'s next {WHAT['en'][e['what']]} costs {e['n']} less",
        "drew": _drew,
        "drew_cards": "You drew {cards}",
        "reshuffle": "{seat} reshuffled their discard into a new reserve",
        "trash": _trash,
        "trash_stop": "{seat} stopped putting cards into the graveyard",
        "clear": "{seat} sent {card} from zone {zone} to the graveyard",
        "clear_none": "{seat} left the recruitment zones as they were",
        "turned_up": "{seat} turned up {cards}",
        "graveyard": "{card} left zone 6 for the graveyard",
        "refill": "New in the recruitment zones: {cards}",
        "short": "The library can no longer refill the recruitment zones",
        "new_objective": "Objective pile {pile}: {card} (level {level})",
        "closed_objective": "Objective pile {pile} is closed",
        "drama_back": "{seat} returned {cards} to the Drama reserve",
        "turn": "{seat}'s turn",
        "last_round": "Last round: it is played out; the game ends after {last_seat}'s turn",
        "over": _over,
    },
    "fr": {
        "end_turn": "{seat} termine son tour",
        "place": "{seat} pose {card} dans sa zone d’assistance",
        "attach": "{seat} affecte {card} à {host_card}",
        "discard": "{seat} défausse {card} pour sa capacité",
        "sacrifice": "{seat} sacrifie {card} pour sa capacité",
        "recruit": _paid("{seat} recrute {card} en zone de recrutement {zone}"),
        "objective": _paid("{seat} remplit {card} (+{vp} points d’objectif)"),
        "poach": _paid("{seat} recrute {card} chez {victim_seat} grâce à {enabler_card}"),
        "drama": "{seat} envoie le Drama {card} dans la défausse de {target_seat}",
        "gain": lambda e, w: f"{w.seat(e['seat'])} gagne {e['n']} {RES_WORD[e['res']]} pour ce tour",
        "discount": lambda e, w: (
            f"Le prochain {WHAT['fr'][e['what']]} de {w.seat(e['seat'])} coûte {e['n']} de moins"
        ),
        "drew": _drew,
        "drew_cards": "Vous piochez {cards}",
        "reshuffle": "{seat} mélange sa défausse pour recomposer sa réserve",
        "trash": _trash,
        "trash_stop": "{seat} ne met plus de carte au cimetière",
        "clear": "{seat} envoie {card} de la zone de recrutement {zone} au cimetière",
        "clear_none": "{seat} laisse les zones de recrutement telles quelles",
        "turned_up": "{seat} retourne {cards} face visible",
        "graveyard": "{card} quitte la zone de recrutement 6 pour le cimetière",
        "refill": "Nouvelles cartes en zone de recrutement : {cards}",
        "short": "La bibliothèque ne peut plus alimenter les zones de recrutement",
        "new_objective": "Pile d’objectifs {pile} : {card} (niveau {level})",
        "closed_objective": "La pile d’objectifs {pile} est fermée",
        "drama_back": "{seat} replace {cards} sur la réserve de Drama",
        "turn": "Au tour de {seat}",
        "last_round": "Dernier tour de table : il est joué jusqu’au bout ; la partie se termine après le tour de {last_seat}",
        "over": _over,
    },
}


# The refusals of the moves and payments in French (``rules.core.add_wordings``), keyed by their
# English templates; the same words as the move log (rulebook 003 and RULINGS' glossary).
add_wordings(
    {
        "fr": {
            "Unknown move type {kind}.": "Type de coup inconnu : {kind}.",
            "Give sudden_end or the former option finish_round, not both.": (
                "Donnez sudden_end ou l’ancienne option finish_round, pas les deux."
            ),
            "First finish the choice asked by {card}.": "Terminez d’abord le choix demandé par {card}.",
            "Nothing asks for that choice now.": "Aucun choix de ce genre n’est demandé maintenant.",
            "Name another player's seat.": "Désignez la place d’un autre joueur.",
            "Place a card from your hand.": "Posez une carte de votre main.",
            "{card} cannot go into the assistance zone.": "{card} ne peut pas aller dans la zone d’assistance.",
            "Cards from your hand go into the assistance zone during the preparation phase only, "
            "before you recruit, use an ability or send Drama.": (
                "Les cartes de votre main ne vont dans la zone d’assistance que pendant la phase de "
                "préparation, avant de recruter, d’utiliser une capacité ou d’envoyer du Drama."
            ),
            "{card} was drawn this turn: it can go into the assistance zone at your next preparation phase.": (
                "Vous avez pioché {card} ce tour : cette carte pourra aller dans la zone d’assistance "
                "à votre prochaine phase de préparation."
            ),
            "Attach a face-up equipment card of your assistance zone.": (
                "Affectez une carte équipement face visible de votre zone d’assistance."
            ),
            "Attach it to a face-up character of your assistance zone.": (
                "Affectez-la à un personnage face visible de votre zone d’assistance."
            ),
            "{host} cannot carry {card} too (encumbrance).": (
                "{host} ne peut pas porter {card} en plus (encombrement)."
            ),
            "Activate a card from your hand or a face-up card of your assistance zone.": (
                "Activez une carte de votre main ou une carte face visible de votre zone d’assistance."
            ),
            "{card} has no ability you can activate.": "{card} n’a aucune capacité que vous puissiez activer.",
            "Name a recruitment zone, 1 to 6.": "Désignez une zone de recrutement, de 1 à 6.",
            "That recruitment zone is empty.": "Cette zone de recrutement est vide.",
            "Name an objective pile.": "Désignez une pile d’objectifs.",
            "That objective pile is empty.": "Cette pile d’objectifs est vide.",
            "The Drama reserve is empty.": "La réserve de Drama est vide.",
            "Poach a face-up character or equipment card of that player's assistance zone.": (
                "Recrutez un personnage ou un équipement face visible de la zone d’assistance de ce joueur."
            ),
            "Poaching needs La Passion or a card with a poach ability.": (
                "Pour recruter chez un autre joueur, il faut La Passion ou une carte qui en a la capacité."
            ),
            'Trash from "hand" or "discard".': (
                'Mettez au cimetière une carte de votre main ("hand") ou de votre défausse ("discard").'
            ),
            "That card is not in your {where}.": "Cette carte n’est pas dans votre {where}.",
            "A payment is a list of card codes.": "Un paiement est une liste de codes de cartes.",
            "Unknown card in the payment: {code}.": "Carte inconnue dans le paiement : {code}.",
            "{card} must be attached to a character before it can pay.": (
                "Un équipement ({card}) doit être affecté à un personnage avant de pouvoir payer."
            ),
            "{card} cannot pay for anything.": "{card} ne peut rien payer.",
            "You have no {card} to pay with.": "Vous n’avez aucune carte {card} pour payer.",
            "{card} is still face down.": "{card} est encore face cachée.",
            "{card} gives no point this payment can use ({points} for {need}).": (
                "{card} ne donne aucun point utile à ce paiement ({points} pour {need})."
            ),
            "Not enough points: {need} still needed after your bonus points.": (
                "Pas assez de points : il manque encore {need} après vos points bonus."
            ),
        }
    }
)
