"""Chronica Universalis card data: one table, plus the starter decks and the text deck code.

Each row of ``CARDS`` is one card kind:
``(code, name as printed, kind, class, category, era, erudition, prestige, guerre, preferred)``.
The order of the table is part of the deck code (a card's index), so new cards are only ever
appended at the end, never inserted or reordered.

Categories pair a character class with a building class (the pictogram of the printed card):
``couronne`` (Roi, Reine <-> Château), ``foi`` (Saint, Sainte <-> Abbaye, Cathédrale),
``armes`` (Chevalier, Chef de guerre, Maréchal <-> Forteresse, Citadelle),
``savoir`` (Savant <-> Université, Collège, Académie, Observatoire, École) and
``arts`` (Poète, Peintre, Architecte, Dramaturge, Musicien <-> Palais).
"""

from __future__ import annotations

import base64
import hashlib

from rules.core import InvalidSetup, Text

E, P, G = "erudition", "prestige", "guerre"
CHAR, BUILD = "character", "building"
DOMAINS = (E, P, G)

CATEGORIES = {
    "couronne": "Couronne",
    "foi": "Foi",
    "armes": "Armes",
    "savoir": "Savoir",
    "arts": "Arts",
}
ERAS = ("Antiquité", "Haut Moyen Âge", "Moyen Âge", "Renaissance", "Temps modernes")

HMA, MA, REN, TM, ANT = "Haut Moyen Âge", "Moyen Âge", "Renaissance", "Temps modernes", "Antiquité"

# A card's class in English (the table below keeps the printed French; a card's name stays as printed in
# every language). The categories' and eras' words are powers.CATEGORY_WORDS and powers.ERA_WORDS.
CLASS_WORDS = {
    "en": {
        "Roi": "King",
        "Reine": "Queen",
        "Château": "Castle",
        "Saint": "Saint",
        "Sainte": "Saint",
        "Abbaye": "Abbey",
        "Cathédrale": "Cathedral",
        "Chevalier": "Knight",
        "Chef de guerre": "Warlord",
        "Maréchal": "Marshal",
        "Forteresse": "Fortress",
        "Citadelle": "Citadel",
        "Savant": "Scholar",
        "Université": "University",
        "Collège": "College",
        "Académie": "Academy",
        "Observatoire": "Observatory",
        "École": "School",
        "Poète": "Poet",
        "Peintre": "Painter",
        "Architecte": "Architect",
        "Dramaturge": "Playwright",
        "Musicien": "Musician",
        "Palais": "Palace",
    },
}

