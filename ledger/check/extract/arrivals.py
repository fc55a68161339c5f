"""Arrivals and meetings told by the shape of a clause, not by word lists of names or places.

A creature a verb sends onto, into or aboard somewhere is brought (``_carried_in``); one found, met or spotted
by someone is where the narration is (``_met_here``); coming "from" the place the record has someone in is
consistent (``_from_own_place``); and a bare past ("let", "put") after one he or she in a present-tense scene
looks back (``_bare_past``, agreement). Read by :mod:`.presence`; imports :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_past, tags, verb_class
from ledger.check.extract.verbs import lemma as verb_lemma

# verb classes that point, speak or look toward someone without moving them
_NOT_MOVING = frozenset({"speech", "commitment", "perception", "state", "posture"})

_INTO = frozenset({"onto", "into", "aboard", "ashore", "inside", "indoors", "downstairs", "upstairs"})
_CARRIED_PARTICLES = frozenset({"over", "up", "down", "across", "back", "out"})


def _carried_in(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` is the object of a verb that sends it somewhere: a verb (of no speech, perception or
    state) right before the name, and right after it a word of direction ("onto the deck", "aboard",
    "in.", "over to the fire")."""
    toks = s.tokens
    if m.i - 1 < s.a or m.j >= s.b or m.poss:
        return False
    before = toks[m.i - 1]
    base = verb_lemma(before.low) if before.text.islower() and not before.quoted else None
    if base is None or verb_class(base) in _NOT_MOVING or base in ("be", "have", "do"):
        return False
    nxt = toks[m.j].low
    after = toks[m.j + 1].low if m.j + 1 < s.b else "."
    if nxt in _INTO:
        return True
    if nxt in ("in", "inside") and after in (".", ",", ";", "and", "through", "from", "out"):
        return True
    return nxt in _CARRIED_PARTICLES and after == "to"


_CLAUSE_VERBS = frozenset({"is", "was", "has", "had", "will", "would", "must", "might", "can", "could"})
# verbs whose object is met where the subject is
_MEETING = frozenset({"find", "meet", "discover", "greet", "join", "spot", "notice", "encounter", "corner"})
_FAR = frozenset({"far", "distance", "across", "through", "window", "below", "above", "beyond", "off"})


