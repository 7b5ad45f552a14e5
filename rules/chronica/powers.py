"""Chronica's special powers (the table option ``powers``): a small named vocabulary, each card's power as
data over it, the rules that read the board for them, and the power's text generated from the data.

A power is ``{"when": TRIGGER, "do": EFFECT, "n": int, ...}`` with optional keys:

- ``needs``: a placement condition ``(CONDITION, arg)``, checked only when the card is placed from hand
  (built, placed, or replacing a building), never afterwards (the rulebook: « uniquement au moment où la
  carte est posée »);
- ``while``: for the static effects (``shield``, ``bonus``), the condition under which they hold,
  read around the card's own slot;
- ``domain``: the domain a ``bonus`` changes.

Adjacency: only cards side by side are adjacent (the rulebook: « Les cartes placées l'une derrière
l'autre ne sont pas adjacentes »): frontier slot i with i-1 and i+1 (0-3), hinterland slot i with i-1 and
i+1 (4-7). Hinterland slot i+4 is *behind* frontier slot i, not adjacent to it.

The engine (engine.py) fires the triggers; this module holds no state and changes none.
"""

from __future__ import annotations

from typing import Any

from rules.chronica import cards as C

FRONTIER = 4
SLOTS = 8

# --- the vocabulary: every name with its keyword (en, fr) --------------------------------------
# Placement conditions and "while" conditions: (state, seat, slot, arg) -> bool, read around ``slot``.
CONDITIONS = {
    "next_to_category": ("Alliance", "Entente"),  # an adjacent slot holds a card of the category
    "next_to_era": ("Lineage", "Lignée"),  # an adjacent slot holds a card of the era
    "province_has": ("Patronage", "Mécénat"),  # the province already holds a card of the category
}
TRIGGERS = {
    "placed": ("Arrival", "Arrivée"),  # this card is built or placed from hand
    "welcomed": ("Hospitality", "Hospitalité"),  # this building welcomes a wandering character
    "won": ("Triumph", "Triomphe"),  # this character performs an Action (not as a reinforcement) and wins it
    "lost": ("Setback", "Revers"),  # ... and it is lost
    "discarded": ("Legacy", "Héritage"),  # this card goes to its owner's discard
    "end_of_turn": ("Dusk", "Crépuscule"),  # at the end of its owner's turn, while in their province
    "always": ("Standing", "Permanence"),  # static: holds while the card is in a province
}
EFFECTS = {
    "draw": ("Chronicle", "Chronique"),  # draw n cards (the last one ends the game at once)
    "gain": ("Glory", "Gloire"),  # its owner gains n honour (never above 10)
    "sap": ("Disgrace", "Disgrâce"),  # an opponent the player names loses n honour (never below 0)
    "shield": ("Sanctuary", "Sanctuaire"),  # static: the slot holding it cannot be the target of an Action
    "bonus": ("Renown", "Renom"),  # static: +n in a domain when defending (a replacement included)
    "recover": ("Memory", "Mémoire"),  # the top card of its owner's discard returns to their hand
    "fervour": ("Zeal", "Zèle"),  # its owner may play another card this turn
    "rout": ("Exile", "Exil"),  # an unprotected opponent's wandering character the player names goes home
}
KEYWORDS = {**CONDITIONS, **TRIGGERS, **EFFECTS}
STATIC = frozenset({"shield", "bonus"})


def _p(when: str, do: str, n: int = 0, needs=None, domain: str | None = None, while_=None) -> dict:
    power: dict[str, Any] = {"when": when, "do": do, "n": n}
    if needs:
        power["needs"] = needs
    if domain:
        power["domain"] = domain
    if while_:
        power["while"] = while_
    return power


E, P, G = C.E, C.P, C.G
NEXT_TO = "next_to_category"
ERA = "next_to_era"
HAS = "province_has"

