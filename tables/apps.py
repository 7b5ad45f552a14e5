from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self):
        from django.core.checks import register

        from tables.games import check_plugins

        register(check_plugins)
