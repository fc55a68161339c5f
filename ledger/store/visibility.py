"""Who may see what: the four visibilities of every ledger record and the viewers that read them.

A record's ``visibility`` is ``public`` | ``party`` | ``player:<user id>`` | ``gm``. A :class:`Viewer` turns
into a list of visibilities it may see, which the reads put into SQL (``visibility IN (...)``), so
nothing hidden ever leaves the database for a viewer that may not see it.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

VISIBILITY_PATTERN = r"^(public|party|gm|player:[A-Za-z0-9_.\-]{1,64})$"
_VISIBILITY_RE = re.compile(VISIBILITY_PATTERN)


def is_visibility(value: str) -> bool:
    """True when ``value`` is a well-formed visibility string."""
    return bool(_VISIBILITY_RE.match(value))


class Viewer(BaseModel):
    """Who is reading: the public, the party (the channel), one player, or the GM."""

    model_config = ConfigDict(frozen=True)

    role: Literal["public", "party", "player", "gm"]
    user_id: str | None = None

    @classmethod
    def public(cls) -> Viewer:
        """Anyone, e.g. a spectator: sees only ``public`` records."""
        return cls(role="public")

    @classmethod
    def party(cls) -> Viewer:
        """The campaign channel: ``public`` and ``party`` records. Narration posted publicly rests on this."""
        return cls(role="party")

    @classmethod
    def player(cls, user_id: str | int) -> Viewer:
        """One player: ``public``, ``party`` and their own ``player:<id>`` records."""
        return cls(role="player", user_id=str(user_id))

    @classmethod
    def gm(cls) -> Viewer:
        """The game master: everything."""
        return cls(role="gm")

    def visible(self) -> tuple[str, ...] | None:
        """The visibilities this viewer may see, or ``None`` for all of them (the GM)."""
        if self.role == "gm":
            return None
        if self.role == "public":
            return ("public",)
        if self.role == "party":
            return ("public", "party")
        return ("public", "party", f"player:{self.user_id}")


def can_see(viewer: Viewer, visibility: str) -> bool:
    """True when ``viewer`` may see a record with this ``visibility``."""
    allowed = viewer.visible()
    return allowed is None or visibility in allowed


def visible_clause(viewer: Viewer, column: Any) -> Any:
    """A SQL condition restricting ``column`` (a visibility column) to what ``viewer`` may see."""
    from sqlalchemy import true

    from ledger.store.sqlin import in_values

    allowed = viewer.visible()
    return true() if allowed is None else in_values(column, allowed)
