from tables.models import Seat, Table


def your_turn(request):
    """How many tables await the signed-in player (the badge in the navigation)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn_count": lambda: awaiting_count(user)}


def awaiting_count(user) -> int:
    """Tables waiting for the player: their turn, or an invitation to an open table they have not joined."""
    from tables.social import open_invitations

    turns = Seat.objects.filter(user=user, awaited=True, table__status=Table.PLAYING).count()
    return turns + open_invitations(user).count()
