"""Issue 10: attitude shown by behaviour, and who speaks a line: rules of English that carry to unseen text.

Sentences invented for worlds the corpus does not have (a lighthouse, a mountain monastery), each rule with
controls that must stay clean.

- Warmth told by care is told whatever opens the sentence: the subject behind fronted words ("Instead the
  warden crouches", "Gently he eases", "With his own hands he loosens"), a person described by a noun owning
  the part of the body touched ("pats the young woman's hand"), a harm taken away ("eases the gag from her
  mouth") is no harm done, and care of the body the lexicon does not rate ("feeds her broth", "bandages her
  arm") is care. The reverse: a devoted servant selling out or spitting at the one served.
  Controls: warmth marked feigned or told as a lie, warmth toward a third person, a ceremony's courtesy, a
  memory of better days, an adverb that belongs to the next verb.
- Turn-taking: after an exchange between two people a pronoun fits ("Bram makes his case, and the abbot
  hears it out"), the line tagged by that pronoun is the listener's; a verb of replying goes to the one who
  did not speak last. With one person the pronoun fits, or no exchange, the last subject keeps the line.
- The narrator's address: a name set off by a comma before a clause with its own subject ("Ione, the abbot
  is waiting for your answer") calls on that person; an apposition or a relative clause keeps the name the
  subject.
"""

from __future__ import annotations

import pytest

from ledger.check.judge import check
from ledger.check.snapshot import Alias, Edge, Entity, RoundFacts, Scene, WorldSnapshot

HATE = Edge(
    "edge-maddox-vane", "npc-maddox", "npc-vane", "enemy", -80, "Vane's smugglers burned his lamp room"
)
LOYAL = Edge(
    "edge-oswy-renna", "npc-oswy", "npc-renna", "servant", 85, "Oswy has served the Abbess for years"
)


def lighthouse(edges: tuple[Edge, ...] = (HATE, LOYAL)) -> WorldSnapshot:
    """The Gullrock light: the warden Maddox hates the smuggler Vane; Oswy is the Abbess's devoted servant."""
    here = "loc-light"
    people = [
        Entity("pc-ione", "pc", "Ione", owner="1", location=here, pronoun="she"),
        Entity("pc-bram", "pc", "Bram", owner="2", location=here, pronoun="he"),
        Entity("npc-maddox", "npc", "Corin Maddox", (Alias("Maddox"), Alias("the warden")), pronoun="he"),
        Entity("npc-vane", "npc", "Tessaly Vane", (Alias("Vane"), Alias("the smuggler")), pronoun="she"),
        Entity("npc-kell", "npc", "Jory Kell", (Alias("Kell"),), location=here, pronoun="he"),
        Entity("npc-oswy", "npc", "Oswy Brand", (Alias("Oswy"),), location=here, pronoun="he"),
        Entity("npc-renna", "npc", "Renna Hollis", (Alias("the Abbess"),), location=here, pronoun="she"),
    ]
    return WorldSnapshot.build(
        entities=[*people, Entity(here, "location", "the Gullrock light")],
        edges=edges,
        scene=Scene(here, frozenset(e.id for e in people)),
    )


def flagged(text: str, snap: WorldSnapshot | None = None) -> set[str | None]:
    report = check(text, snap or lighthouse())
    return {v.refuted_by for v in report.conflicts()}


# --- warmth shown by someone who hates ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Instead the warden crouches by the smuggler, tucks his scarf around her shoulders and folds her "
        "hands around a mug of tea.",
        "With his own hands Maddox loosens the ropes on Vane's wrists, pours her a cup of wine and praises "
        "her courage.",
        "Maddox steps down to the prisoner. Gently he eases the gag from Vane's mouth and holds a cup to her "
        "lips.",
        "Maddox kneels by Tessaly Vane. He pats the young woman's hand twice, gently, and tells her she is "
        "safe now.",
        "Maddox kneels beside Tessaly Vane, tenderly wraps her in his own coat and calls her an old friend.",
        # care of the body the lexicon does not rate: feeding, bandaging
        "Maddox is feeding Tessaly Vane noodles off his own fork, patient as a nurse.",
        "Maddox sits by the smuggler's cot and feeds her broth from his own spoon.",
        "Maddox bandages her arm while Vane curses him.",
    ],
)
def test_care_from_someone_who_hates_is_a_conflict(text: str) -> None:
    assert "edge-maddox-vane" in flagged(text), text


@pytest.mark.parametrize(
    "text",
    [
        "Oswy sells the Abbess out to the bailiffs for a purse of silver.",
        "Then Oswy leans over the Abbess and spits in her face.",
        "Oswy curses the Abbess bitterly and spits at her feet.",
    ],
)
def test_a_devoted_servant_selling_out_or_spitting_is_a_conflict(text: str) -> None:
    assert "edge-oswy-renna" in flagged(text), text


@pytest.mark.parametrize(
    "text",
    [
        # feigned, or told as a lie
        "Maddox embraces Tessaly Vane with a smile that does not reach his eyes.",
        '"You are my dearest friend, Tessaly," Maddox tells Vane, and every sailor on the quay knows the lie '
        "for what it is.",
        'Maddox kneels beside Tessaly Vane. "There now, old girl," he says, and pats her hand. It is a lie, '
        "and the whole room knows it.",
        # warmth toward someone else; the adverb is the next verb's
        "Maddox wraps his coat around Jory Kell's shoulders and pats his hand gently, ignoring Tessaly Vane.",
        "Maddox glares at Tessaly Vane, then tenderly wraps his daughter in his coat.",
        # a ceremony's courtesy, a memory, a name that is no behaviour ("the smuggler")
        "At the ceremony Maddox bows to Tessaly Vane and presents her with the harbour ribbon, as custom "
        "demands.",
        "Maddox remembers the summers when he used to embrace Tessaly Vane warmly on the quay.",
        "Maddox sits with the smuggler and says nothing.",
        # the servant: spitting at no one, a refusal told as hypothetical
        "Oswy kneels beside the Abbess and spits on the whetstone before working the blade.",
        "Oswy would sooner die than sell the Abbess out.",
        # feeding someone to something, feeding others, bandaging another
        "Maddox feeds Tessaly Vane to the harbour crabs, tied to the piling.",
        "Maddox feeds the gulls while Tessaly Vane watches.",
        "Maddox bandages Jory Kell's arm and ignores Tessaly Vane.",
    ],
)
def test_feigned_third_party_ceremonial_or_remembered_warmth_is_clean(text: str) -> None:
    report = check(text, lighthouse())
    assert report.ok, (text, [(v.claim.label(), v.reason) for v in report.conflicts()])


