from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from accounts import sockets  # noqa: F401  (connects the log-out signal that closes the session's sockets)
