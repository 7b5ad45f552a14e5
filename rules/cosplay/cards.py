"""Cosplay Team Battle: the card list, as data.

One row per card. Costs and points are written in a short notation and parsed once:
``B`` BADASS, ``K`` KAWAII, ``C`` CRAFT, ``A`` any resource (a multicolour cost), ``W`` a wild
point (counts as any resource when paying). ``"B3K2"`` is 3 BADASS and 2 KAWAII.

An ability is ``(kind, [(effect, args), ...])``. Kinds are the rulebook's five activation logos:

- ``discard``   (Défausse)    on your turn, discard the card from your hand or assistance zone;
- ``influence`` (Influence)   active while the card lies in a recruitment zone or an objective pile;
- ``recruit``   (Recrutement) when the card is recruited (or poached), or the objective fulfilled;
- ``sacrifice`` (Sacrifice)   on your turn, put the card from your hand or assistance zone into the graveyard;
- ``support``   (Soutien)     on your turn, when the card turns face up in your assistance zone or you place it there.

Effects are the keys of ``rules.cosplay.effects.EFFECTS``. A combo (duo/trio) names its partner
cards and the extra points the card gives while every partner is face up in the same assistance zone.
``art`` is a hint for the card artist: motif; palette.
"""

from __future__ import annotations

import re

RESOURCES = ("badass", "kawaii", "craft")
_LETTER = {"B": "badass", "K": "kawaii", "C": "craft", "A": "any", "W": "wild"}


def amounts(text: str) -> dict[str, int]:
    """``"B3K2"`` -> ``{"badass": 3, "kawaii": 2}``."""
    out: dict[str, int] = {}
    for letter, number in re.findall(r"([BKCAW])(\d+)", text):
        out[_LETTER[letter]] = out.get(_LETTER[letter], 0) + int(number)
    return out


