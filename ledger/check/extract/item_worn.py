"""Things told worn or carried on someone's body by the shape of the phrase, not by a verb of handling.

- a fronted place on a body or its clothes, then the thing: "On Gudrun's wrist the arm-ring glints", "At
  his hip, in its sharkskin scabbard, hangs Autumn Water", "Around her shoulders hangs the blue cloak";
- a participle of clothing before "in" and the thing: "Gudrun, wrapped in the blue cloak, watches the sea",
  "Ketil sits swathed in the bearskin".

:func:`worn_by` returns the wearer (a name's possessive, "his"/"her"/"their" by
:func:`.owners._pronoun_owner`, or, read again by :mod:`.addressee`, the stand-in of a "your"); also a hand
gone to a place on one's own body where the thing is then found ("your hand goes to your thigh ..., and
there it is: the derringer"). Read by :mod:`.holdings` for things the hand table left unclaimed, and by
:mod:`.addressee` for "your"; the sentence's modality (memory, plan, negation, quotation) is the caller's.
Imports :mod:`.in_use`, :mod:`.lexicon`, :mod:`.names`, :mod:`.owners`, :mod:`.sentence`, :mod:`.verbs`.
"""

from __future__ import annotations

from ledger.check.extract.in_use import _subject_before
from ledger.check.extract.lexicon import _PRONOUN_POSS
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import _pronoun_owner, _worn_at
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as lexicon_lemma

# prepositions a fronted place on the body opens with
_ON_BODY = frozenset({"at", "on", "upon", "around", "round", "about", "from", "across", "over"})
# verbs of a thing hanging, lying or shining where it is worn
_WORN_VERBS = frozenset(
    {"hang", "lie", "sit", "rest", "gleam", "glint", "glitter", "shine", "dangle", "swing", "sway", "ride"}
    | {"glow", "wink", "flash", "drape", "fall", "sparkle", "nestle", "perch", "cling", "catch"}
)
# participles of being clothed in a thing: "wrapped in", "clad in"
_CLAD = frozenset(
    {"wrapped", "clad", "dressed", "swathed", "bundled", "muffled", "draped", "robed", "garbed", "cloaked"}
    | {"decked", "wrapt", "arrayed", "shrouded", "huddled"}
)
_WRAP = frozenset(
    {"wrap", "bundle", "swathe", "drape", "dress", "clothe", "cloak", "muffle", "swaddle", "robe"}
)
_SELF = frozenset({"herself", "himself", "themselves", "itself", "yourself", "yourselves"})
_DETS = frozenset({"the", "a", "an", "its", "his", "her", "their", "your", "that", "this"})


def worn_by(s: _Sentence, it: Mention) -> Mention | None:
    """The one wearing or carrying the thing by a fronted place on the body, a participle of clothing, or a
    hand gone to a place on the body where the thing is found."""
    return _fronted_place(s, it) or _clad_in(s, it) or _felt_on_body(s, it) or _lying_by(s, it)


# places on a body a thing may be told lying by, within reach: "by your elbow", "at his feet"
_REACH = frozenset(
    {"elbow", "hand", "hands", "side", "feet", "foot", "knee", "knees", "lap", "fingers", "hip"}
)
_BY = frozenset({"by", "at", "beside", "near", "under", "against"})
_LIKENESSES = frozenset(
    {"photograph", "photo", "picture", "painting", "portrait", "drawing", "sketch", "dream"}
)


def _lying_by(s: _Sentence, it: Mention) -> Mention | None:
    """ "Harcourt's jade case lies on the zinc by your elbow": a thing no one holds (sold, lost, destroyed)
    told lying, sitting or resting within a person's reach: that person has it again. The thing opens the
    clause and its verb follows; the place phrase runs to the end of the clause."""
    if s.snap.holders_of(it.id or "") or s.snap.fates.get(it.id or "") is None:
        return None
    toks = s.tokens
    if any(t.low in _LIKENESSES for t in toks[s.a : s.b]):
        return None  # "lies by Vidal's elbow, in a photograph": a picture of it
    v = it.j
    while v < s.b and toks[v].low in ("still", "now", "just"):
        v += 1
    if v >= s.b or not _is_worn_verb(s, v):
        return None
    for q in range(v + 1, min(s.b - 2, v + 10)):
        t = toks[q]
        if t.quoted or t.text in (",", ";", ":", ".", "—", "–") or t.low in ("and", "but", "while", "where"):
            return None
        if t.low not in _BY:
            continue
        owner, r = _owner_at(s, q + 1)
        if owner is not None and owner.id is not None and r < s.b and toks[r].low in _REACH:
            return owner
    return None


_HAND = frozenset({"hand", "hands", "fingers", "palm", "fingertips", "thumb"})
_TOWARD = frozenset({"to", "toward", "towards", "over", "on", "against", "into", "inside", "under"})
# words that tell the thing is not found there, or only thought of there
_NOT_THERE = frozenset(
    {"no", "not", "nothing", "gone", "empty", "missing", "never", "where", "should", "would", "used", "once"}
)
_FOUND = frozenset({"find", "finds", "found", "close", "closes", "touch", "touches", "brush", "brushes"})