# fmt: off
CARDS = [
    # --- Couronne: Roi / Reine <-> Château ------------------------------------------
    ("charles-le-chauve", "Charles le Chauve", CHAR, "Roi", "couronne", HMA, 2, 4, 3, P),
    ("philippe-auguste", "Philippe Auguste", CHAR, "Roi", "couronne", MA, 0, 0, 8, G),
    ("louis-viii-le-lion", "Louis VIII le Lion", CHAR, "Roi", "couronne", MA, 0, 0, 8, G),
    ("clovis", "Clovis", CHAR, "Roi", "couronne", HMA, 1, 3, 5, G),
    ("francois-ier", "François Ier", CHAR, "Roi", "couronne", REN, 3, 5, 1, P),
    ("henri-iv", "Henri IV", CHAR, "Roi", "couronne", REN, 1, 5, 3, P),
    ("louis-xiv", "Louis XIV", CHAR, "Roi", "couronne", TM, 2, 7, 1, P),
    ("alienor-d-aquitaine", "Aliénor d'Aquitaine", CHAR, "Reine", "couronne", MA, 3, 5, 0, P),
    ("chateau-de-vincennes", "Château de Vincennes", BUILD, "Château", "couronne", MA, 0, 5, 5, P),
    ("chateau-de-bonaguil", "Château de Bonaguil", BUILD, "Château", "couronne", MA, 0, 3, 4, P),
    ("chateau-de-chambord", "Château de Chambord", BUILD, "Château", "couronne", REN, 1, 7, 1, P),
    ("chateau-de-versailles", "Château de Versailles", BUILD, "Château", "couronne", TM, 2, 7, 0, P),
    ("chateau-de-fontainebleau", "Château de Fontainebleau", BUILD, "Château", "couronne", REN, 2, 6, 1, P),
    ("chateau-de-chinon", "Château de Chinon", BUILD, "Château", "couronne", MA, 0, 4, 5, G),
    ("chateau-d-amboise", "Château d'Amboise", BUILD, "Château", "couronne", REN, 1, 5, 2, P),
    # --- Foi: Saint / Sainte <-> Abbaye / Cathédrale ----------------------------------
    ("saint-eustache-de-fly", "Saint Eustache de Fly", CHAR, "Saint", "foi", MA, 4, 2, 0, E),
    ("sainte-odile", "Sainte Odile", CHAR, "Sainte", "foi", HMA, 5, 2, 0, E),
    ("saint-martin-de-tours", "Saint Martin de Tours", CHAR, "Saint", "foi", ANT, 4, 3, 1, E),
    ("saint-bernard-de-clairvaux", "Saint Bernard de Clairvaux", CHAR, "Saint", "foi", MA, 6, 2, 0, E),
    ("sainte-genevieve", "Sainte Geneviève", CHAR, "Sainte", "foi", HMA, 3, 4, 1, P),
    ("jeanne-d-arc", "Jeanne d'Arc", CHAR, "Sainte", "foi", MA, 1, 3, 6, G),
    ("saint-vincent-de-paul", "Saint Vincent de Paul", CHAR, "Saint", "foi", TM, 4, 4, 0, P),
    ("saint-francois-de-sales", "Saint François de Sales", CHAR, "Saint", "foi", TM, 5, 3, 0, E),
    ("abbaye-notre-dame-de-citeaux", "Abbaye Notre-Dame de Cîteaux", BUILD, "Abbaye", "foi", MA, 6, 3, 0, E),
    ("cathedrale-notre-dame-d-amiens", "Cathédrale Notre-Dame d'Amiens", BUILD, "Cathédrale", "foi", MA, 5, 5, 0, P),
    ("abbaye-de-cluny", "Abbaye de Cluny", BUILD, "Abbaye", "foi", MA, 6, 4, 0, E),
    ("cathedrale-notre-dame-de-chartres", "Cathédrale Notre-Dame de Chartres", BUILD, "Cathédrale", "foi", MA, 4, 6, 0, P),
    ("abbaye-du-mont-saint-michel", "Abbaye du Mont-Saint-Michel", BUILD, "Abbaye", "foi", MA, 3, 4, 3, P),
    ("abbaye-de-saint-denis", "Abbaye de Saint-Denis", BUILD, "Abbaye", "foi", HMA, 4, 5, 0, P),
    ("abbaye-de-port-royal", "Abbaye de Port-Royal", BUILD, "Abbaye", "foi", TM, 5, 2, 0, E),
    ("cathedrale-saint-louis-de-versailles", "Cathédrale Saint-Louis de Versailles", BUILD, "Cathédrale", "foi", TM, 2, 5, 1, P),
    # --- Armes: Chevalier / Chef de guerre / Maréchal <-> Forteresse / Citadelle -------
    ("bertrand-du-guesclin", "Bertrand du Guesclin", CHAR, "Chevalier", "armes", MA, 0, 2, 7, G),
    ("chevalier-bayard", "Le Chevalier Bayard", CHAR, "Chevalier", "armes", REN, 0, 3, 6, G),
    ("roland", "Roland", CHAR, "Chevalier", "armes", HMA, 0, 3, 5, G),
    ("charles-martel", "Charles Martel", CHAR, "Chef de guerre", "armes", HMA, 1, 2, 6, G),
    ("vercingetorix", "Vercingétorix", CHAR, "Chef de guerre", "armes", ANT, 0, 4, 5, G),
    ("turenne", "Turenne", CHAR, "Maréchal", "armes", TM, 2, 3, 5, G),
    ("vauban", "Vauban", CHAR, "Maréchal", "armes", TM, 5, 1, 3, E),
    ("godefroy-de-bouillon", "Godefroy de Bouillon", CHAR, "Chevalier", "armes", MA, 1, 3, 5, G),
    ("cite-de-carcassonne", "Cité de Carcassonne", BUILD, "Forteresse", "armes", MA, 0, 3, 7, G),
    ("citadelle-de-besancon", "Citadelle de Besançon", BUILD, "Citadelle", "armes", TM, 2, 2, 6, G),
    ("forteresse-de-salses", "Forteresse de Salses", BUILD, "Forteresse", "armes", REN, 0, 2, 6, G),
    ("chateau-gaillard", "Château-Gaillard", BUILD, "Forteresse", "armes", MA, 0, 2, 7, G),
    ("citadelle-de-lille", "Citadelle de Lille", BUILD, "Citadelle", "armes", TM, 2, 3, 5, G),
    ("remparts-d-aigues-mortes", "Remparts d'Aigues-Mortes", BUILD, "Forteresse", "armes", MA, 0, 3, 6, G),
    ("donjon-de-loches", "Donjon de Loches", BUILD, "Forteresse", "armes", MA, 1, 4, 4, P),
    ("oppidum-de-bibracte", "Oppidum de Bibracte", BUILD, "Forteresse", "armes", ANT, 1, 3, 4, G),
    # --- Savoir: Savant <-> Université / Collège / Académie / Observatoire / École -----
    ("alcuin", "Alcuin", CHAR, "Savant", "savoir", HMA, 7, 1, 0, E),
    ("gerbert-d-aurillac", "Gerbert d'Aurillac", CHAR, "Savant", "savoir", HMA, 6, 2, 0, E),
    ("pierre-abelard", "Pierre Abélard", CHAR, "Savant", "savoir", MA, 6, 1, 0, E),
    ("nicolas-oresme", "Nicolas Oresme", CHAR, "Savant", "savoir", MA, 6, 1, 1, E),
    ("ambroise-pare", "Ambroise Paré", CHAR, "Savant", "savoir", REN, 5, 2, 1, E),
    ("rene-descartes", "René Descartes", CHAR, "Savant", "savoir", TM, 7, 2, 0, E),
    ("blaise-pascal", "Blaise Pascal", CHAR, "Savant", "savoir", TM, 6, 3, 0, E),
    ("guillaume-bude", "Guillaume Budé", CHAR, "Savant", "savoir", REN, 4, 4, 0, P),
    ("la-sorbonne", "La Sorbonne", BUILD, "Université", "savoir", MA, 7, 3, 0, E),
    ("universite-de-montpellier", "Université de Montpellier", BUILD, "Université", "savoir", MA, 6, 2, 1, E),
    ("college-royal", "Collège royal", BUILD, "Collège", "savoir", REN, 6, 3, 0, E),
    ("universite-de-toulouse", "Université de Toulouse", BUILD, "Université", "savoir", MA, 5, 3, 0, E),
    ("academie-francaise", "Académie française", BUILD, "Académie", "savoir", TM, 4, 5, 0, P),
    ("observatoire-de-paris", "Observatoire de Paris", BUILD, "Observatoire", "savoir", TM, 6, 2, 0, E),
    ("ecole-palatine", "École palatine", BUILD, "École", "savoir", HMA, 5, 3, 0, E),
    # --- Arts: Poète / Peintre / Architecte / Dramaturge / Musicien <-> Palais ---------
    ("chretien-de-troyes", "Chrétien de Troyes", CHAR, "Poète", "arts", MA, 4, 4, 0, P),
    ("jean-fouquet", "Jean Fouquet", CHAR, "Peintre", "arts", REN, 3, 5, 0, P),
    ("pierre-de-ronsard", "Pierre de Ronsard", CHAR, "Poète", "arts", REN, 4, 5, 0, P),
    ("francois-villon", "François Villon", CHAR, "Poète", "arts", MA, 3, 3, 2, P),
    ("moliere", "Molière", CHAR, "Dramaturge", "arts", TM, 3, 6, 0, P),
    ("jean-baptiste-lully", "Jean-Baptiste Lully", CHAR, "Musicien", "arts", TM, 2, 6, 0, P),
    ("pierre-de-montreuil", "Pierre de Montreuil", CHAR, "Architecte", "arts", MA, 5, 3, 0, E),
    ("andre-le-notre", "André Le Nôtre", CHAR, "Architecte", "arts", TM, 3, 5, 0, P),
    ("palais-du-louvre", "Palais du Louvre", BUILD, "Palais", "arts", REN, 2, 7, 0, P),
    ("palais-des-papes", "Palais des Papes", BUILD, "Palais", "arts", MA, 3, 5, 2, P),
    ("palais-de-la-cite", "Palais de la Cité", BUILD, "Palais", "arts", MA, 2, 5, 2, P),
    ("palais-du-luxembourg", "Palais du Luxembourg", BUILD, "Palais", "arts", TM, 2, 6, 0, P),
    ("palais-des-tuileries", "Palais des Tuileries", BUILD, "Palais", "arts", REN, 1, 6, 0, P),
    ("palais-jacques-coeur", "Palais Jacques-Cœur", BUILD, "Palais", "arts", MA, 4, 4, 0, E),
    ("palais-royal", "Palais-Royal", BUILD, "Palais", "arts", TM, 3, 6, 0, P),
    ("palais-des-ducs-de-bourgogne", "Palais des ducs de Bourgogne", BUILD, "Palais", "arts", MA, 2, 5, 3, P),
]
# fmt: on

