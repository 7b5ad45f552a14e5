from dataclasses import dataclass

from django.urls import reverse

BADGE_TABLES = 10  # the most urgent waiting tables the badge names (the "Next game" button's choices)


@dataclass(frozen=True)
class Waiting:
    """What waits for a player: tables where it is their turn (their ids, most urgent first), invitations
    to open tables, and challenges to answer."""

    turns: int
    invitations: int
    tables: tuple[int, ...] = ()
    challenges: int = 0

    @property
    def count(self) -> int:
        return self.turns + self.invitations + self.challenges

    @property
    def paths(self) -> str:
        """The pages of the most urgent waiting tables, space-separated (the badge's data-waiting)."""
        return " ".join(reverse("tables:table", args=[pk]) for pk in self.tables[:BADGE_TABLES])


def your_turn(request):
    """What waits for the signed-in player (the badge in the navigation), read only if a page shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"waiting": lambda: waiting_for(user)}


def waiting_for(user) -> Waiting:  # (a user or a user id)
    pk = getattr(user, "pk", user)
    return waiting_for_people([pk])[pk]


def waiting_for_people(user_ids) -> dict[int, Waiting]:
    """What waits for each of ``user_ids`` (``waiting_for``), in three queries however many they are: the
    badges a move changes are read together."""
    from tables.selectors import challenges_received_counts
    from tables.social import open_invitation_counts
    from tables.your_turn import waiting_ids_of

    ids = list(dict.fromkeys(user_ids))
    turns = waiting_ids_of(ids, limit=None)
    invitations = open_invitation_counts(ids)
    challenges = challenges_received_counts(ids)
    return {
        pk: Waiting(
            len(turns[pk]), invitations.get(pk, 0), tuple(turns[pk][:BADGE_TABLES]), challenges.get(pk, 0)
        )
        for pk in ids
    }
