"""The local summary index keeps a bounded number of campaigns' vector indexes in memory (issue 14).

With ``resident_collections`` smaller than the campaigns in use, Chroma evicts the least recently used
campaign's index and loads it from disk on its next use; every summary must still be found afterwards,
including those added one at a time after the campaign was first indexed (an index evicted before Chroma
wrote it to disk could not be loaded at all, and one evicted with newer records answered without them).
"""

from __future__ import annotations

import random
from pathlib import Path

import chromadb
from chromadb.config import Settings

from ledger.recall.chroma_local import persistent_client, resident_indexes, write_through
from ledger.recall.summaries import SummaryDoc, SummaryIndex

PLACES = ["harbour", "customs house", "lighthouse", "chapel", "market", "tannery", "watchtower", "mill"]
PEOPLE = ["Voss", "Bessa", "Mira", "Greyrock", "Brine", "Harlan", "Odo", "Tamsin"]


def _doc(campaign: int, n: int) -> SummaryDoc:
    place, person = PLACES[(campaign + n) % len(PLACES)], PEOPLE[(campaign * 3 + n) % len(PEOPLE)]
    return SummaryDoc(
        id=f"s-{n}",
        session=n,
        scope="session",
        text=f"Campaign {campaign}, session {n}: {person} met the party at the {place} (c{campaign}n{n}).",
    )


def test_campaigns_evicted_from_memory_are_loaded_again_with_every_summary(tmp_path: Path) -> None:
    index = SummaryIndex.local(tmp_path / "chroma", resident_collections=2)
    campaigns = 16
    held: dict[int, int] = {c: 0 for c in range(campaigns)}
    rng = random.Random(5)
    for c in range(campaigns):  # each campaign starts with a few summaries in one upsert
        index.add_many_now(f"campaign-{c}", [_doc(c, n) for n in range(3)])
        held[c] = 3
    for _round in range(4):  # then play moves between them: a query, then one more summary, one at a time
        for c in rng.sample(range(campaigns), campaigns):
            assert index.count_now(f"campaign-{c}") == held[c]
            wanted = _doc(c, held[c] - 1)
            hits = index.query_now(campaign=f"campaign-{c}", text=wanted.text, visibilities=None, n=5)
            assert hits and hits[0].text == wanted.text  # the newest summary, found after any eviction
            assert {h.text for h in hits} <= {_doc(c, n).text for n in range(held[c])}  # its own campaign
            index.add_many_now(f"campaign-{c}", [_doc(c, held[c])])
            held[c] += 1
    client = index._client
    assert client is not None and resident_indexes(client) == 2  # the bound reached Chroma's core

    first = _doc(0, 0)
    hits = index.query_now(campaign="campaign-0", text=first.text, visibilities=None, n=5)
    assert hits[0].text == first.text and len(hits) == 5


def test_a_folder_already_open_keeps_its_core_and_an_old_collection_is_made_to_write_through(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "chroma"
    old = chromadb.PersistentClient(path=str(folder), settings=Settings(anonymized_telemetry=False))
    made = old.get_or_create_collection("tk-old", embedding_function=None, configuration={"hnsw": {}})
    assert (made.configuration_json.get("hnsw") or {}).get("sync_threshold") == 1000  # Chroma's default
    again = persistent_client(folder, resident=3)  # one core per folder: the open one, with its bound
    assert resident_indexes(again) == resident_indexes(old) != 3
    changed = write_through(again.get_collection("tk-old"))
    assert (changed.configuration_json.get("hnsw") or {}).get("sync_threshold") == 1
    assert (again.get_collection("tk-old").configuration_json.get("hnsw") or {}).get("sync_threshold") == 1
