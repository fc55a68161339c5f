"""A summary is an index and the ledger the authority: the hard facts a summary states must be on record."""

from __future__ import annotations

from pathlib import Path

from ledger.recall.summaries import Death, ThreadChange, Transfer
from ledger.scenario.load import load_scenario_file
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.sessions import missing_hard_facts

HARBOR = Path(__file__).resolve().parents[1] / "scenarios" / "harbor.toml"


async def test_ledger_hard_facts_of_a_summary_are_checked_against_the_record(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await init_db(engine)
        async with ledger_session(engine) as s:
            campaign_id = await load_scenario_file(s, HARBOR)
            on_record = [
                Death(entity="npc-harlan-voss"),
                Transfer(item="item-silver-dagger", from_holder="pc-greyrock", to_holder="npc-mother-brine"),
                ThreadChange(thread="debt-0002-01", status="settled"),
            ]
            invented = [
                Death(entity="npc-old-wei"),
                Transfer(item="item-silver-dagger", from_holder="npc-mother-brine", to_holder="pc-mira"),
                ThreadChange(thread="favor-0003-01", status="settled"),
            ]
            assert await missing_hard_facts(s, campaign_id=campaign_id, facts=on_record) == []
            assert await missing_hard_facts(s, campaign_id=campaign_id, facts=invented) == invented
    finally:
        await engine.dispose()