def _met_here(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` is the object of a verb of meeting or finding ("finds the abbot waiting"), told as
    fact in the narration, with nothing in the clause that puts them at a distance."""
    toks = s.tokens
    if m.poss:
        return False  # "finds Voss's body", "meets the abbot's clerk": someone else, or what is left
    q = m.i - 1
    if q >= s.a and toks[q].low == "the" and toks[m.i].low != "the":
        q -= 1
    if q < s.a or toks[q].quoted or not toks[q].text.islower():
        return False
    base = verb_lemma(toks[q].low)
    if base not in _MEETING or is_past(toks[q].low, base):
        return False
    e = s.snap.entities.get(m.id or "")
    if e is not None and not e.alive and base not in ("meet", "greet", "join"):
        return False  # "finds Voss in the crypt": a body is found, a dead man is not met
    nxt = toks[m.j] if m.j < s.b else None
    finite = nxt is not None and (nxt.low in _CLAUSE_VERBS or verb_lemma(nxt.low) is not None)
    if nxt is not None and finite and nxt.text.islower() and not nxt.low.endswith("ing"):
        return False  # "notices the abbot is missing": a clause about them, not a meeting
    _, c1 = s.clause_of(m.i)
    # "finds Captain Hurst there": there is a place named before, not where the narration stands
    return not any(t.low in _FAR or t.low == "there" for t in toks[m.j : min(c1, m.j + 8)])


def _from_own_place(s: _Sentence, eid: str, k: int, c1: int) -> bool:
    """True when the clause of the verb at ``k`` names, after "from", the place the record has ``eid`` in
    (or a place inside it or holding it)."""
    e = s.snap.entities.get(eid)
    if e is None or e.location is None:
        return False
    for q in range(k + 1, min(c1, k + 8)):
        if s.tokens[q].low != "from" or s.tokens[q].quoted:
            continue
        place = next((x for x in s.mentions if x.i in (q + 1, q + 2) and s.kind(x) == "location"), None)
        if place is not None and place.id is not None:
            return s.snap.within(place.id, e.location) or s.snap.within(e.location, place.id)
    return False


def _own_place_named(s: _Sentence, eid: str, q: int) -> bool:
    """True when a known place right after "from" at token ``q`` is where the record has ``eid`` (or a place
    inside it or holding it)."""
    e = s.snap.entities.get(eid)
    if e is None or e.location is None:
        return False
    place = next((x for x in s.ex.mentions if x.i in (q + 1, q + 2) and s.kind(x) == "location"), None)
    if place is None or place.id is None or place.quoted:
        return False
    return s.snap.within(place.id, e.location) or s.snap.within(e.location, place.id)


def _origin_in_sentence(s: _Sentence, eid: str) -> bool:
    """True when the sentence names, after "from", the place the record has ``eid`` in, and ``eid`` is the
    creature named nearest that "from": "Fresh from the manor, the Reeve strides in", "the Reeve, mud to the
    knees from the ride down from the manor, barges in", "the Reeve arrives; he has come from the manor"."""
    toks = s.tokens
    creatures = [x for x in s.mentions if x.id and s.kind(x) in ("pc", "npc", "monster") and not x.quoted]
    for q in range(s.a, s.b):
        if toks[q].low != "from" or toks[q].quoted or not _own_place_named(s, eid, q):
            continue
        nearest = min(creatures, key=lambda x: min(abs(x.i - q), abs(x.j - 1 - q)), default=None)
        if nearest is not None and nearest.id == eid:
            return True
    return False


def _origin_told_next(s: _Sentence, eid: str) -> bool:
    """True when the next sentence tells the same creature travelling from the place the record has it in:
    "Roe stamps in out of the rain. He has ridden all the way from Rye Gap": the arrival is the journey's
    end, told, not someone appearing where the record says they are not. The creature must be that sentence's
    subject (named or by pronoun), with a verb of motion before the "from"."""
    toks = s.tokens
    end = toks[s.b - 1].end
    nxt = next((sp for sp in s.ex.sentences if sp[0] >= end), None)
    if nxt is None:
        return False
    q1 = s.b
    while q1 < len(toks) and toks[q1].start < nxt[1]:
        q1 += 1
    subject = next((x for x in s.ex.mentions if s.b <= x.i < q1 and x.id == eid and not x.poss), None)
    if subject is None:
        return False
    moved = False
    for q in range(subject.j, q1):
        t = toks[q]
        if t.quoted:
            return False
        if t.text in (";", ":") or any(
            x.i == q and x.id != eid for x in s.ex.mentions if s.kind(x) != "location"
        ):
            return False  # another clause, or someone else's doing
        base = verb_lemma(t.low) if t.text.islower() else None
        if base is not None and verb_class(base) == "motion":
            moved = True
        if t.low == "from" and moved:
            return _own_place_named(s, eid, q)
    return False


def _bare_past(s: _Sentence, m: Mention, eid: str, form: str, lemma: str) -> bool:
    """True when ``form`` is the bare form of a verb whose past is the same ("let", "put", "set") right
    after one named creature recorded as he, she or it: in the present tense that subject would take "lets",
    so the bare form is the past (agreement, not a word list)."""
    if form != lemma or form in ("be", "have", "do") or m.plural:
        return False
    if (m.i > s.a and s.tokens[m.i - 1].low in ("and", "or", "nor")) or (
        m.j < s.b and s.tokens[m.j].low in ("and", "or")
    ):
        return False
    e = s.snap.entities.get(eid)
    if e is None or e.pronoun not in ("he", "she", "it"):
        return False
    return "VBD" in tags(form, lemma)


def _own_place_beside(s: _Sentence, eid: str) -> bool:
    """True when an arrival's sentence, or one of the two before it, names (outside quotes) the place the
    record has ``eid`` in, and that place is not where the narration stands: "through it comes Lirien, from
    the side of the ring toward the Moon Pool", "Cato comes up out of the fo'c'sle scuttle", "you watch a jeep
    pull out of the Starlite lot. The bell jangles. The Major comes in": the journey from there is told, not
    someone appearing where the record says they are not."""
    e = s.snap.entities.get(eid)
    here = s.snap.scene.location
    if e is None or e.location is None or here is None:
        return False
    if s.snap.within(e.location, here) or s.snap.within(here, e.location):
        return False
    start = s.tokens[s.a].start
    before = [sp[0] for sp in s.ex.sentences if sp[1] <= start][-2:]  # the arrival's lead-in: two sentences
    lo = before[0] if before else start
    for x in s.ex.mentions:
        if x.quoted or x.id is None or s.kind(x) != "location" or x.i >= s.b:
            continue
        if s.tokens[x.i].start < lo:
            continue
        if s.snap.within(here, x.id):
            continue  # a region that holds the scene too ("the village") tells no way in from anywhere
        if _someone_elses(s, x, eid):
            continue  # "Tobit, fresh from the manor, nods as the Reeve strides in": Tobit's journey
        if s.snap.within(x.id, e.location) or s.snap.within(e.location, x.id):
            return True
    return False


def _someone_elses(s: _Sentence, place: Mention, eid: str) -> bool:
    """True when the creature named nearest ``place`` in its sentence is another NPC or monster (not ``eid``,
    not a PC watching): the place is where that one comes from or is, not the newcomer's way in."""
    start = s.tokens[place.i].start
    span = next((sp for sp in s.ex.sentences if sp[0] <= start < sp[1]), None)
    if span is None:
        return False
    near = [
        x
        for x in s.ex.mentions
        if x.id and not x.quoted and span[0] <= s.tokens[x.i].start < span[1]
        if s.kind(x) in ("pc", "npc", "monster")
    ]
    nearest = min(near, key=lambda x: min(abs(x.i - place.i), abs(x.j - 1 - place.i)), default=None)
    return nearest is not None and nearest.id != eid and s.kind(nearest) != "pc"
