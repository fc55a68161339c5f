"""Items told physically in the scene now: standing, hanging, lying somewhere, looked at, or leant on.

A sentence tells a thing itself here when the thing is

* the subject of a present-tense verb of posture or place ("the theodolite stands on its tripod", "the
  vial sits in its clamp", "the amulet is on the shelf"), also after fronted place phrases, commas and all
  ("In the far corner, on its wooden tripod, stands the theodolite");
* followed by a present participle of posture and a place ("the amulet hanging at your throat");

and tells it as a place or a sight when it is the place of a present verb of posture or putting ("sets her
cup beside the vial") or the object of a present verb of seeing ("studies the sextant", "peers at it").

A thing whose recorded fate takes it out of the world then gets an ``exists`` claim the judge refutes: a lost
one told either way, a destroyed or used-up one only told itself (its wreck may be seen or sat beside); a
thing sold, stolen or confiscated is in someone's hands somewhere and may be here. One thing held by one
creature gets ``exists;here`` instead: the judge refutes it when that creature is neither in the scene nor
where the narration has gone. Leaning one's weight on a thing ("He leans on a tamarisk staff") has it in
hand: a ``holds`` claim. Things named by their description (:mod:`.item_descriptions`) are read by the hand
table of :mod:`.holdings` too, unless a possessive tells whose kind of thing they are.

Nothing is claimed for a thing remembered, asked about, negated or quoted (the sentence's modality), for a
likeness of it ("like the amulet", "a copy of the amulet", "in the photograph"), for a past verb ("the rack
where the vial stood", "where the amulet used to hang"), for the wreck of a destroyed thing ("the shattered
vial", "lies in pieces"), for a sentence telling another place or the thing someone's ("hangs from his
belt"), or when the narration tells it found or recovered (:func:`tells_finding`, read by the judge too).

Called from :mod:`.pipeline`; imports :mod:`.holdings`, :mod:`.in_use`, :mod:`.item_descriptions`,
:mod:`.item_scene_use` (a gone thing put up somewhere, or brought and used, by any verb), :mod:`.lexicon`,
:mod:`.linker`, :mod:`.names`, :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

from ledger.check.extract.holdings import _item_claims, _items_in_use
from ledger.check.extract.in_use import _FRONTED, _subject_before
from ledger.check.extract.item_descriptions import _FUNCTION, described_items, looks
from ledger.check.extract.item_here import _ITEM_HERE, _NOT_A_PLACE, _PUT_AWAY
from ledger.check.extract.item_scene_use import named_as_lost, placed_passive, used_now
from ledger.check.extract.lexicon import _NEGATION, _PRONOUN_POSS, VERBS
from ledger.check.extract.linker import noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import POSTURE, tags, verb_class
from ledger.check.extract.verbs import lemma as verb_lemma

# verbs of being somewhere: the posture class without its verbs of decay and sleep, and the verbs of a
# thing lying in view
_HERE = (POSTURE | _ITEM_HERE | {"stand", "sit", "lean", "wait"}) - {
    "rot",
    "decay",
    "molder",
    "moulder",
    "sleep",
    "stiffen",
    "be",
    "remain",
    "stay",
}
# fates that leave a thing in someone's hands somewhere: it may yet lie in this scene
_TAKEN = frozenset(
    {"sold", "stolen", "confiscated", "pawned", "traded", "seized", "given", "taken", "bartered", "lent"}
    | {"loaned", "gifted", "impounded", "pledged", "bought", "swapped", "exchanged", "hidden", "buried"}
)
# prepositions of place a thing is told at
_AT = frozenset(
    {"on", "upon", "in", "inside", "at", "by", "beside", "against", "under", "beneath", "behind", "over"}
    | {"above", "below", "across", "along", "atop", "near", "around", "among", "between", "within", "from"}
)
# words that open a clause or a phrase set off: a noun phrase after one may be a subject
_CLAUSE_OPEN = frozenset(
    {",", ";", ":", "—", "–", "and", "but", "where", "while", "as", "when", "though", "now", "still"}
)
_ADVERBS = frozenset({"still", "now", "yet", "even", "already", "always", "also", "just", "again", "too"})
# words before a thing that make it a likeness or a comparison, not the thing
_LIKENESS_LEAD = frozenset({"like", "as", "than", "resembling", "unlike", "of", "no", "without"})
# verbs of finding a lost thing again
_RECOVER = frozenset(
    {"find", "recover", "rescue", "salvage", "reclaim", "redeem", "unearth", "regain", "dredge", "discover"}
    | {"locate"}
)
# what a destroyed thing is when its wreck is told: "the shattered vial", "the charred staff"
_WRECKED = frozenset(
    {"break", "shatter", "smash", "crack", "burn", "char", "melt", "crush", "ruin", "wreck", "split", "snap"}
    | {"splinter", "scorch", "blacken", "twist", "tear", "rip", "dent", "crumple", "empty", "drain", "spend"}
)
_WRECK_WORDS = frozenset({"empty", "broken", "burnt", "wrecked", "remains", "wreck", "husk", "shell", "stub"})
# posture verbs whose "on" puts one's weight on a thing held: "leans on a staff", "rests on his spear"
_LEAN = frozenset({"lean", "rest", "prop"})
# a place that is a likeness: "stands in the photograph on the wall", "hangs in the painting"
_DEPICTIONS = frozenset(
    {"photograph", "photo", "picture", "painting", "portrait", "drawing", "sketch", "mural", "tapestry"}
    | {"fresco", "engraving", "etching", "mosaic", "print", "woodcut", "illustration", "image", "dream"}
)
# words telling a thing where it was lost or gone, not where the scene is
_LOSS = frozenset({"lost", "gone", "missing", "somewhere", "sunk", "drowned", "vanished", "forgotten"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "am", "has", "have", "had"})
_PARTICLES = frozenset({"down", "up", "back", "away", "aside", "out", "off", "again", "carefully"})
_DETS = frozenset({"the", "a", "an", "its", "his", "her", "their", "my", "your", "our", "this", "that"})


def _gone(s: _Sentence, iid: str) -> bool:
    """True when the item's recorded fate takes it out of the world (lost, destroyed, used up)."""
    fate = s.snap.fates.get(iid)
    if fate is None or s.snap.holders_of(iid):
        return False
    words = set(re.findall(r"[a-z]+", fate.fate.lower()))
    return not (words & _TAKEN)


