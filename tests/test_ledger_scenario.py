"""The scenario format: bundled worlds validate, the replay remembers, broken files say where."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main as cli_main
from ledger.scenario.changes import CHANGE_KINDS
from ledger.scenario.format import ScenarioError, ScenarioUnreadable, scenario_json_schema
from ledger.scenario.reading import load_scenario, parse_scenario
from ledger.scenario.replay import final_world
from ledger.scenario.timeline import rules_sheet, timeline

ROOT = Path(__file__).resolve().parents[1]
HARBOR = ROOT / "scenarios" / "harbor.toml"
CRYPT = ROOT / "scenarios" / "crypt.toml"


@pytest.fixture(scope="module")
def harbor_text() -> str:
    return HARBOR.read_text(encoding="utf-8")


def _error(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="broken.toml")
    return str(info.value)


def _replace(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"fixture text not unique: {old!r}"
    return text.replace(old, new)


MINIMAL = """
[campaign]
name = "Tiny"
current_session = 3
starting_location = "loc-yard"

[[locations]]
id = "loc-yard"
name = "The Yard"

[[pcs]]
id = "pc-ash"
name = "Ash"
owner = "player:alice"
hp = 10

[[npcs]]
id = "npc-bo"
name = "Bo"

[[items]]
id = "item-cup"
name = "cup"
holder = "npc-bo"
"""


# ------------------------------------------------------------------------------------ the bundled worlds
def test_harbor_and_crypt_validate() -> None:
    harbor = load_scenario(HARBOR)
    crypt = load_scenario(CRYPT)
    assert harbor.campaign.current_session == 12
    assert len(harbor.pcs) >= 4 and len(harbor.npcs) >= 6 and len(harbor.items) >= 12
    assert (
        len(harbor.threads) + sum(1 for h in harbor.history for c in h.changes if c.kind == "open_thread")
        >= 5
    )
    assert {h.session for h in harbor.history} >= set(range(1, 12))
    assert crypt.campaign.name != harbor.campaign.name


def test_harbor_remembers_the_long_campaign() -> None:
    world = final_world(load_scenario(HARBOR))
    voss = world.entities["npc-harlan-voss"]
    assert voss.alive is False
    assert world.find("the merchant") == ("npc-harlan-voss",)
    assert not world.holds("pc-greyrock", "item-silver-dagger")
    assert world.holders_of("item-silver-dagger") == {"npc-mother-brine": 1}
    favour = world.threads["favor-0003-01"]
    assert favour.status == "open"
    assert favour.parties == ("npc-old-wei", "pc-greyrock")
    assert set(favour.tags) == {"harbor", "tax", "favour"}
    wei = world.entities["npc-old-wei"]
    assert wei.alive and wei.location == "loc-harbor"
    # Gold is stackable and moved through payments: 90 - 50 (Bessa) + 30 (dagger sale).
    assert world.holders_of("item-gold-coins")["pc-greyrock"] == 70
    # The silver key lies on the tavern table, ready to be grabbed.
    assert world.holds("loc-salty-gull", "item-silver-key")
    # Hostile bestiary monsters stand where the party can walk.
    thugs = [e for e in world.entities.values() if e.kind == "monster" and e.alive]
    assert any(e.location == "loc-warehouse-row" for e in thugs)
    assert "loc-warehouse-row" in world.locations["loc-harbor"].exits
    statuses = {t.status for t in world.threads.values()}
    assert statuses >= {"open", "settled", "broken", "expired"}


def test_harbor_secret_is_seen_only_by_its_player() -> None:
    scenario = load_scenario(HARBOR)
    assert final_world(scenario).facts["npc-maren-holt-role"].visibility == "player:bob"
    assert "npc-maren-holt-role" in final_world(scenario, "player:bob").facts
    assert "npc-maren-holt-role" not in final_world(scenario, "party").facts
    assert "npc-maren-holt-role" not in final_world(scenario, "player:alice").facts
    # The party still knows the merchant is dead: that was public.
    assert final_world(scenario, "party").entities["npc-harlan-voss"].alive is False
    with pytest.raises(ValueError, match="unknown viewer"):
        final_world(scenario, "everyone")


def test_crypt_retcon_and_correction_replay() -> None:
    world = final_world(load_scenario(CRYPT))
    skeleton = world.entities["monster-skeleton-2"]
    assert skeleton.alive is True and skeleton.hp == 5
    assert world.entities["monster-skeleton-1"].alive is False
    assert world.holders_of("item-holy-water") == {"pc-dara": 1}
    assert "poisoned" in world.entities["pc-fennick"].conditions
    assert world.entities["pc-fennick"].owner == "284718293847561234"
    harbor = final_world(load_scenario(HARBOR))
    assert harbor.entities["pc-orrin"].hp == 19  # the session 11 correction


def test_timeline_uses_only_the_change_vocabulary() -> None:
    events = timeline(load_scenario(HARBOR))
    kinds = {c.kind for e in events for c in e.changes}
    assert kinds <= set(CHANGE_KINDS)
    assert {"create_location", "create_entity", "create_item", "set_edge", "open_thread", "set_fact"} <= kinds
    sessions = [e.session for e in events]
    assert sessions == sorted(sessions)
    # Every change has its visibility and witnesses filled in, so the loader needs no defaults.
    assert all(c.visibility is not None and c.witnesses is not None for e in events for c in e.changes)
    death = next(e for e in events if e.history_id == "h-voss-killed")
    assert death.permanent and death.session == 7
    assert death.change_paths[1] == "history[6].changes[1]"


def test_minimal_scenario_defaults() -> None:
    scenario = parse_scenario(MINIMAL, source="tiny.toml")
    world = final_world(scenario)
    assert world.entities["pc-ash"].location == "loc-yard"  # the starting location
    assert world.entities["pc-ash"].owner == "alice"
    assert world.holds("npc-bo", "item-cup")
    assert world.visibility_of("item-cup") == "public"


# -------------------------------------------------------------------------------------- broken scenarios
def test_unknown_reference_names_the_key(harbor_text: str) -> None:
    text = _replace(harbor_text, 'location = "loc-fish-market"\npersona', 'location = "loc-nowhere"\npersona')
    message = _error(text)
    assert "broken.toml: npcs[3].location: unknown location 'loc-nowhere'" in message.splitlines()


def test_duplicate_id(harbor_text: str) -> None:
    message = _error(_replace(harbor_text, 'id = "npc-bessa"', 'id = "npc-old-wei"'))
    assert (
        message.splitlines()[0] == "broken.toml: npcs[2].id: duplicate id 'npc-old-wei' (first at npcs[0].id)"
    )


def test_bad_thread_status(harbor_text: str) -> None:
    message = _error(
        _replace(harbor_text, 'status = "settled", reason = "Greyrock', 'status = "paid", reason = "G')
    )
    assert message.startswith("broken.toml: history[5].changes[1].status: Input should be 'open'")
    assert '"paid"' in message


def test_illegal_thread_transition_needs_a_retcon(harbor_text: str) -> None:
    text = harbor_text + (
        '\n[[history]]\nsession = 12\nsummary = "Bessa reopens the tab"\nchanges = [{ kind = '
        '"thread_transition", thread = "debt-0002-01", status = "open", reason = "more drinks" }]\n'
    )
    message = _error(text)
    assert "history[13].changes[0].status: thread debt-0002-01 cannot go from settled to open" in message


def test_transfer_from_a_non_holder(harbor_text: str) -> None:
    text = _replace(
        harbor_text,
        'item = "item-silver-dagger", from_holder = "pc-greyrock"',
        'item = "item-silver-dagger", from_holder = "pc-mira"',
    )
    message = _error(text)
    assert message == (
        "broken.toml: history[8].changes[0].from_holder: pc-mira does not hold 1 of item-silver-dagger in "
        "session 9 (holds 0; held by pc-greyrock)"
    )


def test_selling_the_dagger_twice_is_caught(harbor_text: str) -> None:
    text = harbor_text + (
        '\n[[history]]\nsession = 11\nsummary = "Greyrock sells the dagger again"\nchanges = [{ kind = '
        '"transfer_item", item = "item-silver-dagger", from_holder = "pc-greyrock" }]\n'
    )
    assert "history[13].changes[0].from_holder: pc-greyrock does not hold 1 of item-silver-dagger" in _error(
        text
    )


def test_wrong_type(harbor_text: str) -> None:
    text = _replace(
        harbor_text, 'entity = "npc-harlan-voss", alive = false', 'entity = "npc-harlan-voss", alive = "no"'
    )
    assert (
        _error(text) == 'broken.toml: history[6].changes[1].alive: Input should be a valid boolean (got "no")'
    )


def test_unknown_key_and_unknown_change_kind(harbor_text: str) -> None:
    text = _replace(
        harbor_text, 'hostile = true\nlocation = "loc-harbor"', 'hostile = true\nlocaton = "loc-harbor"'
    )
    assert _error(text) == "broken.toml: npcs[10].locaton: unknown key"
    text = _replace(
        harbor_text,
        '{ kind = "set_hp", entity = "npc-harlan-voss"',
        '{ kind = "kill", entity = "npc-harlan-voss"',
    )
    assert _error(text).startswith("broken.toml: history[6].changes[0]: unknown change kind 'kill'")


def test_history_order_and_future_sessions(harbor_text: str) -> None:
    late = _error(harbor_text + '\n[[history]]\nsession = 13\nsummary = "Too soon"\n')
    assert "history[13].session: session 13 is after the current session 12" in late
    back = _error(harbor_text + '\n[[history]]\nsession = 4\nsummary = "Out of order"\n')
    assert "history[13].session: session 4 comes after session 11" in back


def test_prefixes_and_visibility_owner(harbor_text: str) -> None:
    assert "threads[0].id: a favour thread id must start with 'favor-'" in _error(
        _replace(harbor_text, 'id = "favor-0003-01"', 'id = "debt-0003-01"')
    )
    assert "npcs[7].id: a monster id must start with 'monster-'" in _error(
        _replace(harbor_text, 'id = "monster-smuggler-captain"', 'id = "npc-smuggler-captain"').replace(
            '"monster-smuggler-captain"', '"npc-smuggler-captain"'
        )
    )
    assert "history[10].visibility: visibility 'player:bobb' names no PC owner" in _error(
        _replace(harbor_text, 'visibility = "player:bob"', 'visibility = "player:bobb"')
    )


def test_reference_to_an_entity_not_yet_created() -> None:
    kill = '{ kind = "set_alive", entity = "npc-late", alive = false }'
    create = '{ kind = "create_entity", id = "npc-late", entity_kind = "npc", name = "Late" }'
    text = MINIMAL + f'\n[[history]]\nsession = 1\nsummary = "x"\nchanges = [{kill}]\n'
    text += f'\n[[history]]\nsession = 2\nsummary = "y"\nchanges = [{create}]\n'
    assert "history[0].changes[0].entity: entity 'npc-late' does not exist yet in session 1" in _error(text)


def test_every_problem_is_reported_once_per_line(harbor_text: str) -> None:
    text = _replace(harbor_text, 'location = "loc-fish-market"\npersona', 'location = "loc-nowhere"\npersona')
    text = _replace(text, 'source = "npc-bessa"', 'source = "npc-besa"')
    lines = _error(text).splitlines()
    assert lines == [
        "broken.toml: npcs[3].location: unknown location 'loc-nowhere'",
        "broken.toml: relationships[0].source: unknown entity 'npc-besa'",
    ]


def test_type_errors_come_with_a_hint(harbor_text: str) -> None:
    text = _replace(harbor_text, 'edge_kind = "friend"', 'edge_kind = "Best Friend"')
    assert _error(text) == (
        "broken.toml: relationships[0].edge_kind: "
        "expected lowercase words joined by '-' (e.g. 'owes-favour') "
        '(got "Best Friend")'
    )


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioUnreadable, match="not valid TOML"):
        parse_scenario("[campaign\n", source="x.toml")
    with pytest.raises(ScenarioUnreadable, match="no such file"):
        load_scenario(tmp_path / "absent.toml")


# ------------------------------------------------------------------------------------------- CLI and schema
def test_cli_validate_exit_codes(
    tmp_path: Path, harbor_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["scenario", "validate", str(HARBOR)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: ") and "4 pcs" in out and "13 history" in out

    bad = tmp_path / "bad.toml"
    bad.write_text(_replace(harbor_text, 'id = "npc-bessa"', 'id = "npc-old-wei"'), encoding="utf-8")
    assert cli_main(["scenario", "validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: npcs[2].id: duplicate id 'npc-old-wei'" in err
    assert "Traceback" not in err

    assert cli_main(["scenario", "validate", str(tmp_path / "absent.toml")]) == 2
    assert "no such file" in capsys.readouterr().err
    garbage = tmp_path / "garbage.toml"
    garbage.write_bytes(b"\xff\xfe[[[")
    assert cli_main(["scenario", "validate", str(garbage)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_schema_is_json_with_every_section() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "scenario", "schema"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert set(schema["properties"]) == {
        "campaign", "locations", "pcs", "npcs", "items", "relationships", "threads", "facts", "factions",
        "history",
    }  # fmt: skip
    assert schema == json.loads(json.dumps(scenario_json_schema(), sort_keys=True))
    # The PC class key appears under its TOML name.
    assert "class" in schema["$defs"]["PlayerCharacter"]["properties"]


def test_pc_sheets_build_rules_stat_blocks() -> None:
    from rules.srd import build_pc

    world = final_world(load_scenario(HARBOR))
    greyrock = world.entities["pc-greyrock"]
    assert greyrock.sheet is not None and greyrock.sheet["class"] == "fighter"
    block = build_pc(rules_sheet(greyrock.sheet))
    assert block.ac == 18 and block.max_hp == 44
    assert {a.name.lower() for a in block.attacks} == {"longsword", "handaxe"}


def test_unknown_bestiary_entry_and_weapon(harbor_text: str) -> None:
    text = _replace(harbor_text, 'bestiary = "veteran"', 'bestiary = "dragon-king"')
    text = _replace(text, 'weapons = ["mace"]', 'weapons = ["lightsaber"]')
    lines = _error(text).splitlines()
    assert lines[0].startswith("broken.toml: npcs[7].bestiary: unknown bestiary entry 'dragon-king' (known: ")
    assert lines[1] == "broken.toml: pcs[2].weapons[0]: unknown weapon 'lightsaber'"


def test_unknown_exit_names_the_exit(harbor_text: str) -> None:
    text = _replace(
        harbor_text, 'exits = ["loc-harbor", "loc-salty-gull"]', 'exits = ["loc-harbor", "loc-moon"]'
    )
    assert _error(text) == "broken.toml: locations[3].exits[1]: unknown location 'loc-moon'"


HOLDERS = ("pc-ash", "npc-bo", "loc-yard")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from((*HOLDERS, None)), st.sampled_from((*HOLDERS, None)), st.integers(1, 6)),
        max_size=8,
    )
)
def test_replayed_coins_never_go_negative_and_are_conserved(
    moves: list[tuple[str | None, str | None, int]],
) -> None:
    """Any list of coin transfers is accepted exactly when no holder ever pays more than it holds."""
    text = MINIMAL + (
        '\n[[items]]\nid = "item-coins"\nname = "coins"\nproperties = { stackable = true }\n'
        'holdings = [{ holder = "pc-ash", quantity = 5 }, { holder = "npc-bo", quantity = 3 }]\n'
    )
    purse = {"pc-ash": 5, "npc-bo": 3, "loc-yard": 0}
    legal = True
    changes = []
    for source, target, qty in moves:
        fields = ['item = "item-coins"', f"quantity = {qty}"]
        if source is not None:
            fields.append(f'from_holder = "{source}"')
            if purse[source] < qty:
                legal = False
            purse[source] -= qty
        if target is not None:
            fields.append(f'to_holder = "{target}"')
            purse[target] += qty
        changes.append('{ kind = "transfer_item", ' + ", ".join(fields) + " }")
    text += '\n[[history]]\nsession = 2\nsummary = "coins move"\nchanges = [' + ", ".join(changes) + "]\n"
    if not legal:
        with pytest.raises(ScenarioError, match="does not hold"):
            parse_scenario(text, source="coins.toml")
        return
    world = final_world(parse_scenario(text, source="coins.toml"))
    assert world.holders_of("item-coins") == {h: n for h, n in purse.items() if n > 0}
