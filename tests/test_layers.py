"""Imports point down only: cogs -> bot -> ledger -> rules (docs/internals.md), read from the source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> top-level modules it may never import (at module level or inside a function)
FORBIDDEN = {
    "rules": {"discord", "openai", "bot", "cogs", "ledger", "sqlmodel", "sqlalchemy", "chromadb"},
    "ledger": {"discord", "openai", "bot", "cogs"},
    "bot": {"cogs"},
    "cogs": {"sqlmodel", "sqlalchemy", "chromadb"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_nothing_above_it(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files
        for name in _imports(path) & FORBIDDEN[package]
    }
    assert not wrong, sorted(wrong)


# ledger room -> ledger rooms it may import (docs/internals.md): store < scenario < recall, check
ROOMS = {
    "store": set(),
    "scenario": {"store"},
    "recall": {"store", "scenario"},
    "check": {"store", "scenario"},
}


def _ledger_imports(path: Path) -> set[str]:
    """The second part of every ``ledger.<x>`` module this file imports, relative imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    room = path.relative_to(ROOT / "ledger").parts[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [f"ledger.{room}"]
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            names = [f"ledger.{(node.module or '').split('.')[0]}"]
        for name in names:
            parts = name.split(".")
            if parts[0] == "ledger" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_a_ledger_room_imports_only_the_rooms_below_it(room: str) -> None:
    files = sorted((ROOT / "ledger" / room).rglob("*.py"))
    assert files, f"ledger/{room}/ has no modules"
    allowed = ROOMS[room] | {room, "errors"}
    wrong = {
        f"{path.relative_to(ROOT)} imports ledger.{name}"
        for path in files
        for name in _ledger_imports(path) - allowed
    }
    assert not wrong, sorted(wrong)


def test_every_ledger_module_lives_in_a_room() -> None:
    """Only the public entry, the package docstring and the shared errors sit at the top of ``ledger/``."""
    top = sorted(p.name for p in (ROOT / "ledger").glob("*.py"))
    assert top == ["__init__.py", "errors.py", "service.py"]


MAX_LINES = 800


def test_every_module_is_under_the_size_a_newcomer_can_read() -> None:
    """No module over 800 lines (issue 15); generated migrations are the exception."""
    long = {
        f"{path.relative_to(ROOT)}: {n} lines"
        for package in ("rules", "ledger", "bot", "cogs")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, sorted(long)
