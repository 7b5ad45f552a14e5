"""Learn to play: a guided first game of each game against one bot, on a fixed deal.

A lesson is data: the deal's seed (never shown: the table keeps it like any seed), and a few steps, each a text
and the board element it points at (a CSS selector), ended by "Next" or by the player's move of one of the kinds
``wait`` names. static/js/tutorial.js shows them over the table's page; after the last step the game simply goes
on against the bot. A guided table is private, unrated and labelled as such on its page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables import services
from tables.errors import NotFound
from tables.models import Seat, Table

BOT_SEAT, PLAYER_SEAT = 0, 1  # the bot deals (or starts) and the player answers: the first step shows a move
BOT_LEVEL = "casual"


@dataclass(frozen=True)
class Step:
    target: str  # a CSS selector of the board: `.class` parts, descendant or compound (tests check them)
    text: str
    wait: tuple[str, ...] = ()  # the move types that end the step; none: a "Next" button ends it


@dataclass(frozen=True)
class Lesson:
    seed: int
    steps: tuple[Step, ...]


LESSONS: dict[str, Lesson] = {
    # The bot deals, turns up the Frog 6 (Frog is the Battleground clan) and leads the Eagle 2: the player holds
    # Frogs but must follow Eagle, with the Eagle 10, 8 or 3.
    "cosmic_crowns": Lesson(
        seed=202611260003,
        steps=(
            Step(
                ".cc-battleground",
                _(
                    "This is the Battleground clan, from the card turned up on the stack. This round its cards "
                    "beat the cards of every other clan; only a Divine card beats them."
                ),
            ),
            Step(
                ".cc-leading",
                _(
                    "The bot has led the first trick: the clan of its card is the leading clan. You must follow "
                    "the leading clan if you can."
                ),
            ),
            Step(
                ".cc-hand",
                _("The cards you may play are highlighted. Play one of them."),
                wait=("play", "discard"),
            ),
            Step(
                ".cc-trick",
                _(
                    "The highest Battleground card wins the trick; with none, the highest card of the leading "
                    "clan. The winner takes a crown from the pile and leads the next trick."
                ),
            ),
            Step(
                ".cc-player.me .crowns",
                _(
                    "Your crowns. Whoever holds the most after the last round wins. Tap or hover any card to "
                    "read it large. Play on against the bot!"
                ),
            ),
        ),
    ),
    # Round 1 deals 3 cards, so the 3s are wild: the player holds the 3 of spades.
    "five_crowns": Lesson(
        seed=202611260003,
        steps=(
            Step(
                ".fc-wild-flag",
                _(
                    "Round 1 deals 3 cards each, so the 3s are wild this round, like the Jokers: a wild card "
                    "stands for any card."
                ),
            ),
            Step(
                ".fc-hand",
                _(
                    "Your hand. Arrange it into runs (3 or more cards in a row of one suit) and sets (3 or more "
                    "cards of one rank)."
                ),
            ),
            Step(
                ".fc-pile",
                _("Your turn begins with a draw: take the top card of the stock or of the discard pile."),
                wait=("draw",),
            ),
            Step(
                ".fc-hand",
                _(
                    "Now discard a card. When all your other cards form runs and sets, you go out instead: the "
                    "others then have one last turn."
                ),
                wait=("discard", "go_out"),
            ),
            Step(
                ".fc-players",
                _(
                    "The cards left in a hand at the end of a round count as points against it. After eleven "
                    "rounds the lowest score wins. Play on against the bot!"
                ),
            ),
        ),
    ),
    "chronica": Lesson(
        seed=202611260001,
        steps=(
            Step(
                ".cu-hand",
                _(
                    "Your hand, drawn from your deck. Before the first turn you may keep it, or shuffle it back "
                    "and draw one card fewer (a mulligan)."
                ),
                wait=("keep", "mulligan"),
            ),
            Step(
                ".cu-side.mine .cu-province",
                _(
                    "Your province: 4 slots on the frontier, 4 behind them in the hinterland. Each turn play "
                    "one card (build a building, place a character, or send a character against the bot's "
                    "province), or pass."
                ),
                wait=("build", "place", "replace", "action", "pass"),
            ),
            Step(
                ".cu-side.mine .cu-honour",
                _(
                    "Your Honour. Actions against the bot's cards win or lose Honour; a player at 0 loses. "
                    "Play on against the bot!"
                ),
            ),
        ),
    ),
    "cosplay": Lesson(
        seed=202611260007,
        steps=(
            Step(
                ".cp-zones",
                _(
                    "The recruitment zones: cosplayers and equipment to recruit, each with its cost in BADASS, "
                    "KAWAII or CRAFT."
                ),
            ),
            Step(
                ".cp-hand",
                _(
                    "Your hand pays for them: each card gives points of a resource. Recruit a card, fulfil an "
                    "objective or send Drama to the bot, or end your turn."
                ),
                wait=("recruit", "objective", "drama", "poach", "end_turn"),
            ),
            Step(
                ".cp-phases",
                _(
                    "Each turn has three phases: preparation (your assistance zone turns face up), recruitment, "
                    "then the end of the turn, when you draw a new hand. The player with the most points at the "
                    "end wins. Play on against the bot!"
                ),
            ),
        ),
    ),
}


def lesson(slug: str) -> Lesson | None:
    return LESSONS.get(slug)


def steps_for(table: Table) -> list[dict]:
    """A guided table's steps, in the page's language, for tutorial.js: [{target, text, wait}]."""
    found = LESSONS.get(table.game) if table.guided else None
    if found is None:
        return []
    return [{"target": s.target, "text": str(s.text), "wait": list(s.wait)} for s in found.steps]


@transaction.atomic
def start_guided(user, slug: str) -> Table:
    """A guided first game: ``user`` against one casual bot, on the lesson's fixed deal, private and unrated,
    started at once (TableError: no lesson for that game, or too many tables)."""
    engine = services.get_game(slug)
    found = LESSONS.get(slug)
    if found is None or not engine.min_players <= 2 <= engine.max_players:
        raise NotFound(gettext("There is no guided game of %(game)s.") % {"game": engine.title})
    services._check_creation_quota(user)  # (the quota of any new table)
    table = Table.objects.create(
        game=slug, players=2, options={}, private=True, created_by=user, rated=False, guided=True
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, index=BOT_SEAT, bot=BOT_LEVEL),
            Seat(table=table, index=PLAYER_SEAT, user=user),
        ]
    )
    return services.start_table(table.pk, user, seed=found.seed)