# code, name, cost, points, ability, combo (partners, bonus points), art
CHARACTERS = [
    (
        "c01-neon-ronin",
        "Neon Ronin",
        "B3",
        "B1",
        ("recruit", [("draw", {"n": 1})]),
        None,
        "masked swordsman under flickering shop signs; magenta, cyan, black",
    ),
    (
        "c02-pixel-witch",
        "Pixel Witch",
        "K3",
        "K1",
        ("support", [("gain", {"res": "kawaii", "n": 1})]),
        (["c27-arcade-champion"], "K1"),
        "witch on a blocky broom, 8-bit sparkles; lilac, lime, charcoal",
    ),
    (
        "c03-mecha-pilot",
        "Mecha Pilot",
        "B4",
        "B2",
        ("discard", [("gain", {"res": "badass", "n": 3})]),
        (["c16-brass-aviator", "c38-retro-racer"], "B1"),
        "pilot suit with a giant robot's silhouette behind; orange, steel, white",
    ),
    (
        "c04-star-pirate-queen",
        "Star Pirate Queen",
        "B3K2",
        "B2",
        ("recruit", [("drama", {"n": 1})]),
        None,
        "tricorn hat with a ringed planet badge; teal, gold, deep navy",
    ),
    (
        "c05-kaiju-tamer",
        "Kaiju Tamer",
        "B3K2",
        "B3",
        ("sacrifice", [("drama", {"n": 2})]),
        None,
        "tiny trainer on the snout of a city-sized lizard; moss green, rust, smoke grey",
    ),
    (
        "c06-magical-idol",
        "Magical Idol",
        "K4",
        "K2",
        ("support", [("draw", {"n": 1})]),
        (["c39-starlight-diva"], "K1"),
        "idol with a heart-shaped wand on a stage of ribbons; pink, white, gold",
    ),
    (
        "c07-chrome-samurai",
        "Chrome Samurai",
        "B3",
        "B2",
        ("discard", [("discount", {"n": 2, "what": "character"})]),
        (["c34-sakura-swordmaid"], "B1"),
        "mirror-plated armour, visor lit red; silver, crimson, black",
    ),
    (
        "c08-dungeon-bard",
        "Dungeon Bard",
        "B2K2",
        "B1K1",
        ("discard", [("draw", {"n": 2})]),
        None,
        "lute player in a torchlit corridor; amber, brown, forest green",
    ),
    (
        "c09-starship-medic",
        "Starship Medic",
        "K4",
        "K2",
        ("discard", [("trash", {"n": 1})]),
        None,
        "medic in a white jumpsuit with a glowing scanner; white, mint, red",
    ),
    (
        "c10-velvet-vampire",
        "Velvet Vampire",
        "B2K3",
        "B1K1",
        ("recruit", [("gain", {"res": "kawaii", "n": 2})]),
        (["c21-ghost-maid"], "K1"),
        "high-collared cape, roses and a pale moon; burgundy, black, ivory",
    ),
    (
        "c11-pastel-ninja",
        "Pastel Ninja",
        "K3",
        "K1",
        ("discard", [("clear", {})]),
        None,
        "ninja in candy colours throwing star-shaped cookies; baby blue, peach, white",
    ),
    (
        "c12-robot-barista",
        "Robot Barista",
        "K3",
        "K1",
        ("influence", [("cost_mod", {"what": "equipment", "res": "craft", "delta": -1})]),
        None,
        "boxy robot pouring latte art; cream, coffee brown, teal",
    ),
    (
        "c13-zombie-cheerleader",
        "Zombie Cheerleader",
        "B2K2",
        "K2",
        ("support", [("gain", {"res": "badass", "n": 1})]),
        None,
        "pom-poms and stitched smile; acid green, purple, grey",
    ),
    (
        "c14-laser-paladin",
        "Laser Paladin",
        "B3K1",
        "B2",
        ("recruit", [("ready", {})]),
        None,
        "knight with a glowing blade and a shield of light; royal blue, white, gold",
    ),
    (
        "c15-moon-bunny",
        "Moon Bunny",
        "K2",
        "K1",
        ("recruit", [("draw", {"n": 1})]),
        (["c39-starlight-diva"], "K1"),
        "rabbit-eared girl with a crescent staff; silver, pale yellow, night blue",
    ),
    (
        "c16-brass-aviator",
        "Brass Aviator",
        "B3K1",
        "B1C1",
        ("discard", [("discount", {"n": 2, "what": "equipment"})]),
        (["c03-mecha-pilot", "c38-retro-racer"], "B1"),
        "goggles, leather coat and copper wings; brass, brown, sky blue",
    ),
    (
        "c17-frost-sorceress",
        "Frost Sorceress",
        "K3B1",
        "K3",
        ("influence", [("cost_mod", {"what": "character", "res": "kawaii", "delta": 1})]),
        None,
        "ice crown and a staff of icicles; ice blue, white, indigo",
    ),
    (
        "c18-wasteland-rider",
        "Wasteland Rider",
        "B4",
        "B2",
        ("sacrifice", [("gain", {"res": "badass", "n": 5})]),
        None,
        "spiked shoulder pads, dusty bike; rust, sand, black",
    ),
    (
        "c19-candy-lich",
        "Candy Lich",
        "K4",
        "K2",
        ("sacrifice", [("trash", {"n": 2})]),
        None,
        "skeleton sorcerer crowned with lollipops; pink, bone white, violet",
    ),
    (
        "c20-dragon-knight",
        "Dragon Knight",
        "B4K2",
        "B3",
        ("recruit", [("drama", {"n": 1}), ("draw", {"n": 1})]),
        None,
        "scaled armour with a horned helm and a wyrm; emerald, bronze, black",
    ),
    (
        "c21-ghost-maid",
        "Ghost Maid",
        "K4",
        "K2",
        ("support", [("discount", {"n": 1, "what": "any"})]),
        (["c10-velvet-vampire"], "B1"),
        "translucent maid carrying a candelabra; pale cyan, black, white",
    ),
    (
        "c22-cosmic-cowboy",
        "Cosmic Cowboy",
        "B3",
        "B1W1",
        ("discard", [("gain", {"res": "craft", "n": 2})]),
        (["c33-desert-gunslinger"], "B1"),
        "stetson and spacesuit, lasso of stars; denim blue, orange, starfield",
    ),
    (
        "c23-tea-android",
        "Tea Party Android",
        "K4",
        "K2",
        ("recruit", [("trash", {"n": 1})]),
        None,
        "porcelain android serving tea; porcelain white, rose, gold",
    ),
    (
        "c24-sky-corsair",
        "Sky Corsair",
        "B3K1",
        "B1K1",
        ("discard", [("drama", {"n": 1})]),
        None,
        "airship captain with a spyglass; teal, brass, cloud white",
    ),
    (
        "c25-rune-smith",
        "Rune Smith",
        "B3",
        "C2",
        ("support", [("gain", {"res": "craft", "n": 1})]),
        None,
        "smith hammering a glowing rune on an anvil; iron grey, ember orange, blue",
    ),
    (
        "c26-shadow-fox",
        "Shadow Fox",
        "K3",
        "K1",
        ("influence", [("cost_mod", {"what": "drama", "res": "any", "delta": -1})]),
        None,
        "fox-masked thief on a rooftop; black, violet, moonlight",
    ),
    (
        "c27-arcade-champion",
        "Arcade Champion",
        "B2K1",
        "K1B1",
        ("sacrifice", [("draw", {"n": 3})]),
        (["c02-pixel-witch"], "B1"),
        "gamer in a jacket covered in pins, joystick raised; neon pink, yellow, black",
    ),
    (
        "c28-nebula-empress",
        "Nebula Empress",
        "K4B2",
        "K3",
        ("recruit", [("gain", {"res": "kawaii", "n": 2}), ("draw", {"n": 1})]),
        None,
        "gown made of a galaxy, crown of comets; deep purple, magenta, starlight",
    ),
    (
        "c29-bubblegum-berserker",
        "Bubblegum Berserker",
        "B3K1",
        "B2",
        ("sacrifice", [("gain", {"res": "badass", "n": 3}), ("gain", {"res": "kawaii", "n": 3})]),
        None,
        "huge axe with a bubble-gum bubble; bubblegum pink, steel, red",
    ),
    (
        "c30-clockwork-fairy",
        "Clockwork Fairy",
        "B1K2",
        "K1C1",
        ("support", [("discount", {"n": 1, "what": "equipment"})]),
        None,
        "fairy with gear wings and a key in her back; copper, mint, cream",
    ),
    (
        "c31-thunder-wrestler",
        "Thunder Wrestler",
        "B4K1",
        "B3",
        ("influence", [("cost_mod", {"what": "objective", "res": "any", "delta": -1})]),
        None,
        "luchador mask with lightning bolts; electric yellow, blue, red",
    ),
    (
        "c32-plush-summoner",
        "Plush Summoner",
        "K4",
        "K2",
        ("discard", [("draw", {"n": 1}), ("gain", {"res": "kawaii", "n": 1})]),
        None,
        "girl surrounded by floating plush monsters; pastel rainbow, white",
    ),
    (
        "c33-desert-gunslinger",
        "Desert Gunslinger",
        "B3",
        "B2",
        ("recruit", [("clear", {})]),
        (["c22-cosmic-cowboy"], "B1"),
        "poncho and twin ray guns at high noon; ochre, turquoise, sun white",
    ),
    (
        "c34-sakura-swordmaid",
        "Sakura Swordmaid",
        "B2K3",
        "K2",
        ("discard", [("discount", {"n": 2, "what": "objective"})]),
        (["c07-chrome-samurai"], "K1"),
        "maid with a katana amid falling petals; cherry pink, black, white",
    ),
    (
        "c35-void-hacker",
        "Void Hacker",
        "K3B1",
        "K1B1",
        ("discard", [("poach", {})]),
        None,
        "hooded figure typing on a holographic keyboard; black, neon green, violet",
    ),
    (
        "c36-carnival-jester",
        "Carnival Jester",
        "K4",
        "K2",
        ("influence", [("cost_mod", {"what": "drama", "res": "any", "delta": 1})]),
        None,
        "harlequin with bells and a grin; red, gold, checkered black",
    ),
    (
        "c37-crystal-golem",
        "Crystal Golem",
        "B5K1",
        "B3",
        ("influence", [("cost_mod", {"what": "character", "res": "badass", "delta": -1})]),
        None,
        "golem of amethyst shards; amethyst, slate, glowing white",
    ),
    (
        "c38-retro-racer",
        "Retro Racer",
        "B3K1",
        "B2",
        ("support", [("draw", {"n": 1})]),
        (["c03-mecha-pilot", "c16-brass-aviator"], "B1"),
        "racing helmet with checkered stripes; racing red, white, chrome",
    ),
    (
        "c39-starlight-diva",
        "Starlight Diva",
        "K4B1",
        "K3",
        ("recruit", [("gain", {"res": "badass", "n": 2}), ("gain", {"res": "kawaii", "n": 2})]),
        (["c06-magical-idol", "c15-moon-bunny"], "K1"),
        "singer under a spotlight of stars; gold, midnight blue, white",
    ),
    (
        "c40-talent-scout",
        "Talent Scout",
        "B2K2",
        "B1K1",
        ("sacrifice", [("poach", {})]),
        None,
        "sunglasses, clipboard, convention lanyard; beige, black, hot pink",
    ),
]

