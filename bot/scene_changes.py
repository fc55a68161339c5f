"""A scene as a round's applied changes left it, without reading it again.

The round reads its scene once to resolve it; the narration needs the scene after the round's changes. Most
changes a round makes are creatures' state (hit points, conditions, death, death-save tallies): those are
applied here to the scene already read, as the ledger projects them (``entities_around`` and
:func:`bot.scene.load_scene`), so the narration does not read the scene a second time. A change that moves
someone or something (a creature's location, an item between holders) can change who and what is in the
scene, and any change kind not listed here is unknown: for those :func:`scene_after` answers None and the
caller reads the scene again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from bot.scene import Scene

#: The change kinds applied in memory; any other asks for a fresh read.
IN_PLACE_KINDS = frozenset({"set_hp", "add_condition", "remove_condition", "set_alive", "set_fact"})


def scene_after(scene: Scene, mutations: Sequence[Mapping[str, Any]]) -> Scene | None:
    """``scene`` with ``mutations`` (the round's applied changes, in order) applied, or None when one of them
    needs the scene read again (see the module's docstring)."""
    if any(m.get("kind") not in IN_PLACE_KINDS for m in mutations):
        return None
    creatures = dict(scene.creatures)
    facts = dict(scene.facts)
    for change in mutations:
        kind = change["kind"]
        if kind == "set_fact":
            key = str(change["key"])
            if key in facts or _state_key(key, creatures):  # the scene keeps death-save tallies and stability
                facts[key] = change["value"]
            continue
        entity = creatures.get(str(change["entity"]))
        if entity is None:  # not in the scene: nothing it shows changed
            continue
        if kind == "set_hp":
            entity = entity.model_copy(update={"hp": change["hp"]})
        elif kind == "set_alive":
            entity = entity.model_copy(update={"alive": change["alive"]})
        else:
            conditions = set(entity.conditions)
            if kind == "add_condition":
                conditions.add(str(change["condition"]))
            else:
                conditions.discard(str(change["condition"]))
            entity = entity.model_copy(update={"conditions": tuple(sorted(conditions))})
        creatures[entity.id] = entity
    return dataclasses.replace(scene, creatures=creatures, facts=facts)


def _state_key(key: str, creatures: Mapping[str, Any]) -> bool:
    """Whether ``key`` is one of the state facts :func:`bot.scene.load_scene` reads for its creatures."""
    for suffix in ("-death-saves", "-stable"):
        if key.endswith(suffix) and key.removesuffix(suffix) in creatures:
            return True
    return False


__all__ = ["IN_PLACE_KINDS", "scene_after"]
