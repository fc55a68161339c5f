"""Items told in use: worked as a tool, drawn out of someone's own bag, or lying in plain view.

Three shapes of English the hand table of :mod:`.holdings` does not read:

* an instrument after the verb's own object, "strikes a flame off the gold lighter", "lights the
  lamp with the tinderbox": whoever does it has the thing at hand (:func:`instrument_user`);
* a participle of drawing out of a possessed bag or pocket set after the item, "the charter, drawn
  from his own satchel": the bag's owner has been carrying it (:func:`drawn_from`);
* locative inversion, "Across his knees lies the lute", "On the counter sits the radio": the thing
  is told lying there now (:func:`inverted_here`).

A thing lost, sold or destroyed, or held by another with no hand-over told, is then contradicted by the
judge's holder rules. Read by :mod:`.holdings`; imports :mod:`.lexicon`, :mod:`.names`, :mod:`.owners`,
:mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from ledger.check.extract.lexicon import _PRONOUN_POSS, VERBS
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import _pronoun_owner, _worn_at
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite, verb_class
from ledger.check.extract.verbs import lemma as lexicon_lemma

# prepositions that name the tool a deed is done with ("with the lighter") or struck from ("off the flint")
_INSTRUMENT = frozenset({"with", "off"})
# "off" names a tool only for fire struck from it: "strikes a flame off the lighter", "a spark off the flint"
_STRIKE_FIRE = frozenset({"strike", "light", "kindle", "spark", "flick"})
# particles between a verb and its object: "cuts through the seal", "prises open the lid"
_PARTICLES = frozenset({"through", "up", "down", "out", "open", "off", "away", "back", "apart", "loose"})
_ARTICLES = frozenset({"the", "a", "an", "his", "her", "their", "its", "some", "one"})
# verb classes whose "with" is company, manner or a place, not a tool in hand
_NOT_TOOL_USE = frozenset({"speech", "commitment", "perception", "state", "posture", "motion"})
# verbs that take "with"/"off" for company, contest or removal from a place, not a tool
_NOT_WITH_TOOL = frozenset(
    {"meet", "share", "trade", "bargain", "argue", "fight", "play", "dance", "stay", "leave", "sit", "wait"}
    | {"take", "knock", "brush", "wipe", "shake", "scrape", "kick", "pull", "lift", "peel", "tear", "fall"}
    | {"cover", "fill", "load", "pack", "trim", "decorate", "replace", "swap", "exchange", "compare", "mix"}
    # verbs whose object is mostly a person, "with" then the thing that person has or the matter at hand
    | {"help", "assist", "find", "greet", "join", "face", "confront", "approach", "catch", "spot", "trust"}
    | {"task", "send", "see", "notice", "recognise", "recognize", "pass", "overtake", "accompany", "marry"}
)
_BETWEEN_STOPS = frozenset(
    {",", ";", ":", "—", "–", ".", "who", "which", "that", "while", "as", "when", "if", "he", "she", "they"}
)


def _subject_before(s: _Sentence, v: int) -> Mention | None:
    """The creature whose verb stands at token ``v``: the nearest named one before it, joined to it by
    adverbs only ("Ruby slowly strikes") or by its own earlier predicate and "and" with nobody else and
    no new clause between ("Ruby shakes a Lucky out of the pack and strikes ...")."""
    before = [c for c in s.creatures() if c.j <= v and not c.poss]
    if not before:
        return None
    subject = before[-1]
    between = s.tokens[subject.j : v]
    if all(t.low.endswith("ly") or t.low in ("then", "still", "now") for t in between):
        return subject
    if not between or between[-1].low != "and" or any(t.quoted for t in between):
        return None
    if {t.low for t in between} & _BETWEEN_STOPS or {t.text for t in between} & _BETWEEN_STOPS:
        return None
    return subject


def _finite_verb(s: _Sentence, k: int) -> str | None:
    """The lemma of a lower-case finite verb of doing at token ``k``, else None."""
    t = s.tokens[k]
    if t.quoted or not t.text.isalpha() or not t.text.islower():
        return None
    base = VERBS.get(t.low) or lexicon_lemma(t.low)
    return base if base is not None and is_finite(t.low, base) else None


def instrument_user(s: _Sentence, it: Mention) -> Mention | None:
    """The creature that works the item as a tool: "Ruby ... strikes a flame off the
    Alderman's gold lighter", "Tam lights the lamp with the tinderbox". The verb is a finite verb of doing
    (not of saying, seeing, going, meeting or taking away), its own object is a short phrase led by an
    article with nobody in it, then "with" or "off" and the item (not "a" one, not someone's)."""
    toks = s.tokens
    p = it.i - 1
    if p - 2 < s.a or toks[p].low not in _INSTRUMENT or toks[p].quoted:
        return None
    if toks[it.i].low in ("a", "an", "another") or toks[it.i].low in _PRONOUN_POSS:
        return None  # some lighter, or one owned by whoever "his" is: the holdings pass reads that
    creatures = s.creatures()
    if it.poss or any(c.poss and it.i <= c.i < it.j for c in creatures):
        # "with Mira's knife": the owner's possessive is read by the holdings pass; "with the log's spare
        # pages": a part of the thing, maybe torn from it long ago
        return None
    # the verb's own object: one to three words led by an article ("a flame", "the old lamp")
    for v in range(p - 2, max(s.a, p - 5) - 1, -1):
        obj = toks[v + 1 : p]
        if obj[0].low not in _ARTICLES or obj[0].quoted:
            continue
        if any(not t.text.isalpha() or t.quoted for t in obj[1:]):
            return None
        if any(v < c.i < p for c in creatures):
            return None  # "meets the guard with the key": the guard has it
        if toks[v].low in _PARTICLES and v - 1 > s.a:
            v -= 1  # "cuts through the hatch seal with", "prises open the crate with"
        base = _finite_verb(s, v)
        if base is None:
            return None
        if verb_class(base) in _NOT_TOOL_USE or base in _NOT_WITH_TOOL:
            return None
        if toks[p].low == "off" and base not in _STRIKE_FIRE:
            return None  # "reads the hour off the clock tower": off a thing where it stands
        subject = _subject_before(s, v)
        return subject if subject is not None and subject.id else None
    return None


# participles of drawing a thing out of one's own bag: "drawn from his satchel", "fished out of her coat"
_DRAWN = frozenset({"draw", "pull", "produce", "fish", "slide", "tug", "pluck", "slip", "lift", "retrieve"})
_FROM = frozenset({"from", "of"})  # "drawn from", "fished out of"


def drawn_from(s: _Sentence, it: Mention) -> Mention | None:
    """ "the guild charter itself, green seal and all, drawn from his own satchel": a past participle of
    drawing out, in the phrase set off after the item, then "from" (or "out of") a possessive pronoun and a
    bag, pocket or place on the body: the pronoun's referent was carrying the item. A participle told by
    someone else's hand ("drawn from his satchel by the clerk") says nothing of who has it now."""
    toks = s.tokens
    end = min(s.b, it.j + 14)
    for q in range(it.j, end - 3):
        t = toks[q]
        if t.quoted or t.text in (";", ".", ":") or t.low in ("and", "but", "while", "who", "which"):
            if t.low == "and" and q > it.j and toks[q - 1].text.isalpha():
                continue  # "green seal and all"
            if t.low != "and":
                return None
        if not (t.text.isalpha() and t.text.islower() and t.low.endswith(("n", "ed"))):
            continue
        base = VERBS.get(t.low) or lexicon_lemma(t.low)
        if base not in _DRAWN or base == t.low or toks[q - 1].text != ",":
            continue
        r = q + 1
        if toks[r].low == "out" and toks[r + 1].low == "of":
            r += 1
        if toks[r].low not in _FROM or r + 2 >= s.b or toks[r + 1].low not in _PRONOUN_POSS:
            return None
        for place in range(r + 2, min(s.b, r + 5)):
            if _worn_at(s, r, place) and not any(
                w.low == "by" for w in toks[place + 1 : min(s.b, place + 3)]
            ):
                return _pronoun_owner(s, toks[r + 1].low, r + 1, s.creatures())
            if not toks[place].text.isalpha():
                break
        return None
    return None


# verbs of lying, hanging or standing in view that may come before their subject in locative inversion
_LIE_THERE = frozenset({"lie", "sit", "hang", "rest", "stand", "lean", "gleam", "glint", "wait", "perch"})
_FRONTED = frozenset(
    {
        "across",
        "on",
        "upon",
        "over",
        "above",
        "in",
        "inside",
        "beside",
        "behind",
        "under",
        "beneath",
        "against",
    }
    | {"at", "by", "near", "atop", "along", "below"}
)


def inverted_here(s: _Sentence, it: Mention) -> bool:
    """ "Across his knees lies Genjō itself", "On the counter sits the old radio": a place opening the
    sentence (a preposition and a short phrase with no verb, comma or quotation), then a present-tense verb
    of lying or hanging, then the item as its subject: the thing is told there now."""
    toks = s.tokens
    k = it.i - 1
    while k > s.a and toks[k].low in ("the", "old", "great", "famous"):
        k -= 1
    if k - 2 < s.a or toks[s.a].low not in _FRONTED or toks[k].quoted:
        return False
    form = toks[k].low
    base = VERBS.get(form) or lexicon_lemma(form)
    if base not in _LIE_THERE or not form.endswith("s") or not toks[k].text.islower():
        return False
    words = toks[s.a + 1 : k]
    if not words or len(words) > 5:
        return False
    from ledger.check.extract.item_here import _NOT_A_PLACE  # here: holdings imports this module

    if _NOT_A_PLACE & {t.low for t in words}:
        return False  # "At the bottom of the cove lies the sextant": where a lost thing lies lost
    for prev, t in zip([toks[s.a], *words], words, strict=False):
        if t.quoted or not t.text.isalpha():
            return False
        if (t.low in VERBS or (lexicon_lemma(t.low) is not None and t.low.endswith("s"))) and (
            prev.low not in _ARTICLES and prev.low not in _PRONOUN_POSS and prev.low not in _FRONTED
        ):
            return False  # "On and on runs ...": a verb in the fronted phrase, no place
    return True