# code, name, cost, points, encumbrance (1, 2 or None for unlimited), ability, art
EQUIPMENT = [
    (
        "e01-foam-greatsword",
        "Foam Greatsword",
        "C3",
        "B2",
        1,
        None,
        "oversized foam blade, painted chips; silver, black, foam yellow",
    ),
    (
        "e02-led-wings",
        "LED Angel Wings",
        "C4",
        "K2",
        1,
        ("recruit", [("draw", {"n": 1})]),
        "feathered wings with light strips; white, pale blue, glow",
    ),
    (
        "e03-power-armour",
        "Thermoplastic Power Armour",
        "C4",
        "B3",
        1,
        None,
        "bulky armour plates with rivets; gunmetal, orange, grey",
    ),
    (
        "e04-pastel-wig",
        "Pastel Wig",
        "C2",
        "K1",
        2,
        None,
        "long twin-tail wig on a foam head; pastel pink, lilac, white",
    ),
    (
        "e05-velvet-cape",
        "Velvet Cape",
        "C3",
        "B1K1",
        2,
        None,
        "flowing cape with a clasp; wine red, gold, black",
    ),
    (
        "e06-prop-blaster",
        "Prop Blaster",
        "C3",
        "B1",
        2,
        ("recruit", [("gain", {"res": "craft", "n": 1})]),
        "chunky sci-fi blaster, orange tip; white, orange, grey",
    ),
    (
        "e07-glitter-kit",
        "Glitter Kit",
        "C2",
        "K1",
        None,
        None,
        "makeup case spilling glitter; rose gold, silver, pink",
    ),
    (
        "e08-convention-badge",
        "Convention Badge",
        "C2",
        "W1",
        None,
        None,
        "lanyard badge with a hologram; teal, white, holo rainbow",
    ),
    (
        "e09-sewing-machine",
        "Sewing Machine",
        "C4",
        "C2",
        1,
        ("recruit", [("trash", {"n": 1})]),
        "vintage sewing machine with thread spools; mint, chrome, red",
    ),
    (
        "e10-colour-lenses",
        "Colour Lenses",
        "C2",
        "K1",
        None,
        None,
        "pair of eyes with galaxy irises; violet, teal, black",
    ),
    (
        "e11-resin-crown",
        "Resin Crown",
        "C4",
        "K2",
        2,
        None,
        "translucent crown with embedded gems; clear, gold, ruby",
    ),
    (
        "e12-hot-glue-gun",
        "Hot Glue Gun",
        "C3",
        "C1B1",
        None,
        None,
        "smoking glue gun with strings of glue; yellow, black, hot red",
    ),
]