FIELDS = ("code", "name", "kind", "class", "category", "era")

CARD_BY_CODE: dict[str, dict] = {}
for _row in CARDS:
    _card = dict(zip(FIELDS, _row[:6], strict=True))
    _card["values"] = {E: _row[6], P: _row[7], G: _row[8]}
    _card["preferred"] = _row[9]
    CARD_BY_CODE[_row[0]] = _card
INDEX_BY_CODE = {row[0]: i for i, row in enumerate(CARDS)}

DECK_SIZE = 30
UNKNOWN_CARD = "Unknown card: {code} is not in the catalog."

# Ready-made starter decks: 30 distinct cards each (roughly half characters, half buildings).
STARTER_DECKS = [
    {
        "code": "couronne-et-foi",
        "name": "La Couronne et l'Autel",
        "cards": [
            "charles-le-chauve",
            "philippe-auguste",
            "louis-viii-le-lion",
            "clovis",
            "francois-ier",
            "henri-iv",
            "louis-xiv",
            "alienor-d-aquitaine",
            "chateau-de-vincennes",
            "chateau-de-bonaguil",
            "chateau-de-chambord",
            "chateau-de-versailles",
            "chateau-de-fontainebleau",
            "chateau-de-chinon",
            "chateau-d-amboise",
            "saint-eustache-de-fly",
            "sainte-odile",
            "saint-martin-de-tours",
            "saint-bernard-de-clairvaux",
            "sainte-genevieve",
            "jeanne-d-arc",
            "saint-vincent-de-paul",
            "abbaye-notre-dame-de-citeaux",
            "cathedrale-notre-dame-d-amiens",
            "abbaye-de-cluny",
            "cathedrale-notre-dame-de-chartres",
            "abbaye-du-mont-saint-michel",
            "abbaye-de-saint-denis",
            "abbaye-de-port-royal",
            "cathedrale-saint-louis-de-versailles",
        ],
    },  # fmt: skip
    {
        "code": "glaive-et-plume",
        "name": "Le Glaive et la Plume",
        "cards": [
            "bertrand-du-guesclin",
            "chevalier-bayard",
            "roland",
            "charles-martel",
            "vercingetorix",
            "turenne",
            "vauban",
            "godefroy-de-bouillon",
            "cite-de-carcassonne",
            "citadelle-de-besancon",
            "forteresse-de-salses",
            "chateau-gaillard",
            "citadelle-de-lille",
            "remparts-d-aigues-mortes",
            "donjon-de-loches",
            "oppidum-de-bibracte",
            "alcuin",
            "gerbert-d-aurillac",
            "pierre-abelard",
            "nicolas-oresme",
            "ambroise-pare",
            "rene-descartes",
            "blaise-pascal",
            "la-sorbonne",
            "universite-de-montpellier",
            "college-royal",
            "universite-de-toulouse",
            "academie-francaise",
            "observatoire-de-paris",
            "ecole-palatine",
        ],
    },  # fmt: skip
    {
        "code": "arts-et-lettres",
        "name": "Les Arts et les Lettres",
        "cards": [
            "chretien-de-troyes",
            "jean-fouquet",
            "pierre-de-ronsard",
            "francois-villon",
            "moliere",
            "jean-baptiste-lully",
            "pierre-de-montreuil",
            "andre-le-notre",
            "palais-du-louvre",
            "palais-des-papes",
            "palais-de-la-cite",
            "palais-du-luxembourg",
            "palais-des-tuileries",
            "palais-jacques-coeur",
            "palais-royal",
            "palais-des-ducs-de-bourgogne",
            "guillaume-bude",
            "blaise-pascal",
            "rene-descartes",
            "alcuin",
            "la-sorbonne",
            "college-royal",
            "academie-francaise",
            "francois-ier",
            "louis-xiv",
            "henri-iv",
            "chateau-de-chambord",
            "chateau-de-versailles",
            "chateau-d-amboise",
            "chateau-de-fontainebleau",
        ],
    },  # fmt: skip
    {
        "code": "chronique-de-france",
        "name": "Chronique de France",
        "cards": [
            "charles-le-chauve",
            "philippe-auguste",
            "clovis",
            "chateau-de-vincennes",
            "chateau-de-bonaguil",
            "chateau-de-chinon",
            "sainte-odile",
            "saint-eustache-de-fly",
            "jeanne-d-arc",
            "abbaye-notre-dame-de-citeaux",
            "cathedrale-notre-dame-d-amiens",
            "abbaye-de-cluny",
            "bertrand-du-guesclin",
            "vercingetorix",
            "vauban",
            "cite-de-carcassonne",
            "chateau-gaillard",
            "citadelle-de-besancon",
            "gerbert-d-aurillac",
            "ambroise-pare",
            "nicolas-oresme",
            "universite-de-montpellier",
            "observatoire-de-paris",
            "ecole-palatine",
            "moliere",
            "jean-fouquet",
            "pierre-de-montreuil",
            "palais-des-papes",
            "palais-du-louvre",
            "palais-royal",
        ],
    },  # fmt: skip
]


