"""The four games' rules engines: pure Python, no Django (CONTRACTS §1)."""

from rules import registry
from rules.core import IllegalMove

__all__ = ["IllegalMove", "registry"]
