"""A round's retrieval read once for both its readers (``bot.table.shared_reads``, issue 14): the GM's view
for a check's discoveries and the party's view for the narration are read side by side before the round's
changes, and the party's read is ended after them. The narrator is told exactly what a fresh party read
after the changes gives, and never a record only the GM or one player may see, though the same statements
read those secrets for the discovery. Harbour scenario, real table, offline narrator (a recording one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.narrator.base import Draft, NarrationRequest
from bot.narrator.offline import OfflineNarrator
from bot.scene import load_scene
from bot.table import Table
from ledger import service
from ledger.recall.retrieval import scene_context
from ledger.store import models as m
from ledger.store.visibility import Viewer
from tests.table_helpers import ALICE, BOB, GM, WHERE, RecordingCourier, make_table, seat_everyone

SECRETS = (
    "untaxed dye",  # Bessa's, GM-only
    "bond-room ledger",  # Old Wei's, GM-only
    "sell Greyrock to the watch",  # a GM-only stance between two people of the scene (added below)
    "Mira's old debt",  # a fact only bob's PC knows (added below)
)
STANCE = {
    "kind": "set_edge", "source": "npc-bessa", "target": "pc-greyrock", "edge_kind": "rival",
    "attitude": -60, "reason": "Bessa means to sell Greyrock to the watch", "visibility": "gm",
}  # fmt: skip
OWN = {"kind": "set_fact", "key": "pc-mira-owes", "value": "Mira's old debt", "visibility": "player:1002"}


class FreshReadNarrator:
    """The offline narrator, which first reads the party's scene afresh (the ledger as the narration saw
    it: nothing is written between the narration's read and its narrator) to compare with what it is told."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.told: list[tuple[NarrationRequest, list[tuple[str, str, str]], set[str]]] = []
        self.offline = OfflineNarrator()

    async def narrate(self, request: NarrationRequest) -> Draft:
        assert self.table is not None
        async with self.table.context.session() as s:
            cid = (await s.execute(select(m.Campaign.id))).scalar_one()
            pcs = (await s.execute(select(m.Entity.id).where(m.Entity.kind == "pc"))).scalars().all()
            scene = await load_scene(s, campaign_id=cid, pc_ids=list(pcs))
            fresh = await scene_context(
                s,
                campaign_id=cid,
                location=scene.locations[0] if scene.locations else None,
                present=sorted(scene.creatures),
                viewer=Viewer.party(),
                current_session=request.session,
            )
        allowed = set(Viewer.party().visible() or ())
        shown = {r.visibility for r in fresh.records} - allowed
        self.told.append((request, [(r.ref, r.text, r.why) for r in fresh.records], shown))
        return await self.offline.narrate(request)


async def _rounds(table: Table, narrator: FreshReadNarrator, courier: RecordingCourier, **kw: Any) -> None:
    for n in range(12):  # Insight succeeds within a few rounds for this seed
        await table.submit(WHERE, ALICE, key=f"a{n}", text="read her face", skill="insight", **kw)
        await table.submit(WHERE, BOB, key=f"b{n}", text="look around the room", skill="perception")
        await table.close_round(WHERE, GM)
        if courier.dms and len(narrator.told) >= 2:
            break


async def test_the_narrator_is_told_a_fresh_party_read_and_no_secret_the_discovery_read(
    database_url: str, tmp_path: Path
) -> None:
    courier = RecordingCourier()
    narrator = FreshReadNarrator()
    table = await make_table(database_url, tmp_path, courier=courier)
    table.context.narrator = narrator  # type: ignore[assignment]
    narrator.table = table
    try:
        await seat_everyone(table, (ALICE, BOB))
        async with table.context.session() as s:
            cid = (await s.execute(select(m.Campaign.id))).scalar_one()
            await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=None, cause="gm", mutations=[STANCE, OWN]
            )
        await _rounds(table, narrator, courier, target="npc-bessa")
        assert courier.dms, "a successful check DMs its player"
        async with table.context.session() as s:  # the GM's read found a secret, and filed it as learned
            learned = (await s.execute(select(m.Fact.key).where(m.Fact.key.contains("-learned-")))).all()
        assert learned
        assert narrator.told
        for request, fresh, hidden in narrator.told:
            told = [(r.ref, r.text, r.why) for r in request.records]
            assert told == fresh  # exactly the party's read after the round's changes
            assert not hidden
            assert not any(secret in text for _ref, text, _why in told for secret in SECRETS)
    finally:
        await table.aclose()