# code, name, points, ability, count per player, art
STARTERS = [
    ("st-badass", "Badass", "B1", None, 3, "clenched fist on a comic burst; red, black, white"),
    ("st-kawaii", "Kawaii", "K1", None, 3, "sparkling heart with cat ears; pink, white, lavender"),
    ("st-craft", "Craft", "C1", None, 3, "scissors, thread and pins; teal, cream, silver"),
    (
        "st-passion",
        "La Passion",
        "W1",
        ("discard", [("poach", {})]),
        1,
        "heart on fire held by two hands; crimson, orange, gold",
    ),
]

# code, name, cost (any mix), sting when it comes back from its victim's hand, art
DRAMA = [
    ("dr-01", "Wig Snag", "A2", None, "tangled wig caught on a door; brown, grey, red"),
    ("dr-02", "Con Flu", "A3", "fatigue", "tissue box and a thermometer; sickly green, white"),
    ("dr-03", "Lost Luggage", "A2", None, "lonely suitcase on a carousel; navy, tan, grey"),
    ("dr-04", "Wardrobe Malfunction", "A3", "tax", "torn seam and a flying button; red, black, white"),
    ("dr-05", "Hotel Overbooked", "A2", None, "full hotel sign at night; neon red, black"),
    ("dr-06", "Rain on the Photoshoot", "A3", "fatigue", "umbrella over a soaked costume; grey, blue, pink"),
    ("dr-07", "Glue Burn", "A2", None, "fingertip with a blister; skin tone, yellow, red"),
    ("dr-08", "Broken Zipper", "A3", "tax", "zipper pull snapped off; silver, black"),
    ("dr-09", "Photobomb", "A2", None, "grinning face behind a posing duo; yellow, magenta"),
    ("dr-10", "Spoiler Leak", "A3", "fatigue", "redacted screenshot going viral; black, red, white"),
    ("dr-11", "Forum Flame War", "A2", None, "speech bubbles on fire; orange, grey"),
    ("dr-12", "Missed Panel", "A3", "tax", "empty chair and a closing door; beige, grey"),
    ("dr-13", "Badge Left at Home", "A2", None, "badge on a kitchen table; teal, wood brown"),
    ("dr-14", "Queue of Doom", "A3", "fatigue", "endless line snaking around a hall; grey, yellow"),
    ("dr-15", "Fabric Sold Out", "A2", None, "empty bolt rack with a sign; white, red"),
    ("dr-16", "Seam Split", "A3", "tax", "pants ripping at the knee; denim, white"),
    ("dr-17", "Makeup Meltdown", "A2", None, "running mascara in a heatwave; black, orange"),
    ("dr-18", "Prop Confiscated", "A3", "tax", "security guard holding a foam sword; navy, yellow"),
    ("dr-19", "Stage Fright", "A2", None, "knees shaking under a spotlight; white, black"),
    ("dr-20", "Costume Twin", "A3", "fatigue", "two identical costumes staring at each other; purple, green"),
]

