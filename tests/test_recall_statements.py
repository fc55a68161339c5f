"""Scene retrieval reads a scene in three statements (issue 14), on the small campaign of
:mod:`tests.test_recall_graph`: the people's edges and deaths, the scene's facts, threads and holdings, then
its events with their links and the names. When the first read mispredicts who is dead, the threads and
holdings are read again and the scene comes out as it would have.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, update

from ledger.recall.retrieval import SceneContext, scene_context
from ledger.store import models as m
from ledger.store.db import ledger_session
from ledger.store.visibility import Viewer
from tests.test_recall_graph import NOW, PCS, cid, engine  # noqa: F401  (the campaign fixtures)


@contextmanager
def _reads(eng: Any) -> Iterator[list[str]]:
    """The SELECT statements run on ``eng`` inside the block (transaction control not counted)."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append(statement)

    event.listen(eng.sync_engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(eng.sync_engine, "before_cursor_execute", count)


async def _scene(eng: Any, campaign: int, present: list[str], location: str, viewer: Viewer) -> SceneContext:
    async with ledger_session(eng) as s:
        return await scene_context(
            s, campaign_id=campaign, location=location, present=present, viewer=viewer, current_session=NOW
        )


@pytest.mark.parametrize(
    ("present", "location"),
    [
        (["npc-marta"], "loc-mill"),  # a dead sister one hop away
        (["npc-marta", *PCS], "loc-mill"),
        (["npc-ilse", "npc-marta"], "loc-mill"),  # a dead woman named present
        (["npc-bo", *PCS], "loc-quay"),  # a settled debt told by its settlement
        (["npc-cal", "npc-dee", *PCS], "loc-quay"),
        ([], "loc-quay"),
    ],
)
@pytest.mark.parametrize("viewer", [Viewer.party(), Viewer.gm(), Viewer.player("alice")])
async def test_a_scene_is_read_in_three_statements(
    engine: Any,  # noqa: F811
    cid: int,  # noqa: F811
    present: list[str],
    location: str,
    viewer: Viewer,
) -> None:
    with _reads(engine) as seen:
        ctx = await _scene(engine, cid, present, location, viewer)
    assert ctx.records
    assert len(seen) <= 3, seen


async def test_a_mispredicted_death_reads_threads_and_holdings_again_and_changes_nothing(
    engine: Any,  # noqa: F811
    cid: int,  # noqa: F811
) -> None:
    present = ["npc-bo", *PCS]
    before = await _scene(engine, cid, present, "loc-quay", Viewer.party())
    # Bo's ``alive`` fact now reads "false" as text while its value is still true: the first statement
    # (which reads deaths by the indexed text) takes him for dead; the facts say otherwise.
    fact = m.Fact.__table__  # type: ignore[attr-defined]
    async with engine.begin() as conn:
        await conn.execute(
            update(fact)
            .where(fact.c.campaign_id == cid, fact.c.key == "npc-bo-alive")
            .values(value_text="false")
        )
    with _reads(engine) as seen:
        after = await _scene(engine, cid, present, "loc-quay", Viewer.party())
    assert len(seen) == 4, seen  # the threads and holdings were read again, for Bo alive
    assert "npc-bo" in after.present and not after.dead
    assert after == before
