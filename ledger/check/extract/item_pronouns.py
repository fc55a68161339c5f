"""Things called "it": an item named, then taken up by a later verb as "it" or "them".

"She lifts the brass compass from the crate, tunes it, and drops it back"; "The radio sits on the shelf.
Pike turns it on": the pronoun carries the item to the later verb, so the holding, item-gone and quantity
rules can read that verb as they read one naming the thing. :func:`pronoun_objects` finds such pronouns,
conservatively:

* the pronoun is the object right after a finite verb of doing ("tunes it", "turns it on"), never the
  empty object of a verb that takes one ("makes it", "finds it hard", "calls it a night"): the word after
  it must be a particle, a preposition, a conjunction, an adverb or a mark, not an adjective or a noun;
* it goes to the last thing named before it (in its sentence or the one before) that is no oblique, that
  is, not the object of a preposition ("lifts the compass from the crate": the compass, not the crate); a
  thing named by no record (a cat, a lid, the table), a creature told as "it", or a place in that slot
  leaves the pronoun unresolved, as does another recorded thing, or a new one ("a decree"), named after it
  anywhere but where something is taken from ("presses the seal on a decree and slides it": no pick);
* "them" is resolved only when no creature other than the one acting is named around it (they are the
  likeliest "them");
* the antecedent must be told as a thing of the scene (not remembered, wished, reported or denied), and the
  verb's subject the nearest person named before it with no other subject, clause or modal in between.

:func:`pronoun_subjects` finds a subject "it" opening its clause before a verb of its own ("It crackles
into life"), never an empty or weather one ("it is cold", "it seems", "it rains", "it's late", "it was Gus
who ...", "it strikes her that ..."), resolved the same way but only to the last thing named of all.

The judgement of the verb (holding, giving, taking, working) is :mod:`.holdings`' own. Imports
:mod:`.item_mentions`, :mod:`.lexicon`, :mod:`.linker`, :mod:`.names`, :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ledger.check.extract.item_mentions import _named_plural, is_adjective, is_adverb
from ledger.check.extract.lexicon import _BODY_NOUNS, _NUMBERS, VERBS, _is_past
from ledger.check.extract.linker import is_noun, is_plural
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite
from ledger.check.extract.verbs import lemma as lexicon_lemma


@dataclass(frozen=True, slots=True)
class PronounObject:
    """An object pronoun resolved to an item: the pronoun as a mention of the item, the verb before it (its
    token and lemma), the verb's subject, and a count told with it ("all three of them": 3, exact)."""

    it: Mention
    verb_at: int
    verb: str
    subject: Mention
    qty: int | None = None
    exact: bool = False