_NOT_DESCRIBING = _CLAUSE_OPEN | _BE | _FUNCTION


def _np_start(s: _Sentence, m: Mention) -> int:
    """The first token of the noun phrase ``m`` heads: its determiner and the words describing it."""
    k = m.i
    n = 0
    while k - 1 >= s.a and n < 3:
        t = s.tokens[k - 1]
        if t.low in _DETS:
            return k - 1
        if t.quoted or not t.text.isalpha() or not t.text.islower() or t.low in _NOT_DESCRIBING:
            break
        if verb_lemma(t.low) is not None and not t.low.endswith(("ed", "en")):
            break  # a verb before the thing: "stands the theodolite" is read from the verb
        k, n = k - 1, n + 1
    return k


def _present(form: str, base: str) -> bool:
    """True when ``form`` is a present finite form of ``base`` ("sits", "hang" of a plural)."""
    found = tags(form, base)
    return "VBZ" in found or ("VBP" in found and "VBD" not in found)


def _verb_base(form: str) -> str | None:
    return VERBS.get(form) or verb_lemma(form)


def _finite_here(form: str) -> bool:
    """True for "is"/"are" or a present form of a verb of posture or place ("sits", "hangs")."""
    base = _verb_base(form)
    return form in ("is", "are") or (base in _HERE and _present(form, base))


def _place_after(s: _Sentence, q: int) -> bool:
    """True when a place phrase follows token ``q`` and names no wreck or mind ("in pieces", "in memory")."""
    if q >= s.b or s.tokens[q].low not in _AT | {"there", "here"}:
        return False
    return _real_place(s, q)


def _real_place(s: _Sentence, q: int, end: int | None = None) -> bool:
    """True when the words from token ``q`` (to ``end``, else eight) name no wreck, mind or likeness ("in
    pieces", "in her memory", "in the photograph")."""
    words = {t.low for t in s.tokens[q : min(s.b, q + 8 if end is None else end)]}
    return not (_NOT_A_PLACE & words or _DEPICTIONS & {noun_lemma(w) for w in words})