def name(code: str) -> str:
    return CARD_BY_CODE[code]["name"]


def validate_deck(codes) -> list[Text]:
    """Human-readable problems with a deck ([] when it is a legal 30-card deck): each a ``Text`` (a str in
    English, ``words(lang)`` in another language)."""
    if not isinstance(codes, list | tuple):
        return [Text("A deck is a list of card codes.")]
    problems = []
    if len(codes) != DECK_SIZE:
        problems.append(
            Text("A deck needs exactly {size} cards; this one has {count}.", size=DECK_SIZE, count=len(codes))
        )
    seen: set[str] = set()
    reported: set[str] = set()
    for code in codes:
        if not isinstance(code, str):
            problems.append(Text("Card codes are text; {code} is not.", code=repr(code)))
            continue
        if code not in CARD_BY_CODE:
            problems.append(Text(UNKNOWN_CARD, code=repr(code)))
            continue
        if code in seen and code not in reported:
            reported.add(code)
            problems.append(
                Text(
                    "{card} ({code}) is in the deck more than once; a deck holds distinct cards.",
                    card=name(code),
                    code=code,
                )
            )
        seen.add(code)
    return problems


def problems_words(problems: list[Text], lang: str) -> str:
    """A deck's problems as one paragraph in ``lang`` (for a sentence that quotes them)."""
    return " ".join(problem.words(lang) for problem in problems)


