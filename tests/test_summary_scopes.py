"""The summary index asks Chroma by id once it knows each summary's scope: same answers, no leak when stale.

A live table queries the same campaign again and again; from the second query (or straight after
``sync_now``) the index keeps a map of each summary's visibility and entities and asks Chroma for the nearest
among the allowed ids, which costs a fraction of a metadata filter. These tests hold that path to the
filtered one: the same hits in the same order, scene summaries first, and nothing a viewer may not see even
when another process changed the collection behind the map's back.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ledger.recall.summaries import SCOPE_AFTER_QUERIES, SummaryDoc, SummaryHit, SummaryIndex

CAMPAIGN = "scopes"
PEOPLE = ("npc-wei", "npc-mira", "npc-orrin", "npc-bessa", "pc-ash")
PLACES = ("loc-harbour", "loc-market", "loc-gull")
VISIBILITIES = ("public", "public", "party", "gm", "player:ash", "player:bo")


WORDS = ("salt", "debt", "rope", "harbour", "tide", "coin", "oath", "gull", "crate", "ale", "knife", "map")


def _docs(count: int = 60) -> list[SummaryDoc]:
    """Summaries spread over people, places and visibilities, deterministic; texts of different words and
    lengths, so no two lie at the same distance from a question (a tie may be broken either way)."""
    rng = random.Random(5)
    docs = []
    for i in range(count):
        who = PEOPLE[i % len(PEOPLE)]
        where = PLACES[(i // 2) % len(PLACES)]
        words = " ".join(rng.sample(WORDS, rng.randint(2, 7)))
        docs.append(
            SummaryDoc(
                id=f"summary-{i}",
                session=1 + i // 6,
                scope="scene",
                text=f"{who} at {where}: {words}, turn {i}",
                visibility=VISIBILITIES[i % len(VISIBILITIES)],
                entities=(who, where),
            )
        )
    return docs


def _ask(index: SummaryIndex, **kw: object) -> tuple[SummaryHit, ...]:
    return index.query_now(campaign=CAMPAIGN, text="salt debt at the harbour", **kw)  # type: ignore[arg-type]


VIEWS: list[dict[str, object]] = [
    {"visibilities": ("public", "party"), "entities": ("npc-wei", "loc-harbour")},
    {"visibilities": ("public", "party", "player:ash"), "entities": ("pc-ash",)},
    {"visibilities": None, "entities": ("npc-orrin", "loc-gull")},
    {"visibilities": ("public",), "entities": ()},
    {"visibilities": ("public", "party"), "entities": ("npc-nobody",)},
    {"visibilities": ("public", "party", "player:bo"), "entities": ("npc-bessa",), "n": 3},
]


@pytest.mark.parametrize("view", VIEWS)
def test_by_id_answers_as_the_filter_does(tmp_path: Path, view: dict[str, object]) -> None:
    synced = SummaryIndex.local(tmp_path / "chroma")
    synced.sync_now(CAMPAIGN, _docs())  # knows every scope: asks by id from the first query
    fresh = SummaryIndex.local(tmp_path / "chroma")  # knows nothing yet: its first query filters
    filtered = _ask(fresh, **view)
    by_id = _ask(synced, **view)
    assert [h.id for h in by_id] == [h.id for h in filtered]
    assert by_id  # every view above has something to find
    allowed = view["visibilities"]
    assert allowed is None or all(h.visibility in allowed for h in by_id)  # type: ignore[operator]
    scene = set(view["entities"])  # type: ignore[arg-type]
    about = [bool(scene & set(h.entities)) for h in by_id]
    assert about == sorted(about, reverse=True)  # the scene's summaries first


def test_the_map_is_read_on_the_second_query_of_a_campaign(tmp_path: Path) -> None:
    SummaryIndex.local(tmp_path / "chroma").sync_now(CAMPAIGN, _docs())
    index = SummaryIndex.local(tmp_path / "chroma")
    view = VIEWS[0]
    first = _ask(index, **view)
    assert CAMPAIGN not in index._scopes  # a one-shot caller never reads the whole collection
    for _ in range(SCOPE_AFTER_QUERIES - 1):
        again = _ask(index, **view)
    assert len(index._scopes[CAMPAIGN]) == 60
    assert [h.id for h in again] == [h.id for h in first]


def test_a_summary_made_private_elsewhere_does_not_leak(tmp_path: Path) -> None:
    index = SummaryIndex.local(tmp_path / "chroma")
    docs = _docs()
    index.sync_now(CAMPAIGN, docs)
    view = {"visibilities": ("public", "party"), "entities": ("npc-wei", "loc-harbour")}
    top = _ask(index, **view)[0]
    # Another process (a second bot on the same Chroma server) makes that summary private to a player.
    other = SummaryIndex.local(tmp_path / "chroma")
    changed = next(d for d in docs if d.id == top.id).model_copy(update={"visibility": "player:bo"})
    other.add_now(campaign=CAMPAIGN, summary_id=changed.id, **changed.model_dump(exclude={"id"}))
    hits = _ask(index, **view)  # the map still says public
    assert top.id not in [h.id for h in hits]
    assert all(h.visibility in ("public", "party") for h in hits)


def test_a_summary_deleted_or_added_elsewhere_is_noticed(tmp_path: Path) -> None:
    index = SummaryIndex.local(tmp_path / "chroma")
    docs = _docs()
    index.sync_now(CAMPAIGN, docs)
    other = SummaryIndex.local(tmp_path / "chroma")
    other.sync_now(CAMPAIGN, docs[1:])  # summary-0 is gone: asking for its id would fail in Chroma
    view = {"visibilities": None, "entities": ("npc-wei",)}
    hits = _ask(index, **view)
    assert hits and "summary-0" not in [h.id for h in hits]
    newest = SummaryDoc(
        id="summary-new",
        session=20,
        scope="scene",
        text="npc-wei swears the salt debt at the harbour is paid",
        entities=("npc-wei", "loc-harbour"),
    )
    other.add_now(campaign=CAMPAIGN, summary_id=newest.id, **newest.model_dump(exclude={"id"}))
    assert "summary-new" in [h.id for h in _ask(index, **view)]  # the count changed: the map is read again


def test_many_added_at_once_are_found_and_kept_in_the_map(tmp_path: Path) -> None:
    index = SummaryIndex.local(tmp_path / "chroma")
    docs = _docs()
    index.sync_now(CAMPAIGN, docs[:30])
    index.add_many_now(CAMPAIGN, docs[30:])
    assert index.count_now(CAMPAIGN) == 60 and len(index._scopes[CAMPAIGN]) == 60
    view = {"visibilities": ("public", "party", "player:bo"), "entities": ("npc-bessa",)}
    fresh = SummaryIndex.local(tmp_path / "chroma")
    assert [h.id for h in _ask(index, **view)] == [h.id for h in _ask(fresh, **view)]


@pytest.mark.parametrize("view", VIEWS)
def test_the_exact_search_in_memory_answers_as_the_index(tmp_path: Path, view: dict[str, object]) -> None:
    from ledger.recall.exact_summaries import ExactSummaries

    docs = _docs()
    index = SummaryIndex.local(tmp_path / "chroma")
    index.sync_now(CAMPAIGN, docs)
    by_index = _ask(index, **view)
    exact = ExactSummaries(docs).query_now(text="salt debt at the harbour", **view)  # type: ignore[arg-type]
    assert [round(h.distance, 5) for h in exact] == [round(h.distance, 5) for h in by_index]
    # The same summaries, except where two lie at the same distance (Chroma breaks such ties either way).
    tied = {
        round(h.distance, 5)
        for h in exact
        if [round(x.distance, 5) for x in exact].count(round(h.distance, 5)) > 1
    }
    tied |= {round(by_index[-1].distance, 5)} if by_index else set()  # the cut may fall inside a tie
    for a, b in zip(exact, by_index, strict=True):
        if round(a.distance, 5) not in tied:
            assert a.model_dump(exclude={"distance"}) == b.model_dump(exclude={"distance"})
    scene = set(view["entities"])  # type: ignore[arg-type]
    assert [bool(scene & set(h.entities)) for h in exact] == [bool(scene & set(h.entities)) for h in by_index]


def test_recall_on_a_file_it_just_loaded_does_not_import_chroma(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    code = (
        "import sys; from bot.cli import main; "
        f"rc = main(['recall', '--scenario', {str(root / 'scenarios' / 'harbor.toml')!r}, '--at', 'harbour', "
        f"'--present', 'old wei', '--json', '--cache', {str(tmp_path / 'cache')!r}]); "
        "print('chromadb' in sys.modules, rc)"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert first.stdout.strip().splitlines()[-1] == "False 0"
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert again.stdout.strip().splitlines()[-1] == "True 0"  # the next call builds and keeps the index
    assert (tmp_path / "cache" / "recall").is_dir()
    (entry,) = (tmp_path / "cache" / "recall").iterdir()
    assert SummaryIndex.local(entry / "chroma").count_now(str(_campaign_id(entry))) > 0


def _campaign_id(entry: Path) -> int:
    import json

    return int(json.loads((entry / "ready.json").read_text(encoding="utf-8"))["campaign_id"])
