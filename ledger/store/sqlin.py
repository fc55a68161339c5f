"""``column IN (...)`` over a list of values, with one plain bound parameter per value.

SQLAlchemy renders ``column.in_([...])`` with one "expanding" parameter, and re-renders the statement's SQL on
every execution to spread the list out (``_process_parameters_for_postcompile``): for the 14k-character scene
statement of retrieval that was ~1.3 ms per execution, and 0.1-1 ms for the scene and thread reads, every
round. With a parameter per value the SQL is compiled once per list length and cached like any other
statement (the lists here are short: states, kinds, visibilities, a scene's ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import false, literal


def in_values(column: Any, values: Iterable[Any]) -> Any:
    """``column IN (:p1, :p2, ...)`` with the values bound one by one (typed as ``column``); an empty list
    selects nothing, as ``column.in_([])`` does."""
    vals = list(values)
    if not vals:
        return false()
    kind = getattr(column, "type", None)
    return column.in_([literal(v, kind) for v in vals])


__all__ = ["in_values"]
