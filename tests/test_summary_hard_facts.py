"""A summary carries the hard facts of the events it covers (deaths, hand-overs, thread changes).

The summary queue judges what a summary states from the payloads of the events it covers, which the ledger
stores as plain dicts (``change.model_dump``); :func:`hard_facts_from_changes` once read only attributes, so
every queued summary was indexed stating nothing, Voss's death included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import select

from ledger.recall.hard_facts import Death, ThreadChange, Transfer, hard_facts_from_changes
from ledger.store import models as m
from ledger.store.vocabulary import parse_mutations
from tests.table_helpers import GM, HARBOR, WHERE, make_table

CHANGES: list[dict[str, Any]] = [
    {"kind": "set_alive", "entity": "npc-voss", "alive": False},
    {"kind": "set_alive", "entity": "npc-bessa", "alive": True},
    {"kind": "transfer_item", "item": "item-signet", "from_holder": "npc-voss", "to_holder": "pc-greyrock"},
    {"kind": "transfer_item", "item": "item-gold", "from_holder": "pc-greyrock", "quantity": 30},
    {"kind": "thread_transition", "thread": "quest-0002-01", "status": "broken", "reason": "Voss died"},
    {"kind": "move_entity", "entity": "pc-mira", "location": "loc-docks"},
    {
        "kind": "retcon",
        "target": "ev-000012",
        "reason": "the dagger was never sold",
        "changes": [{"kind": "transfer_item", "item": "item-dagger", "to_holder": "pc-mira"}],
    },
]
FACTS = (
    Death(entity="npc-voss"),
    Transfer(item="item-signet", from_holder="npc-voss", to_holder="pc-greyrock"),
    Transfer(item="item-gold", from_holder="pc-greyrock", quantity=30),
    ThreadChange(thread="quest-0002-01", status="broken"),
    Transfer(item="item-dagger", to_holder="pc-mira"),
)


def test_event_payloads_state_the_same_hard_facts_as_the_changes_they_were_written_from() -> None:
    changes = parse_mutations(CHANGES)
    payloads = [change.model_dump(mode="json") for change in changes]  # what the ledger stores per event
    assert hard_facts_from_changes(changes) == FACTS
    assert hard_facts_from_changes(payloads) == FACTS


async def test_a_started_campaign_indexes_each_summary_with_the_hard_facts_of_its_events(
    database_url: str, tmp_path: Path
) -> None:
    table = await make_table(database_url, tmp_path)
    try:
        view = await table.start_campaign_from_file(WHERE, GM, path=HARBOR)
        index = table.summaries
        assert index is not None
        async with table.context.session() as s:
            events = (await s.exec(select(m.Event).where(m.Event.campaign_id == view.id))).all()
            summaries = (await s.exec(select(m.Summary).where(m.Summary.campaign_id == view.id))).all()
        payloads = {e.ref: dict(e.payload or {}) for e in events}
        assert {r.index_state for r in summaries} == {"indexed"}

        # What Chroma holds for each summary (the index has no public read of its metadata).
        stored = index._collection(f"campaign-{view.id}").get(include=["metadatas"])
        held = {
            doc_id: {json.dumps(f, sort_keys=True) for f in json.loads(str(meta["hard_facts"]))}
            for doc_id, meta in zip(stored["ids"], stored["metadatas"] or [], strict=True)
        }
        stating = 0
        for row in summaries:
            wanted = hard_facts_from_changes(payloads[ref] for ref in row.event_ids if ref in payloads)
            expected = {json.dumps(f.model_dump(), sort_keys=True) for f in wanted}
            assert held[f"summary-{row.id}"] == expected, row.text
            stating += bool(expected)
        assert stating >= 3  # harbour's history kills Voss, hands over his signet, breaks a quest ...
        voss = json.dumps(Death(entity="npc-harlan-voss").model_dump(), sort_keys=True)
        signet = Transfer(item="item-voss-signet", from_holder="npc-harlan-voss", to_holder="pc-greyrock")
        assert any(voss in facts and json.dumps(signet.model_dump(), sort_keys=True) in facts
                   for facts in held.values())  # fmt: skip
    finally:
        await table.aclose()