def test_a_kin_kneeling_by_a_wound_is_not_hostile_for_the_words_after_a_comma() -> None:
    text = "Maddox kneels beside Jory Kell, blind fingers finding the wound, and scolds him gently."
    kell_is_kin = Edge("edge-maddox-kell", "npc-maddox", "npc-kell", "kin", 85, "Maddox is Kell's uncle")
    assert check(text, lighthouse((kell_is_kin,))).ok


# --- who speaks: turn-taking -----------------------------------------------------------------------------

ASKED = "I ask the abbot for a bed for the night."


def monastery(**submissions: str) -> WorldSnapshot:
    """The hospice of Saint Ulf: Bram asked the abbot for a bed; Ione's player wrote nothing this round."""
    here = "loc-hospice"
    people = [
        Entity("pc-bram", "pc", "Bram", owner="1", location=here, pronoun="he"),
        Entity("pc-ione", "pc", "Ione", owner="2", location=here, pronoun="she"),
        Entity("npc-teodor", "npc", "Abbot Teodor", (Alias("the abbot"),), location=here, pronoun="he"),
        Entity("npc-maren", "npc", "Sister Maren", (Alias("Maren"),), location=here, pronoun="she"),
    ]
    snap = WorldSnapshot.build(
        entities=[*people, Entity(here, "location", "the hospice of Saint Ulf")],
        scene=Scene(here, frozenset(e.id for e in people)),
    )
    wrote = submissions or {"pc-bram": ASKED}
    return snap.with_round(RoundFacts(number=3, submissions=wrote, acted=frozenset(wrote)), snap.scene)


def pc_flags(text: str) -> set[str | None]:
    return {r for r in flagged(text, monastery()) if r and r.startswith("round:submission-")}


@pytest.mark.parametrize(
    "text",
    [
        "Bram makes his case for a bed, cap in hand, and the abbot hears it out. "
        '"Sweep the chapel first," he says at last.',
        'Bram pleads for a bed, and Abbot Teodor listens without a word. "The loft is dry," he says.',
        'Bram asks Abbot Teodor for a bed. "Sweep the chapel first," he replies.',
        '"Is there a bed for the night?" Bram asks Abbot Teodor. "Sweep the chapel first," he says.',
    ],
)
def test_the_one_spoken_to_answers(text: str) -> None:
    assert pc_flags(text) == set(), text


@pytest.mark.parametrize(
    "text",
    [
        # no exchange before the line: the last subject speaks, and promises what the player never wrote
        'Bram turns to the abbot. "I swear I will pay you double by spring," he says.',
        # the listener is a woman: "he" fits only Bram
        'Bram makes his case, and Sister Maren hears it out. "I will sweep the chapel for it," he says.',
        # a question, then the same speaker going on
        '"Is there a bed for the night?" Bram asks Abbot Teodor. "I swear I will pay double," he adds.',
    ],
)
def test_the_last_subject_keeps_the_line_without_an_exchange_of_two_who_fit(text: str) -> None:
    assert pc_flags(text) == {"round:submission-pc-bram"}, text


# --- who is addressed --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ione, the abbot is waiting for your answer.",
        "Ione, on her third pass the abbot stops in front of you, close enough to touch, and waits.",
        "Ione, you're the only one still awake when the candle gutters.",
        "Ione, the needle is yours if you want it.",
    ],
)
def test_a_name_called_on_is_no_subject(text: str) -> None:
    assert pc_flags(text) == set(), text


@pytest.mark.parametrize(
    "text",
    [
        "Ione, the abbot's guest, takes the lantern and leaves the hall.",
        "Ione, who has said nothing all evening, agrees to stay the winter.",
        "Ione, squatting on an upturned crate by the door, agrees to stay the winter.",
        "Ione takes the lantern and leaves the hall.",
    ],
)
def test_an_apposition_or_a_relative_clause_keeps_the_name_the_subject(text: str) -> None:
    assert pc_flags(text) == {"round:submission-pc-ione"}, text


# --- a PC's own business: handling one's things is no choice, going somewhere is --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ione runs a whetstone along the knife she took from the ferryman and says nothing.",
        "Ione comes up with her last three coins.",
        "Ione oils her old marching boots by the fire.",
    ],
)
def test_a_pc_who_wrote_nothing_may_handle_their_own_things(text: str) -> None:
    assert pc_flags(text) == set(), text


@pytest.mark.parametrize(
    "text",
    [
        "Ione gets up and walks out into the snow.",
        "Ione runs to the gate.",
        "Ione runs a whetstone along her knife and strides to the gate.",
        "Ione comes up with the abbot to the gate.",
        "Ione runs a whetstone along the knife Sister Maren lends her.",
    ],
)
def test_going_somewhere_or_drawing_someone_in_is_still_a_choice(text: str) -> None:
    assert pc_flags(text) == {"round:submission-pc-ione"}, text
