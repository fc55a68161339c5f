"""The ranking rules on hand-made candidates: open matters of the NPCs present first, a dead party's matters
through their kin, settled matters below open ones but never aged out, a PC's own matters by quota, the last
notable events between those present over newer small talk."""

from __future__ import annotations

from typing import Any

from ledger.recall.candidates import Candidate
from ledger.recall.ranking import (
    BANDS,
    BETWEEN_MAX,
    PC_MATTERS,
    PC_MATTERS_ALONE,
    Placement,
    Scene,
    Tie,
    rank,
    split_present,
)

NOW = 60


def _scene(
    present: list[str], location: str | None = "loc-quay", ties: dict[str, Tie] | None = None
) -> Scene:
    npcs, pcs = split_present(present)
    return Scene(npcs, pcs, location, NOW, ties or {})


def _thread(
    tid: str, parties: list[str], *, status: str = "open", opened: int = 1, closed: int = 0
) -> Candidate:
    kind = tid.split("-", 1)[0]
    return Candidate(
        ref=tid,
        kind="thread",
        session=opened if status == "open" else closed,
        visibility="public",
        involved=set(parties),
        label=kind,
        render=lambda names: tid,
        subject=(tid,),
        thread_kind=kind,
        status=status,
        opened=opened,
        parties=tuple(parties),
    )


def _narrative(ref: str, kind: str, participants: list[str], session: int, **kw: Any) -> Candidate:
    return Candidate(
        ref=ref,
        kind="event",
        session=session,
        visibility="public",
        involved=set(participants) | {"loc-quay"},
        importance=4,
        label=kind,
        render=lambda names: ref,
        moment=(session, None, "test", 4, False),
        change="record_event",
        narrative=kind,
        participants=tuple(participants),
        **kw,
    )


def _edge(source: str, target: str, kind: str, since: int = 1) -> Candidate:
    return Candidate(
        ref=f"{source}>{target}:{kind}",
        kind="edge",
        session=since,
        visibility="public",
        involved={source, target},
        label=kind,
        render=lambda names: kind,
        source=source,
        target=target,
    )


def _order(placed: list[Placement]) -> list[str]:
    return [p.candidate.ref for p in placed]


def _by_ref(placed: list[Placement]) -> dict[str, Placement]:
    return {p.candidate.ref: p for p in placed}


def test_the_npcs_oldest_obligation_is_never_cut_and_ranks_first_among_its_matters() -> None:
    # An NPC with 25 open threads, the PCs with dozens: every one of the NPC's matters outranks every PC's.
    npc_threads = [_thread(f"debt-{i:04d}-01", ["npc-wei", "pc-ash"], opened=i) for i in range(1, 26)]
    pc_threads = [_thread(f"favour-{i:04d}-02", ["npc-far", "pc-bly"], opened=i) for i in range(1, 40)]
    placed = rank([*pc_threads, *npc_threads], _scene(["npc-wei", "pc-ash", "pc-bly"]))
    order = _order(placed)
    assert order[0] == "debt-0001-01"  # the oldest unpaid
    assert order[:25] == [t.ref for t in npc_threads]
    party = [p for p in placed if p.band == "party"]
    assert [p.candidate.ref for p in party] == [f"favour-{i:04d}-02" for i in range(1, PC_MATTERS + 1)]


def test_a_pcs_own_matters_come_by_quota_more_when_no_npc_is_here() -> None:
    pc_threads = [_thread(f"oath-{i:04d}-01", ["npc-far", "pc-ash"], opened=i) for i in range(1, 12)]
    alone = rank(pc_threads, _scene(["pc-ash"]))
    assert len(alone) == PC_MATTERS_ALONE and all(p.band == "party" for p in alone)
    with_npc = rank(pc_threads, _scene(["pc-ash", "npc-wei"]))
    assert len(with_npc) == PC_MATTERS


def test_a_broken_oath_does_not_outrank_an_open_quest() -> None:
    quest = _thread("quest-0030-01", ["npc-wei", "pc-ash"], opened=30)
    broken = _thread("oath-0002-01", ["npc-wei", "pc-ash"], status="broken", opened=2, closed=5)
    placed = _by_ref(rank([broken, quest], _scene(["npc-wei", "pc-ash"])))
    assert placed["quest-0030-01"].band == "matter" and placed["oath-0002-01"].band == "closed"
    assert placed["quest-0030-01"].score > placed["oath-0002-01"].score


