"""Focused behaviour of the assertion check: names, modality, in-narration changes, retcons, audience, CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from ledger.check.extract import extract, name_index
from ledger.check.judge import check
from ledger.check.snapshot import (
    ActionResult,
    Alias,
    Edge,
    Entity,
    Fact,
    Holding,
    ItemFate,
    Retcon,
    RoundFacts,
    Scene,
    WorldSnapshot,
    load_world,
)

ROOT = Path(__file__).resolve().parent.parent
HARBOUR = ROOT / "tests" / "corpus" / "worlds" / "harbour.json"
SCENARIO = ROOT / "scenarios" / "harbor.toml"  # committed: a missing file fails the tests that read it


def tiny_world(*, retcons: tuple[Retcon, ...] = (), round: RoundFacts | None = None) -> WorldSnapshot:
    """A tavern with a dead merchant, a living barkeep, two PCs and a few items."""
    return WorldSnapshot.build(
        entities=[
            Entity("pc-greyrock", "pc", "Greyrock", owner="1", location="loc-tavern"),
            Entity("pc-mira", "pc", "Mira", owner="2", location="loc-tavern"),
            Entity(
                "npc-voss",
                "npc",
                "Harlan Voss",
                (Alias("Voss"), Alias("the merchant")),
                alive=False,
                location="loc-tavern",
            ),
            Entity(
                "npc-bessa",
                "npc",
                "Bessa",
                (Alias("the barkeep"), Alias("the Widow", "gm")),
                location="loc-tavern",
            ),
            Entity("npc-wei", "npc", "Old Wei", (Alias("Wei"),), location="loc-harbor"),
            Entity("loc-tavern", "location", "the Salty Gull", (Alias("the tavern"),)),
            Entity("loc-harbor", "location", "the harbour"),
            Entity("loc-crypt", "location", "the crypt"),
            Entity("item-dagger", "item", "silver dagger"),
            Entity("item-map", "item", "crypt map"),
            Entity("item-ring", "item", "signet ring"),
            Entity("item-pearl", "item", "black pearl", visibility="gm"),
        ],
        holdings=[
            Holding("item-dagger", "pc-greyrock"),
            Holding("item-map", "pc-mira"),
            Holding("item-ring", "pc-mira", visibility="player:2"),
            Holding("item-pearl", "loc-tavern", visibility="gm"),
        ],
        fates=[],
        edges=[Edge("edge-wei-greyrock", "npc-wei", "pc-greyrock", "enemy", -60, "old grudge")],
        facts=[Fact("npc-bessa-secret", "she poisoned the well", "gm", tells=("poisoned the well",))],
        retcons=retcons,
        scene=Scene("loc-tavern", frozenset({"pc-greyrock", "pc-mira", "npc-bessa"})),
        round=round,
    )


def refuted(text: str, world: WorldSnapshot, audience: str = "party") -> set[str | None]:
    report = check(text, world, audience=audience)
    return {v.refuted_by for v in report.conflicts()} | {lk.record for lk in report.leaks}


def test_a_dead_merchant_greeting_the_party_is_refuted_by_his_death_record() -> None:
    report = check("Voss greets you from behind the counter.", tiny_world())
    assert report.verdict == "conflict"
    assert report.conflicts()[0].refuted_by == "npc-voss-alive"
    assert "Harlan Voss is dead" in report.hint()


@pytest.mark.parametrize(
    "text",
    [
        '"Voss sends his regards," the barkeep lies, polishing a glass.',
        "You remember when Voss poured you ale in this very room.",
        "They say Voss walks the docks at night.",
        "If Voss were here, he would laugh at you.",
        "There is no sign of Old Wei anywhere in the tavern.",
        "Bessa lays a sprig of rosemary on Voss's grave.",
        "A fisherman in a patched coat mends his nets by the fire.",
    ],
)
def test_lies_memories_rumours_plans_and_mourning_are_not_conflicts(text: str) -> None:
    assert check(text, tiny_world()).verdict == "clean"


def test_names_match_case_insensitively_with_possessives_and_aliases() -> None:
    world = tiny_world()
    ex = extract("THE MERCHANT's ledger lies open; Greyrock’s hand rests on the BARKEEP's shoulder.", world)
    assert [m.id for m in ex.mentions] == ["npc-voss", "pc-greyrock", "npc-bessa"]
    assert all(m.poss for m in ex.mentions)


def test_the_longest_name_wins_when_names_overlap() -> None:
    ex = extract("Mira unrolls the crypt map.", tiny_world())
    assert [m.id for m in ex.mentions] == ["pc-mira", "item-map"]


def test_each_snapshot_knows_its_own_names_and_a_new_round_keeps_them() -> None:
    """The name matcher is cached per snapshot: a snapshot never finds names through another one's cache."""
    world = tiny_world()
    text = "Greyrock nods to Old Wei."
    assert [m.id for m in extract(text, world).mentions] == ["pc-greyrock", "npc-wei"]
    next_round = world.with_round(battle_round())
    assert [m.id for m in extract(text, next_round).mentions] == ["pc-greyrock", "npc-wei"]
    assert name_index(next_round) is name_index(world)  # built once, shared by the same world's rounds
    renamed = WorldSnapshot.build(
        entities=[
            replace(e, name="Grimbold") if e.id == "pc-greyrock" else e for e in world.entities.values()
        ],
        scene=world.scene,
    )
    renamed_text = "Grimbold nods to Old Wei."
    assert [m.id for m in extract(renamed_text, renamed).mentions] == ["pc-greyrock", "npc-wei"]
    assert [m.id for m in extract(text, renamed).mentions] == ["npc-wei"]  # the old name is gone


