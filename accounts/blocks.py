"""Blocks: who keeps whom away (accounts.models.Block). A blocked person cannot invite or challenge the
blocker, nor take a seat at a table the blocker opened; the blocker does not read their chat (pages, live
frames, the API). Every refusal says only "not possible" (NOT_POSSIBLE), to both sides."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import Block
from accounts.sockets import account_group

log = logging.getLogger(__name__)


def not_possible() -> str:
    """The one answer to a refusal that must not say why (a block, a setting, a private table)."""
    return _("This is not possible.")


def blocked_by(user_id: int | None) -> frozenset[int]:
    """The ids of the people ``user_id`` blocked (whose chat they do not read)."""
    if user_id is None:
        return frozenset()
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blockers_of(author_id: int | None, among: list[int]) -> set[int]:
    """Those of ``among`` who blocked ``author_id``."""
    if author_id is None or not among:
        return set()
    return set(
        Block.objects.filter(blocked_id=author_id, blocker_id__in=among).values_list("blocker_id", flat=True)
    )


def between(a_id: int | None, b_id: int | None) -> bool:
    """Whether either of the two blocked the other."""
    if a_id is None or b_id is None:
        return False
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocks(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def tell_sockets(user_id: int) -> None:
    """After a block or unblock commits: the person's open table sockets learn whose chat to leave out."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        message = {"type": "blocks.changed", "blocked": sorted(blocked_by(user_id))}
        async_to_sync(layer.group_send)(account_group(user_id), message)
    except Exception:
        log.exception("telling the sockets of %s about their blocks failed", user_id)