# code, name, level, cost, objective points, ability, art
# Balance (issue #13, bench/cosplay_sim.py): level-1 objectives are taken in the first two turns, and
# the first seats take more of them (casual bots, 4 players: 1.6 a game for seat 0, 0.9 for seat 3),
# so they are worth 1 point; levels 2 and 3 cost 1 and 2 points less, so that more games reach level 3.
OBJECTIVES = [
    (
        "ob1-first-con",
        "First Convention",
        1,
        "B2K2A1",
        1,
        ("recruit", [("draw", {"n": 1})]),
        "wristband and a map of the halls; yellow, blue",
    ),
    (
        "ob1-hallway-shoot",
        "Hallway Photoshoot",
        1,
        "K3A2",
        1,
        None,
        "camera flash in a corridor; white, pink, grey",
    ),
    (
        "ob1-workshop",
        "Crafting Workshop",
        1,
        "C3A2",
        1,
        ("influence", [("cost_mod", {"what": "equipment", "res": "craft", "delta": -1})]),
        "table of foam, glue and patterns; teal, tan",
    ),
    (
        "ob1-group-selfie",
        "Group Selfie",
        1,
        "B3A2",
        1,
        None,
        "six costumes squeezed into a phone screen; rainbow",
    ),
    (
        "ob1-panel-debut",
        "Panel Debut",
        1,
        "B1K1C1A2",
        1,
        ("recruit", [("gain", {"res": "craft", "n": 1})]),
        "microphone and a name card; red, white",
    ),
    (
        "ob1-fan-meetup",
        "Fan Meetup",
        1,
        "K2C1A2",
        1,
        ("influence", [("cost_mod", {"what": "drama", "res": "any", "delta": 1})]),
        "picnic blanket in a park; green, orange",
    ),
    (
        "ob2-masquerade",
        "Masquerade Entry",
        2,
        "B3K2A2",
        4,
        ("recruit", [("drama", {"n": 1})]),
        "stage curtain and a number card; crimson, gold",
    ),
    (
        "ob2-charity-stream",
        "Charity Stream",
        2,
        "K3C2A2",
        4,
        None,
        "webcam, donation bar filling up; purple, green",
    ),
    (
        "ob2-abroad-shoot",
        "Photoshoot Abroad",
        2,
        "B3C2A2",
        4,
        ("recruit", [("trash", {"n": 1})]),
        "passport and a camera bag; blue, tan",
    ),
    (
        "ob2-viral-tutorial",
        "Viral Tutorial",
        2,
        "C4A3",
        4,
        None,
        "video thumbnail with an arrow; red, yellow",
    ),
    (
        "ob2-stage-duet",
        "Stage Duet",
        2,
        "B3K3A1",
        4,
        ("influence", [("cost_mod", {"what": "character", "res": "kawaii", "delta": -1})]),
        "two silhouettes sharing a spotlight; pink, blue",
    ),
    (
        "ob2-guest-judge",
        "Guest Judge",
        2,
        "B2K2C2A1",
        4,
        ("recruit", [("draw", {"n": 1})]),
        "judge's table with score paddles; black, gold",
    ),
    (
        "ob3-world-final",
        "World Cosplay Final",
        3,
        "B4K4A1",
        7,
        None,
        "trophy on a world map; gold, deep blue",
    ),
    (
        "ob3-museum",
        "Museum Exhibit",
        3,
        "C4K3A1",
        6,
        None,
        "costume on a mannequin behind glass; marble, burgundy",
    ),
    (
        "ob3-legendary-build",
        "Legendary Build",
        3,
        "C4B4A1",
        7,
        None,
        "workshop with a giant finished armour; steel, orange",
    ),
    (
        "ob3-hall-of-fame",
        "Hall of Fame",
        3,
        "B3K3C2",
        6,
        ("influence", [("cost_mod", {"what": "objective", "res": "any", "delta": 1})]),
        "star on a walk of fame; pink, gold",
    ),
    (
        "ob3-grand-masquerade",
        "Grand Masquerade",
        3,
        "B4K3C2",
        7,
        None,
        "ballroom full of masks; black, gold, red",
    ),
    (
        "ob3-documentary",
        "Documentary Feature",
        3,
        "K4B3A1",
        6,
        None,
        "film reel and a clapperboard; sepia, white",
    ),
]