def test_an_item_handed_over_in_the_narration_may_be_used_by_its_new_holder() -> None:
    text = "Greyrock hands the silver dagger to Mira. Mira grips the silver dagger and grins."
    assert check(text, tiny_world()).verdict == "clean"
    assert refuted("Mira grips the silver dagger and grins.", tiny_world()) == {"item-dagger-holder"}


def test_a_sold_item_cannot_be_drawn() -> None:
    world = WorldSnapshot.build(
        entities=[Entity("pc-mira", "pc", "Mira"), Entity("item-dagger", "item", "silver dagger")],
        fates=[ItemFate("item-dagger", "sold")],
    )
    report = check("Mira draws the silver dagger.", world)
    assert report.conflicts()[0].refuted_by == "item-dagger-holder"
    assert "sold" in report.conflicts()[0].reason


def test_a_retconned_change_is_told_as_the_new_state() -> None:
    base = tiny_world(retcons=(Retcon("ev-000412", "Voss survived the fire", ("npc-voss-alive",)),))
    voss = base.entities["npc-voss"]
    revived = WorldSnapshot.build(
        entities=[*(e for e in base.entities.values() if e.id != "npc-voss"), replace(voss, alive=True)],
        retcons=base.retcons,
        scene=base.scene,
    )
    assert check("Voss greets you from behind the counter.", revived).verdict == "clean"
    report = check("Voss lies dead behind the counter.", revived)
    assert report.conflicts()[0].refuted_by == "npc-voss-alive"
    assert "retconned in ev-000412" in report.conflicts()[0].reason


def test_a_secret_is_a_leak_for_the_channel_but_not_for_the_gm() -> None:
    text = (
        "Bessa, whom some call the Widow, wipes the bar. She poisoned the well, you suspect. "
        "A black pearl gleams."
    )
    world = tiny_world()
    assert refuted(text, world) >= {"npc-bessa-identity", "npc-bessa-secret", "item-pearl"}
    assert check(text, world, audience="gm").leaks == ()


def test_a_player_scoped_holding_leaks_to_the_party_but_not_to_its_player() -> None:
    text = "Mira turns the signet ring over in her fingers."
    assert refuted(text, tiny_world()) == {"item-ring-holder"}
    assert check(text, tiny_world(), audience="player:2").verdict == "clean"


def test_an_npc_elsewhere_cannot_wait_here() -> None:
    assert refuted("Old Wei waits at the tavern, nursing a cup of tea.", tiny_world()) == {"npc-wei-location"}
    assert check("Old Wei waits at the harbour, nursing a cup of tea.", tiny_world()).verdict == "clean"


def test_a_feud_told_as_friendship_is_refuted_by_the_edge() -> None:
    # Wei is recorded at the harbour, so embracing Greyrock in the tavern also puts him where he is not
    assert refuted("Wei embraces Greyrock like an old friend.", tiny_world()) == {
        "edge-wei-greyrock",
        "npc-wei-location",
    }


def battle_round() -> RoundFacts:
    return RoundFacts(
        number=3,
        actions=(ActionResult("action-1", "pc-mira", "attack", "npc-bessa", "miss"),),
        submissions={"pc-mira": "I throw a knife at Bessa."},
        acted=frozenset({"pc-mira"}),
    )


def test_a_miss_told_as_a_hit_names_the_round_result() -> None:
    world = tiny_world(round=battle_round())
    assert refuted("Mira's knife sinks into Bessa's shoulder.", world) == {"round:action-1"}
    assert check("Mira's knife whistles past Bessa's ear.", world).verdict == "clean"


def test_words_put_in_a_silent_players_mouth_are_refuted() -> None:
    world = tiny_world(round=battle_round())
    assert refuted('"We should leave," Greyrock says.', world) == {"round:submission-pc-greyrock"}
    assert refuted("Greyrock decides to pay the barkeep.", world) == {"round:submission-pc-greyrock"}


def test_quoting_what_the_player_wrote_is_fine() -> None:
    world = tiny_world(
        round=RoundFacts(
            submissions={"pc-greyrock": 'I say "We want no trouble."'}, acted=frozenset({"pc-greyrock"})
        )
    )
    assert check('"We want no trouble," Greyrock says, hands open.', world).verdict == "clean"
    assert check('"Fight me, coward," Greyrock says.', world).verdict == "conflict"


