"""The language a signed-in person chose wins over their browser's (LocaleMiddleware decides first)."""

from __future__ import annotations

from django.utils import translation

from accounts.preferences import chosen_language


class AccountLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: a signed-in person with a language kept on
    their account (accounts.preferences.set_language) reads the site in it, whatever Accept-Language or
    the language cookie say. Without one (or signed out), LocaleMiddleware's choice stands."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = chosen_language(user)
            if language and language != getattr(request, "LANGUAGE_CODE", None):
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