def _build() -> dict[str, dict]:
    cards: dict[str, dict] = {}

    def ability(raw):
        if raw is None:
            return None
        kind, effects = raw
        return {"kind": kind, "effects": [{"effect": e, "args": dict(a)} for e, a in effects]}

    for code, name, cost, points, ab, combo, art in CHARACTERS:
        cards[code] = {
            "code": code,
            "name": name,
            "kind": "character",
            "cost": amounts(cost),
            "points": amounts(points),
            "ability": ability(ab),
            "combo": None if combo is None else {"partners": list(combo[0]), "bonus": amounts(combo[1])},
            "art": art,
        }
    for code, name, cost, points, enc, ab, art in EQUIPMENT:
        cards[code] = {
            "code": code,
            "name": name,
            "kind": "equipment",
            "cost": amounts(cost),
            "points": amounts(points),
            "encumbrance": enc,
            "ability": ability(ab),
            "combo": None,
            "art": art,
        }
    for code, name, points, ab, count, art in STARTERS:
        cards[code] = {
            "code": code,
            "name": name,
            "kind": "starter",
            "cost": {},
            "points": amounts(points),
            "ability": ability(ab),
            "combo": None,
            "count": count,
            "art": art,
        }
    for code, name, cost, sting, art in DRAMA:
        cards[code] = {
            "code": code,
            "name": name,
            "kind": "drama",
            "cost": amounts(cost),
            "points": {},
            "sting": sting,
            "ability": None,
            "combo": None,
            "art": art,
        }
    for code, name, level, cost, vp, ab, art in OBJECTIVES:
        cards[code] = {
            "code": code,
            "name": name,
            "kind": "objective",
            "level": level,
            "cost": amounts(cost),
            "points": {},
            "vp": vp,
            "ability": ability(ab),
            "combo": None,
            "art": art,
        }
    return cards


CARDS: dict[str, dict] = _build()
LIBRARY = [c[0] for c in CHARACTERS] + [e[0] for e in EQUIPMENT]
STARTER_DECK = [code for code, _n, _p, _a, count, _art in STARTERS for _ in range(count)]
DRAMA_CODES = [d[0] for d in DRAMA]
OBJECTIVE_LEVELS = {level: [o[0] for o in OBJECTIVES if o[2] == level] for level in (1, 2, 3)}


