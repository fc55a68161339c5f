"""NPC voices: personas drive short lines; GM notes are never spoken; an NPC speaks only of what it knows."""

from __future__ import annotations

import re

from bot.narrator.base import ActionOutcome, ConflictNote, Draft, SceneCreature
from bot.narrator.offline import OfflineNarrator
from bot.narrator.pipeline import narrate_checked
from bot.narrator.prompt import build_prompt
from bot.narrator.voices import MAX_LINES, persona_from_sheet, plain_voice, speakable, wake
from tests.test_narrator_offline import harbour_round

narrator = OfflineNarrator()
MAREN_SHEET = {
    "persona": "Charming, careful, ruthless when cornered. Secretly runs the smuggling ring.",
    "speech": "Formal and friendly; never raises her voice.",
}
WEI_SHEET = {
    "persona": {
        "voice": "dry, unhurried, tax-office jargon",
        "address": {"pc-greyrock": "the dwarf with the bad arithmetic", "everyone": "citizen"},
        "knows": [],
        "traits": [
            {"on": "event", "ref": "addressed", "line": "Speak plainly, {address}. The ledger is open."},
            {
                "on": "event",
                "ref": "helped",
                "line": "Paid in full, {address}. Rare.",
                "attitude": [20, 100],
            },
            {
                "on": "thread",
                "ref": "favor-0003-01",
                "line": "The favour is still on my books, {address}.",
                "mentions": ["favor-0003-01"],
            },
            {
                "on": "person",
                "ref": "pc-greyrock",
                "line": "I saw what happened at the bond room, {address}.",
                "mentions": ["ev-000063"],
            },
        ],
    }
}


def npc(name: str, sheet: dict[str, object], **more: object) -> SceneCreature:
    ident = "npc-" + name.lower().replace(" ", "-")
    creature = SceneCreature(id=ident, name=name, kind="npc", voice=persona_from_sheet(sheet), **more)  # type: ignore[arg-type]
    return creature.model_copy(update={"persona": speakable(creature)})


def talk(actor: str, target: SceneCreature, text: str = "ask about the ship") -> ActionOutcome:
    return ActionOutcome(
        actor_id=f"pc-{actor.lower()}",
        actor_name=actor,
        actor_is_pc=True,
        kind="talk",
        outcome="done",
        submitted_text=text,
        target_id=target.id,
        target_name=target.name,
    )


def give(actor: str, target: SceneCreature) -> ActionOutcome:
    return ActionOutcome(
        actor_id=f"pc-{actor.lower()}",
        actor_name=actor,
        actor_is_pc=True,
        kind="give",
        outcome="success",
        target_id=target.id,
        target_name=target.name,
        item_id="item-gold-coins",
        item_name="gold coins",
        quantity=5,
    )


def scene(*creatures: SceneCreature, outcomes: tuple[ActionOutcome, ...], seed: int = 0, **more: object):  # type: ignore[no-untyped-def]
    base = harbour_round()
    return base.model_copy(
        update={
            "creatures": (*base.creatures, *creatures),
            "outcomes": outcomes,
            "records": (),
            "reveals": (),
            "variety_seed": seed,
            **more,
        }
    )


def test_a_free_text_persona_is_a_gm_note_nothing_of_it_is_ever_spoken() -> None:
    assert plain_voice(MAREN_SHEET["persona"]) == "Charming, careful, ruthless when cornered"
    assert plain_voice("Dutiful; suspects the party over Voss's death but lacks proof.") == "Dutiful"
    assert plain_voice("Secretly runs the smuggling ring.") == ""
    maren = npc("Maren Holt", MAREN_SHEET)
    assert "smuggling" not in maren.persona and "Secretly" not in maren.persona
    for seed in range(40):
        for outcome in (talk("Greyrock", maren), give("Greyrock", maren)):
            draft = narrator.narrate_now(scene(maren, outcomes=(outcome,), seed=seed))
            assert not re.search(r"smuggl|ring|secret", draft.public_text, re.I), draft.public_text
    system = (
        build_prompt(scene(maren, outcomes=()), context_tokens=8192, reply_tokens=512).messages[0].content
    )
    assert "Maren Holt (npc, alive); voice: Charming, careful, ruthless when cornered" in system
    assert "smuggling" not in system and "Secretly" not in system