# fmt: off
POWERS: dict[str, dict] = {
    # Couronne
    "charles-le-chauve": _p("placed", "draw", 1, needs=(HAS, "savoir")),
    "philippe-auguste": _p("won", "gain", 1),
    "louis-viii-le-lion": _p("won", "gain", 1),
    "clovis": _p("placed", "gain", 2, needs=(HAS, "foi")),
    "francois-ier": _p("placed", "draw", 2, needs=(NEXT_TO, "arts")),
    "henri-iv": _p("end_of_turn", "gain", 1),
    "louis-xiv": _p("placed", "sap", 1, needs=(NEXT_TO, "couronne")),
    "alienor-d-aquitaine": _p("discarded", "draw", 1),
    "chateau-de-vincennes": _p("always", "shield"),
    "chateau-de-bonaguil": _p("always", "bonus", 3, domain=P),
    "chateau-de-chambord": _p("placed", "gain", 2, needs=(ERA, C.REN)),
    "chateau-de-versailles": _p("welcomed", "gain", 2),
    "chateau-de-fontainebleau": _p("placed", "recover"),
    "chateau-de-chinon": _p("welcomed", "gain", 2),
    "chateau-d-amboise": _p("placed", "fervour", needs=(NEXT_TO, "arts")),
    # Foi
    "saint-eustache-de-fly": _p("discarded", "gain", 2),
    "sainte-odile": _p("discarded", "draw", 1),
    "saint-martin-de-tours": _p("discarded", "draw", 1),
    "saint-bernard-de-clairvaux": _p("won", "gain", 1),
    "sainte-genevieve": _p("always", "shield"),
    "jeanne-d-arc": _p("won", "fervour"),
    "saint-vincent-de-paul": _p("end_of_turn", "gain", 1),
    "saint-francois-de-sales": _p("placed", "recover"),
    "abbaye-notre-dame-de-citeaux": _p("placed", "draw", 1, needs=(NEXT_TO, "foi")),
    "cathedrale-notre-dame-d-amiens": _p("always", "bonus", 3, domain=P, while_=(NEXT_TO, "foi")),
    "abbaye-de-cluny": _p("always", "shield"),
    "cathedrale-notre-dame-de-chartres": _p("placed", "gain", 2, needs=(HAS, "foi")),
    "abbaye-du-mont-saint-michel": _p("always", "shield"),
    "abbaye-de-saint-denis": _p("discarded", "draw", 2),
    "abbaye-de-port-royal": _p("discarded", "gain", 2),
    "cathedrale-saint-louis-de-versailles": _p("placed", "draw", 1, needs=(NEXT_TO, "couronne")),
    # Armes
    "bertrand-du-guesclin": _p("won", "gain", 1),
    "chevalier-bayard": _p("lost", "gain", 2),
    "roland": _p("lost", "draw", 2),
    "charles-martel": _p("won", "sap", 1),
    "turenne": _p("won", "gain", 1),
    "vauban": _p("placed", "recover", needs=(NEXT_TO, "armes")),
    "godefroy-de-bouillon": _p("won", "gain", 1),
    "cite-de-carcassonne": _p("always", "shield"),
    "citadelle-de-besancon": _p("always", "bonus", 3, domain=G),
    "forteresse-de-salses": _p("always", "shield", while_=(NEXT_TO, "armes")),
    "chateau-gaillard": _p("always", "shield"),
    "citadelle-de-lille": _p("always", "shield"),
    "remparts-d-aigues-mortes": _p("always", "shield"),
    "donjon-de-loches": _p("placed", "rout"),
    "oppidum-de-bibracte": _p("always", "shield"),
    # Savoir
    "alcuin": _p("placed", "draw", 2, needs=(NEXT_TO, "couronne")),
    "gerbert-d-aurillac": _p("placed", "draw", 1, needs=(HAS, "foi")),
    "pierre-abelard": _p("lost", "draw", 1),
    "nicolas-oresme": _p("placed", "recover"),
    "ambroise-pare": _p("lost", "gain", 2),
    "rene-descartes": _p("placed", "draw", 1, needs=(ERA, C.TM)),
    "blaise-pascal": _p("won", "gain", 2),
    "guillaume-bude": _p("placed", "fervour", needs=(NEXT_TO, "couronne")),
    "la-sorbonne": _p("welcomed", "draw", 2),
    "universite-de-montpellier": _p("welcomed", "gain", 1),
    "college-royal": _p("placed", "draw", 2, needs=(NEXT_TO, "couronne")),
    "universite-de-toulouse": _p("always", "bonus", 3, domain=E),
    "academie-francaise": _p("placed", "gain", 2, needs=(HAS, "arts")),
    "observatoire-de-paris": _p("placed", "recover"),
    "ecole-palatine": _p("welcomed", "gain", 2),
    # Arts
    "chretien-de-troyes": _p("discarded", "draw", 1),
    "jean-fouquet": _p("placed", "gain", 1, needs=(NEXT_TO, "couronne")),
    "pierre-de-ronsard": _p("won", "gain", 1),
    "francois-villon": _p("discarded", "draw", 2),
    "moliere": _p("won", "sap", 1),
    "jean-baptiste-lully": _p("placed", "fervour", needs=(NEXT_TO, "couronne")),
    "pierre-de-montreuil": _p("placed", "draw", 1, needs=(NEXT_TO, "foi")),
    "andre-le-notre": _p("placed", "gain", 1, needs=(NEXT_TO, "couronne")),
    "palais-du-louvre": _p("welcomed", "gain", 2),
    "palais-des-papes": _p("always", "shield"),
    "palais-de-la-cite": _p("welcomed", "gain", 1),
    "palais-du-luxembourg": _p("always", "bonus", 3, domain=P),
    "palais-des-tuileries": _p("discarded", "sap", 1),
    "palais-jacques-coeur": _p("discarded", "draw", 1),
    "palais-royal": _p("placed", "fervour"),
}
# fmt: on