# verbs whose "it" is empty or whose object is no thing handled: "makes it to the door", "lets it fall",
# "calls it a night", "means it", "gets it", "has it out with", "leaves it at that"
_EMPTY_IT = frozenset(
    {"make", "let", "call", "mean", "get", "have", "find", "think", "consider", "leave", "do", "take"}
    | {"keep", "like", "love", "hate", "need", "want", "owe", "believe", "say", "tell", "see", "hear"}
)
# "takes it" and "keeps it" are acquisition and holding, when a particle, a place or the end of the
# clause follows: "takes it down", "takes it from the shelf", "takes it and goes"; "keeps it close" has an
# adjective after it (not read)
_EMPTY_UNLESS_MOVED = frozenset({"take", "keep", "leave"})
# what may follow an object pronoun of a thing handled
_PARTICLES = frozenset(
    {"up", "down", "out", "over", "on", "off", "away", "back", "aside", "open", "shut", "around", "round"}
    | {"in", "across", "along", "forward", "loose", "apart", "upright", "free", "together", "high"}
)
_PREPOSITIONS = frozenset(
    {"in", "on", "at", "from", "into", "onto", "with", "by", "under", "over", "across", "against", "to"}
    | {"behind", "beside", "near", "toward", "towards", "through", "of", "for", "off", "out", "around"}
    | {"upon", "beneath", "above", "below", "along", "among", "between", "inside", "past", "about"}
    | {"like", "within", "without", "beyond", "atop", "underneath", "throughout", "amid", "onto"}
)
# prepositions of where a thing is taken from or what it is part of: what they name is rarely the "it"
# after ("draws the dagger from his boot and sets it down", "the lid of the crate")
_SOURCES = frozenset({"from", "off", "out", "of"})
_CONJUNCTIONS = frozenset({"and", "but", "or", "then", "while", "as", "before", "until", "so", "once"})
_MARKS = frozenset({",", ".", ";", ":", "!", "?", "—", "–", ")"})
_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "these", "those", "his", "her", "their", "its", "my", "your", "our"}
    | {"some", "another", "every", "each", "no", "one"}
)
_INDEFINITE = frozenset({"a", "an", "another", "some", "one"})
# between a subject and its verb: a new clause, a subject of its own or a modal stops the subject reading
_SUBJECT_STOPS = frozenset(
    {"who", "which", "that", "whom", "whose", "when", "while", "if", "because", "although", "though"}
    | {"unless", "until", "since", "where", "whether", ";", ":", "he", "she", "they", "it", "i", "we"}
    | {"you", "someone", "somebody", "nobody", "everyone", "nothing", "something"}
)
# what may stand right before the verb: its subject, a comma or "and" chaining its predicates, an adverb
_VERB_LEAD = frozenset({",", "and", "then", "but"})
_ADVERBS = frozenset({"then", "still", "now", "again", "also", "just", "quickly", "slowly", "carefully"})
# nouns that tell when or where, not a thing: "the compass today", "the log back"
_NOT_THINGS = frozenset({"today", "tonight", "tomorrow", "yesterday", "now", "once", "home", "moment"})


def pronoun_objects(s: _Sentence) -> list[PronounObject]:
    """The object pronouns of ``s`` resolved to a recorded item, in text order (see the module doc)."""
    toks = s.tokens
    found: list[PronounObject] = []
    for q in range(s.a + 1, s.b):
        t = toks[q]
        if t.quoted or t.text not in ("it", "them"):
            continue
        got = _resolved(s, q)
        if got is not None:
            found.append(got)
    return found


def _resolved(s: _Sentence, q: int) -> PronounObject | None:
    toks = s.tokens
    plural = toks[q].low == "them"
    v, qty, exact = _verb_before(s, q)
    if v is None or not _thing_follows(s, q):
        return None
    form = toks[v].low
    base = VERBS.get(form) or lexicon_lemma(form)
    if base is None or not is_finite(form, base):
        return None
    if s.ex.present_tense and _is_past(form, base):
        return None  # "she lit it" in a narration told in the present looks back
    if base in _EMPTY_IT and not (base in _EMPTY_UNLESS_MOVED and _moved(s, q, base)):
        return None
    if base == "take" and q + 1 < s.b and s.tokens[q + 1].low in ("in", "to", "personally", "seriously"):
        return None  # "takes it in", "takes it to heart", "takes it personally": no thing taken
    subject = _subject_of(s, v)
    if subject is None:
        return None
    item = _antecedent(s, q, plural, subject)
    if item is None or item.id is None:
        return None
    it = Mention((item.id,), q, q + 1, False, False, "public", True, plural)
    return PronounObject(it, v, base, subject, qty, exact)


# verbs an empty or a weather "it" opens: "it seems", "it rains", "it takes an hour", "it strikes her that"
_IMPERSONAL = frozenset(
    {"seem", "appear", "look", "feel", "become", "get", "matter", "happen", "occur", "mean", "take"}
    | {"make", "depend", "rain", "snow", "hail", "sleet", "drizzle", "pour", "thunder", "freeze", "blow"}
    | {"grow", "turn", "remain", "stay", "begin", "start", "stop", "help", "hurt", "pay", "follow", "say"}
)
# what may open the clause an item's "it" is the subject of: "It crackles", "..., and it crackles"
_CLAUSE_LEAD = frozenset({"and", "but", ";", "then", "now"})


