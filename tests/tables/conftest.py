import pytest


@pytest.fixture
def fast_passwords(settings):
    """The personas' passwords hashed cheaply: a fuzz test's setup is otherwise mostly PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
