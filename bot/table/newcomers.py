"""Newcomers to a scene: how prose names creatures that share a name, and who the GM just brought in.

Three spawned bandits are "the first bandit", "the second bandit" and "the third bandit" in the story
(an ordinal alias, never "Bandit 2"), and the round after the GM adds someone starts by saying they are here.
Used by :mod:`bot.table.world` (naming what it creates) and :mod:`bot.table.narration` (telling it).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.scene import Scene
from bot.table.context import GM_VIEW
from ledger import service

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth",
)  # fmt: skip


_ORDINAL_ALIAS = re.compile(r"^the (" + "|".join(_ORDINALS) + r") ", re.I)


def ordinal(n: int) -> str:
    """``2`` -> ``second`` (``21st`` past twenty)."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def readable_name(name: str, aliases: Sequence[str]) -> str:
    """How prose names a creature: its ordinal alias ("the second bandit") when it has one, else its name."""
    return next((a for a in aliases if _ORDINAL_ALIAS.match(a)), name)


async def arrivals(
    session: Any, *, campaign_id: int, session_number: int, round_number: int, present: Sequence[str]
) -> list[tuple[str, str]]:
    """Who the GM brought into the scene during round ``round_number``: (id, readable name) of every creature
    among ``present`` that a GM event created or moved this round, in the order the GM did it."""
    events = await service.history(
        session,
        campaign_id=campaign_id,
        viewer=GM_VIEW,
        limit=200,
        session_number=session_number,
        round_number=round_number,
        links=False,  # kinds, causes and payloads only
    )
    wanted = set(present)
    seen: dict[str, None] = {}
    for e in reversed(events):  # oldest first
        if not (e.cause or "").startswith("gm-") or e.visibility not in ("public", "party"):
            continue
        ref = e.payload.get("id") if e.kind == "create_entity" else e.payload.get("entity")
        if e.kind in ("create_entity", "move_entity") and ref in wanted:
            seen.setdefault(str(ref), None)
    if not seen:
        return []
    entities = await service.get_entities(
        session, campaign_id=campaign_id, entity_ids=list(seen), viewer=GM_VIEW
    )
    by_id = {x.id: x for x in entities if x.kind != "pc" and x.alive is not False}
    return [(i, readable_name(by_id[i].name, by_id[i].aliases)) for i in seen if i in by_id]


def readable_scene(scene: Scene) -> Scene:
    """The scene as prose should name it: creatures that share a name (three "Bandit"s) are called by their
    ordinal alias ("the second bandit") so the narration can tell them apart; everyone else as they are."""
    counts = Counter(e.name for e in scene.creatures.values())
    creatures = {
        cid: e.model_copy(update={"name": readable_name(e.name, e.aliases)}) if counts[e.name] > 1 else e
        for cid, e in scene.creatures.items()
    }
    return dataclasses.replace(scene, creatures=creatures)
