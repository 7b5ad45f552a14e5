"""Reading rendered pages and frames in tests: the cards drawn and the moves offered."""

import html as htmllib
import json
import re

CARD = re.compile(r'data-card="([^"]+)"')
MOVE = re.compile(r'data-move="([^"]+)"')


def card_codes(page: str) -> list[str]:
    """Every card drawn (``data-card``), in page order, copies included."""
    return CARD.findall(page)


def cards_on(page: str) -> set[str]:
    return set(card_codes(page))


def moves_posted(page: str) -> list[dict]:
    """The moves the page's buttons post (``data-move``)."""
    return [json.loads(htmllib.unescape(m)) for m in MOVE.findall(page)]