def catalog() -> list[dict]:
    """Every kind of card (CONTRACTS §1): ``code``, ``name`` (as printed), ``kind``, ``cost`` by resource
    (``{"badass", "kawaii", "craft"}``), ``any`` (the part of the cost any mix pays: Drama, objectives),
    ``points``, ``text`` (the ability, from the data) and, for objectives, ``level`` and ``vp``."""
    out = []
    for code, card in CARDS.items():
        cost = card["cost"]
        entry = {
            "code": code,
            "name": card["name"],
            "kind": card["kind"],
            "cost": {r: cost.get(r, 0) for r in RESOURCES},
            "any": cost.get("any", 0),
            "points": dict(card["points"]),
            "text": describe(code),
        }
        if card["kind"] == "objective":
            entry["level"], entry["vp"] = card["level"], card["vp"]
        out.append(entry)
    return out


_RES_NAME = {"badass": "BADASS", "kawaii": "KAWAII", "craft": "CRAFT", "any": "any", "wild": "any (wild)"}


def show_amounts(values: dict[str, int], lang: str = "en") -> str:
    """``{"badass": 3, "any": 2}`` -> ``"3 BADASS + 2 any"`` / ``"3 BADASS + 2 au choix"`` (in ``lang``)."""
    names = _SENTENCES.get(lang, _SENTENCES["en"])["res"]
    parts = [f"{values[k]} {names[k]}" for k in ("badass", "kawaii", "craft", "any", "wild") if values.get(k)]
    return " + ".join(parts) or "0"


_KIND_TEXT = {
    "discard": "Discard",
    "influence": "Influence",
    "recruit": "Recruit",
    "sacrifice": "Sacrifice",
    "support": "Support",
}


def describe_effect(effect: str, args: dict) -> str:
    if effect == "draw":
        return f"draw {args['n']} card{'s' if args['n'] > 1 else ''}"
    if effect == "gain":
        return f"+{args['n']} {_RES_NAME[args['res']]} this turn"
    if effect == "discount":
        what = "payment" if args["what"] == "any" else args["what"]
        return f"your next {what} this turn costs {args['n']} less"
    if effect == "drama":
        return f"send {args['n']} Drama from the reserve to an opponent"
    if effect == "trash":
        return f"put up to {args['n']} card{'s' if args['n'] > 1 else ''} from your hand or discard into the graveyard"
    if effect == "clear":
        return "send a card from a recruitment zone to the graveyard"
    if effect == "poach":
        return "recruit a face-up card from another player's assistance zone"
    if effect == "ready":
        return "your face-down assistance cards turn face up now"
    if effect == "cost_mod":
        sign = "more" if args["delta"] > 0 else "less"
        res = "" if args["res"] == "any" else f" {_RES_NAME[args['res']]}"
        what = {
            "character": "Characters",
            "equipment": "Equipment",
            "objective": "Objectives",
            "drama": "Drama",
        }[args["what"]]
        return f"{what} cost {abs(args['delta'])}{res} {sign}"
    raise ValueError(effect)


# The same texts in French (rulebook 003: Défausse, Influence, Recrutement, Sacrifice, Soutien; RULINGS'
# glossary: réserve, cimetière, zone de recrutement, zone d’assistance, Drama).
_RES_NAME_FR = {"badass": "BADASS", "kawaii": "KAWAII", "craft": "CRAFT", "any": "au choix", "wild": "joker"}
_KIND_TEXT_FR = {
    "discard": "Défausse",
    "influence": "Influence",
    "recruit": "Recrutement",
    "sacrifice": "Sacrifice",
    "support": "Soutien",
}
_WHAT_FR = {
    "any": "paiement",
    "character": "personnage",
    "equipment": "équipement",
    "objective": "objectif",
    "drama": "Drama",
}
_WHATS_FR = {
    "character": "Personnages",
    "equipment": "Équipements",
    "objective": "Objectifs",
    "drama": "Drama",
}


