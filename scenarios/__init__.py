"""The bundled worlds (``harbor.toml``, ``crypt.toml``), shipped as package data.

A package, not a bare folder, so that a regular (non-editable) ``pip install`` carries the worlds into
site-packages and ``tablekeeper demo`` or ``/campaign start scenario:harbor`` find them from any directory.
Resolve them through :func:`bundled` (or :data:`BUNDLED_DIR`), never relative to the working directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["BUNDLED_DIR", "bundled", "names"]

BUNDLED_DIR = Path(str(resources.files(__name__)))


def bundled(name: str) -> Path:
    """The path of the bundled world ``name`` (``harbor`` or ``harbor.toml``); it may not exist."""
    return BUNDLED_DIR / (name if name.endswith(".toml") else f"{name}.toml")


def names() -> list[str]:
    """The bundled worlds by name, sorted (``['crypt', 'harbor']``)."""
    return sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))