def _subject_here(s: _Sentence, m: Mention) -> bool:
    """ "the vial sits in its clamp", "the amulet is on the shelf", "the lamp is hanging by the door": the
    thing opens its clause (after a comma, a conjunction, or the sentence start) and a present verb of
    posture or place follows it."""
    start = _np_start(s, m)
    if start > s.a and s.tokens[start - 1].low not in _CLAUSE_OPEN:
        return False
    if start - 2 >= s.a and s.tokens[start - 1].low == "where" and _verb_base(s.tokens[start - 2].low):
        return (
            False  # "knows where the sextant lies": a question, not a place (a noun leads "the hook where")
        )
    j = m.j
    # "the sealed vial of the rice blight sits": an "of" phrase after the head
    if j < s.b and s.tokens[j].low == "of":
        q = j + 1
        while q < min(s.b, j + 6) and s.tokens[q].text.isalpha() and not _finite_here(s.tokens[q].low):
            q += 1
        j = q
    while j < s.b and (s.tokens[j].low in _ADVERBS or s.tokens[j].low.endswith("ly")):
        j += 1
    if j >= s.b or s.tokens[j].quoted or not s.tokens[j].text.islower():
        return False
    form = s.tokens[j].low
    if form in ("is", "are"):
        nxt = s.tokens[j + 1].low if j + 1 < s.b else ""
        if nxt.endswith("ing") and _verb_base(nxt) in _HERE:
            return _place_after(s, j + 2)
        base = _verb_base(nxt)
        if base in _PUT_AWAY and base != nxt:
            return _place_after(s, j + 2)  # "is propped against the wall", "is hung over the hearth"
        return _place_after(s, j + 1)
    base = _verb_base(form)
    if base not in _HERE or not _present(form, base):
        return False
    return j + 1 >= s.b or _real_place(s, j + 1)


# what may open a fronted place phrase: "Around her neck hangs ...", "From the nail hangs ...", "There, ..."
_LEADS_PLACE = _FRONTED | {"around", "round", "from", "among", "between", "within", "underneath", "and"}
_LEADS_PLACE |= {"there", "here", "outside", "beyond", "opposite", "amid", "amidst", "inside"}


def _inverted_here(s: _Sentence, m: Mention) -> bool:
    """ "In the far corner, on its wooden tripod, stands the theodolite", "Behind her, on the counter, sits
    a stoneware crock": place phrases open the clause (each part after a comma led by a preposition, no
    verb in them), then a present verb of posture, then the thing."""
    start = _np_start(s, m)
    v = start - 1
    if v <= s.a or s.tokens[v].quoted or not s.tokens[v].text.islower():
        return False
    base = _verb_base(s.tokens[v].low)
    if (base not in _HERE or not s.tokens[v].low.endswith("s")) and s.tokens[v].low != "is":
        return False  # "On the sill rests the sextant", "On the chart table is the sextant"
    c0, _ = s.clause_of(v)
    # "There's a crate by the cut, and on it lies the survey": the place opens the last coordinate clause
    for q in range(v - 1, c0, -1):
        if s.tokens[q].text == ";" or (s.tokens[q].low in ("and", "but") and s.tokens[q - 1].text == ","):
            c0 = q + 1
            break
    parts: list[list[int]] = [[]]
    for q in range(c0, v):
        if s.tokens[q].text == ",":
            parts.append([])
        else:
            parts[-1].append(q)
    parts = [p for p in parts if p]
    if not parts or sum(len(p) for p in parts) > 18 or not _real_place(s, c0, v):
        return False  # "At the bottom of the cove lies ...", "In the photograph ... lies ..."
    for p in parts:
        if s.tokens[p[0]].low not in _LEADS_PLACE:
            return False
        for prev, q in pairwise(p):
            t = s.tokens[q]
            if t.quoted or not (t.text.isalpha() or t.poss):
                return False
            lead = s.tokens[prev]
            if _verb_base(t.low) is not None and t.low.endswith("s") and not (lead.low in _DETS or lead.poss):
                return False  # a verb in the phrase: no place but a clause of its own
    return True


def _hanging_here(s: _Sentence, m: Mention) -> bool:
    """ "the carved ivory amulet hanging at your throat": a present participle of posture right after the
    thing, then a place, in a narration told in the present."""
    j = m.j
    if j + 1 >= s.b or not (s.ex.present_tense or _told_now(s, m.i)):
        return False
    j = _set_off(s, j)  # "the coupling from the wreck, lying on a square of film": set off by a comma
    form = s.tokens[j].low
    if not form.endswith("ing") or _verb_base(form) not in _HERE:
        return False
    return _place_after(s, j + 1)


