"""False alarms found by stress material written against the new passes, each with a planted control.

Clean narrations in an LLM game master's register, written to tempt the new passes, raised these alarms; each
test keeps the clean sentence clean and proves, on a sentence that really contradicts the world, that the
pass still fires:

- a PC's own contraction frames what follows: "you'd give a good deal to have that compass back" is a wish
  (would), not a holding; "you'd lost it" (had) is no frame;
- a thing told as one of a kind, not the recorded one: "a brass compass of his own", "another brass compass",
  "a brass compass like Ada's" links no item by its description;
- "hears from his sister by letter", "hears of the flood": news come by any means, not hearing;
- a payment denied by its object: "has repaid no debt to her yet" keeps a favour open;
- "owes nobody anything", "doesn't owe her a thing": the debt is settled;
- colours told apart by the hand ("rubbing each between finger and thumb") are no sight;
- verbs of feeling ("mistrusts", "resents") put no body anywhere;
- what a debt is for stops at a clause of its own: "for the ferry fare he paid for her" is the fare, so
  "paid back for the roof" is not that debt;
- words caught off someone's lips are read, not heard;
- what someone does "in" a named place is done there ("warms his hands at the brazier in the Chapel"), not
  here; a thing put "in" a place is the thing's place, not its putter's;
- a kin term followed by "in" and what is shared is a fellowship: "Ada's sister in arms", "brother in the
  Order" (not a known place: "Ada's sister in the Chapel" is still a sister).

The world is invented for these tests (a river ferry landing), loaded from the scenario format as
``tablekeeper check --scenario`` loads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import WorldSnapshot, scene_at, snapshot_from_world
from ledger.scenario.reading import load_scenario
from ledger.scenario.replay import final_world

_FERRY = """
[campaign]
id = "ferry"
name = "The Ferry Landing"
description = "A ferry landing on a brown river."
current_session = 3
starting_location = "loc-landing"

[[locations]]
id = "loc-landing"
name = "The Landing"
description = "A timber jetty, a rope ferry and a toll hut."
exits = ["loc-chapel"]

[[locations]]
id = "loc-chapel"
name = "The Chapel"
description = "A whitewashed chapel on the bluff."
exits = ["loc-landing"]

[[pcs]]
id = "pc-ada"
name = "Ada Varga"
owner = "player:ada"
class = "rogue"
level = 3
hp = 20
location = "loc-landing"
pronoun = "she"

[[pcs]]
id = "pc-bram"
name = "Bram Holt"
owner = "player:bram"
class = "fighter"
level = 3
hp = 28
location = "loc-landing"
pronoun = "he"

[[npcs]]
id = "npc-joost"
name = "Joost"
aliases = ["the ferryman"]
description = "The ferryman, stone-deaf since the boiler burst; he reads lips."
kind = "npc"
bestiary = "commoner"
location = "loc-landing"
pronoun = "he"
conditions = ["deafened"]

[[npcs]]
id = "npc-stien"
name = "Stien"
description = "Joost's elder sister; she keeps the toll hut."
kind = "npc"
bestiary = "commoner"
location = "loc-landing"
pronoun = "she"

[[npcs]]
id = "npc-tobiah"
name = "Tobiah"
description = "An old blind ropemaker who knows every knot by touch."
kind = "npc"
bestiary = "commoner"
location = "loc-landing"
pronoun = "he"
conditions = ["blinded"]

[[npcs]]
id = "npc-hild"
name = "Hild"
description = "The chapel's prioress, come down to the landing to meet the ferry."
kind = "npc"
bestiary = "commoner"
location = "loc-landing"
pronoun = "she"

[[npcs]]
id = "npc-garrick"
name = "Garrick"
description = "A pedlar waiting out the rain in the chapel porch."
kind = "npc"
bestiary = "commoner"
location = "loc-chapel"
pronoun = "he"

[[items]]
id = "item-compass"
name = "Ada's compass"
description = "A brass pocket compass with a cracked glass."
holder = "pc-ada"

[[relationships]]
source = "npc-stien"
target = "pc-ada"
edge_kind = "friend"
attitude = 40
reason = "Stien and Ada bailed the ferry together through the flood"

[[threads]]
id = "debt-0001-01"
thread_kind = "debt"
terms = "Joost owes Stien twenty guilders for mending the hut roof"
parties = ["npc-joost", "npc-stien"]
roles = { npc-joost = "owes", npc-stien = "owed" }
status = "settled"
status_reason = "Joost repaid Stien in full"

[[threads]]
id = "favor-0002-01"
thread_kind = "favour"
terms = "Hild owes Ada a favour for pulling her niece out of the river"
parties = ["npc-hild", "pc-ada"]
roles = { npc-hild = "owes", pc-ada = "owed" }

[[threads]]
id = "debt-0002-01"
thread_kind = "debt"
terms = "Ada owes Bram three guilders for the ferry fare he paid for her"
parties = ["pc-ada", "pc-bram"]
roles = { pc-ada = "owes", pc-bram = "owed" }

