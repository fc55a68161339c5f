"""A scenario file rarely says which pronoun a character answers to, but its descriptions, titles, epithets
and relationship reasons do; the loader reads them (``ledger.scenario.pronouns``) and keeps the answer in
the sheet, so the check can tell whom "she" means in a world written by other hands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import Scene, WorldSnapshot, snapshot_from_world
from ledger.check.snapshot_sql import snapshot_from_ledger
from ledger.scenario.load import load_scenario_into
from ledger.scenario.pronouns import pronoun_of, pronouns_from_ties
from ledger.scenario.reading import parse_scenario
from ledger.scenario.replay import final_world
from ledger.store.db import create_engine, init_db, ledger_session
from ledger.store.visibility import Viewer


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({"given": "they", "description": "She keeps the books."}, "they"),  # the file's own word wins
        ({"description": "A retired smuggler; she keeps the Gull's books."}, "she"),
        ({"description": "Her husband drowned off the point; he was a fool."}, "she"),  # the first pronoun
        ({"description": "An old fishwife who buys anything shiny."}, "she"),  # the opening noun phrase
        ({"description": "The keeper of the light, who dreams of the tide-queen."}, None),  # not a later noun
        ({"persona": "Gruff; he never smiles at strangers."}, "he"),
        ({"name": "Mother Ada Jessop"}, "she"),  # a title before the name
        ({"name": "Sir Aldric"}, "he"),
        ({"name": "Kit", "aliases": ("the ferryman",)}, "he"),  # an epithet's station noun
        ({"name": "Nan", "aliases": ("the landlady",)}, "she"),
        ({"name": "Tam", "aliases": ("the shaman",)}, None),
        ({"name": "Bessa Marlow", "description": "Owner of the Salty Gull; loud."}, None),  # nothing tells
        ({"name": "Eli", "tie": "he"}, "he"),
        # a noun of kin or station describing the creature itself outranks pronouns that belong to another
        ({"description": "Ansel's daughter, twenty, who has taken up his lantern and his debts."}, "she"),
        ({"description": "The widow of the late Captain Marsh, he left her the boat."}, "she"),
        ({"description": "His wife, who keeps the ledgers."}, "she"),  # "his" is the husband
        ({"description": "A boy with a split lip who runs errands."}, "he"),
        ({"description": "The old priestess of the drowned shrine."}, "she"),
        (
            {"name": "Fenwick", "description": "Fenwick is Aldo's granddaughter; he taught her letters."},
            "she",
        ),
        ({"description": "A tinker who married a widower."}, None),  # someone else's noun
        # a pronoun counts only when it can refer to the creature, not to another person named before it
        ({"description": "Ansel's heir, who has taken up his lantern and his debts."}, None),  # his = Ansel
        ({"description": "Her father was a priest. He taught her letters."}, "she"),  # he = the father
        ({"description": "A tinker from Vell; since Tomas left, she sells pans alone."}, "she"),
        ({"description": "A Massufa guide; he learned the desert under Yusuf."}, "he"),  # a kind, no person
        # a gendered title among the names outranks the description
        ({"name": "Sister Ysolde", "description": "A retired smuggler; he keeps the books."}, "she"),
        ({"name": "Herr Vogt", "description": "Ansel's daughter; she keeps the clocks."}, "he"),
        # evidence that conflicts within its rank tells nothing
        ({"description": "She keeps the ferry tolls. He drinks too much at the Eel."}, None),
        ({"name": "Ysolde", "aliases": ("Lady Ysolde", "Lord Ysolde")}, None),
        ({"description": "Ansel's daughter, who keeps the clocks.", "tie": "he"}, None),
        ({"name": "Bram Oakes", "description": "Keeps the ferry tolls and the Eel's cellar key."}, None),
    ],
)
def test_pronoun_of(kw: dict[str, Any], expected: str | None) -> None:
    args: dict[str, Any] = {"given": None, "name": "Someone", **kw}
    assert pronoun_of(**args) == expected


def test_relationship_reasons_tell_the_pronoun_of_the_one_named_first() -> None:
    names = {
        "npc-eli": ("Eli Jessop", "Eli"),
        "npc-ada": ("Mother Ada Jessop", "Ada"),
        "npc-sal": ("Sal Pett",),
        "npc-noah": ("Noah Pett", "Noah"),
        "npc-kit": ("Kit",),
    }
    ties = [
        ("npc-eli", "npc-ada", "Eli is Mother Jessop's stepson"),  # the head noun, not the possessor's title
        ("npc-noah", "npc-sal", "Sal is the daughter of Noah, who raised her"),  # the one named first
        ("npc-kit", "npc-ada", "Kit owes Ada money"),  # no noun of kin: nothing told
    ]
    assert pronouns_from_ties(ties, names) == {"npc-eli": "he", "npc-sal": "she"}


WORLD = """
[campaign]
name = "Millbrook"
current_session = 2
starting_location = "loc-mill"

