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