def _set_off(s: _Sentence, j: int) -> int:
    """The token after a short "from"/"of" phrase and a comma that follow a thing's name at ``j`` ("the
    coupling from Kestrel-7, lying ...", "the key, hanging ..."), else ``j``."""
    toks = s.tokens
    q = j
    if q < s.b and toks[q].low in ("from", "of") and not toks[q].quoted:
        q += 1
        while q < min(s.b, j + 5) and toks[q].text not in (",", ";", ".") and not toks[q].quoted:
            q += 1
    if q + 1 < s.b and toks[q].text == "," and not toks[q + 1].quoted:
        return q + 1
    return j


def _told_now(s: _Sentence, k: int) -> bool:
    """True when the clause before token ``k`` has a present finite verb and no past one ("Odile's eye
    goes to ...")."""
    c0, _ = s.clause_of(k)
    now = False
    for q in range(c0, k):
        t = s.tokens[q]
        if t.quoted or not t.text.isalpha() or not t.text.islower() or s.tokens[q - 1].low in _DETS:
            continue
        base = _verb_base(t.low)
        if base is None:
            continue
        found = tags(t.low, base)
        if found & {"VBD"} and not found & {"VBZ", "VBP"}:
            return False
        now = now or "VBZ" in found or t.low in ("is", "are")
    return now


def _placed_by(s: _Sentence, m: Mention) -> bool:
    """ "sets her cup down beside the vial", "leans against the theodolite": the thing is the place of a
    present verb of posture or putting, two words at most between the verb and the preposition."""
    start = _np_start(s, m)
    p = start - 1
    if p - 1 < s.a or s.tokens[p].low not in _AT - {"from", "over"}:
        return False
    for v in range(p - 1, max(s.a, p - 4) - 1, -1):
        t = s.tokens[v]
        if t.quoted or not t.text.isalpha():
            return False
        base = _verb_base(t.low)
        if base is None or t.low in _DETS or t.low in _PARTICLES or s.tokens[v - 1].low in _DETS:
            continue  # "sets her mug down beside": a noun after its determiner
        return (base in _HERE or base in _PUT_AWAY) and _present(t.low, base) and t.text.islower()
    return False


# senses that reach past the scene or into the mind: no sign the thing is before the eyes
_FAR_SENSES = frozenset({"hear", "listen", "overhear", "sense", "feel"})


def _examined(s: _Sentence, m: Mention) -> bool:
    """ "Odile studies the brass sextant", "Hadiza peers at the vial": a present verb of seeing with the
    thing as its object (or after "at", "over", "into"), done by a creature named before it."""
    v = _np_start(s, m) - 1
    if v > s.a and s.tokens[v].low in ("at", "over", "into", "through", "upon"):
        v -= 1
    if v <= s.a:
        return False
    t = s.tokens[v]
    base = _verb_base(t.low)
    if t.quoted or not t.text.islower() or base is None or base in _FAR_SENSES or not _present(t.low, base):
        return False
    if verb_class(base) != "perception" or _subject_before(s, v) is None:
        return False
    fate = s.snap.fates.get(m.id or "")
    return fate is not None and fate.fate == "lost"  # a destroyed thing's wreck may be looked at


def _leant_on(s: _Sentence, m: Mention) -> Mention | None:
    """ "He leans on a tamarisk staff", "Morna rests heavily upon her spear": the one leaning has it in
    hand."""
    start = _np_start(s, m)
    p = start - 1
    if p - 1 < s.a or s.tokens[p].low not in ("on", "upon"):
        return None
    v = p - 1
    if s.tokens[v].low.endswith("ly") and v - 1 >= s.a:
        v -= 1  # "leans heavily on"
    t = s.tokens[v]
    base = _verb_base(t.low)
    if base not in _LEAN or not t.text.islower() or not _present(t.low, base):
        return None
    return _subject_before(s, v)


def _likeness(s: _Sentence, m: Mention) -> bool:
    """True when the thing is compared, copied or denied: "like the amulet", "a copy of the amulet", "no
    amulet"."""
    start = _np_start(s, m)
    return start - 1 >= s.a and s.tokens[start - 1].low in _LIKENESS_LEAD | _NEGATION


def _wreck(s: _Sentence, m: Mention) -> bool:
    """True when the phrase tells the wreck of the thing ("the shattered vial", "the empty crock")."""
    for t in s.tokens[_np_start(s, m) : m.j]:
        base = _verb_base(t.low)
        if t.low in _WRECK_WORDS or (base in _WRECKED and base != t.low):
            return True
    return False


