"""Items told in the scene now by any verb: put up somewhere, or brought, carried and used.

Two more ways a sentence tells a thing physically here, read by :mod:`.item_scene` beside its verbs of
posture and place:

* the thing is the subject of a passive or adjectival participle of placing with a place after it ("the
  chart is tacked up over the wheel", "the survey is spread on a crate", "the map, pinned to the wall,");
* the thing is the direct object of a present verb of bringing, handing, carrying, holding or using (the
  lexicon's handling class and the verbs of bringing; "A thrall brings the horn", "drinks from the horn"),
  whoever does it.

Nothing is read for a thing named only as what was lost or destroyed ("the horn he smashed", "the chart
that went down with him"): a relative clause with a past verb after it (:func:`named_as_lost`). The other
exemptions (modality, likeness, wreck words, places of loss, finding) are :mod:`.item_scene`'s. Imports
:mod:`.item_here`, :mod:`.lexicon`, :mod:`.names`, :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from ledger.check.extract.in_use import _subject_before
from ledger.check.extract.item_here import _NOT_A_PLACE
from ledger.check.extract.lexicon import _NEGATION, VERBS
from ledger.check.extract.linker import noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import HANDLING, tags
from ledger.check.extract.verbs import lemma as verb_lemma

# verbs of putting a thing up or out where it stays in view (not of hiding or burying it)
PLACING = frozenset(
    {"tack", "pin", "nail", "hang", "spread", "prop", "lay", "set", "stack", "pile", "drape", "tape", "clip"}
    | {"post", "mount", "shelve", "unroll", "unfold", "perch", "fix", "fasten", "lash", "chain", "tuck"}
    | {"lean", "place", "arrange", "display"}
)
# verbs whose object is in hand or in use here: the lexicon's handling class and the verbs of bringing
# and drinking (not those of taking a thing from somewhere: that may be finding it)
USING = (HANDLING | {"bring", "fetch", "sip", "swig", "quaff", "pour", "fill", "sup", "unpack"}) - {
    "take",
    "grab",
    "snatch",
    "seize",
    "pocket",
    "give",
    "check",
    "turn",
    "produce",
    "pull",
    "show",
}
_BE_NOW = frozenset({"is", "are", "'s"})
_PARTICLES = frozenset({"up", "out", "down", "open", "flat", "back", "neatly", "carefully", "firmly"})
_PLACE_LEAD = frozenset(
    {"on", "upon", "in", "inside", "at", "by", "beside", "against", "under", "beneath", "behind", "over"}
    | {"above", "across", "along", "atop", "to", "onto", "near", "between", "from", "around"}
)
_STAY = frozenset({"still", "now", "already", "always", "just", "again", "neatly", "carefully"})
_NOT_NOW = frozenset(
    {"to", "will", "would", "could", "can", "might", "may", "must", "shall", "should", "did", "does", "do"}
    | {"'ll", "'d", "wo", "ca"}
)
_REL = frozenset({"that", "which", "he", "she", "they", "we", "i", "you", "who", "it"})
_SOURCES = frozenset({"from", "out", "off"})
# verbs a place does to what it keeps: read only with a creature doing them
_KEEPING = frozenset({"hold", "keep", "cradle", "clasp", "grip", "clutch", "wear", "roll", "turn", "spin"})
# places and forces that keep or carry lost things
_NATURE = frozenset(
    {"river", "current", "water", "tide", "sea", "flood", "silt", "mud", "sand", "stream", "wave", "wind"}
    | {"fire", "flame", "earth", "ground", "rubble", "rock", "lake", "ocean", "deep", "wreck", "fall", "ice"}
    | {"snow", "bog", "marsh", "grave", "dark", "darkness", "storm", "eddy", "undertow", "flow"}
)
_NOBODY = _NEGATION | {"nobody", "none", "nothing", "neither", "one"}


def _base(form: str) -> str | None:
    return VERBS.get(form) or verb_lemma(form)


def _participle(form: str) -> str | None:
    """The verb of placing ``form`` is a past participle of ("tacked", "hung", "spread"), else None."""
    base = _base(form)
    if base not in PLACING or base is None:
        return None
    if form == base and not tags(form, base) & {"VBN"}:
        return None
    return base if tags(form, base) & {"VBN", "VBD"} else None


def _place_at(s: _Sentence, q: int) -> bool:
    """True when a place phrase opens at token ``q`` (after particles) and names no wreck or mind."""
    while q < s.b and s.tokens[q].low in _PARTICLES:
        q += 1
    if q >= s.b or s.tokens[q].low not in _PLACE_LEAD:
        return False
    return not (_NOT_A_PLACE & {t.low for t in s.tokens[q : min(s.b, q + 8)]})


def placed_passive(s: _Sentence, m: Mention, opens: bool) -> bool:
    """ "the chart is tacked up over the wheel", "the map, pinned to the wall,": the thing (opening its
    clause when ``opens``) then "is" and a participle of placing, or the participle alone after a comma or
    right after it in a narration told in the present, then a place."""
    j = m.j
    toks = s.tokens
    if j < s.b and toks[j].low in _BE_NOW and opens:
        j += 1
        while j < s.b and toks[j].low in _STAY:
            j += 1
    elif j < s.b and toks[j].text == "," and s.ex.present_tense:
        j += 1
    elif not s.ex.present_tense:
        return False
    if j >= s.b or toks[j].quoted or not toks[j].text.islower() or _participle(toks[j].low) is None:
        return False
    return _place_at(s, j + 1)


def used_now(s: _Sentence, m: Mention, start: int) -> bool:
    """ "A thrall brings the horn", "Ketil drinks from the horn", "unrolls the survey": a present verb of
    bringing or using right before the thing's phrase (or "from" after it), not after "to" or a modal, and
    not taking it from somewhere."""
    v = start - 1
    toks = s.tokens
    if v > s.a and toks[v].low in ("in", "up", "over", "round", "around", "back", "forward"):
        v -= 1  # "carries in the horn", "holds up the chart"
    elif v > s.a and toks[v].low in ("from", "out", "of"):
        v -= 1
        if v > s.a and toks[v].low == "out":
            v -= 1
    if v <= s.a:
        return False
    t = toks[v]
    base = _base(t.low)
    if t.quoted or not t.text.islower() or base is None or base not in USING:
        return False
    found = tags(t.low, base)
    if "VBZ" not in found and not ("VBP" in found and "VBD" not in found):
        return False
    if toks[v - 1].low in _NOT_NOW or toks[v - 1].low in _NEGATION:
        return False
    c0, _ = s.clause_of(v)
    if any(toks[q].low in _NOBODY for q in range(c0, v)):
        return False
    if _subject_before(s, v) is None:
        # no creature named doing it: a common noun may, if it is no place or force that keeps or carries
        # lost things ("the river holds the chart", "the current carries the map")
        if base in _KEEPING or any(noun_lemma(toks[q].low) in _NATURE for q in range(c0, v)):
            return False
        if any(s.kind(x) == "location" and c0 <= x.i < v for x in s.mentions):
            return False
    return not (m.j < s.b and toks[m.j].low in _SOURCES)  # "pulls the chart from the water": found


def named_as_lost(s: _Sentence, m: Mention) -> bool:
    """True when a relative clause with a past verb follows the thing ("the horn he smashed", "the chart
    that went down with him", "the horn Ketil broke"): it is named as what was lost, not told here."""
    toks = s.tokens
    j = m.j
    if j >= s.b or toks[j].quoted:
        return False
    if not (toks[j].low in _REL or (toks[j].text[:1].isupper() and toks[j].text.isalpha())):
        return False  # "the map tacked over the door": a participle of its own, no relative clause
    j += 1
    for q in range(j, min(s.b, j + 3)):
        form = toks[q].low
        base = _base(form)
        if base is None or not toks[q].text.isalpha():
            continue
        found = tags(form, base)
        if "VBD" in found and not found & {"VBZ", "VBP"}:
            return True
        if form in ("had", "was", "were"):
            return True
    return False
