from django.utils.functional import SimpleLazyObject

from accounts.preferences import notification_choice


def turn_sound(request) -> dict:
    """``turn_sound``: whether the signed-in person wants a sound on the pages when it becomes their turn
    (read only by a template that asks: <body data-turn-sound="on">)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turn_sound": False}
    return {"turn_sound": SimpleLazyObject(lambda: notification_choice(user).sound)}


def deck_builder(request) -> dict:
    """``decks_url``: the deck builder's first page when some registered game builds decks, else None (the
    navigation then shows no "Decks" link)."""
    from accounts.decks import deck_game, deck_url

    entry = deck_game()
    return {"decks_url": deck_url(entry.slug) if entry is not None else None}