def power(code: str) -> dict | None:
    return POWERS.get(code)


def enabled(state: dict) -> bool:
    """Whether the table plays with the special powers (the option is absent from a state without them)."""
    return bool(state["options"].get("powers"))


# --- reading the board --------------------------------------------------------------------------


def adjacent(i: int) -> list[int]:
    """The slots side by side with ``i``: same row, one step left or right (behind is not adjacent)."""
    row = i // FRONTIER
    return [j for j in (i - 1, i + 1) if 0 <= j < SLOTS and j // FRONTIER == row]


def _codes(slot: dict | None) -> list[str]:
    return [] if slot is None else [c for c in (slot["building"], slot["character"]) if c]


def _matches(code: str, cond: str, arg: str) -> bool:
    card = C.CARD_BY_CODE[code]
    return card["era"] == arg if cond == "next_to_era" else card["category"] == arg


def holds(state: dict, seat: int, i: int, condition) -> bool:
    """Whether ``condition`` (``(name, arg)``) holds around slot ``i`` of ``seat``'s province."""
    cond, arg = condition
    prov = state["provinces"][seat]
    if cond == "province_has":
        return any(_matches(c, cond, arg) for slot in prov for c in _codes(slot))
    return any(_matches(c, cond, arg) for j in adjacent(i) for c in _codes(prov[j]))


def owned_in_province(state: dict, seat: int) -> list[str]:
    """The cards of ``seat``'s province that are theirs (a welcomed guest stays its owner's), slot order."""
    out = []
    for slot in state["provinces"][seat]:
        if slot is not None:
            out += [c for c in (slot["building"], slot["character"] if slot["guest"] is None else None) if c]
    return out


def may_place(state: dict, seat: int, code: str, i: int) -> bool:
    """Whether ``code``'s placement condition (if any) allows it on slot ``i`` now (powers on)."""
    pw = POWERS.get(code)
    return pw is None or "needs" not in pw or holds(state, seat, i, pw["needs"])


def _static(state: dict, seat: int, i: int, code: str, effect: str) -> dict | None:
    pw = POWERS.get(code)
    if pw is None or pw["do"] != effect:
        return None
    if "while" in pw and not holds(state, seat, i, pw["while"]):
        return None
    return pw


def shielded(state: dict, seat: int, i: int) -> str | None:
    """The card whose Sanctuary keeps slot ``i`` of ``seat``'s province from being targeted, if any."""
    slot = state["provinces"][seat][i]
    if slot is None:
        return None
    owned = [slot["building"]] if slot["guest"] is not None else _codes(slot)
    return next((c for c in owned if c and _static(state, seat, i, c, "shield")), None)


def defence_bonus(
    state: dict, seat: int, i: int, codes: list[str] | None = None
) -> list[tuple[str, str, int]]:
    """``(card, domain, n)`` for each Renown bonus of the cards defending slot ``i`` of ``seat`` (``codes``:
    the defending cards when not the whole slot, as the old building alone in a replacement)."""
    slot = state["provinces"][seat][i]
    out = []
    for code in _codes(slot) if codes is None else codes:
        pw = _static(state, seat, i, code, "bonus")
        if pw:
            out.append((code, pw["domain"], pw["n"]))
    return out


def rout_targets(state: dict, seat: int, gone: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    """``(seat, slot)`` of every opponent's unprotected wandering character an Exile by ``seat`` may send
    home, by seat after ``seat`` then by slot. ``gone``: a slot to read as empty (the wandering character
    a building is welcoming, which leaves its slot before the building's Arrival fires)."""
    n = state["players"]
    out = []
    for k in range(1, n):
        o = (seat + k) % n
        prov = [None if (o, j) == gone else slot for j, slot in enumerate(state["provinces"][o])]
        for j, slot in enumerate(prov):
            front = j >= FRONTIER and prov[j - FRONTIER] is not None
            if slot is not None and slot["character"] and not slot["building"] and not front:
                out.append((o, j))
    return out


def chooses(code: str) -> str | None:
    """The choice ``code``'s power asks of the player when it fires for them: ``disgrace`` (the opponent
    who loses honour) or ``exile`` (the wandering character sent home); None for the others."""
    pw = POWERS.get(code)
    return None if pw is None else {"sap": "disgrace", "rout": "exile"}.get(pw["do"])


# --- the text, generated from the data ----------------------------------------------------------

CATEGORY_WORDS = {
    "en": {"couronne": "Crown", "foi": "Faith", "armes": "Arms", "savoir": "Learning", "arts": "Arts"},
    "fr": {"couronne": "Couronne", "foi": "Foi", "armes": "Armes", "savoir": "Savoir", "arts": "Arts"},
}
ERA_WORDS = {
    "en": {
        C.ANT: "Antiquity",
        C.HMA: "Early Middle Ages",
        C.MA: "Middle Ages",
        C.REN: "Renaissance",
        C.TM: "Modern era",
    },
    "fr": {era: era for era in C.ERAS},
}
DOMAIN_WORDS = {
    "en": {E: "Erudition", P: "Prestige", G: "War"},
    "fr": {E: "Érudition", P: "Prestige", G: "Guerre"},
}
CONDITION_TEXT = {
    "en": {
        "next_to_category": "next to {a} {arg} card",
        "next_to_era": "next to a card of the {arg}",
        "province_has": "if your province holds {a} {arg} card",
    },
    "fr": {
        "next_to_category": "à côté d’une carte {arg}",
        "next_to_era": "à côté d’une carte de l’époque {arg}",
        "province_has": "si votre Province contient une carte {arg}",
    },
}
NEEDS_TEXT = {"en": "Placed only {cond}.", "fr": "Ne se pose que {cond}."}
WHILE_TEXT = {"en": " while {cond}", "fr": " tant qu’elle est {cond}"}
WHILE_HAS_TEXT = {"en": " {cond}", "fr": " {cond}"}
TRIGGER_TEXT = {
    "en": {
        "placed": "When placed",
        "welcomed": "When it welcomes a wandering character",
        "won": "When it wins an Action it performs (not as a Reinforcement)",
        "lost": "When it loses an Action it performs (not as a Reinforcement)",
        "discarded": "When it is discarded",
        "end_of_turn": "At the end of your turn",
        "always": "In your province",
    },
    "fr": {
        "placed": "Quand elle est posée",
        "welcomed": "Quand elle accueille un Personnage Errant",
        "won": "Quand elle gagne une Action qu’elle réalise (pas en Renfort)",
        "lost": "Quand elle perd une Action qu’elle réalise (pas en Renfort)",
        "discarded": "Quand elle est défaussée",
        "end_of_turn": "À la fin de votre tour",
        "always": "Dans votre Province",
    },
}
EFFECT_TEXT = {
    "en": {
        "draw": ("draw a card", "draw {n} cards"),
        "gain": ("gain 1 honour", "gain {n} honour"),
        "sap": ("an opponent of your choice loses 1 honour", "an opponent of your choice loses {n} honour"),
        "shield": ("it cannot be the target of an Action",) * 2,
        "bonus": ("+{n} {domain} when defending, a replacement included",) * 2,
        "recover": ("take the top card of your discard back into your hand",) * 2,
        "fervour": ("you may play one more card",) * 2,
        "rout": ("an opponent's unprotected wandering character of your choice returns to its owner's hand",)
        * 2,
    },
    "fr": {
        "draw": ("piochez une carte", "piochez {n} cartes"),
        "gain": ("gagnez 1 point d’Honneur", "gagnez {n} points d’Honneur"),
        "sap": (
            "un adversaire de votre choix perd 1 point d’Honneur",
            "un adversaire de votre choix perd {n} points d’Honneur",
        ),
        "shield": ("elle ne peut pas être la cible d’une Action",) * 2,
        "bonus": ("+{n} en {domain} en défense, remplacement compris",) * 2,
        "recover": ("reprenez en main la carte du dessus de votre défausse",) * 2,
        "fervour": ("vous pouvez jouer une carte de plus",) * 2,
        "rout": (
            "un Personnage Errant adverse non protégé de votre choix retourne dans la main de son propriétaire",
        )
        * 2,
    },
}
# When an opponent's Action discards a card whose Disgrace fires, its owner is not the one playing: the
# opponent who loses honour is then that Action's author.
DISCARDED_SAP_TEXT = {
    "en": " (if an opponent's Action discards it: that opponent)",
    "fr": " (si une Action adverse la défausse : cet adversaire)",
}


def condition_text(condition, lang: str) -> str:
    cond, arg = condition
    words = ERA_WORDS[lang] if cond == "next_to_era" else CATEGORY_WORDS[lang]
    article = "an" if words[arg][0] in "AEIOU" else "a"
    return CONDITION_TEXT[lang][cond].format(arg=words[arg], a=article)


def text(pw: dict, lang: str) -> str:
    """A power's rule text in ``lang`` (en, fr), written from its data."""
    parts = []
    if "needs" in pw:
        cond = condition_text(pw["needs"], lang)
        line = NEEDS_TEXT[lang].format(cond=cond)
        if lang == "fr" and cond[0] in "aàeéiou":
            line = line.replace("que ", "qu’", 1)  # « ne se pose qu’à côté »
        parts.append(line)
    one, many = EFFECT_TEXT[lang][pw["do"]]
    effect = (one if pw["n"] <= 1 else many).format(
        n=pw["n"], domain=DOMAIN_WORDS[lang].get(pw.get("domain"), "")
    )
    if pw["do"] == "sap" and pw["when"] == "discarded":
        effect += DISCARDED_SAP_TEXT[lang]
    when = TRIGGER_TEXT[lang][pw["when"]]
    if "while" in pw:
        shape = WHILE_HAS_TEXT if pw["while"][0] == "province_has" else WHILE_TEXT
        when += shape[lang].format(cond=condition_text(pw["while"], lang))
    sep = " : " if lang == "fr" else ": "
    parts.append(f"{when}{sep}{effect}.")
    return " ".join(parts)


def keywords(pw: dict) -> list[str]:
    """The power's keyword names (the English ones; ``KEYWORDS`` has both languages)."""
    names = [pw["when"], pw["do"]]
    if "needs" in pw:
        names.insert(0, pw["needs"][0])
    if "while" in pw:
        names.append(pw["while"][0])
    return names


def describe(code: str) -> dict | None:
    """The catalog's ``power`` entry: null or ``{"text" (en), "texts": {en, fr}, "keywords", + the data}``."""
    pw = POWERS.get(code)
    if pw is None:
        return None
    out: dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in pw.items()}
    out["text"] = text(pw, "en")
    out["texts"] = {lang: text(pw, lang) for lang in ("en", "fr")}
    out["keywords"] = keywords(pw)
    return out


def catalog() -> list[dict]:
    """Every card kind, in the card table's order, as a fresh dict (code, name, kind, class, category,
    era, values, preferred, power: null or its dict from ``describe``, with ``text``). Built here, not in
    cards.py: this module reads the card table, the table knows nothing of powers."""
    return [
        dict(C.CARD_BY_CODE[row[0]], values=dict(C.CARD_BY_CODE[row[0]]["values"]), power=describe(row[0]))
        for row in C.CARDS
    ]
