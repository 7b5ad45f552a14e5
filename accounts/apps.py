from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from accounts import api_tokens, sockets  # noqa: F401  (connect their signals: revoked tokens, log-outs)
