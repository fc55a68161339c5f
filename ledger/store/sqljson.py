"""JSON columns of the hot read statements, decoded by us instead of SQLAlchemy's JSON result processor.

SQLAlchemy decodes a JSON column through two nested processors per value (the SQLite one catches numbers),
~10 microseconds a value even when it is NULL; a round's reads (the snapshot's world, twice the scene's
facts, threads and events) return ~1,600 such values, most of them NULL padding of a UNION or the same
texts as the round before. :func:`raw_json` keeps the column's SQL and type in the statement but hands its
value over as the driver gives it; :func:`json_reader` decodes it: SQLite returns the stored text (or a
number: a JSON column has numeric affinity), decoded once per distinct text and remembered; asyncpg decodes
``json`` itself (SQLAlchemy installs ``json.loads`` as its codec), so its values are taken as they are.

The remembered values are shared by every reader of the same text: readers must not change them (copy what
they keep or change).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import String, type_coerce

#: Decoded JSON texts, by text; cleared when it holds :data:`JSON_KEPT` of them.
_DECODED: dict[str, Any] = {}
JSON_KEPT = 50_000


def raw_json(expr: Any) -> Any:
    """``expr`` (a JSON column or a typed NULL) as it renders, its value not decoded by SQLAlchemy."""
    return type_coerce(expr, String)


def decode_text(raw: Any) -> Any:
    """A JSON value as SQLite returns it: its text (decoded once and remembered), None, or a number."""
    if not isinstance(raw, str):
        return raw
    try:
        return _DECODED[raw]
    except KeyError:
        pass
    value = json.loads(raw)
    if len(_DECODED) >= JSON_KEPT:
        _DECODED.clear()
    _DECODED[raw] = value
    return value


def as_is(value: Any) -> Any:
    """A JSON value the driver decoded already."""
    return value


def text_json(session: Any) -> bool:
    """Whether ``session`` (an ORM session or a connection, sync or async) gets JSON columns as text."""
    dialect = getattr(session, "dialect", None)
    if dialect is None:
        dialect = session.get_bind().dialect
    return not getattr(dialect, "supports_native_json_deserialization", False)


def json_reader(session: Any) -> Callable[[Any], Any]:
    """The decoder of :func:`raw_json` values read through ``session``."""
    return decode_text if text_json(session) else as_is


__all__ = ["as_is", "decode_text", "json_reader", "raw_json", "text_json"]
