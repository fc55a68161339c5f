"""Reading a scenario file: TOML within size and depth limits, then every check, into a :class:`Scenario`.

:func:`read_toml` is shared with ``bot.config`` so every TOML the user hands us is read the same way;
:func:`parse_scenario` and :func:`load_scenario` are the way in for a scenario (the models' checks, then
:mod:`.validate`'s, then the replay's), raising one :class:`ScenarioError` that lists every problem.
"""

from __future__ import annotations

import hashlib
import threading
import tomllib
from collections import OrderedDict
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.scenario.format import Scenario, ScenarioError, ScenarioProblem, ScenarioUnreadable
from ledger.scenario.replay import replay_problems
from ledger.scenario.validate import pydantic_problems, static_problems

__all__ = ["MAX_SCENARIO_BYTES", "MAX_TOML_DEPTH", "load_scenario", "parse_scenario", "read_toml"]

MAX_SCENARIO_BYTES = 4 * 1024 * 1024  # harbor.toml is 23 kB; 4 MB is tens of thousands of records
MAX_TOML_DEPTH = 32  # the format nests at most five levels; deeper is hostile or broken
#: Files this small keep their validated :class:`Scenario` in memory, keyed by a hash of their bytes: the
#: bundled worlds (9-25 kB) are started again and again, and reading and checking one costs 5-13 ms.
MAX_CACHED_BYTES = 256 * 1024
#: How many validated files are kept (least recently used dropped first).
SCENARIO_CACHE_SIZE = 8

_cache: OrderedDict[str, Scenario] = OrderedDict()
_cache_lock = threading.Lock()


def _depth(data: Any) -> int:
    """Return how deeply tables and arrays nest in ``data``, without recursion (a hostile file is deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_TOML_DEPTH:
            break
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


def read_toml(text: str, *, max_bytes: int = MAX_SCENARIO_BYTES) -> dict[str, Any]:
    """Parse TOML ``text`` with limits; raise ``ValueError`` with a one-line reason for anything unusable.

    A leading byte-order mark is dropped (editors on Windows write one). Text over ``max_bytes``, nesting over
    :data:`MAX_TOML_DEPTH` levels (which would exhaust the parser's stack) and invalid TOML are refused.
    Shared by scenario files and ``bot.config`` so every TOML the user hands us is read the same way.
    """
    text = text.removeprefix("\ufeff")
    if len(text) > max_bytes:
        raise ValueError(f"file too large: {len(text):,} characters, at most {max_bytes:,}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ValueError(f"not valid TOML: nested more than {MAX_TOML_DEPTH} levels deep") from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise ValueError(f"not valid TOML: nested more than {MAX_TOML_DEPTH} levels deep")
    return data


def _within(path: str, key: str) -> bool:
    """True when ``path`` is ``key`` or inside it (``factions[0].members[1].source`` in ``factions[0]``)."""
    return path == key or path.startswith((f"{key}.", f"{key}["))


def parse_scenario(text: str, *, source: str = "scenario") -> Scenario:
    """Parse and fully validate scenario TOML ``text``; ``source`` names it in error messages.

    Checks types, ids (unique, prefixed), every reference, session order, thread statuses and the holder
    chain of every item by replaying the history. Raises :class:`ScenarioError` listing every problem found.
    """
    try:
        data = read_toml(text)
    except ValueError as exc:
        raise ScenarioUnreadable(source, [ScenarioProblem(path="", message=str(exc))]) from None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(source, pydantic_problems(exc)) from None
    problems = static_problems(scenario)
    reported = {p.path for p in problems}
    # A problem the whole-file checks found is not reported again by the replay, nor any inside that key.
    problems += [p for p in replay_problems(scenario) if not any(_within(p.path, r) for r in reported if r)]
    if problems:
        raise ScenarioError(source, problems)
    return scenario


def _rules_identity() -> str:
    """Which rules tables a validation checks against: a scenario validated under other tables is not reused.

    The validated scenario depends on the SRD bestiary and weapons (``bestiary = "bandit"`` must exist); their
    loaders are cached, so the identity of the loaded tables changes only when they are read again. Broken
    rules data raises :class:`rules.errors.DataError` here, as the uncached validation would.
    """
    from rules.srd import bestiary, weapons

    return f"{id(bestiary())}.{id(weapons())}"


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate the scenario file at ``path``.

    A small file's validated scenario (at most :data:`MAX_CACHED_BYTES`) is kept, keyed by the SHA-256 of its
    bytes and the rules tables it was checked against, so starting the same world again skips parsing and
    every check; a file edited in place has other bytes and is read afresh. The scenario returned is frozen
    and may be shared: never mutate it. Refusals are not kept (a bad file is checked, and reported in full,
    every time).

    Raises :class:`ScenarioUnreadable` when the file is missing, unreadable or not TOML, and
    :class:`ScenarioError` when it is TOML but not a valid scenario.
    """
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_SCENARIO_BYTES:
            message = f"file too large: {size:,} bytes, at most {MAX_SCENARIO_BYTES:,}"
            raise ScenarioUnreadable(str(file), [ScenarioProblem(path="", message=message)])
        data = file.read_bytes()
        key = (
            f"{hashlib.sha256(data).hexdigest()}:{_rules_identity()}" if len(data) <= MAX_CACHED_BYTES else ""
        )
        if key:
            with _cache_lock:
                cached = _cache.get(key)
                if cached is not None:
                    _cache.move_to_end(key)
                    return cached
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text() reads it
    except FileNotFoundError:
        raise ScenarioUnreadable(str(file), [ScenarioProblem(path="", message="no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        problem = ScenarioProblem(path="", message=f"cannot read: {exc.__class__.__name__}: {exc}")
        raise ScenarioUnreadable(str(file), [problem]) from None
    scenario = parse_scenario(text, source=str(file))
    if key:
        with _cache_lock:
            _cache[key] = scenario
            _cache.move_to_end(key)
            while len(_cache) > SCENARIO_CACHE_SIZE:
                _cache.popitem(last=False)
    return scenario