def pronoun_subjects(s: _Sentence) -> list[tuple[Mention, int]]:
    """ "Bram glances at the old radio. It crackles into life": a subject "it" opening its clause, right
    before a finite verb of its own that is no empty or weather verb ("it seems", "it rains", "it takes
    an hour") with no "that" after it ("it strikes her that"), resolved to an item as an object pronoun
    is; the pronoun as a mention of the item and the verb's token."""
    toks = s.tokens
    found: list[tuple[Mention, int]] = []
    for q in range(s.a, s.b - 1):
        t = toks[q]
        if t.quoted or t.low != "it" or any(m.i == q for m in s.mentions):
            continue
        if q > s.a and toks[q - 1].low not in _CLAUSE_LEAD and toks[q - 1].text not in _CLAUSE_LEAD:
            continue
        v = q + 1
        while v < s.b - 1 and (toks[v].low in _ADVERBS or _manner(toks[v].low)):
            v += 1
        if not _finite_at(s, v) or toks[v].low.endswith("'s"):
            continue
        form = toks[v].low
        base = VERBS.get(form) or lexicon_lemma(form) or ""
        if base in _IMPERSONAL or any(w.low == "that" for w in toks[v + 1 : min(s.b, v + 5)]):
            continue
        item = _antecedent(s, q, False, None)
        if item is not None and item.id is not None:
            found.append((Mention((item.id,), q, q + 1, False, False, "public", True), v))
    return found


def _verb_before(s: _Sentence, q: int) -> tuple[int | None, int | None, bool]:
    """The token of the verb whose object the pronoun at ``q`` is ("tunes it"), or, for "them", the verb
    before a count of them ("pockets all three of them": 3 exactly; "two of them": at least 2)."""
    toks = s.tokens
    v = q - 1
    qty: int | None = None
    exact = False
    if toks[q].low == "them" and toks[v].low == "of" and v - 2 > s.a:
        w = toks[v - 1].low
        num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
        if num is None:
            return None, None, False
        v -= 2
        qty, exact = num, False
        if toks[v].low in ("all", "both"):
            v -= 1
            exact = True
    t = toks[v]
    if t.quoted or not t.text.isalpha() or not t.text.islower():
        return None, None, False
    return v, qty, exact


def _thing_follows(s: _Sentence, q: int) -> bool:
    """True when the word after the pronoun leaves it a thing handled: a particle, a preposition, a
    conjunction, a mark or an adverb in -ly ("turns it over", "drops it back into", "pockets it."), not an
    adjective, noun or verb ("finds it hard", "calls it a night", "watches it go")."""
    if q + 1 >= s.b:
        return True
    nxt = s.tokens[q + 1]
    if nxt.quoted:
        return True
    w = nxt.low
    if w in _MARKS or w in _PARTICLES or w in _PREPOSITIONS or w in _CONJUNCTIONS or nxt.text in _MARKS:
        return True
    if w.endswith("ly") and lexicon_lemma(w) is None and not is_noun(w):
        return True  # "turns it slowly"
    # an adverb that is no adjective: "notches it twice", "wipes it again" ("finds it hard" is not)
    return is_adverb(w) and not is_adjective(w) and not is_noun(w)


def _moved(s: _Sentence, q: int, base: str) -> bool:
    """ "takes it down", "keeps it in her coat", "leaves it on the bench": a particle or a preposition of
    place after the pronoun, so "take"/"keep"/"leave" move or hold the thing ("take it easy" does not)."""
    if q + 1 >= s.b:
        return False
    w = s.tokens[q + 1].low
    if w in _MARKS or w in _CONJUNCTIONS or s.tokens[q + 1].text in _MARKS:
        return base == "take"  # "takes it and goes", "takes it."; "keeps it." may be a secret kept
    return (w in _PARTICLES or w in _PREPOSITIONS) and w not in ("of", "for", "like", "about", "to")