def test_a_settled_matter_stays_above_trivia_and_below_open_ones_however_old() -> None:
    scene = _scene(["npc-wei"])
    open_ = _thread("favour-0040-01", ["npc-wei", "pc-ash"], opened=40)
    settled = _thread("debt-0001-01", ["npc-wei", "pc-ash"], status="settled", opened=1, closed=3)
    talk = _narrative("ev-000900", "talk", ["npc-wei", "npc-bo"], NOW)
    placed = _by_ref(rank([open_, settled, talk], scene))
    assert placed["favour-0040-01"].score > placed["debt-0001-01"].score > placed["ev-000900"].score
    later = _by_ref(rank([settled], Scene(scene.npcs, scene.pcs, scene.location, NOW + 500)))
    assert later["debt-0001-01"].band == "closed"
    assert later["debt-0001-01"].score >= BANDS["closed"]


def test_a_dead_partys_open_matter_is_reached_through_their_sister() -> None:
    tie = Tie("npc-ilse", via="npc-marta", edge_kind="sister", tie="kinship", dead=True)
    scene = _scene(["npc-marta", "pc-ash"], ties={"npc-ilse": tie})
    inherited = _thread("favour-0003-01", ["npc-ilse", "pc-ash"], opened=3)
    death = Candidate(
        ref="npc-ilse-alive", kind="fact", session=20, visibility="public", involved={"npc-ilse"},
        label="death", render=lambda names: "dead", death=True,
    )  # fmt: skip
    own_pc = [_thread(f"oath-{i:04d}-01", ["npc-far", "pc-ash"], opened=i) for i in range(1, 6)]
    placed = _by_ref(rank([inherited, death, *own_pc], scene))
    assert placed["favour-0003-01"].band == "matter" and placed["favour-0003-01"].through == tie
    assert placed["npc-ilse-alive"].band == "closed"
    assert all(placed["favour-0003-01"].score > p.score for p in placed.values() if p.band == "party")


def test_a_living_ties_matter_is_related_not_a_matter_of_the_scene() -> None:
    tie = Tie("npc-ilse", via="npc-marta", edge_kind="sister", tie="kinship")
    placed = _by_ref(
        rank(
            [_thread("debt-0003-01", ["npc-ilse", "npc-far"])], _scene(["npc-marta"], ties={"npc-ilse": tie})
        )
    )
    assert placed["debt-0003-01"].band == "related"


def test_the_last_notable_event_between_those_present_beats_newer_small_talk() -> None:
    scene = _scene(["npc-a", "npc-b", "pc-ash"])
    bargain = _narrative("ev-000100", "bargain", ["npc-a", "npc-b"], 10)
    warning = _narrative("ev-000200", "warning", ["npc-a", "npc-b"], 30)
    insult_elsewhere = _narrative("ev-000250", "insult", ["npc-a", "npc-far"], 40)
    talk = [_narrative(f"ev-0003{i:02d}", "talk", ["npc-a", "npc-b"], NOW - i) for i in range(20)]
    pc_threads = [_thread(f"oath-{i:04d}-01", ["npc-far", "pc-ash"], opened=i) for i in range(1, 6)]
    placed = rank([bargain, warning, insult_elsewhere, *talk, *pc_threads], scene)
    order = _order(placed)
    assert order.index("ev-000200") < order.index("ev-000100")  # the last notable thing first
    by = _by_ref(placed)
    assert by["ev-000200"].band == "between" and by["ev-000250"].band == "notable"
    assert all(by["ev-000100"].score > by[t.ref].score for t in talk)
    assert all(by["ev-000100"].score > p.score for p in placed if p.band == "party")
    # Small talk fades with age; a notable event keeps its band.
    assert by["ev-000300"].score > by["ev-000319"].score


def test_only_the_last_few_notable_events_between_them_keep_their_band() -> None:
    events = [_narrative(f"ev-{i:06d}", "gift", ["npc-a", "pc-ash"], i) for i in range(1, 12)]
    placed = rank(events, _scene(["npc-a", "pc-ash"]))
    between = [p.candidate.ref for p in placed if p.band == "between"]
    assert between == [f"ev-{i:06d}" for i in range(11, 11 - BETWEEN_MAX, -1)]
    assert all(p.band == "notable" for p in placed[BETWEEN_MAX:])


def test_a_feud_recorded_both_ways_is_one_matter() -> None:
    both = [_edge("npc-a", "pc-ash", "enemy", 7), _edge("pc-ash", "npc-a", "enemy", 7)]
    kin = [_edge("npc-a", "npc-b", "sister"), _edge("npc-b", "npc-a", "brother")]
    placed = rank([*both, *kin], _scene(["npc-a", "npc-b", "pc-ash"]))
    assert _order(placed) == ["npc-a>pc-ash:enemy", "npc-a>npc-b:sister"]
    assert placed[0].band == "matter" and placed[1].band == "state"
