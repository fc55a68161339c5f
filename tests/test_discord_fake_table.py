"""Issue 16: the cogs' tests run against ``FakeTable``; it must keep :class:`bot.table.Table`'s signatures.

A method the cogs call that the fake lacks, a renamed keyword, a dropped default or a changed type would
let the Discord tests pass against an API the real table no longer has. These tests compare the two with
``inspect.signature``, so such drift fails here instead of in front of a table of players.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.table import Table
from tests.discord_harness import FakeTable

ROOT = Path(__file__).resolve().parents[1]
# Reached by the bot itself rather than a cog: the deadline loop and autocomplete.
BOT_CALLS = {"tick", "resume", "autocomplete"}


def _public_methods(cls: type) -> dict[str, Callable[..., Any]]:
    return {
        name: member
        for name, member in inspect.getmembers(cls, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }


def _called_by_cogs() -> set[str]:
    """Every ``self.table.<name>(...)`` the cogs make, read from their source."""
    called: set[str] = set()
    for path in sorted((ROOT / "cogs").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "table"
            ):
                called.add(node.attr)
    return called


def _shape(method: Callable[..., Any]) -> list[tuple[str, str, str, str]]:
    """Each parameter's name, kind, default and annotation (``v.Where`` and ``Where`` read the same)."""
    shape = []
    for p in inspect.signature(method).parameters.values():
        annotation = re.sub(r"\bv\.", "", str(p.annotation))
        shape.append((p.name, p.kind.name, repr(p.default), annotation))
    returns = re.sub(r"\bv\.", "", str(inspect.signature(method).return_annotation))
    shape.append(("return", "", "", returns))
    return shape


def test_the_fake_has_every_method_the_cogs_and_the_bot_call() -> None:
    wanted = _called_by_cogs() | BOT_CALLS
    assert "submit" in wanted and "graph" in wanted  # the source scan found the cogs' calls
    assert wanted <= set(_public_methods(Table)), sorted(wanted - set(_public_methods(Table)))
    assert wanted <= set(_public_methods(FakeTable)), sorted(wanted - set(_public_methods(FakeTable)))


def test_the_fake_has_nothing_the_real_table_lacks() -> None:
    extra = set(_public_methods(FakeTable)) - set(_public_methods(Table))
    assert not extra, f"FakeTable has methods Table does not: {sorted(extra)}"


def test_every_shared_method_has_the_same_signature() -> None:
    real, fake = _public_methods(Table), _public_methods(FakeTable)
    differ = {
        name: (inspect.signature(real[name]), inspect.signature(fake[name]))
        for name in sorted(set(real) & set(fake))
        if _shape(real[name]) != _shape(fake[name])
    }
    assert not differ, "\n".join(f"{n}:\n  Table     {r}\n  FakeTable {f}" for n, (r, f) in differ.items())