def _recovered(s: _Sentence, iid: str) -> bool:
    """True when the narration, up to this sentence, tells the item found or recovered: a verb of finding
    in a sentence that names the thing, its head noun, or "it"."""
    heads = {h for lk in looks(s.snap) if lk.item == iid for h in lk.heads}
    toks = s.ex.tokens
    for lo, hi in s.ex.sentences:
        if lo > s.span[0]:
            break
        words = [t for t in toks if lo <= t.start < hi and not t.quoted]
        if not any(_finding(t.low) for t in words):
            continue
        named = any(m.id == iid and lo <= toks[m.i].start < hi for m in s.ex.mentions)
        if named or any(t.low in heads or noun_lemma(t.low) in heads or t.low == "it" for t in words):
            return True
    return False


def tells_finding(text: str) -> bool:
    """True when a sentence tells something found or recovered ("fishes the sextant out", "recovers"):
    read by the judge, so a lost thing handled as it is found is no conflict."""
    return any(_finding(w) for w in re.findall(r"[a-z]+", text.lower()))


def _finding(word: str) -> bool:
    base = _verb_base(word)
    return base is not None and base in _RECOVER and base != word


def _possessed(s: _Sentence, m: Mention) -> bool:
    """True when a possessive (a name's "'s" or "his", "her" ...) stands before the thing's phrase."""
    k = _np_start(s, m)
    t = s.tokens[k] if s.tokens[k].low in _DETS else (s.tokens[k - 1] if k - 1 >= s.a else None)
    return t is not None and (t.poss or t.low in _PRONOUN_POSS or t.low in ("my", "your", "our"))


# the thing itself told standing, lying or hanging somewhere now; the thing told a place or a sight
_TOLD_WHOLE = (_subject_here, _inverted_here, _hanging_here)
_TOLD_SEEN = (_placed_by, _examined)


def _placed(s: _Sentence, m: Mention) -> bool:
    start = _np_start(s, m)
    return placed_passive(s, m, start == s.a or s.tokens[start - 1].low in _CLAUSE_OPEN)


def _used(s: _Sentence, m: Mention) -> bool:
    return used_now(s, m, _np_start(s, m))


# a gone thing told put up somewhere or brought and used (:mod:`.item_scene_use`)
_TOLD_GONE = (_placed, _used)


def _item_scene(s: _Sentence) -> None:
    """Claims for items told in the scene now (see the module's docstring)."""
    described = [m for m in described_items(s) if not s.modality(m).in_dialogue]
    # a possessive before a description tells whose kind of thing it is ("Dot's lavender honey"), not who
    # has this one: the hand table reads only the unowned ones
    handled = [m for m in described if not _possessed(s, m) and not _likeness(s, m)]
    if handled:
        before = len(s.ex.claims)
        _item_claims(s, handled)
        _items_in_use(s, handled)
        # whether a described thing lies here is read below, by the rules of this module
        s.ex.claims[before:] = [c for c in s.ex.claims[before:] if "exists" not in c.detail]
    items = [m for m in s.mentions if m.id and s.kind(m) == "item" and not m.quoted] + described
    if not items:
        return
    here = [c for c in s.ex.claims if c.kind == "holds" and c.span == s.span]
    held_by = {(c.args[0], c.args[1]) for c in here}
    told = {c.args[1] for c in here if "exists" in c.detail}
    # a gone thing someone is told holding is refuted by that claim already
    told |= {c.args[1] for c in here if c.args[0] != "*somewhere*" and _gone(s, c.args[1])}
    for m in items:
        iid = m.id
        if iid is not None and iid in told and not m.poss:
            _here_too(s, m, iid)
        if iid is None or iid in told or m.poss or _likeness(s, m):
            continue
        if (
            s.tokens[_np_start(s, m)].low in ("a", "an", "another", "some")
            and m.derived
            and m.j - m.i == 1
            and any(m is x for x in s.mentions)  # a thing named by its looks is told with "a"
        ):
            continue  # "on it lies a map of the old workings": a thing of that kind, not the one recorded
        mod = s.modality(m)
        if not mod.asserted:
            continue
        who = _leant_on(s, m)
        if who is not None and who.id and who.id != iid:
            holders = s.snap.holders_of(iid)
            kinds = {e.kind for h in holders if (e := s.snap.entities.get(h)) is not None}
            if (kinds & {"pc", "npc", "monster"} or _gone(s, iid)) and (who.id, iid) not in held_by:
                s.claim("holds", (who.id, iid), who, mod, "")
                held_by.add((who.id, iid))
            continue
        whole = any(rule(s, m) for rule in _TOLD_WHOLE)
        whole = whole or (_gone(s, iid) and any(rule(s, m) for rule in _TOLD_GONE))
        if not whole and not any(rule(s, m) for rule in _TOLD_SEEN):
            continue
        if _gone(s, iid):
            if _LOSS & {t.low for t in s.tokens[s.a : s.b] if not t.quoted}:
                continue  # "lies lost beneath forty fathoms", "somewhere past the reef": where it was lost
            fate = s.snap.fates[iid].fate
            wrecked = fate in ("destroyed", "used up", "used_up")
            if named_as_lost(s, m) or _recovered(s, iid) or (wrecked and (_wreck(s, m) or not whole)):
                continue  # the wreck of a destroyed thing may lie anywhere, be seen, be sat beside
            s.claim("holds", ("*somewhere*", iid), m, mod, "exists")
        elif _one_thing(s, iid) and _in_scene(s, iid) and not _someones(s, m):
            # held by someone: the judge asks whether that one is here (``here``)
            s.claim("holds", ("*somewhere*", iid), m, mod, "exists;here")
        told.add(iid)