def _subject_of(s: _Sentence, v: int) -> Mention | None:
    """The person whose verb stands at token ``v``: the nearest person named before it in the sentence,
    not a possessive, with nothing between but adverbs, commas and "and" chaining the same subject's
    predicates ("Nadia lifts the compass from the crate, tunes it"), no new subject, no clause of its own,
    no thing acting ("and the cat bats it") and no modal or negation ("wants to", "doesn't touch it")."""
    toks = s.tokens
    named = [c for c in s.creatures() if c.j <= v and not c.poss and _subject_place(s, c)]
    if not named or s.kind(named[-1]) not in ("pc", "npc"):
        return None  # no one, or a creature of no person ("the cat bats it")
    subject = named[-1]
    lead = v - 1
    while lead >= subject.j and (toks[lead].low in _ADVERBS or _manner(toks[lead].low)):
        lead -= 1
    if lead != subject.j - 1 and toks[lead].text not in _VERB_LEAD and toks[lead].low not in _VERB_LEAD:
        return None
    for k in range(subject.j, v):
        t = toks[k]
        if t.low in ("it", "you") and not _finite_at(s, k + 1):
            continue  # "tunes it, and drops it": an object, no new subject
        stop = t.quoted or t.low in _SUBJECT_STOPS or t.text in _SUBJECT_STOPS
        if stop and not any(m.i == k for m in s.mentions):  # "she" the pronoun pass told is a person named
            return None
        if t.low in ("and", "but", ",") and _clause_with_thing_subject(s, k + 1, v):
            return None
    return subject


def _finite_at(s: _Sentence, k: int) -> bool:
    """True when token ``k`` is a lower-case finite verb form ("it crackles", "you hear")."""
    if k >= s.b or not s.tokens[k].text.isalpha() or not s.tokens[k].text.islower():
        return False
    w = s.tokens[k].low
    base = VERBS.get(w) or lexicon_lemma(w)
    return base is not None and is_finite(w, base)


def _subject_place(s: _Sentence, c: Mention) -> bool:
    """True when the creature named at ``c`` may be a subject: no preposition or verb governs it ("takes
    the pass from Nyx", "thanks Mira and pockets it": Nyx and Mira are no subject)."""
    if c.i <= s.a:
        return True
    prev = s.tokens[c.i - 1]
    if prev.quoted or not prev.text.isalpha() or not prev.text.islower():
        return True
    if prev.low in _PREPOSITIONS:
        return False
    base = VERBS.get(prev.low) or lexicon_lemma(prev.low)
    return base is None or not is_finite(prev.low, base)


def _clause_with_thing_subject(s: _Sentence, k: int, v: int) -> bool:
    """True when a determiner phrase at ``k`` is followed by a finite verb before ``v`` ("and the needle
    swings"): a clause with a thing as its subject."""
    toks = s.tokens
    if k >= v or toks[k].low not in _DETERMINERS:
        return False
    for r in range(k + 1, min(v, k + 5)):
        w = toks[r]
        if not (w.text.isalpha() and w.text.islower()):
            return False
        base = VERBS.get(w.low) or lexicon_lemma(w.low)
        if base is not None and r > k + 1 and is_finite(w.low, base) and w.low != base:
            return True
    return False


def _manner(word: str) -> bool:
    return word.endswith("ly") and len(word) > 4 and lexicon_lemma(word) is None


@dataclass(frozen=True, slots=True)
class _Phrase:
    """A noun phrase in the pronoun's reach: where it starts, its record (an item's, or another kind's,
    or none), whether a preposition governs it, whether it is plural, and whether it names a creature."""

    start: int
    item: Mention | None
    record: str | None
    oblique: str  # the preposition governing it, or ""
    plural: bool
    creature: bool
    person: bool
    new: bool = False  # brought in by "a", "an", "another", "some" or a number: a thing new to the story