async def test_a_secret_once_learned_is_not_discovered_again(sqlite_url: str, tmp_path: Path) -> None:
    """Seen in the evening: Sister Tamsin's Insight "caught" Old Wei's same fear in rounds 4 and 8, told as
    new. A checker's next success turns up the next secret, or what she notices; never the same one."""
    courier = RecordingCourier()
    table = await make_table(sqlite_url, tmp_path, courier=courier)
    try:
        await seat_everyone(table, (ALICE,))
        async with table.context.session() as s:
            cid = (await s.execute(select(m.Campaign.id))).scalar_one()
            await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=None, cause="gm", mutations=[STANCE]
            )
        for n in range(30):
            await table.submit(
                WHERE, ALICE, key=f"a{n}", text="read her face", skill="insight", target="npc-bessa"
            )
            await table.close_round(WHERE, GM)
            if len(courier.dms) >= 3:
                break
        assert len(courier.dms) >= 3, "Insight succeeds three times within 30 rounds for this seed"
        told = [text for _user, text in courier.dms]
        for secret in SECRETS[:3]:
            assert sum(secret in text for text in told) <= 1, (secret, told)
        async with table.context.session() as s:
            learned = (
                (await s.execute(select(m.Fact.key).where(m.Fact.key.contains("-learned-")))).scalars().all()
            )
        assert len(learned) == len(set(learned)) >= 2, learned
    finally:
        await table.aclose()


async def test_a_look_around_turns_up_the_place_not_a_mind(sqlite_url: str, tmp_path: Path) -> None:
    """Seen in the evening: "look around the docks for trouble" (Perception, no target) turned up Old Wei's
    private fear. A check aimed at nobody finds what is hidden in the world (the dye in Bessa's cellar), not a
    mind (a fear, a stance); aimed at Bessa, her mind can be read."""
    fear = {"kind": "set_fact", "key": "npc-bessa-fear", "value": "Bessa fears the watch", "visibility": "gm"}
    courier = RecordingCourier()
    table = await make_table(sqlite_url, tmp_path, courier=courier)
    try:
        await seat_everyone(table, (BOB,))
        async with table.context.session() as s:
            cid = (await s.execute(select(m.Campaign.id))).scalar_one()
            await service.apply_changes(
                s, campaign_id=cid, session_number=1, round_number=None, cause="gm", mutations=[STANCE, fear]
            )

        async def learned() -> list[str]:
            async with table.context.session() as s:
                rows = await s.execute(select(m.Fact.key).where(m.Fact.key.contains("-learned-")))
                return list(rows.scalars().all())

        for n in range(20):
            await table.submit(WHERE, BOB, key=f"b{n}", text="look around the room", skill="perception")
            await table.close_round(WHERE, GM)
        found = await learned()
        assert "pc-mira-learned-npc-bessa-cellar" in found, found  # hidden in the world: found
        assert not [k for k in found if k.endswith("-fear") or "-learned-edge-" in k], found
        for n in range(30):  # aimed at Bessa, her mind can be read
            await table.submit(
                WHERE, BOB, key=f"t{n}", text="look her over", skill="perception", target="npc-bessa"
            )
            await table.close_round(WHERE, GM)
            if "pc-mira-learned-npc-bessa-fear" in await learned():
                break
        assert "pc-mira-learned-npc-bessa-fear" in await learned()
    finally:
        await table.aclose()
