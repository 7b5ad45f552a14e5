"""The static files' storage when the site is served (not in DEBUG): whitenoise's compressed manifest storage,
each file's URL worked out once per process.

Every live frame asks for its game's sprite (``{% static … as sprite %}`` in each board) and a page for its
styles and scripts. The manifest storage works each URL out anew: the manifest look-up, the name split,
normalized and joined again, about 10 µs. The manifest is read once, when the process starts, and does not
change under it, so neither does a name's URL: it is kept.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force=False):
        if force:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:  # (a name the manifest lacks raises, and is not kept)
            found = self._urls[name] = super().url(name)
        return found
