"""Two readings any writer's text needs, whatever the world (issue 10).

A title written with a full stop ("Mr. Fang", "Mrs. Vane", "Dr. Osei") ends no sentence: the name after it
is the subject of its verb, and a title that belongs to someone elsewhere is caught. And a second subject
named by a role alias ("and the padre is hunched over a spittoon, grey and shaking") takes over the clause:
its verbs are not the first subject's (an unconscious woman does not shake because the padre does).
"""

from __future__ import annotations

from ledger.check.extract.text import _sentences, tokenize
from ledger.check.judge import check
from ledger.check.snapshot import Alias, Entity, Scene, WorldSnapshot

WORLD = WorldSnapshot.build(
    entities=[
        Entity(id="pc-nadia", kind="pc", name="Nadia Orlova", location="loc-club"),
        Entity(
            id="npc-fang", kind="npc", name="Fang Shou", aliases=(Alias("Mr. Fang"),), location="loc-godown"
        ),
        Entity(
            id="npc-iris",
            kind="npc",
            name="Iris Vane",
            location="loc-club",
            conditions=frozenset({"unconscious"}),
        ),
        Entity(
            id="npc-moran",
            kind="npc",
            name="Declan Moran",
            aliases=(Alias("the padre"),),
            location="loc-club",
        ),
        Entity(id="loc-club", kind="location", name="The Yellow Cat"),
        Entity(id="loc-godown", kind="location", name="the Fang godown"),
    ],
    scene=Scene(location="loc-club", present=frozenset({"pc-nadia", "npc-iris", "npc-moran"})),
)


def test_a_title_stop_ends_no_sentence() -> None:
    text = "Mr. Fang leans on the piano. Dr. Osei waves. It ends at St. Aldous. Then rain."
    spans = [" ".join(t.text for t in tokenize(text)[a:b]) for a, b in _sentences(text, tokenize(text))]
    assert spans == [
        "Mr . Fang leans on the piano .",
        "Dr . Osei waves .",
        "It ends at St . Aldous .",
        "Then rain .",
    ]
    # a full stop after a plain word still ends the sentence, capital next or not
    assert len(_sentences("He left. Fang stayed.", tokenize("He left. Fang stayed."))) == 2


def test_a_man_elsewhere_named_by_his_title_is_caught() -> None:
    report = check("Nadia sings the last verse. Mr. Fang leans against the piano, listening.", WORLD)
    assert "npc-fang-location" in {v.refuted_by for v in report.conflicts()}
    clean = check("Nadia sings the last verse. Mr. Fang, they say, is counting crates at his godown.", WORLD)
    assert "npc-fang-location" not in {v.refuted_by for v in clean.conflicts()}


def test_a_second_subject_named_by_role_takes_over_the_clause() -> None:
    text = (
        "In a booth, Mrs. Vane is out cold, snoring into her fox stole, and the padre is hunched over a "
        "spittoon, grey and shaking from a bad batch of gin."
    )
    assert check(text, WORLD).verdict == "clean"
    # control: the same shaking told of the unconscious woman herself is a contradiction
    told = (
        "In a booth, Mrs. Vane is out cold, snoring into her fox stole, and shaking from a bad batch of gin."
    )
    assert "npc-iris-condition-unconscious" in {v.refuted_by for v in check(told, WORLD).conflicts()}
