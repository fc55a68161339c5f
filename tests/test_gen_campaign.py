"""The recall-probe campaign generator (bench/gen_campaign.py): deterministic, valid, and its probes hold.

A short campaign (10 sessions) keeps this fast; the shape is the same as the 50-session bench campaigns.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ledger.scenario.format import ScenarioError
from ledger.scenario.reading import load_scenario
from ledger.store.narrative import NARRATIVE_KINDS

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = 10


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_campaign", ROOT / "bench" / "gen_campaign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their annotations through the module
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


@pytest.fixture(scope="module")
def campaign() -> Any:
    return gen.generate(11, SESSIONS)


def _records(scenario: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], set[str], set[str]]:
    """History entries by id, every thread id, every edge ref (``source>target:kind``) in the file."""
    history = {e["id"]: e for e in scenario["history"]}
    threads = {t["id"] for t in scenario["threads"]}
    edges = {f"{r['source']}>{r['target']}:{r['edge_kind']}" for r in scenario["relationships"]}
    for entry in scenario["history"]:
        for c in entry.get("changes", ()):
            if c["kind"] == "open_thread":
                threads.add(c["id"])
            if c["kind"] == "set_edge":
                edges.add(f"{c['source']}>{c['target']}:{c['edge_kind']}")
    return history, threads, edges


def test_same_seed_same_files_other_seed_other_files(campaign: Any) -> None:
    again = gen.generate(11, SESSIONS)
    assert gen.to_toml(again.scenario) == gen.to_toml(campaign.scenario)
    assert again.probes == campaign.probes
    assert gen.to_toml(gen.generate(12, SESSIONS).scenario) != gen.to_toml(campaign.scenario)


def test_files_validate_and_carry_no_importance(campaign: Any, tmp_path: Path) -> None:
    full, _probes = gen.write(campaign, tmp_path)
    stripped, _probes = gen.write(campaign, tmp_path, strip=True)
    loaded = load_scenario(stripped)
    assert len(loaded.history) == len(campaign.scenario["history"])
    assert len(loaded.npcs) == 36 and len(loaded.pcs) == 4
    try:
        load_scenario(full)
    except ScenarioError as err:  # a format without narrative events yet refuses those keys, and only those
        assert err.problems
        for problem in err.problems:
            assert problem.path.rsplit(".", 1)[-1] in gen.NARRATIVE_KEYS, str(problem)
    data = tomllib.loads(full.read_text(encoding="utf-8"))
    for entry in data["history"]:
        assert "importance" not in entry and "permanent" not in entry
        if "event" in entry:
            assert entry["event"] in NARRATIVE_KINDS
            assert "changes" not in entry and entry["participants"] and entry["place"].startswith("loc-")
    kin = {r["edge_kind"] for r in data["relationships"]} - {"ally", "member", "employer"}
    assert kin and kin <= {
        "mother",
        "father",
        "son",
        "daughter",
        "sister",
        "brother",
        "wife",
        "husband",
        "aunt",
        "uncle",
        "niece",
        "nephew",
    }


def test_probes_name_records_of_the_file_and_mean_what_they_say(campaign: Any) -> None:
    scenario, probes = campaign.scenario, campaign.probes
    history, threads, edges = _records(scenario)
    visibility = {t["id"]: t.get("visibility", "public") for t in scenario["threads"]}
    for entry in scenario["history"]:
        visibility[entry["id"]] = entry.get("visibility", "public")
        for c in entry.get("changes", ()):
            if c["kind"] == "open_thread":
                visibility[c["id"]] = entry.get("visibility", "public")
    dead = {
        c["entity"]: e["id"]
        for e in scenario["history"]
        for c in e.get("changes", ())
        if c["kind"] == "set_alive" and not c["alive"]
    }
    ties = {
        (r["source"], r["target"])
        for r in scenario["relationships"]
        if r["edge_kind"] not in ("member", "employer")
    }
    assert [p["kind"] for p in probes].count("old_open") == gen.PROBES_PER_KIND
    assert sorted({p["kind"] for p in probes}) == sorted(gen.PROBE_KINDS) and len(probes) == 150
    for p in probes:
        for view in [p, *p.get("other_views", ())]:
            for ref in [*view["decisive"], *view["must_not"]]:
                assert ref in history or ref in threads or ref in edges, (p["id"], ref)
            assert not set(view["decisive"]) & set(view["must_not"]), p["id"]
        assert p["decisive"] and p["location"].startswith("loc-") and p["present"]
        assert not set(p["present"]) & set(dead), p["id"]  # the dead are never in a scene
        if p["kind"] == "settled":  # settlement entries, and the threads they settled
            ends = [h for h in p["decisive"] if h in history]
            settled = {c["thread"] for h in ends for c in history[h]["changes"] if c["status"] == "settled"}
            assert ends and settled == set(p["decisive"]) - set(ends), p["id"]
        if p["kind"] == "dead_party":
            assert p["dead"] in dead and any((o, p["dead"]) in ties for o in p["present"]), p["id"]
        if p["kind"] == "trivia_only":
            (hid,) = p["decisive"]
            assert len(set(history[hid]["participants"]) & set(p["present"])) >= 2, p["id"]
        if p["kind"] == "secret":
            (tid,) = p["decisive"]
            (other,) = p["other_views"]
            assert visibility[tid] == p["viewer"] != other["viewer"] and tid in other["must_not"], p["id"]
        # What must stay out is private to a player other than the viewer (the GM sees everything).
        for view in [p, *p.get("other_views", ())]:
            for ref in view["must_not"]:
                assert visibility[ref].startswith("player:") and visibility[ref] != view["viewer"], p["id"]
            assert view["viewer"] != "gm" or not view["must_not"], p["id"]


@pytest.mark.parametrize("seed,sessions", [(11, SESSIONS), (808, 50)])
def test_no_entry_speaks_of_a_thread_before_it_opens(seed: int, sessions: int, tmp_path: Path) -> None:
    # Seed 808 drew a private matter's confession in the session the matter opens, and the session's shuffle
    # put it before the opening entry: the validator refused the file ("does not exist yet").
    scenario = gen.generate(seed, sessions).scenario
    known = {t["id"] for t in scenario["threads"]}
    for entry in scenario["history"]:
        named = {c["thread"] for c in entry.get("changes", ()) if c["kind"] == "thread_transition"}
        named |= {entry["thread"]} if "thread" in entry else set()
        assert named <= known, (entry["id"], sorted(named - known))
        known |= {c["id"] for c in entry.get("changes", ()) if c["kind"] == "open_thread"}
    path, _probes = gen.write(gen.generate(seed, sessions), tmp_path)
    assert len(load_scenario(path).history) == len(scenario["history"])
