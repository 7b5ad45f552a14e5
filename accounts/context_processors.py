from django.utils.functional import SimpleLazyObject

from accounts.preferences import notification_choice


def turn_sound(request) -> dict:
    """``turn_sound``: whether the signed-in person wants a sound on the pages when it becomes their turn
    (read only by a template that asks: <body data-turn-sound="on">)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turn_sound": False}
    return {"turn_sound": SimpleLazyObject(lambda: notification_choice(user).sound)}