def _antecedent(s: _Sentence, q: int, plural: bool, subject: Mention | None) -> Mention | None:
    """The item the pronoun at ``q`` stands for: the last non-oblique noun phrase of its number before it
    (this sentence back to the previous one), when that is an item told as a thing of the scene and no
    other recorded or new thing of its number is named after it but where something is taken from
    ("lifts the compass from the crate, tunes it"); with no such phrase, the only recorded or new thing
    of its number when that is an item ("glances at the radio on the bench. He switches it on"); else
    None. "them" wants the only plural phrase, of a thing recorded as many, with no creature but the one
    acting named; a subject "it" (``subject`` None) the last thing named of all."""
    lo = _previous_start(s)
    phrases = _phrases(s, lo, q)
    if plural and any(p.creature and (subject is None or p.record != subject.id) for p in phrases):
        return None  # "them" may be the people named: leave it
    if any(p.creature and not p.person for p in phrases):
        return None  # a creature told as "it" (the cat) is in reach
    fits = [p for p in phrases if not p.creature and p.plural == plural]
    if not fits:
        return None
    if plural and len(fits) > 1:
        return None  # "hands the flares to the twins and thanks them": two plurals, no clear pick
    core = [p for p in fits if not p.oblique]
    # with none, the one recorded or new thing among the obliques ("glances at the radio on the bench")
    salient = [p for p in fits if p.item is not None or p.new]
    pick = core[-1] if core else (salient[0] if len(salient) == 1 else None)
    if pick is None or pick.item is None or pick.new:
        return None
    if not core and pick.item.derived:
        return None  # an oblique named by a derived form ("behind the counter" read as the Geiger counter)
    if subject is None and (pick is not fits[-1] or (pick.oblique and len(fits) > 1)):
        # a subject "it" goes on with the last thing named, told as no setting unless it is the only one:
        # "slots it into the padlock behind the counter and it gives" is the padlock's
        return None
    if any(
        p.start > pick.start
        and p.oblique not in _SOURCES
        and p.record != pick.record
        and (p.new or p.item is not None)
        for p in fits
    ):
        # "presses the seal into wax on a decree and slides it": the seal or the decree; a place the thing
        # is told at ("spots the compass on the shelf and pockets it") is the setting, no rival
        return None
    if plural and not _many(s, pick.item.id or ""):
        return None  # "them" of a thing recorded as one ("the stones" read as the hagstone): no pick
    if not _told_here(s, pick.item, lo):
        return None
    return pick.item


def _previous_start(s: _Sentence) -> int:
    """The first token of the sentence before ``s`` (``s.a`` when it opens the narration)."""
    spans = s.ex.sentences
    n = bisect_left(spans, s.span)
    if n <= 0 or n > len(spans):
        return s.a
    start = spans[n - 1][0]
    starts = [t.start for t in s.tokens]
    k = bisect_left(starts, start)
    return k if k < s.a else s.a


def _many(s: _Sentence, iid: str) -> bool:
    """True when the item is recorded as many: a plural name ("the signal flares") or a stack of more than
    one in someone's hands."""
    return _named_plural(s, iid) or any(h.quantity > 1 for h in s.snap.holders_of(iid).values())


def _told_here(s: _Sentence, item: Mention, lo: int) -> bool:
    """True when the antecedent is told as a thing of the scene: not quoted, remembered, wished for,
    reported or denied, read in its own sentence."""
    if item.quoted:
        return False
    home = _Sentence(s.ex, s.snap, s.text, lo, s.a) if item.i < s.a else s
    m = home.modality(item)
    return not (m.hypothetical or m.memory or m.rumour or m.negated or home.future_or_asked(item))


