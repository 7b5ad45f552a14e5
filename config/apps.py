from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself, as an app: it registers the site's own system checks."""

    name = "config"
    verbose_name = "Card Club site"

    def ready(self):
        from config import checks  # noqa: F401
