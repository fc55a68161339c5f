"""The bundled worlds ship as package data, so a non-editable install can run ``tablekeeper demo``.

Issue 9: ``pip install .`` left ``scenarios/`` out of the package and ``tablekeeper demo`` failed. Checked by
hand with a real ``pip install .`` into a fresh venv and ``tablekeeper demo`` from another directory; here the
packaging declaration and the resolution through importlib.resources are pinned.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_bundled_worlds_are_package_data() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "scenarios" in project["packages"]["find"]["include"]
    assert "*.toml" in project["package-data"]["scenarios"]
    packaged = {p.name for p in resources.files("scenarios").iterdir() if p.name.endswith(".toml")}
    on_disk = {p.name for p in (ROOT / "scenarios").glob("*.toml")}
    assert packaged == on_disk and {"harbor.toml", "crypt.toml"} <= packaged


def test_the_table_and_the_demo_find_worlds_through_the_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import scenarios
    from bot.table import SCENARIO_DIR, resolve_scenario

    monkeypatch.chdir(tmp_path)  # not the source tree: nothing may be found relative to it
    assert SCENARIO_DIR == scenarios.BUNDLED_DIR
    assert resolve_scenario("harbor") == scenarios.bundled("harbor")
    assert resolve_scenario("harbor").is_file()
    assert scenarios.names() == ["crypt", "harbor"]