[[history]]
session = 2
summary = "Ada drops her compass off the jetty; the river takes it."
witnesses = ["pc-ada", "pc-bram"]
changes = [
  { kind = "transfer_item", item = "item-compass", from_holder = "pc-ada" },
  { kind = "set_fact", key = "item-compass-fate", value = "lost" },
]
"""


@pytest.fixture(scope="module")
def ferry(tmp_path_factory: pytest.TempPathFactory) -> WorldSnapshot:
    path: Path = tmp_path_factory.mktemp("ferry") / "ferry.toml"
    path.write_text(_FERRY, encoding="utf-8")
    scenario = load_scenario(path)
    world = final_world(scenario, "gm")
    return snapshot_from_world(world, scenario=scenario, scene=scene_at(world, "loc-landing"))


def _records(text: str, snap: WorldSnapshot) -> set[str]:
    return {v.refuted_by or "" for v in check(text, snap).conflicts()}


@pytest.mark.parametrize(
    "text",
    [
        "Ada, you'd give a good deal to have that compass back.",
        "Ada, you'd have that compass in your hand right now, if not for the river.",
        "Ada, you'd lost that compass off the jetty, and the river keeps it.",
    ],
)
def test_a_would_contraction_frames_the_holding(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_a_holding_told_plainly_to_you_still_fires(ferry: WorldSnapshot) -> None:
    assert "item-compass-holder" in _records("Ada, you turn your compass over in your hand.", ferry)


@pytest.mark.parametrize(
    "text",
    [
        "Joost pulls a brass compass of his own from his coat, a cheap thing with a tin lid.",
        "Joost pulls another brass compass from his coat.",
        "Joost pulls a brass compass like Ada's from his coat.",
    ],
)
def test_one_of_a_kind_is_not_the_recorded_thing(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_the_thing_told_by_its_description_still_links(ferry: WorldSnapshot) -> None:
    assert "item-compass-holder" in _records("Joost pulls a brass compass from his coat.", ferry)


@pytest.mark.parametrize(
    "text",
    [
        "Joost hears from his sister by letter that the landing will flood tonight.",
        "Joost hears of the flood from Ada's slate.",
    ],
)
def test_news_heard_of_is_no_hearing(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_the_deaf_hearing_a_sound_still_fires(ferry: WorldSnapshot) -> None:
    assert "npc-joost-condition-deafened" in _records("Joost hears the ferry bell.", ferry)


@pytest.mark.parametrize(
    "text", ["Hild has repaid no debt to Ada yet.", "Hild has repaid nothing to Ada yet."]
)
def test_a_payment_denied_by_its_object_keeps_the_favour_open(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_an_open_favour_told_repaid_still_fires(ferry: WorldSnapshot) -> None:
    assert "favor-0002-01" in _records("Hild has repaid Ada in full.", ferry)


@pytest.mark.parametrize(
    "text",
    [
        "Joost, who owed his sister for the roof until last spring, owes nobody anything now.",
        "Joost doesn't owe Stien a thing.",
    ],
)
def test_owing_nobody_anything_is_settled(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_a_settled_debt_told_owed_still_fires(ferry: WorldSnapshot) -> None:
    assert "debt-0001-01" in _records("Joost still owes Stien for the roof.", ferry)


def test_colours_told_apart_by_hand_are_no_sight(ferry: WorldSnapshot) -> None:
    text = "Tobiah picks out the red cord from the blue, rubbing each between finger and thumb."
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_colours_told_apart_by_the_blind_still_fire(ferry: WorldSnapshot) -> None:
    assert "npc-tobiah-condition-blinded" in _records("Tobiah picks out the red cord from the blue.", ferry)


@pytest.mark.parametrize("text", ["Garrick mistrusts ferrymen on principle.", "Garrick resents the toll."])
def test_a_verb_of_feeling_places_nobody(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_someone_elsewhere_doing_something_here_still_fires(ferry: WorldSnapshot) -> None:
    assert "npc-garrick-location" in _records("Garrick mends a net.", ferry)


def test_what_a_debt_is_for_stops_at_its_own_clause(ferry: WorldSnapshot) -> None:
    text = "Stien was paid back for the roof in the spring, and she has not mentioned it since."
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_a_debt_told_paid_by_what_it_is_for_still_fires(ferry: WorldSnapshot) -> None:
    assert "debt-0002-01" in _records("The ferry fare is paid at last.", ferry)


def test_words_caught_off_the_lips_are_no_hearing(ferry: WorldSnapshot) -> None:
    text = "Joost squints at Bram's mouth as the big man speaks, catching one word in three off his lips."
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_the_deaf_catching_words_still_fires(ferry: WorldSnapshot) -> None:
    assert "npc-joost-condition-deafened" in _records("Joost catches every word Stien says.", ferry)


def test_what_is_done_in_a_named_place_is_done_there(ferry: WorldSnapshot) -> None:
    text = "Garrick warms his hands at the brazier in the Chapel and eats his bread."
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_a_thing_put_in_a_place_places_no_putter(ferry: WorldSnapshot) -> None:
    text = "Stien stores her nets in the Chapel over the winter."
    assert check(text, ferry).ok, check(text, ferry).hint()


def test_someone_here_told_doing_something_elsewhere_fires(ferry: WorldSnapshot) -> None:
    assert "npc-stien-location" in _records("Stien eats her bread in the Chapel.", ferry)


@pytest.mark.parametrize(
    "text",
    ["Stien, Ada's sister in arms since the flood, waves.", "Stien, Ada's sister in the Guild, waves."],
)
def test_a_kin_term_of_fellowship_is_no_kin(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).ok, check(text, ferry).hint()


@pytest.mark.parametrize("text", ["Stien, Ada's sister, waves.", "Stien, Ada's sister in the Chapel, waves."])
def test_a_kin_term_of_blood_still_fires(ferry: WorldSnapshot, text: str) -> None:
    assert check(text, ferry).conflicts(), text