_EFFECTS_FR = {
    "draw": "piochez {cards}",
    "gain": "+{n} {res} ce tour",
    "discount": "votre prochain {what} de ce tour coûte {n} de moins",
    "drama": "envoyez {n} Drama de la réserve à un adversaire",
    "trash": "mettez jusqu’à {cards} de votre main ou de votre défausse au cimetière",
    "clear": "envoyez au cimetière la carte d’une zone de recrutement",
    "poach": "recrutez une carte face visible de la zone d’assistance d’un autre joueur",
    "ready": "vos cartes d’assistance face cachée se retournent maintenant",
    "cost_mod": "les {whats} coûtent {delta}{of_res} {sign}",
}


def _effect_fr(effect: str, args: dict) -> str:
    if effect not in _EFFECTS_FR:
        raise ValueError(effect)
    n, res, what, delta = (
        args.get("n", 0),
        args.get("res", "any"),
        args.get("what", "any"),
        args.get("delta", 0),
    )
    return _EFFECTS_FR[effect].format(
        n=n,
        cards=f"{n} carte{'s' if n > 1 else ''}",
        res=_RES_NAME_FR[res],
        of_res="" if res == "any" else f" {_RES_NAME_FR[res]}",
        what=_WHAT_FR.get(what, what),
        whats=_WHATS_FR.get(what, what),
        delta=abs(delta),
        sign="de plus" if delta > 0 else "de moins",
    )


# What ``describe`` says around the effects, per language.
_SENTENCES = {
    "en": {
        "kind": _KIND_TEXT,
        "colon": ": ",
        "semicolon": "; ",
        "effect": describe_effect,
        "res": _RES_NAME,
        "combo": "{label} with {names}: +{bonus}",
        "unlimited": "Encumbrance: unlimited",
        "encumbrance": "Encumbrance: {n} per character",
        "tax": "When it leaves your hand: your first payment this turn costs 1 more",
        "fatigue": "When it leaves your hand: draw 1 card fewer at the end of this turn",
    },
    "fr": {
        "kind": _KIND_TEXT_FR,
        "colon": "\u00a0: ",
        "semicolon": "\u00a0; ",
        "effect": _effect_fr,
        "res": _RES_NAME_FR,
        "combo": "{label} avec {names}\u00a0: +{bonus}",
        "unlimited": "Encombrement\u00a0: illimité",
        "encumbrance": "Encombrement\u00a0: {n} par personnage",
        "tax": "En quittant votre main\u00a0: votre premier paiement de ce tour coûte 1 de plus",
        "fatigue": "En quittant votre main\u00a0: piochez 1 carte de moins à la fin de ce tour",
    },
}


def describe(code: str, lang: str = "en") -> str:
    """The card's ability text, built from its data (so text and rules never disagree), in English or French."""
    say = _SENTENCES.get(lang, _SENTENCES["en"])
    card = CARDS[code]
    lines = []
    if card["ability"]:
        effects = say["semicolon"].join(
            say["effect"](e["effect"], e["args"]) for e in card["ability"]["effects"]
        )
        lines.append(say["kind"][card["ability"]["kind"]] + say["colon"] + effects)
    if card.get("combo"):
        names = " + ".join(CARDS[p]["name"] for p in card["combo"]["partners"])
        label = "Duo" if len(card["combo"]["partners"]) == 1 else "Trio"
        lines.append(
            say["combo"].format(label=label, names=names, bonus=show_amounts(card["combo"]["bonus"], lang))
        )
    if card.get("encumbrance", 0) is None:
        lines.append(say["unlimited"])
    elif card["kind"] == "equipment":
        lines.append(say["encumbrance"].format(n=card["encumbrance"]))
    if card.get("sting") in ("tax", "fatigue"):
        lines.append(say[card["sting"]])
    return ". ".join(lines)


def card_name(code: str, lang: str) -> str:
    """A card's name: the printed one (the rulebook's starters read the same in French: Badass,
    Kawaii, Craft, La Passion; the card table gives no other French names)."""
    return CARDS[code]["name"]


# Where a player's own cards lie, in words (a trash names the pile; RULINGS' glossary).
WHERE = {"en": {"hand": "hand", "discard": "discard"}, "fr": {"hand": "main", "discard": "défausse"}}


def where_name(where: str, lang: str) -> str:
    return WHERE.get(lang, WHERE["en"])[where]
