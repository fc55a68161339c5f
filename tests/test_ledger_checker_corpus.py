"""Every labelled narration of the checker corpus (tests/corpus), one case each.

A clean narration must come back ``clean``; a planted contradiction or leak must come back ``conflict`` and
name the record it breaks (``refuted_by`` in the corpus file), so a player would see the right reason. A
planted narration must also name no other record (``test_corpus_narration_names_no_wrong_record``) unless the
text has a second, genuine problem (``also_refuted_by``): a right verdict for a wrong reason is a defect too.
"""

from __future__ import annotations

import pytest

from ledger.check.judge import check
from tests.corpus.loader import Narration, narrations, snapshot_for

CORPUS = narrations()


def test_the_corpus_is_big_and_varied() -> None:
    worlds = {n.world for n in CORPUS}
    kinds = {k for n in CORPUS for k in n.kinds}
    assert len(CORPUS) >= 150
    assert len(worlds) >= 4
    assert sum(n.expect == "clean" for n in CORPUS) >= 60
    for kind in (
        "dead_acts",
        "location",
        "holdings",
        "item_gone",
        "quantity",
        "incapacitated_acts",
        "condition",
        "relation",
        "thread",
        "dice_miss_as_hit",
        "dice_wrong_target",
        "dice_survivor_dead",
        "pc_speech",
        "pc_choice",
        "leak",
    ):
        assert kind in kinds, kind


def _param(n: Narration) -> object:
    if n.known_miss:
        return pytest.param(n, id=n.id, marks=pytest.mark.xfail(reason=n.known_miss, strict=True))
    return pytest.param(n, id=n.id)


@pytest.mark.parametrize("case", [_param(n) for n in CORPUS])
def test_corpus_narration(case: Narration) -> None:
    report = check(case.text, snapshot_for(case))
    named = {v.refuted_by for v in report.conflicts()} | {lk.record for lk in report.leaks}
    detail = [(v.claim.label(), v.refuted_by, v.reason) for v in report.conflicts()], report.leaks
    assert report.verdict == case.expect, detail
    for record in case.refuted_by:
        assert record in named, detail


def _reason_param(n: Narration) -> object:
    if n.wrong_reason:
        return pytest.param(n, id=n.id, marks=pytest.mark.xfail(reason=n.wrong_reason, strict=True))
    return pytest.param(n, id=n.id)


@pytest.mark.parametrize(
    "case", [_reason_param(n) for n in CORPUS if n.expect == "conflict" and not n.known_miss]
)
def test_corpus_narration_names_no_wrong_record(case: Narration) -> None:
    report = check(case.text, snapshot_for(case))
    named = {v.refuted_by for v in report.conflicts()} | {lk.record for lk in report.leaks}
    wrong = named - set(case.refuted_by) - set(case.also_refuted_by)
    reasons = [(v.claim.text, v.refuted_by, v.reason) for v in report.conflicts() if v.refuted_by in wrong]
    assert not wrong, reasons