def test_an_npc_cannot_know_what_they_never_witnessed() -> None:
    world = WorldSnapshot.build(
        entities=[Entity("npc-wei", "npc", "Old Wei"), Entity("npc-bessa", "npc", "Bessa")],
        facts=[
            Fact("loc-harbor-tunnel", True, "party", tells=("smugglers' tunnel",), known_by=("npc-bessa",))
        ],
    )
    assert refuted("Old Wei knows about the smugglers' tunnel, of course.", world) == {"loc-harbor-tunnel"}
    assert check("Bessa knows about the smugglers' tunnel, of course.", world).verdict == "clean"


def test_new_named_characters_are_reported_but_are_not_conflicts() -> None:
    report = check("Captain Borro and a woman named Sella share a table by the fire.", tiny_world())
    assert report.verdict == "clean"
    assert "Captain Borro" in report.new_entities and "Sella" in report.new_entities


def test_the_report_has_the_cli_json_shape() -> None:
    data = check("Voss greets you.", tiny_world()).to_dict()
    assert data["verdict"] == "conflict"
    claim = data["claims"][0]
    assert set(claim) == {"text", "verdict", "refuted_by", "span"}
    assert claim["span"] == [0, 16]
    assert set(data) == {"verdict", "claims", "new_entities", "leaks"}
    assert isinstance(data["new_entities"], list)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300))
def test_the_check_never_fails_on_odd_text(text: str) -> None:
    """Odd text gets a consistent answer, and does not hide a lie told in the paragraph before it."""
    world = tiny_world(round=battle_round())
    narration = text + " Voss's \"Greyrock, Mira’s"
    report = check(narration, world)
    for found in [*(v.claim for v in report.claims), *report.leaks]:
        start, end = found.span
        assert narration[start:end] == found.text  # every span points at the words it names
    conflict = bool(report.conflicts()) or bool(report.leaks)
    assert report.verdict == ("conflict" if conflict else "clean")
    lie = "Harlan Voss greets you warmly.\n\n"
    after_lie = check(lie + narration, world)
    assert after_lie.verdict == "conflict"
    refuted_lie = [v for v in after_lie.conflicts() if v.claim.span[1] <= len(lie)]
    assert {v.refuted_by for v in refuted_lie} == {"npc-voss-alive"}


def test_a_scenario_world_becomes_a_snapshot() -> None:
    from ledger.check.snapshot import snapshot_from_world
    from ledger.scenario.reading import load_scenario
    from ledger.scenario.replay import final_world

    scenario = load_scenario(SCENARIO)
    world = snapshot_from_world(final_world(scenario, "gm"), scenario=scenario)
    assert "npc-harlan-voss" in world.entities
    assert check("Harlan Voss greets you warmly.", world).verdict == "conflict"


def test_cli_check_prints_json_and_exits_one_on_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    narration = tmp_path / "n.txt"
    narration.write_text("Behind the bar stands Harlan Voss, polishing a mug.", encoding="utf-8")
    assert main(["check", "--scenario", str(HARBOUR), "--narration", str(narration), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "conflict"
    assert out["claims"][0]["refuted_by"] == "npc-harlan-voss-alive"


def test_cli_check_reads_a_scenario_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    narration = tmp_path / "n.txt"
    narration.write_text("Gulls cry over the harbour as the tide comes in.", encoding="utf-8")
    assert main(["check", "--scenario", str(SCENARIO), "--narration", str(narration)]) == 0
    assert "verdict: clean" in capsys.readouterr().out


def test_cli_check_rejects_bad_input_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    narration = tmp_path / "n.txt"
    narration.write_text("Hello.", encoding="utf-8")
    assert main(["check", "--scenario", str(tmp_path / "missing.toml"), "--narration", str(narration)]) == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("campaign = [", encoding="utf-8")
    assert main(["check", "--scenario", str(bad), "--narration", str(narration)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("tablekeeper: ") for line in err)


def test_corpus_worlds_load_with_every_round() -> None:
    for name in ("harbour", "crypt", "caravan", "court"):
        path = ROOT / "tests" / "corpus" / "worlds" / f"{name}.json"
        raw = json.loads(path.read_text(encoding="utf-8"))
        assert len(raw["rounds"]) >= 2, name
        for round_name, facts in raw["rounds"].items():
            world = load_world(path, round_name)
            assert world.scene.location == raw["scene"]["location"], (name, round_name)
            assert world.scene.present == frozenset(raw["scene"]["present"]), (name, round_name)
            assert world.scene.present <= set(world.entities), (name, round_name)
            assert world.round.number == facts["number"], (name, round_name)
            assert dict(world.round.submissions) == facts["submissions"], (name, round_name)
            assert len(world.round.actions) == len(facts.get("actions", ())), (name, round_name)


def test_cli_check_takes_the_scene_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    narration = tmp_path / "n.txt"
    narration.write_text("Bessa waves from behind the bar.", encoding="utf-8")
    args = ["check", "--scenario", str(SCENARIO), "--narration", str(narration), "--json"]
    assert main([*args, "--location", "loc-salty-gull"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "clean"
    assert main([*args, "--location", "loc-lighthouse"]) == 1  # exit 1 on a conflict (issue 9)
    assert json.loads(capsys.readouterr().out)["verdict"] == "conflict"
    assert main([*args, "--location", "loc-nowhere"]) == 2
