"""Where a creature is and where it goes: the places :mod:`.presence` turns a verb into; the party's moves.

A known location after a preposition in the verb's clause (:func:`_location_after`), before the subject in
an opening phrase ("In the doorway of the Gilded Anchor, Voss ...") or a relative "where"; the place a verb
of motion goes to (:func:`_destination`: "to/into/onto/toward the X", "up/down the X"), an entry ("stamps in
out of the rain"), an approach that stops short ("reins in at the foot of the hill"), a call aimed across
("calls up to the loft"), a spot had to oneself ("has the inglenook to himself"); and :func:`_party_moves`,
``at`` for every PC when "you", "we" or "the party" go somewhere. Kept apart from the presence pass so the
place words are found by name. Imports :mod:`.lexicon`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import (
    _HYPO,
    _OBJECT_LEAD,
    MOTION,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite, verb_class
from ledger.check.extract.verbs import lemma as verb_lemma

# words that open a clause of their own inside a sentence: a place named after one belongs to that clause
# ("with the pistol that everybody on the marsh knows", "the inn where the Reeve drinks")
_RELATIVE = frozenset({"that", "which", "who", "whom", "whose", "where", "because", "although", "though"})


def _location_after(s: _Sentence, k: int) -> Mention | None:
    """A known location named after a preposition in the same clause after token ``k``, before any relative
    or subordinate clause opens ("... that everybody on the marsh knows": the marsh is that clause's)."""
    _, c1 = s.clause_of(k)
    starts = {x.i for x in s.mentions}
    c1 = next(
        (q for q in range(k + 1, c1) if s.tokens[q].low in _RELATIVE and q + 1 not in starts and q > k + 1),
        c1,
    )
    for m in s.mentions:
        if k < m.i < c1 and s.kind(m) == "location" and not m.quoted:
            prev = s.tokens[m.i - 1].low if m.i - 1 >= s.a else ""
            if prev in (
                "at",
                "in",
                "on",
                "inside",
                "by",
                "near",
                "beside",
                "outside",
                "behind",
                "of",
                "into",
                "onto",
                "across",
                "over",
                "under",
                "within",
                "the",
            ) or prev.endswith("side"):
                if _PEOPLE_AT & {s.tokens[q].low for q in range(max(s.a, m.i - 3), m.i - 1)}:
                    continue  # "so no one on the cay can hear it": where those others are
                return m
    return None


# words for people at large: a place right after one is where they are ("nobody in the hall"), not the subject
_PEOPLE_AT = frozenset({"one", "nobody", "everyone", "everybody", "anyone", "anybody", "someone", "somebody"})


# a sentence opening with one of these and a place sets the scene for its subject: "In the doorway of X, she"
_FRONTED_PLACE = frozenset({"in", "at", "inside", "outside", "on", "by", "near", "beside", "within", "from"})


# words that may open a sentence before its fronted place phrase: "Up at the manor", "Far off in the keep",
# "Meanwhile, back at the mill", "Somewhere in the town"
_FRONT_LEADS = frozenset(
    {
        "up",
        "down",
        "back",
        "out",
        "over",
        "across",
        "far",
        "away",
        "meanwhile",
        "somewhere",
        "elsewhere",
        "high",
    }
)


# ("below" and "across" are left out: "Below, in the hold, ...", "Across the water, ..." may be the scene)
_DISTANCE = frozenset({"far", "distance", "beyond", "yonder", "afar", "outside"})


def _distant_front(s: _Sentence, m: Mention) -> bool:
    """True when the sentence opens, before its subject ``m`` and a comma, with a phrase of distance naming
    no one: "Far below,", "In the distance,", "Beyond the wall,"."""
    toks = s.tokens
    if m.i - s.a < 2 or m.i - s.a > 8 or toks[m.i - 1].text != ",":
        return False
    if any(s.a <= x.i < m.i for x in s.mentions):
        return False
    # "By the far brazier,": "far" after a determiner is the far part of the scene, not a distance from it
    return any(
        toks[q].low in _DISTANCE
        and not toks[q].quoted
        and not (toks[q].low == "far" and q > s.a and toks[q - 1].low in _THE)
        for q in range(s.a, m.i)
    )


_THE = frozenset({"the", "its", "this", "that", "his", "her", "their", "our", "my", "your"})


def _fronted_location(s: _Sentence, m: Mention) -> Mention | None:
    """The place of an opening phrase before the subject: "In the doorway of the Gilded Anchor, Voss ..."."""
    toks = s.tokens
    lead = toks[s.a].low
    if lead in _FRONT_LEADS and s.a + 2 < m.i:
        # "Up at the manor, ...", "Meanwhile, back in the keep, ...": a particle or adverb, then the phrase
        if not any(toks[q].low in _FRONTED_PLACE for q in range(s.a + 1, min(m.i, s.a + 4))):
            return None
    elif lead not in _FRONTED_PLACE:
        return None
    if not any(toks[q].text == "," for q in range(s.a, m.i)):
        return None
    return next(
        (x for x in s.mentions if s.a <= x.i < m.i and s.kind(x) == "location" and not x.quoted), None
    )


def _where_place(s: _Sentence, m: Mention) -> str | None:
    """The known place a relative "where" before ``m`` attaches to: "the Gilded Anchor, where Brann ..."."""
    q = m.i - 1
    if q <= s.a or s.tokens[q].low != "where":
        return None
    q -= 1
    if s.tokens[q].text == ",":
        q -= 1
    place = next((x for x in s.mentions if x.j - 1 == q and s.kind(x) == "location" and not x.quoted), None)
    return place.id if place is not None else None


def _location_before(s: _Sentence, k: int) -> Mention | None:
    c0, _ = s.clause_of(k)
    for m in s.mentions:
        if c0 <= m.i < k and s.kind(m) == "location" and not m.quoted:
            return m
    return None


_GOING = frozenset({"to", "into", "onto", "toward", "towards"})
# verb classes that point, speak or look toward a place without going there ("nods to the gate")
_NOT_GOING = frozenset({"speech", "commitment", "perception", "state", "posture"})
_GESTURES_TOWARD = frozenset(
    {
        "point",
        "nod",
        "turn",
        "gesture",
        "wave",
        "bow",
        "motion",
        "beckon",
        "belong",
        "send",
        "write",
        "tie",
        "chain",
        "bind",
        "nail",
        "pin",
        "throw",
        "toss",
        "hand",
        "give",
        "pass",
        "sell",
        "tell",
        "report",
        "owe",
        "pay",
        "deliver",
        "show",
        "raise",
        "lift",
        "hold",
        "post",
    }
)


# verbs of reaching a place, whose object (or the way "of" it) is where the mover ends up
_REACHING = frozenset({"enter", "climb", "ascend", "descend", "board", "reach", "mount", "scale", "gain"})
# verbs that set out "for" a place ("makes for the gate", "sets off for the docks")
_SETTING_OUT = frozenset({"head", "make", "set", "leave", "depart", "start", "strike", "go", "sail", "ride"})


def _destination(s: _Sentence, k: int) -> str | None:
    """The known place the verb at ``k`` goes to: "to/into/onto/toward the X", or "up/down the X" right
    after the verb, in the same clause, before anyone else is named."""
    _, c1 = s.clause_of(k)
    base = verb_lemma(s.tokens[k].low) or ""
    if base in _GESTURES_TOWARD:
        return None
    starts = {x.i for x in s.mentions if s.kind(x) in ("pc", "npc", "monster")}
    for q in range(k + 1, min(c1, k + 14)):
        t = s.tokens[q]
        if t.quoted or q in starts or t.low in ("who", "which", "that", "where", "while", "when", "as", ","):
            return None  # another clause, or a participle of its own ("sits by the fire, drawing a route to")
        if t.low in ("he", "she", "they", "it", "you", "we", "i") and q > k + 1:
            return None
        if t.low == "of" and base in _REACHING and q > k + 1:
            # "climbs the hundred steps of the Dean's Tower", "reaches the gate of the keep": a way into a
            # place, taken by a verb of reaching, ends in that place
            nxt = next((x for x in s.mentions if x.i in (q + 1, q + 2)), None)
            if nxt is not None and nxt.id and s.kind(nxt) == "location" and not nxt.quoted:
                return nxt.id
        if q in (k + 1, k + 2) and base in _REACHING and (q == k + 1 or s.tokens[k + 1].low == "the"):
            # "enters the chapel", "boards the Widow": the verb's object is where they go
            here = next((x for x in s.mentions if x.i == q), None)
            if here is not None and here.id and s.kind(here) == "location" and not here.quoted:
                return here.id
        if (
            t.low in _GOING
            or (t.low == "for" and (base in MOTION or base in _SETTING_OUT))  # "heads for the gate"
            or (q == k + 1 and t.low in ("up", "down"))
            or (t.low in ("up", "down") and s.tokens[q - 1].low in ("out", "back", "and"))
        ):
            nxt = next((x for x in s.mentions if x.i in (q + 1, q + 2)), None)
            if nxt is not None and nxt.id and s.kind(nxt) == "location" and not nxt.quoted:
                return nxt.id
    return None


_PARTY_NOUNS = frozenset({"party", "company", "companions", "group", "adventurers", "band", "fellowship"})


def _they_are_the_party(s: _Sentence) -> bool:
    """ "They" means the party when the creatures named since the previous sentence began are PCs only."""
    here = s.tokens[s.a].start
    starts = [a for a, _ in s.ex.sentences if a < here]
    since = starts[-1] if starts else here
    named = [
        s.snap.entities[m.id].kind
        for m in s.ex.mentions
        if m.id is not None
        and m.id in s.snap.entities
        and since <= s.tokens[m.i].start < here + len(s.raw)
        and not m.quoted
    ]
    creatures = [k for k in named if k in ("pc", "npc", "monster")]
    return bool(creatures) and all(k == "pc" for k in creatures)


def _party_moves(s: _Sentence) -> None:
    """ "You take the back stairs down into the wine cellar", "We climb to the chapel", "The party heads up to
    the scriptorium": the party (you, we, the party) goes to a known place; replayed by the judge as
    ``at(*party*, place)``. The subject is read up to the clause's first verb."""
    toks = s.tokens
    words = set(s.narr.split())
    they = "they" in words and _they_are_the_party(s)
    if not (words & {"you", "we"} or words & _PARTY_NOUNS or they):
        return
    for c0 in s.clauses:
        _, c1 = s.clause_of(c0)
        party = False
        for q in range(c0, min(c1, c0 + 9)):
            t = toks[q]
            if t.quoted or any(x.i == q for x in s.mentions):
                break
            low = t.low
            if (
                low in ("you", "we")
                or (low == "they" and they)
                or (low in _PARTY_NOUNS and toks[q - 1].low in ("the", "your", "our"))
            ):
                party = True
                continue
            base = verb_lemma(low) if t.text.islower() and low not in _OBJECT_LEAD else None
            if base is None or not party or (not is_finite(low, base) and low != base):
                continue
            if verb_class(base) not in _NOT_GOING:
                dest = _destination(s, q)
                if dest is not None:
                    mod = Modality(False, bool(_HYPO & {t.low for t in toks[c0:q]}), False, False, False)
                    claim = Claim("at", ("*party*", dest), s.raw.strip(), s.span, mod, f"to:{base}")
                    s.ex.claims.append(claim)
            break


_REFLEXIVE_OF = {"he": "himself", "she": "herself", "it": "itself", "they": "themselves"}


def _to_oneself(s: _Sentence, eid: str, k: int, c1: int) -> bool:
    """ "has the settle to himself", "had the whole taproom to herself": "have", an object, then "to" and the
    reflexive of the subject, within a few words."""
    e = s.snap.entities.get(eid)
    own = _REFLEXIVE_OF.get(e.pronoun or "") if e is not None else None
    toks = s.tokens
    for q in range(k + 2, min(c1 - 1, k + 9)):
        if toks[q].quoted:
            return False
        if toks[q].low == "to":
            # "has a word to say to himself": an infinitive first is another idiom
            return toks[q + 1].low in (own, "themselves" if own is None else own)
    return False


def _occupies(s: _Sentence, m: Mention, eid: str, kind: str | None, c1: int) -> bool:
    """ "He has the inglenook to himself", "the bailiff had the best bench to himself": having a spot to
    oneself is sitting in it, so the creature is there (the named place, else where the narration is)."""
    k = m.j
    if kind not in ("npc", "monster") or m.poss or k >= c1 or s.tokens[k].low not in ("has", "had", "have"):
        return False
    if not _to_oneself(s, eid, k, c1):
        return False
    mod = s.modality(m, k)
    held = next((x for x in s.mentions if x.i in (k + 1, k + 2) and s.kind(x) == "location"), None)
    loc = held or _location_after(s, k) or _fronted_location(s, m)
    if loc is not None and loc.id:
        s.claim("at", (eid, loc.id), m, mod, "occupy")
    else:
        s.claim("present", (eid,), m, mod, "occupy")
    return True


_ENTRY = frozenset({"in", "inside", "indoors"})
# what may follow a particle of entry: a stop, or a phrase of where from, how or where through
_AFTER_ENTRY = frozenset(
    {
        "out",
        "from",
        "through",
        "with",
        "and",
        "at",
        "behind",
        "after",
        "off",
        "under",
        "without",
        "on",
        "like",
    }
)


def _enters(s: _Sentence, k: int) -> bool:
    """True when the verb at ``k`` takes a particle of entry and then ends its phrase: "stamps in out of the
    rain", "barges in, dripping", "sweeps inside." ("fills in the form" has an object instead)."""
    toks = s.tokens
    if k + 1 >= s.b or toks[k + 1].low not in _ENTRY or toks[k + 1].quoted:
        return False
    if k + 2 >= s.b:
        return True
    after = toks[k + 2]
    return after.text in (",", ".", ";", "!", "?", "—", "–") or after.low in _AFTER_ENTRY


# the end of an approach short of a place: "at the foot of", "outside", "no nearer"
_SHORT_OF = frozenset({"outside", "beyond"})
_EDGE_NOUNS = frozenset({"foot", "edge", "gate", "gates", "verge", "brink", "outskirts", "bottom"})
_PLACE_AT = (["at"], ["to"], ["by"], ["near"])


def _stops_outside(s: _Sentence, k: int, c1: int) -> bool:
    """True when the approach told by the verb at ``k`` ends short of where it leads: "reins in at the foot
    of the ramp and no nearer", "pulls up outside the wall", "halts short of the gate", "stops at the edge
    of the camp"."""
    toks = s.tokens
    words = [t.low for t in toks[k + 1 : min(c1, k + 20)] if not t.quoted]
    text = " ".join(words)
    if "no nearer" in text or "no closer" in text or "short of" in text:
        return True
    for q, w in enumerate(words[:10]):
        if w in _SHORT_OF and words[q - 1 : q] != ["from"]:
            return True  # "halts outside the fence" (but "comes in from outside" has come in)
        # "at the foot of", "to the edge of": a preposition of place, the article, the edge noun, "of"
        if w in _EDGE_NOUNS and words[q + 1 : q + 2] == ["of"] and words[max(0, q - 2) : q][:1] in _PLACE_AT:
            return True
    return False


_ACROSS = frozenset({"up", "down", "across", "over", "out"})


def _called_across(s: _Sentence, k: int) -> bool:
    """True when a verb of speech is aimed up, down, across or out to or from somewhere: "calls up to the
    wall", "shouts down from the gallery", "hails them across the water". The speaker is at a distance, so
    the words say nothing of being here."""
    toks = s.tokens
    if k + 2 >= s.b or toks[k + 1].low not in _ACROSS or toks[k + 1].quoted:
        return False
    return toks[k + 2].low in ("to", "from", "at", "the") or toks[k + 1].low == "across"