def _phrases(s: _Sentence, lo: int, q: int) -> list[_Phrase]:
    """The noun phrases from token ``lo`` to the pronoun at ``q``, in order: every known name (an item, a
    creature, a place) and every phrase a determiner opens that no name covers ("the crate", "a lid"), and
    a bare noun right after a verb ("pours water")."""
    toks = s.tokens
    mentions = [m for m in s.ex.between(lo, q) if m.j <= q and not m.quoted]
    covered = {k for m in mentions for k in range(m.i, m.j)}
    out: list[_Phrase] = []
    for m in mentions:
        kind = _kind(s, m)
        start = m.i
        while start - 1 >= lo and (toks[start - 1].low in _DETERMINERS or toks[start - 1].low in _NUMBERS):
            start -= 1
        creature = kind in ("pc", "npc", "monster")
        person = creature and _person(s, m)
        if m.poss:
            # "into Lady Cordelia's water glass", "the compass's case": the thing after the owner is the
            # phrase (a creature's own part is none); a creature so named is still in reach ("finds the
            # gnoll's eye and it reels away")
            head = _head(s, m.j, q, covered)
            if head is not None and toks[head].low not in _BODY_NOUNS:
                plural = is_plural(toks[head].low)
                out.append(_Phrase(start, None, None, _oblique(s, start, lo), plural, False, False))
            if creature:
                out.append(_Phrase(start, None, m.id, "of", bool(m.plural), True, person))
            continue
        item_plural = m.plural or is_plural(toks[m.j - 1].low)
        # "spots a radio in the stall": a thing new to the story, not the one recorded
        new = toks[start].low in _INDEFINITE
        out.append(
            _Phrase(
                start,
                m if kind == "item" and m.id else None,
                m.id,
                _oblique(s, start, lo),
                item_plural if kind == "item" else bool(m.plural),
                creature,
                person,
                new,
            )
        )
    for k in range(lo, q):
        t = toks[k]
        if k in covered or t.quoted or (t.low not in _DETERMINERS and not t.poss):
            continue
        if t.poss and (k in covered or not t.text[:1].islower()):
            continue
        if t.low == "her" and not _noun_follows(s, k, q):
            continue  # "hands her the lamp": an object pronoun
        if k > lo and (toks[k - 1].low in _DETERMINERS or toks[k - 1].poss):
            continue  # the determiner's phrase is counted once
        head = _head(s, k + 1, q, covered)
        if head is None:
            continue
        if toks[head].low in _BODY_NOUNS or toks[head].low in _NOT_THINGS:
            continue  # "her hand", "his fingers": a part of someone, not a thing handled
        new = t.low in _INDEFINITE or t.low in _NUMBERS
        out.append(_Phrase(k, None, None, _oblique(s, k, lo), is_plural(toks[head].low), False, False, new))
    out.sort(key=lambda p: p.start)
    return out


def _person(s: _Sentence, m: Mention) -> bool:
    e = s.snap.entities.get(m.id or "")
    if e is None:
        return False
    if e.pronoun is not None:
        return e.pronoun != "it"
    return e.kind != "monster"


def _kind(s: _Sentence, m: Mention) -> str:
    e = s.snap.entities.get(m.id or "") if m.id else None
    return e.kind if e is not None else ""


def _noun_follows(s: _Sentence, k: int, q: int) -> bool:
    nxt = s.tokens[k + 1] if k + 1 < q else None
    return nxt is not None and nxt.text.isalpha() and nxt.text.islower() and is_noun(nxt.low)


def _head(s: _Sentence, k: int, q: int, covered: set[int]) -> int | None:
    """The last word of the phrase whose words start at ``k``: lower-case words up to a preposition, a
    particle, a conjunction, a mark or a verb after its first word ("the needle swings", "the cat's ears
    prick up"); None when no word follows the determiner or a name is reached."""
    toks = s.tokens
    head: int | None = None
    for r in range(k, min(q, k + 5)):
        t = toks[r]
        if r in covered:
            return None
        if not (t.text.isalpha() and t.text.islower()) or t.quoted:
            break
        w = t.low
        if w in _PREPOSITIONS or w in _CONJUNCTIONS or w in _DETERMINERS or w in ("it", "them"):
            break
        if head is not None and w in _PARTICLES:
            break
        base = VERBS.get(w) or lexicon_lemma(w)
        if head is not None and base is not None and (w != base or is_plural(toks[head].low)):
            break  # a verb in -s after a singular, or its bare form after a plural
        head = r
    return head


def _oblique(s: _Sentence, start: int, lo: int) -> str:
    """The preposition that governs the phrase starting at ``start`` ("from the crate", "on the shelf",
    "the lid of the crate", "from his second vial of laudanum"), else "": up to three words before it that
    describe (a determiner, a number, a word of no verb) may stand between."""
    toks = s.tokens
    k = start - 1
    for _ in range(4):
        if k < lo or toks[k].quoted:
            return ""
        w = toks[k].low
        if w in _PREPOSITIONS:
            return w
        if not toks[k].text.isalpha() or not toks[k].text.islower() or w in _CONJUNCTIONS:
            return ""
        base = VERBS.get(w) or lexicon_lemma(w)
        if base is not None and is_finite(w, base) and w not in _DETERMINERS:
            return ""  # the verb whose object the phrase is
        k -= 1
    return ""
