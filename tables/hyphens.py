"""Where a long French name may break across lines on a small card: soft hyphens (U+00AD) between its
syllables, which the browser shows as a hyphen only where it breaks the line there.

Chromium finds hyphenation points itself (``hyphens: auto``) only where it has the language's dictionary,
which it downloads on some systems and not others; the cards' names (Chronica's are French, whatever the
page's language) carry their own, so a name too wide for a small card breaks as a typesetter would
("Vercin-gétorix") and never between any two letters ("Vercingéto" / "rix"). The rules are French
syllabification's usual ones, enough for proper names: a consonant between two vowels starts the next
syllable (ca-thé), two consonants are split (Car-cas) unless they sound as one (bl, br, ch, cl, cr, dr,
fl, fr, gl, gn, gr, gu, ph, pl, pr, qu, th, tr, vr: Cathé-drale), of three the last two go on when they
sound as one and the last alone otherwise (Mont-pellier); vowels next to each other stay together. A
break leaves at least three letters on each side, never a last syllable of a silent e alone (Ver-sailles,
not Versail-les), and words shorter than nine letters are left whole: they fit on a line of the smallest card
(the browser fills a line before it breaks, so "Saint Bernard" would read "Saint Ber-" / "nard").
"""

from __future__ import annotations

import functools
import re

SOFT = "\u00ad"
VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿœæ")
ONE_SOUND = frozenset("bl br ch cl cr dr fl fr gl gn gr gu ph pl pr qu th tr vr".split())
EDGE = 3  # letters kept on each side of a break
SHORTEST = 9  # words shorter than this are left whole
_WORD = re.compile(r"[^\W\d_]+")
# What may not go on alone at a word's end: a silent e's syllable (-les, -gne, -tres, -ques).
_SILENT_END = re.compile(rf"(?:qu|gu|[^{''.join(sorted(VOWELS))}])+es?")


def _vowel(word: str, i: int) -> bool:
    c = word[i]
    if c == "u" and i > 0 and word[i - 1] in "qg" and i + 1 < len(word) and word[i + 1] in VOWELS:
        return False  # (the u of qu and gu before a vowel belongs to the consonant: A-qui-taine)
    return c in VOWELS


def breaks(word: str) -> list[int]:
    """The places in ``word`` (letters only) where it may break: before the letter at each index."""
    if len(word) < SHORTEST:
        return []
    low = word.lower()
    vowel = [_vowel(low, i) for i in range(len(low))]
    found = []
    i = 0
    while i < len(low):
        if not vowel[i]:
            i += 1
            continue
        j = i + 1  # the consonants after this vowel, up to the next vowel
        while j < len(low) and not vowel[j]:
            j += 1
        if j == len(low):
            break
        run = low[i + 1 : j]  # (empty between two vowels: no break there)
        if len(run) == 1:
            at = i + 1
        elif run[-2:] in ONE_SOUND:
            at = j - 2
        elif len(run) == 2:
            at = i + 2
        else:  # (three or more, the last two apart: all but the last stay)
            at = j - 1
        if run and EDGE <= at <= len(low) - EDGE and not _SILENT_END.fullmatch(low, at):
            found.append(at)
        i = j
    return found


@functools.lru_cache(maxsize=4096)
def soft_hyphens(text: str) -> str:
    """``text`` with a soft hyphen at each place one of its words may break (see the module's docstring)."""

    def word(m: re.Match) -> str:
        w = m.group(0)
        cuts = breaks(w)
        if not cuts:
            return w
        pieces, at = [], 0
        for cut in cuts:
            pieces.append(w[at:cut])
            at = cut
        pieces.append(w[at:])
        return SOFT.join(pieces)

    return _WORD.sub(word, text)