def test_an_addressed_npc_answers_in_its_own_voice_and_the_round_keeps_why() -> None:
    bessa = npc("Bessa Marlow", {"persona": "Warm but hard-nosed.", "speech": "Calls everyone 'love'."})
    draft = narrator.narrate_now(scene(bessa, outcomes=(talk("Greyrock", bessa),), seed=3))
    assert len(draft.voices) == 1, draft.public_text
    voice = draft.voices[0]
    assert voice.npc_id == "npc-bessa-marlow" and voice.trigger == "stock:addressed" and voice.cause == 0
    assert "Greyrock spoke to Bessa Marlow" in voice.why and voice.text in draft.public_text
    assert re.search(r"“[^”]*love[^”]*” Bessa Marlow (answers|replies|says)\.", draft.public_text), (
        draft.public_text
    )


def test_structured_traits_use_their_line_address_and_attitude_range() -> None:
    cold = npc("Old Wei", WEI_SHEET)
    draft = narrator.narrate_now(scene(cold, outcomes=(talk("Greyrock", cold),), seed=1))
    assert "“Speak plainly, dwarf with the bad arithmetic. The ledger is open,” Old Wei" in draft.public_text
    assert draft.voices[0].trigger == "event:addressed"
    # helped: the "Paid in full" trait needs attitude 20..100 towards the helper; at 0 it is suppressed
    paid = narrator.narrate_now(scene(cold, outcomes=(give("Greyrock", cold),), seed=1))
    assert "Paid in full" not in paid.public_text
    warm = npc("Old Wei", WEI_SHEET, attitudes=(("pc-greyrock", 35),))
    paid = narrator.narrate_now(scene(warm, outcomes=(give("Greyrock", warm),), seed=1))
    assert "“Paid in full, dwarf with the bad arithmetic. Rare,” Old Wei" in paid.public_text
    assert paid.voices[0].attitude == 35 and "(attitude +35)" in paid.voices[0].why


def test_an_npc_who_did_not_witness_it_never_mentions_it() -> None:
    """The bond-room line speaks of ev-000063, the favour line of favor-0003-01: only a knower says them."""
    from bot.narrator.base import RetrievedRecord

    favour = RetrievedRecord(
        ref="favor-0003-01",
        text="favor-0003-01 (favour, open, since session 3): Greyrock owes Old Wei one favour",
        why="permanent favour involving Old Wei, Greyrock (present)",
    )
    hit = ActionOutcome(
        actor_id="pc-greyrock",
        actor_name="Greyrock",
        actor_is_pc=True,
        kind="hold",
        outcome="done",
    )
    unaware = npc("Old Wei", WEI_SHEET)
    for seed in range(60):
        request = scene(unaware, outcomes=(hit,), seed=seed, records=(favour,))
        text = narrator.narrate_now(request).public_text
        assert "bond room" not in text and "still on my books" not in text, text
        assert all(v.trigger not in ("thread:favor-0003-01", "person:pc-greyrock") for v in wake(request))
    knower = npc("Old Wei", WEI_SHEET, knows=("favor-0003-01", "ev-000063"))
    told = set()
    for seed in range(60):
        request = scene(knower, outcomes=(hit,), seed=seed, records=(favour,))
        told.update(v.trigger for v in wake(request))
    assert told == {"thread:favor-0003-01", "person:pc-greyrock"}, told


def test_the_dead_and_the_down_never_speak_and_a_round_has_at_most_two_lines() -> None:
    voices = [npc(f"Clerk {n}", {"speech": "Calls everyone 'friend'."}) for n in "ABCD"]
    outcomes = tuple(talk("Greyrock", clerk) for clerk in voices)
    for seed in range(30):
        lines = wake(scene(*voices, outcomes=outcomes, seed=seed))
        assert 1 <= len(lines) <= MAX_LINES and len({v.npc_id for v in lines}) == len(lines)
        assert lines == wake(scene(*voices, outcomes=outcomes, seed=seed))  # deterministic per seed
    dead = voices[0].model_copy(update={"alive": False})
    down = voices[1].model_copy(update={"down": True})
    request = scene(dead, down, outcomes=(talk("Greyrock", dead), talk("Mira", down)))
    assert wake(request) == ()


