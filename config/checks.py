"""System checks of the site's own configuration (Django's deployment checklist misses these)."""

from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.checks import Error, Tags, register
from django.core.files.storage import storages


@register(Tags.staticfiles, deploy=True)
def static_manifest(app_configs, **kwargs):
    """In production the static files are served by their hashed names, read from the manifest that
    `collectstatic` writes: without it every page answers 500."""
    storage = storages["staticfiles"]
    if not isinstance(storage, ManifestFilesMixin) or storage.read_manifest() is not None:
        return []
    return [
        Error(
            f"The static files manifest ({storage.path(storage.manifest_name)}) is missing: every page would fail.",
            hint="Run `python manage.py collectstatic --noinput` before starting the site.",
            id="cardclub.E001",
        )
    ]