[[locations]]
id = "loc-mill"
name = "The Old Mill"

[[pcs]]
id = "pc-ilse"
name = "Ilse"
owner = "player:ilse"
hp = 12
pronoun = "they"

[[npcs]]
id = "npc-oda"
name = "Oda Varga"
description = "The miller; she has run the wheel since the flood."
location = "loc-mill"
conditions = ["unconscious"]

[[npcs]]
id = "npc-brenn"
name = "Brenn"
location = "loc-mill"

[[relationships]]
source = "npc-brenn"
target = "npc-oda"
edge_kind = "kin"
attitude = 40
reason = "Brenn is Oda's nephew"
"""
SCENE = Scene(location="loc-mill", present=frozenset({"pc-ilse", "npc-oda", "npc-brenn"}))
TEXT = "Brenn hums by the door, glancing at Oda on the sacks. She sits up and asks him for water."


def _from_file(world: str = WORLD) -> WorldSnapshot:
    scenario = parse_scenario(world, source="millbrook.toml")
    return snapshot_from_world(final_world(scenario, "gm"), scenario=scenario, scene=SCENE)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    eng = create_engine(database_url)
    await init_db(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


def _pronouns(snap: WorldSnapshot) -> dict[str, str | None]:
    return {e.id: e.pronoun for e in snap.entities.values() if e.kind in ("pc", "npc")}


async def test_the_file_and_the_ledger_keep_the_same_pronouns(engine: Any) -> None:
    scenario = parse_scenario(WORLD, source="millbrook.toml")
    async with ledger_session(engine) as s:
        cid = await load_scenario_into(s, scenario=scenario, source="millbrook.toml")
    async with ledger_session(engine) as s:
        live = await snapshot_from_ledger(
            s, campaign_id=cid, audience=Viewer.gm(), location=SCENE.location, present=sorted(SCENE.present)
        )
    expected = {"pc-ilse": "they", "npc-oda": "she", "npc-brenn": "he"}
    assert _pronouns(_from_file()) == expected
    assert _pronouns(live) == expected


def test_she_is_the_woman_the_description_names_so_the_senseless_miller_sitting_up_is_caught() -> None:
    report = check(TEXT, _from_file())
    assert "npc-oda-condition-unconscious" in {v.refuted_by for v in report.conflicts()}, report
    # the same world with nothing that tells who is a she: "She" is not tied to Oda, and the miss is back
    silent = WORLD.replace(
        'description = "The miller; she has run the wheel since the flood."\n', ""
    ).replace('reason = "Brenn is Oda\'s nephew"', 'reason = "Brenn lodges at the mill"')
    blind = _from_file(silent)
    assert {e.pronoun for e in blind.entities.values() if e.kind == "npc"} == {None}
    assert "npc-oda-condition-unconscious" not in {v.refuted_by for v in check(TEXT, blind).conflicts()}
