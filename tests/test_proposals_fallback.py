"""Proposals of a narration that fell back to the offline narrator are refused with that reason, not lost.

The real openai SDK over HTTP to the scripted server: the model's draft (carrying proposals) contradicts the
ledger, and so does its rewrite, so the offline narration is posted. Its proposals are kept as refused
("the narration fell back to the offline narrator"), listed by ``/gm proposals``, told to the GM in the
round's private note, and nothing of them lands in the world.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from bot.narrator.proposals import FELL_BACK
from ledger import service
from ledger.store.visibility import Viewer
from tests.fake_llm import FakeLLM, FakeReply
from tests.table_helpers import ALICE, BOB, GM, WHERE, RecordingCourier, seat_everyone
from tests.test_proposals import ITEM, NPC, _campaign_id, _table

#: Harlan Voss is dead in the harbour campaign: a draft saying he buys a round contradicts the ledger.
CONTRADICTION = "Harlan Voss buys the whole room a round of ale and laughs by the hearth."


def _reply(text: str, *proposals: dict[str, Any]) -> FakeReply:
    return FakeReply(
        content=json.dumps({"public_text": text, "private_notes": [], "proposals": list(proposals)})
    )


async def test_a_fallen_back_rounds_proposals_are_refused_with_the_reason(
    database_url: str, tmp_path: Path, fake_llm: FakeLLM
) -> None:
    courier = RecordingCourier()
    table = await _table(database_url, tmp_path, fake_llm, courier)
    try:
        await seat_everyone(table, (ALICE, BOB))
        fake_llm.script(
            _reply(CONTRADICTION, NPC, ITEM, {"kind": "npc", "hp": 3}),
            _reply(CONTRADICTION, NPC, ITEM, {"kind": "npc", "hp": 3}),
        )
        await table.submit(WHERE, ALICE, key=f"a{random.random()}", text="wait by the door")
        await table.submit(WHERE, BOB, key=f"b{random.random()}", text="wait by the door")
        await table.close_round(WHERE, GM)
        assert fake_llm.pending == 0  # the draft and its rewrite were both asked for
        posted = [text for _guild, _channel, text in courier.public]
        assert posted and not [t for t in posted if "Harlan Voss buys" in t]  # the offline narration went out
        views = await table.gm_proposals(WHERE, GM)
        by_reason = {p.reason for p in views}
        assert len(views) == 3 and all(p.status == "refused" and p.refs == () for p in views)
        fell_back = [p for p in views if p.reason == FELL_BACK]
        assert {p.kind for p in fell_back} == {"npc", "item"}
        assert any("Tam Reed" in p.what for p in fell_back)
        # the one refused at parsing keeps its own reason
        assert any(r != FELL_BACK for r in by_reason)
        notes = "\n".join(text for user, text in courier.dms if user == GM.user_id)
        assert "refused" in notes and FELL_BACK in notes and "landed" not in notes
        cid = await _campaign_id(table)
        async with table.context.session() as s:
            found = await service.find_records(s, campaign_id=cid, text="Tam Reed", viewer=Viewer.gm())
        assert found == []
    finally:
        await table.aclose()