async def test_an_npc_line_the_check_drops_does_not_stay_on_the_round_record() -> None:
    bessa = npc("Bessa Marlow", {"speech": "Calls everyone 'love'."})
    request = scene(bessa, outcomes=(talk("Greyrock", bessa),), seed=2)
    assert narrator.narrate_now(request).voices

    def no_bessa_lines(draft: Draft) -> list[ConflictNote]:
        flagged = "Bessa Marlow answers" in draft.public_text or "Bessa Marlow replies" in draft.public_text
        flagged = flagged or "Bessa Marlow says" in draft.public_text
        return [ConflictNote(claim="line", message="no lines")] if flagged else []

    outcome = await narrate_checked(request, narrator=None, fallback=narrator, check=no_bessa_lines)
    assert outcome.draft.voices == () and "Greyrock" in outcome.draft.public_text


def test_a_bad_trait_is_skipped_and_the_rest_still_speak() -> None:
    persona = persona_from_sheet(
        {
            "persona": {
                "traits": [
                    {"on": "event", "ref": "addressed", "line": "See [npc-maren-holt] about it."},
                    {"on": "weather", "ref": "rain", "line": "Rain again."},
                    {"on": "event", "ref": "addressed", "line": "Yes, {address}?"},
                ]
            }
        }
    )
    assert persona is not None and [t.line for t in persona.traits] == ["Yes, {address}?"]
    assert persona_from_sheet({}) is None and persona_from_sheet({"hostile": True}) is None


def test_the_scene_reads_what_each_npc_knows_and_its_attitudes_from_the_ledger() -> None:
    """bot.scene fills ``knows`` from the NPC's witnessed events and the records bound to it, nothing else."""
    from types import SimpleNamespace

    from bot.narrator.base import RetrievedRecord
    from bot.scene import Scene, _attitudes, _known_refs

    wei = SimpleNamespace(id="npc-old-wei", name="Old Wei")
    bessa = SimpleNamespace(id="npc-bessa", name="Bessa Marlow")
    signet = SimpleNamespace(id="item-voss-signet", name="Voss's signet ring")
    place = Scene(
        campaign_id=1,
        locations=("loc-harbor",),
        creatures={"npc-old-wei": wei, "npc-bessa": bessa},  # type: ignore[dict-item]
        holdings={},
        items={"item-voss-signet": signet},  # type: ignore[dict-item]
        places={},
        exits=(),
    )
    knowledge = {
        "npc-old-wei": (
            "favour favor-0003-01 opened: Wei hid a shipment",
            "Greyrock gained Voss's signet ring",
        ),
        "npc-bessa": ("Greyrock went to The Salty Gull",),
    }
    records = (
        RetrievedRecord(
            ref="oath-0004-01",
            text="oath-0004-01 (oath, open, since session 4): ...",
            why="oath involving Bessa Marlow (present)",
        ),
        RetrievedRecord(
            ref="npc-old-wei>pc-greyrock:ally",
            text="Old Wei -> Greyrock: ally (attitude +35, since session 3): a favour to collect",
            why="permanent ally involving Old Wei (present)",
        ),
    )
    wei_knows = _known_refs(wei, place, knowledge, None, records)  # type: ignore[arg-type]
    bessa_knows = _known_refs(bessa, place, knowledge, None, records)  # type: ignore[arg-type]
    assert "favor-0003-01" in wei_knows and "item-voss-signet" in wei_knows
    assert "favor-0003-01" not in bessa_knows and "item-voss-signet" not in bessa_knows
    assert "oath-0004-01" in bessa_knows and "oath-0004-01" not in wei_knows
    given = _known_refs(bessa, place, knowledge, {"npc-bessa": ("ev-000063",)}, ())  # type: ignore[arg-type]
    assert "ev-000063" in given
    assert _attitudes("npc-old-wei", records) == (("pc-greyrock", 35),)
    assert _attitudes("npc-bessa", records) == ()