def _felt_on_body(s: _Sentence, it: Mention) -> Mention | None:
    """ "Your hand goes to your thigh ..., and there it is: the derringer", "Tam's fingers drop to his belt
    and close on the knife": someone's hand goes to a place on their own body or clothes, and the thing is
    then found there (after a colon, or a verb of finding or touching), nothing telling it missing."""
    toks = s.tokens
    words = {t.low.replace("’", "'") for t in toks[s.a : s.b] if not t.quoted}
    if words & _NOT_THERE or any(w.endswith("n't") for w in words):
        return None
    for k in range(s.a, it.i - 4):
        if toks[k].low not in _HAND or toks[k].quoted:
            continue
        owner, _ = _owner_at(s, k - 1) if k - 1 >= s.a else (None, k)
        if owner is None or owner.id is None:
            continue
        prep = next((q for q in range(k + 1, min(k + 4, it.i)) if toks[q].low in _TOWARD), None)
        if prep is None:
            continue
        other, q = _owner_at(s, prep + 1)
        if other is None or other.id != owner.id or not any(_worn_at(s, prep, p) for p in range(q, q + 2)):
            continue
        between = toks[q : it.i]
        if any(t.text == ":" for t in between) or any(t.low in _FOUND for t in between):
            return owner
    return None


def _owner_at(s: _Sentence, k: int) -> tuple[Mention | None, int]:
    """The possessive at token ``k`` ("Gudrun's", "his", a stand-in "your") and the token after it."""
    toks = s.tokens
    named = next((c for c in s.creatures() if c.i == k and c.poss), None)
    if named is not None:
        return named, named.j
    if toks[k].low in _PRONOUN_POSS and not toks[k].quoted:
        return _pronoun_owner(s, toks[k].low, k, s.creatures()), k + 1
    return None, k


def _fronted_place(s: _Sentence, it: Mention) -> Mention | None:
    """ "On Gudrun's wrist the arm-ring glints", "At his hip, in its scabbard, hangs Autumn Water": the
    sentence opens with a preposition, a possessive and a place on the body or clothes (up to two words
    describing it); then the thing, and a verb of hanging or shining on either side of it, nothing else
    but phrases set off by commas."""
    toks = s.tokens
    a = s.a
    comma = next((q for q in range(a + 1, min(it.i, a + 4)) if toks[q].text == ","), None)
    if comma is not None and all(t.text[:1].isupper() and not t.quoted for t in toks[a:comma]):
        a = comma + 1  # "Eyvind, around your shoulders hangs the cloak": the one called first
    if a + 3 >= it.i or toks[a].low not in _ON_BODY or toks[a].quoted:
        return None
    owner, q = _owner_at(s, a + 1)
    if owner is None or owner.id is None:
        return None
    place = next((p for p in range(q, min(q + 3, it.i)) if _worn_at(s, a, p)), None)
    if place is None:
        return None
    verb = _worn_verb(s, place + 1, it.i)
    lead = place + 1
    if verb is None:
        # the thing before its verb: "On her wrist the arm-ring glints"
        if not all(t.low in _DETS or t.text == "," for t in toks[lead : it.i]):
            return None
        v = it.j
        while v < s.b and toks[v].low in ("still", "now", "softly", "faintly"):
            v += 1
        return owner if v < s.b and _is_worn_verb(s, v) else None
    return owner


def _worn_verb(s: _Sentence, lo: int, hi: int) -> int | None:
    """The verb of hanging or shining right before the thing (after phrases set off by commas, and the
    thing's determiner): "..., in its sharkskin scabbard, hangs the sword"."""
    toks = s.tokens
    k = hi - 1
    while k >= lo and toks[k].low in _DETS:
        k -= 1
    if k < lo or not _is_worn_verb(s, k):
        return None
    # between the place and the verb: nothing, or phrases set off by commas with no verb of their own
    between = toks[lo:k]
    if between and (between[0].text != "," or between[-1].text != ","):
        return None
    return k


def _is_worn_verb(s: _Sentence, k: int) -> bool:
    t = s.tokens[k]
    if t.quoted or not t.text.islower() or not t.low.endswith("s"):
        return False
    base = lexicon_lemma(t.low)
    return base is not None and base in _WORN_VERBS and base != t.low


def _clad_in(s: _Sentence, it: Mention) -> Mention | None:
    """ "Gudrun, wrapped in the blue cloak, ...", "Ketil sits swathed in the bearskin": a participle of
    clothing, "in", the thing (its determiner and up to two words describing it); the wearer is the one
    named right before the participle (a comma or a verb of posture between)."""
    toks = s.tokens
    k = it.i - 1
    n = 0
    while k > s.a and n < 3 and toks[k].low not in ("in", "into") and toks[k].text.isalpha():
        k, n = k - 1, n + 1
    if k - 2 > s.a and toks[k].low in ("in", "into") and toks[k - 1].low in _SELF:
        if lexicon_lemma(toks[k - 2].low) not in _WRAP:
            return None
        return _subject_before(s, k - 2)  # "Gudrun wraps herself in the blue cloak"
    if k - 1 <= s.a or toks[k].low not in ("in", "into") or toks[k - 1].low not in _CLAD:
        return None
    v = k - 1
    who = next((c for c in s.creatures() if c.j == v - 1 and not c.poss and toks[v - 1].text == ","), None)
    if who is None:
        who = next(
            (c for c in s.creatures() if c.j == v and not c.poss), None
        )  # "Gudrun, wrapped": name ends
    if who is None and v - 1 > s.a and toks[v - 1].text.islower():
        who = _subject_before(s, v - 1)  # "Ketil sits swathed in"
    return who if who is not None and who.id is not None else None
