"""The paraphrased-leak corpus (tests/corpus/leaks): secrets told in other words, and near-misses.

Each ``leak`` case tells a secret the party may not see (a GM fact or another player's) with other words, a
title or a pronoun in place of the names; the party channel's check must report a leak of that record, so the
narration is never posted. Each ``clean`` case tells only the public half of such a fact (or names the same
people doing something else) and must report no leak, so the table is not refused a harmless narration.
"""

from __future__ import annotations

from functools import cache

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import WorldSnapshot, load_world
from tests.corpus.loader import LeakCase, leak_cases, leak_world_path

CASES = leak_cases()


@cache
def _world(world: str) -> WorldSnapshot:
    return load_world(leak_world_path(world))


def test_the_leak_corpus_is_big_and_uses_new_worlds() -> None:
    assert sum(c.expect == "leak" for c in CASES) >= 40
    assert sum(c.expect == "clean" for c in CASES) >= 40
    assert not {c.world for c in CASES} & {"harbour", "crypt", "caravan", "court"}


def _param(c: LeakCase) -> object:
    if c.known_miss:
        return pytest.param(c, id=c.id, marks=pytest.mark.xfail(reason=c.known_miss, strict=True))
    return pytest.param(c, id=c.id)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_paraphrased_leak_case(case: LeakCase) -> None:
    report = check(case.text, _world(case.world), audience="party")
    found = {lk.record for lk in report.leaks}
    if case.expect == "leak":
        assert found & set(case.records), (case.records, report.leaks)
        assert report.verdict == "conflict"
    else:
        assert not found, report.leaks
