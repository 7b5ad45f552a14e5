"""A face for each person: the picture they uploaded (checked, re-encoded as a PNG of at most SIZE pixels,
nothing of the original file kept but its pixels: no EXIF, no GPS, no comments), else an identicon drawn
from their id (a symmetric 5 x 5 pattern in a colour of its own; the same id always gives the same face)."""

from __future__ import annotations

import hashlib
import io

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.html import escape
from django.utils.translation import gettext as _

from accounts.models import ClubSetting

SIZE = 256
MAX_PIXELS = 4096 * 4096  # a larger image is refused before it is decoded
FORMATS = {"PNG", "JPEG", "GIF", "WEBP"}


class BadPicture(ValueError):
    pass


def identicon(user_id: int) -> str:
    """An SVG identicon for ``user_id``: deterministic, drawn here (no request to anyone)."""
    digest = hashlib.sha256(f"cardclub-avatar:{user_id}".encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    colour = f"hsl({hue} 55% 42%)"
    cells = []
    bits = int.from_bytes(digest[2:6], "big")
    for row in range(5):
        for col in range(3):
            if bits >> (row * 3 + col) & 1:
                for x in {col, 4 - col}:
                    cells.append(f'<rect x="{x + 1}" y="{row + 1}" width="1" height="1"/>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" shape-rendering="crispEdges">'
        f'<rect width="7" height="7" fill="hsl({hue} 40% 92%)"/><g fill="{escape(colour)}">{"".join(cells)}</g></svg>'
    )


def clean_picture(data: bytes) -> bytes:
    """An uploaded picture as the PNG kept (BadPicture with the reason in words when it is refused)."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise BadPicture(_("Choose a picture to upload."))
    if len(data) > settings.AVATAR_MAX_BYTES:
        raise BadPicture(
            _("A picture is at most %(kib)d KiB (this one is %(size)d KiB).")
            % {"kib": settings.AVATAR_MAX_BYTES // 1024, "size": len(data) // 1024}
        )
    refused = BadPicture(_("This file is not a picture in PNG, JPEG, GIF or WebP."))
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in FORMATS:
                raise refused
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise BadPicture(_("A picture is at most 4096 × 4096 pixels."))
            probe.verify()
        with Image.open(io.BytesIO(data)) as image:
            image.seek(0)
            image = image.convert("RGBA")
    except BadPicture:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise refused from None
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    image = image.crop((left, top, left + side, top + side)).resize(
        (SIZE, SIZE) if side > SIZE else (side, side)
    )
    clean = Image.frombytes("RGBA", image.size, image.tobytes())  # only the pixels: no metadata travels
    out = io.BytesIO()
    clean.save(out, format="PNG", optimize=True)
    return out.getvalue()


@transaction.atomic
def set_picture(user, data: bytes | None) -> None:
    """Keep ``data`` (cleaned) as the person's picture, or go back to the identicon with None."""
    picture = clean_picture(data) if data is not None else None
    setting, _created = ClubSetting.objects.get_or_create(user=user)
    ClubSetting.objects.filter(pk=setting.pk).update(
        picture=picture, picture_version=F("picture_version") + 1
    )


def picture_of(user_id: int) -> tuple[bytes | None, int]:
    """(the uploaded PNG or None, its version)."""
    row = ClubSetting.objects.filter(user_id=user_id).values_list("picture", "picture_version").first()
    if row is None:
        return None, 0
    picture, version = row
    return (bytes(picture) if picture is not None else None), version
