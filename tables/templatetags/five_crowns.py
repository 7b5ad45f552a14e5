"""How Five Crowns is drawn: card faces, fanned backs, the score chart (display only; the rules live in rules/)."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language, gettext, pgettext

from rules.five_crowns import view
from rules.five_crowns.cards import CARDS, JOKER, RANK_LABEL, SUITS

register = template.Library()

# One colour per seat for the score chart (8 seats at most).
SEAT_COLOURS = ("#f1c40f", "#e74c3c", "#3498db", "#2ecc71", "#e67e22", "#9b59b6", "#1abc9c", "#ecf0f1")
FACES = {11: "J", 12: "Q", 13: "K"}


@register.filter
def fc_card(code, wild_rank=None):
    """{code, label, suit, name, joker, wild, face, pips} for a card code; None for anything else."""
    if not isinstance(code, str) or code not in CARDS:
        return None
    if code == JOKER:
        return {
            "code": code,
            "label": "",
            "suit": "joker",
            "name": "Joker",
            "joker": True,
            "wild": True,
            "face": False,
        }
    rank, suit = CARDS[code]
    return {
        "code": code,
        "label": RANK_LABEL[rank],
        "suit": SUITS[suit],
        "name": view.card_name(code, _lang()),
        "joker": False,
        "wild": wild_rank is not None and rank == wild_rank,
        "face": rank in FACES,
    }


@register.filter
def fc_rank_plural(rank):
    """'7s', 'Jacks', 'Kings' for the wild rank ('7', 'Valets', 'Rois' in French)."""
    try:
        rank = int(rank)
    except (TypeError, ValueError):
        return ""
    return view.wilds(rank, _lang())


def _lang() -> str:
    return (get_language() or "en").split("-")[0]


@register.filter
def fc_go_outs(choices, suggested=None):
    """The go-out choices (each {move, preview}), the engine's suggested discard first."""
    found = [c for c in choices or [] if c.get("move", {}).get("type") == "go_out"]
    return sorted(found, key=lambda c: c["move"].get("card") != suggested)


@register.filter
def fc_seat_colour(seat):
    try:
        return SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
    except (TypeError, ValueError):
        return SEAT_COLOURS[0]


@register.simple_tag
def fc_chart(sheet, names, width=320, height=150, rounds=11):
    """The cumulative scores as one SVG polyline per seat (points computed here, drawn by the template).

    Returns {width, height, lines: [{seat, name, colour, points, x, y, total}], ticks: [{y, value}],
    xs: [{x, round}]}; x runs over rounds 0..11, y grows downward from the highest total.
    """
    names = list(names or [])
    pad_l, pad_r, pad_t, pad_b = 30, 10, 8, 18
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    totals = [[0] for _ in names]
    for row in sheet or []:
        for s, p in enumerate(row[: len(names)]):
            totals[s].append(totals[s][-1] + p)
    top = max([max(t) for t in totals] + [10])
    top = ((top + 9) // 10) * 10

    def xy(i, v):
        return round(pad_l + plot_w * i / rounds, 1), round(pad_t + plot_h * (1 - v / top), 1)

    lines = []
    for s, series in enumerate(totals):
        pts = [xy(i, v) for i, v in enumerate(series)]
        lines.append(
            {
                "seat": s,
                "name": names[s],
                "colour": fc_seat_colour(s),
                "points": " ".join(f"{x},{y}" for x, y in pts),
                "x": pts[-1][0],
                "y": pts[-1][1],
                "total": series[-1],
            }
        )
    ticks = [{"y": xy(0, v)[1], "value": v} for v in (0, top // 2, top)]
    xs = [{"x": xy(i, 0)[0], "round": i} for i in range(1, rounds + 1)]
    return {
        "width": width,
        "height": height,
        "left": pad_l,
        "right": width - pad_r,
        "bottom": height - pad_b,
        "lines": lines,
        "ticks": ticks,
        "xs": xs,
    }


@register.filter
def fc_move_for(moves, value):
    """The first move of ``moves`` whose card or source is ``value`` (None when there is none)."""
    for m in moves or []:
        if m.get("card", m.get("source")) == value:
            return m
    return None


@register.filter
def fc_index_of(codes, code):
    """The position of the first ``code`` in ``codes`` (-1 when absent): marks one copy of a drawn twin."""
    try:
        return list(codes).index(code) if code else -1
    except (ValueError, TypeError):
        return -1


@register.filter
def fc_meld(kind):
    """A meld's kind in the page's language: Run / Book (Suite / Famille)."""
    return {"run": pgettext("meld", "Run"), "book": pgettext("meld", "Book")}.get(
        kind, str(kind).capitalize()
    )


@register.filter
def fc_names(seats, names):
    """The names of ``seats``, joined as a sentence says them: "bob", "bob and carol", "ann, bob and carol"."""
    said = [str(names[s]) for s in seats or []]
    if len(said) < 2:
        return "".join(said)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(said[:-1]), "last": said[-1]}


@register.filter
def fc_listed(seats, names):
    """The names of ``seats`` in turn order, comma-separated: "charlie, alice"."""
    return ", ".join(str(names[s]) for s in seats or [])


@register.filter
def fc_facts(code):
    """What the large view of a card says about it: {joker, penalty, wild_round, dealt, wild_penalty}."""
    from rules.five_crowns import cards

    if not cards.is_card(code):
        return None
    if code == JOKER:
        return {"joker": True, "penalty": cards.JOKER_PENALTY}
    rank = CARDS[code][0]
    wild_round = next(r for r in range(1, cards.ROUNDS + 1) if cards.wild_rank(r) == rank)
    return {
        "joker": False,
        "penalty": cards.penalty(code, wild_rank=0),
        "wild_round": wild_round,
        "dealt": rank,  # (the wild rank is the number of cards dealt)
        "wild_penalty": cards.WILD_PENALTY,
    }
