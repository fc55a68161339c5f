"""A round's snapshot that took the previous one's name index reads only its new facts into secrets: the
facts read last round come back from a memo kept per name index, equal to a fresh reading."""

from __future__ import annotations

import dataclasses

import pytest

from ledger.check import leaks
from ledger.check.extract import name_index
from ledger.check.snapshot import Fact, WorldSnapshot, load_world
from tests.corpus.loader import leak_world_path


def _world() -> WorldSnapshot:
    path = sorted(leak_world_path("x").parent.glob("*.toml"))[0]
    return load_world(path)


def _next_round(snap: WorldSnapshot, said: str) -> WorldSnapshot:
    """The same world with one new fact, as the next round's snapshot is, sharing the name index."""
    facts = {**snap.facts, "npc-x-said-r2": Fact("npc-x-said-r2", said, "gm")}
    nxt = dataclasses.replace(snap, facts=facts, cache={})
    nxt.cache["names"] = name_index(snap)
    return nxt


def test_only_the_new_fact_is_read_and_the_secrets_equal_a_fresh_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _world()
    before = leaks.read_secrets(first)
    calls: list[str] = []
    real = leaks._fact_secret

    def counting(snap: WorldSnapshot, index: object, key: str, *rest: object) -> object:
        calls.append(key)
        return real(snap, index, key, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(leaks, "_fact_secret", counting)
    second = _next_round(first, "The old ferryman hid the ledger under the chapel floor")
    after = leaks.read_secrets(second)
    assert calls == ["npc-x-said-r2"]
    fresh = dataclasses.replace(second, cache={})  # a snapshot of its own: every fact read again
    monkeypatch.setattr(leaks, "_fact_secret", real)
    assert after == leaks.read_secrets(fresh)
    assert set(before) <= set(after)


def test_a_snapshot_with_its_own_name_index_reads_every_fact(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _world()
    leaks.read_secrets(first)
    calls: list[str] = []
    real = leaks._fact_secret

    def counting(snap: WorldSnapshot, index: object, key: str, *rest: object) -> object:
        calls.append(key)
        return real(snap, index, key, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(leaks, "_fact_secret", counting)
    leaks.read_secrets(_world())
    assert calls
    assert len(calls) == sum(
        isinstance(f.value, str) and len(f.value.split()) >= 3 for f in first.facts.values()
    )
