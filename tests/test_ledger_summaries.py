"""Summaries in Chroma: found by meaning, filtered by viewer, refused when the ledger lacks a hard fact."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ledger.recall.embeddings import HashingEmbedding, cosine
from ledger.recall.summaries import (
    Death,
    SummaryError,
    SummaryIndex,
    SummaryRefused,
    ThreadChange,
    Transfer,
    find_hard_fact_candidates,
    hard_facts_from_changes,
    names_from_world,
    verifier_from_timeline,
)
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world
from ledger.scenario.timeline import timeline

ROOT = Path(__file__).resolve().parents[1]
HARBOR = load_scenario(ROOT / "scenarios" / "harbor.toml")
WORLD = final_world(HARBOR)
ENTITIES, ITEMS = names_from_world(WORLD)
VERIFY = verifier_from_timeline(timeline(HARBOR))
CAMPAIGN = "saltmere"

SESSION_7 = (
    "In warehouse nine the party confronts the merchant over the smuggled cargo. "
    "Greyrock killed Harlan Voss; "
    "Mira pocketed the merchant's ledger."
)
SESSION_7_FACTS = (
    Death(entity="npc-harlan-voss"),
    Transfer(item="item-smuggling-ledger", from_holder="npc-harlan-voss", to_holder="pc-mira"),
)


# ------------------------------------------------------------------------------------------ embeddings
def test_hashing_embedding_is_normalised_and_meaningful() -> None:
    ef = HashingEmbedding()
    a, b, c = ef(
        [
            "Greyrock sold the silver dagger to the fence",
            "the fence bought Greyrock's silver dagger",
            "Old Wei counts crates at the harbour",
        ]
    )
    assert len(a) == 384
    assert abs(float(np.linalg.norm(a)) - 1.0) < 1e-5
    assert cosine(a, b) > cosine(a, c)
    assert np.array_equal(ef(["same words"])[0], ef(["same words"])[0])
    rebuilt = HashingEmbedding.build_from_config(ef.get_config())
    assert np.array_equal(rebuilt(["Old Wei"])[0], ef(["Old Wei"])[0])
    assert float(np.linalg.norm(ef(["?!"])[0])) == pytest.approx(1.0)  # no words still gives a unit vector


def test_hashing_embedding_is_identical_in_another_process() -> None:
    text = "The tax officer Old Wei hid a shipment; Greyrock owes him a favour."
    here = HashingEmbedding()([text])[0].tolist()
    code = (
        "import json, sys; from ledger.recall.embeddings import HashingEmbedding; "
        "print(json.dumps(HashingEmbedding()([sys.argv[1]])[0].tolist()))"
    )
    # A different hash seed proves nothing depends on Python's salted hash().
    env = {"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code, text], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    assert json.loads(done.stdout) == here


# --------------------------------------------------------------------------------- hard-fact detection
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Greyrock killed the merchant in his warehouse.", {("death", "npc-harlan-voss")}),
        ("Voss was slain by Greyrock.", {("death", "npc-harlan-voss")}),
        ("Everyone says Old Wei is dead.", {("death", "npc-old-wei")}),
        ("The death of Old Wei shook the harbour.", {("death", "npc-old-wei")}),
        ("Greyrock sold his silver dagger to Mother Brine.", {("transfer", "item-silver-dagger")}),
        ("Bessa poured ale for Greyrock at the Salty Gull.", set()),
        ("Greyrock killed time at the docks waiting for Wei.", set()),
    ],
)
def test_candidate_hard_facts(text: str, expected: set[tuple[str, str]]) -> None:
    found = find_hard_fact_candidates(text, entities=ENTITIES, items=ITEMS)
    assert {(c.kind, c.subject) for c in found} == expected


def test_hard_facts_from_scenario_changes() -> None:
    death_event = next(e for e in timeline(HARBOR) if e.history_id == "h-voss-killed")
    facts = hard_facts_from_changes(death_event.changes)
    assert set(SESSION_7_FACTS) <= set(facts)
    assert ThreadChange(thread="quest-0002-01", status="broken") in facts


# ------------------------------------------------------------------------------------------- the index
@pytest.fixture
def index(tmp_path: Path) -> SummaryIndex:
    return SummaryIndex.local(tmp_path / "chroma")


async def _seed(index: SummaryIndex) -> None:
    await index.add(
        summary_id="sum-s07",
        campaign=CAMPAIGN,
        session=7,
        scope="session",
        text=SESSION_7,
        verify=VERIFY,
        event_ids=["ev-000070", "ev-000071"],
        entities=["npc-harlan-voss", "pc-greyrock", "pc-mira"],
        hard_facts=SESSION_7_FACTS,
        known_entities=ENTITIES,
        known_items=ITEMS,
    )
    await index.add(
        summary_id="sum-s03",
        campaign=CAMPAIGN,
        session=3,
        scope="session",
        text="Old Wei hid the party's shipment in the customs bond room; Greyrock owes him a favour.",
        verify=VERIFY,
        event_ids=["ev-000030"],
        entities=["npc-old-wei", "pc-greyrock"],
    )
    await index.add(
        summary_id="sum-s10-secret",
        campaign=CAMPAIGN,
        session=10,
        scope="scene",
        text="Mira cracks Voss's cipher: the harbourmaster Maren Holt runs the smuggling ring.",
        verify=VERIFY,
        visibility="player:bob",
        entities=["npc-maren-holt", "pc-mira"],
    )
    await index.add(
        summary_id="sum-s06",
        campaign=CAMPAIGN,
        session=6,
        scope="session",
        text="Greyrock pays Bessa the fifty gold the party owed for drinks on credit.",
        verify=VERIFY,
        entities=["npc-bessa", "pc-greyrock"],
        hard_facts=[ThreadChange(thread="debt-0002-01", status="settled")],
    )


async def test_add_and_query_by_meaning(index: SummaryIndex) -> None:
    await _seed(index)
    assert await index.count(CAMPAIGN) == 4
    hits = await index.query(campaign=CAMPAIGN, text="who killed the merchant Harlan Voss?", n=2)
    assert hits[0].id == "sum-s07"
    assert hits[0].event_ids == ("ev-000070", "ev-000071") and hits[0].session == 7
    assert hits[0].distance <= hits[-1].distance
    favour = await index.query(campaign=CAMPAIGN, text="the favour Greyrock owes the tax officer", n=1)
    assert [h.id for h in favour] == ["sum-s03"]


async def test_scene_entities_come_first(index: SummaryIndex) -> None:
    await _seed(index)
    hits = await index.query(campaign=CAMPAIGN, text="who killed the merchant", entities=["npc-bessa"], n=3)
    assert hits[0].id == "sum-s06"  # the scene's NPC outranks a closer text match
    assert len(hits) == 3 and len({h.id for h in hits}) == 3


async def test_visibility_filter(index: SummaryIndex) -> None:
    await _seed(index)
    question = "who runs the smuggling ring?"
    party = await index.query(campaign=CAMPAIGN, text=question, visibilities=["public", "party"])
    assert "sum-s10-secret" not in {h.id for h in party}
    alice = await index.query(
        campaign=CAMPAIGN, text=question, visibilities=["public", "party", "player:alice"]
    )
    assert "sum-s10-secret" not in {h.id for h in alice}
    bob = await index.query(campaign=CAMPAIGN, text=question, visibilities=["public", "party", "player:bob"])
    assert bob[0].id == "sum-s10-secret"
    gm = await index.query(campaign=CAMPAIGN, text=question, visibilities=None, n=5)
    assert len(gm) == 4


async def test_summary_with_missing_hard_fact_is_refused(index: SummaryIndex) -> None:
    await _seed(index)
    with pytest.raises(SummaryRefused) as refused:
        await index.add(
            summary_id="sum-bad",
            campaign=CAMPAIGN,
            session=11,
            scope="session",
            text="On the pier the thugs corner Old Wei, and Wei is killed before the party arrives.",
            verify=VERIFY,
            hard_facts=[Death(entity="npc-old-wei")],
            known_entities=ENTITIES,
            known_items=ITEMS,
        )
    assert refused.value.missing == (Death(entity="npc-old-wei"),)
    assert "not in the ledger: npc-old-wei died" in str(refused.value)
    assert await index.count(CAMPAIGN) == 4  # nothing stored


async def test_summary_stating_an_undeclared_death_is_refused(index: SummaryIndex) -> None:
    with pytest.raises(SummaryRefused) as refused:
        await index.add(
            summary_id="sum-sneaky",
            campaign=CAMPAIGN,
            session=9,
            scope="session",
            text="Greyrock sold the silver dagger, and later that night Mother Brine was murdered.",
            verify=VERIFY,
            hard_facts=[
                Transfer(item="item-silver-dagger", from_holder="pc-greyrock", to_holder="npc-mother-brine")
            ],
            known_entities=ENTITIES,
            known_items=ITEMS,
        )
    assert [(c.kind, c.subject) for c in refused.value.undeclared] == [("death", "npc-mother-brine")]
    assert refused.value.missing == ()
    assert await index.count(CAMPAIGN) == 0


async def test_bad_input_is_a_clear_error(index: SummaryIndex) -> None:
    await _seed(index)
    with pytest.raises(SummaryError, match="between 1 and 5"):
        await index.query(campaign=CAMPAIGN, text="anything", n=6)
    with pytest.raises(SummaryError, match="bad visibility"):
        await index.add(
            summary_id="x",
            campaign=CAMPAIGN,
            session=1,
            scope="scene",
            text="t",
            verify=VERIFY,
            visibility="all",
        )
    with pytest.raises(SummaryError, match="non-empty text"):
        await index.add(summary_id="y", campaign=CAMPAIGN, session=1, scope="scene", text="  ", verify=VERIFY)
    assert await index.query(campaign="empty-campaign", text="anything") == ()


async def test_campaigns_are_separate_and_reopen_in_a_fresh_process(tmp_path: Path) -> None:
    folder = tmp_path / "chroma"
    index = SummaryIndex.local(folder)
    await _seed(index)
    await index.add(
        summary_id="sum-crypt",
        campaign="ashen-crypt",
        session=2,
        scope="scene",
        text="Two skeletons rise on the crypt stair.",
        verify=VERIFY,
    )
    assert [h.id for h in await index.query(campaign="ashen-crypt", text="who killed the merchant")] == [
        "sum-crypt"
    ]
    code = (
        "import sys; from ledger.recall.summaries import SummaryIndex; "
        "idx = SummaryIndex.local(sys.argv[1]); "
        "hits = idx.query_now(campaign='saltmere', text='who killed the merchant Harlan Voss?', n=1); "
        "print(hits[0].id, idx.count_now('saltmere'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["sum-s07", "4"]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    """A real ``chroma run`` server on a free loopback port.

    chromadb is a core dependency, so its CLI is installed next to the interpreter running the tests (found
    there first: ``venv/bin/python -m pytest`` does not put ``venv/bin`` on PATH). A missing CLI or a server
    that does not answer fails the test instead of skipping it.
    """
    import shutil
    import time

    beside = Path(sys.executable).parent / "chroma"
    exe = str(beside) if beside.is_file() else shutil.which("chroma")
    if exe is None:
        pytest.fail(f"the chroma CLI is not installed: neither {beside} nor chroma on PATH")
    port = _free_port()
    log = (tmp_path / "chroma-server.log").open("wb")
    server = subprocess.Popen(
        [exe, "run", "--path", str(tmp_path / "server-data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90  # generous: a loaded machine starts it slowly
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.flush()
                tail = (tmp_path / "chroma-server.log").read_text(encoding="utf-8", errors="replace")[-2000:]
                pytest.fail(f"{exe} run did not start (exit code {server.poll()}):\n{tail}")
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


async def test_remote_server_mode(chroma_server: int) -> None:
    index = SummaryIndex.remote("127.0.0.1", chroma_server)
    await _seed(index)
    hits = await index.query(campaign=CAMPAIGN, text="who killed the merchant Harlan Voss?", n=1)
    assert [h.id for h in hits] == ["sum-s07"]
    party = await index.query(campaign=CAMPAIGN, text="who runs the smuggling ring?", visibilities=["public"])
    assert "sum-s10-secret" not in {h.id for h in party}