def _here_too(s: _Sentence, m: Mention, iid: str) -> None:
    """The hand table's ``exists`` for a thing told lying about ("The coupling lies on the desk") is this
    module's ``exists;here`` when the thing is one held by one creature and the sentence tells the scene:
    the judge then asks whether that one is here."""
    at = next(
        (
            n
            for n, c in enumerate(s.ex.claims)
            if c.kind == "holds" and c.span == s.span and c.args[1] == iid and c.detail == "exists"
        ),
        None,
    )
    if at is None or _gone(s, iid) or _likeness(s, m) or not s.modality(m).asserted:
        return
    if not any(rule(s, m) for rule in _TOLD_WHOLE):
        return
    if _one_thing(s, iid) and _in_scene(s, iid) and not _someones(s, m):
        s.ex.claims[at] = replace(s.ex.claims[at], detail="exists;here")


def _someones(s: _Sentence, m: Mention) -> bool:
    """True when the thing or its place is told someone's ("His torches lie at his feet", "hangs from his
    belt", "At his hip hangs the sword"): whose it is, and where they are, are that one's own claims. A
    possessive is a name's "'s", or "his", "their", "my", "your", "our", or "her" before a word."""
    c0, c1 = s.clause_of(m.i)
    lo = min(c0, _np_start(s, m))
    for q in range(lo, min(c1, m.j + 10)):
        t = s.tokens[q]
        if q >= m.j and t.text in (",", ";", ":", ".", "—", "–"):
            break  # the thing's own clause only: "sits a crock you know: Agatha's starter"
        if t.quoted:
            continue
        if t.poss or t.low in ("his", "their", "my", "your", "our"):
            return True
        if t.low == "her" and q + 1 < s.b and s.tokens[q + 1].text.isalpha():
            return s.tokens[q + 1].low not in _AT | _CLAUSE_OPEN
    return False


def _one_thing(s: _Sentence, iid: str) -> bool:
    """True when the item is one thing held by one holder: a stock of them ("slabs of salt", twelve
    candles), shared or counted, has others of its kind anywhere."""
    held = list(s.snap.holders_of(iid).values())
    return len(held) == 1 and held[0].quantity == 1 and not _plural_named(s, iid)


def _plural_named(s: _Sentence, iid: str) -> bool:
    return any(lk.plural for lk in looks(s.snap) if lk.item == iid)


def _in_scene(s: _Sentence, iid: str) -> bool:
    """True when the sentence may tell the scene itself: it names no place but the scene's own, and none
    of the item's holders (one named with it is judged by their own presence)."""
    scene = s.snap.scene.location
    holders = set(s.snap.holders_of(iid))
    for m in s.mentions:
        kind = s.kind(m)
        if kind == "location" and m.id != scene:
            return False
        if m.id in holders:
            return False
    # "back at the inn", "meanwhile": told elsewhere; "at the back" is a part of the place here
    return not any(
        t.low in ("back", "meanwhile", "elsewhere") and s.tokens[q - 1].low not in _DETS
        for q, t in enumerate(s.tokens[s.a : s.b], s.a)
    )
