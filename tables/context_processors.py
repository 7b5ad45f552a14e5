from dataclasses import dataclass

from tables.models import Seat, Table


@dataclass(frozen=True)
class Waiting:
    """What waits for a player: tables where it is their turn, invitations to open tables, challenges."""

    turns: int
    invitations: int
    challenges: int = 0

    @property
    def count(self) -> int:
        return self.turns + self.invitations + self.challenges


def your_turn(request):
    """What waits for the signed-in player (the badge in the navigation), read only if a page shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"waiting": lambda: waiting_for(user)}


def waiting_for(user) -> Waiting:
    from tables.challenges import received
    from tables.social import open_invitations

    turns = Seat.objects.filter(user=user, awaited=True, table__status=Table.PLAYING).count()
    return Waiting(turns, open_invitations(user).count(), received(user).count())
