"""The relationship-kind vocabulary: which edge kinds are kinship, alliance, employment, membership, enmity or
an obligation, and which ones recall walks one hop along."""

from __future__ import annotations

import pytest

from ledger.store.ties import is_standing, kinship_term, reaches, tie_kind


@pytest.mark.parametrize(
    ("edge_kind", "expected"),
    [
        ("kin", "kinship"),
        ("sister", "kinship"),
        ("father", "kinship"),
        ("aunt", "kinship"),
        ("great-aunt", "kinship"),
        ("half-brother", "kinship"),
        ("step_mother", "kinship"),
        ("Mother-In-Law", "kinship"),
        ("ally", "alliance"),
        ("sworn-ally", "alliance"),
        ("sworn-brother", "alliance"),
        ("brother-in-arms", "alliance"),
        ("friend", "alliance"),
        ("employer", "employment"),
        ("works-for", "employment"),
        ("member", "membership"),
        ("faction-leader", "membership"),
        ("enemy", "enmity"),
        ("sworn-enemy", "enmity"),
        ("rival", "enmity"),
        ("feud", "enmity"),
        ("owes-favour", "obligation"),
        ("blood-debt", "obligation"),
        ("trade-partner", None),
        ("suspects", None),
        ("", None),
    ],
)
def test_tie_kind_reads_the_words_of_the_edge_kind(edge_kind: str, expected: str | None) -> None:
    assert tie_kind(edge_kind) == expected


def test_recall_walks_kin_allies_employers_and_factions_but_not_feuds_or_strangers() -> None:
    assert all(reaches(k) for k in ("sister", "sworn-ally", "employer", "member", "nephew"))
    assert not any(reaches(k) for k in ("enemy", "owes-favour", "trade-partner", "suspects"))
    assert is_standing("enemy") and is_standing("owes-favour")
    assert not is_standing("sister") and not is_standing("trade-partner")


def test_kinship_term_names_the_relation_itself() -> None:
    assert kinship_term("mother-in-law") == "mother"
    assert kinship_term("great-aunt") == "aunt"
    assert kinship_term("half-sister") == "sister"
    assert kinship_term("kin") == "kin"
    assert kinship_term("ally") is None and kinship_term("brother-in-arms") is None