def starter_decks() -> list[dict]:
    """The ready-made decks: [{"code", "name", "cards": [30 codes]}]."""
    return [dict(deck, cards=list(deck["cards"])) for deck in STARTER_DECKS]


# --- Text deck code --------------------------------------------------------------------
# "CU1-" + base32 (no padding) of: one byte per card (its index in CARDS), then two bytes of
# SHA-256 over those bytes as a checksum. Order is kept, so decode(encode(d)) == d.

DECK_CODE_PREFIX = "CU1-"


def _checksum(data: bytes) -> bytes:
    return hashlib.sha256(b"chronica:" + data).digest()[:2]


def encode_deck(codes) -> str:
    """A short text code for a list of card codes (any length up to 255, order kept)."""
    if not isinstance(codes, list | tuple):
        raise InvalidSetup("A deck is a list of card codes.")
    if len(codes) > 255:
        raise InvalidSetup("A deck code holds at most {most} cards.", most=255)
    unknown = [c for c in codes if not isinstance(c, str) or c not in INDEX_BY_CODE]
    if unknown:
        raise InvalidSetup(UNKNOWN_CARD, code=repr(unknown[0]))
    data = bytes(INDEX_BY_CODE[c] for c in codes)
    text = base64.b32encode(data + _checksum(data)).decode("ascii").rstrip("=")
    return DECK_CODE_PREFIX + text


def decode_deck(text) -> list[str]:
    """The card codes of a deck code; InvalidSetup (a ValueError) with a readable message if it is not a
    valid code."""
    if not isinstance(text, str):
        raise InvalidSetup("A deck code is text.")
    text = "".join(text.split()).upper()
    if not text.startswith(DECK_CODE_PREFIX):
        raise InvalidSetup(
            "This is not a Chronica deck code (it should start with {prefix}).", prefix=DECK_CODE_PREFIX
        )
    body = text[len(DECK_CODE_PREFIX) :]
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (ValueError, base64.binascii.Error):
        raise InvalidSetup("This deck code is damaged: it holds characters a deck code never uses.") from None
    if len(raw) < 2:
        raise InvalidSetup("This deck code is too short.")
    data, check = raw[:-2], raw[-2:]
    if _checksum(data) != check:
        raise InvalidSetup("This deck code is damaged or mistyped (its checksum does not match).")
    if any(i >= len(CARDS) for i in data):
        raise InvalidSetup("This deck code names a card this version of the catalog does not know.")
    return [CARDS[i][0] for i in data]
