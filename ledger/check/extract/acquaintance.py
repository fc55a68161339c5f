"""Strangerness told between two creatures: ``relation(a, b, "stranger")``.

A narrator who forgets a recorded bond tells the two as strangers: "Bram is hardly more than a name to her",
"Wren barely knows Bram", "she has never met him", "the two are strangers". Read by a small closed class:

- a predicate of scant acquaintance after a copula, with its experiencer after "to": "a (complete) stranger",
  "(hardly | little | barely | scarcely | no) more than a name / face / stranger / acquaintance",
  "a mere / passing / nodding acquaintance", "only a name" (:data:`SCANT`, :data:`ACQUAINTANCE_NOUNS`);
  a pair joined by "and" before "are strangers" needs no "to";
- a verb of knowing by its lemma (know, meet; recognise only with "never", since the dark or a hood hide a
  face as often; "has never spoken to" or "heard of") under a negation ("never", "not", "barely", "hardly"),
  or "knows him only by sight / name / reputation", "knows nothing of him", "has never laid eyes on him".

Modality decides more here than the words: nothing is claimed inside quotes (a lover's lie to a guard), in a
sentence that frames it as pretence, a claim or a report ("pretends", "tells the sergeant she has never met
him", "as if"), that looks back ("had never met him until the fair", "once", "at first"), or where a
disguise, a mask or a lost memory is told nearby (or recorded as a condition of either). The judge
(:func:`stranger_verdict`) contradicts the claim only by a close recorded tie the audience may see: a lover
or spouse, kin held dear, or any tie of strong regard. Imports :mod:`.lexicon`, :mod:`.names`,
:mod:`.predicates` and :mod:`.sentence` (and :mod:`.relations` lazily); called from
:func:`.relations._relations`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ledger.check.claims import Claim, Modality, Verdict
from ledger.check.extract.lexicon import _MEMORY
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import (
    _previous_sentence,
    antecedent_or_one_named,
    any_lemma,
    pronoun_fits,
    verb_lemma,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.snapshot import Edge

# degree words before "more than a": "hardly more than a name", "little more than a face"
SCANT = frozenset({"hardly", "barely", "scarcely", "little", "no"})
# what one is to a near-stranger, after "more than a", "only a", "a mere"
ACQUAINTANCE_NOUNS = frozenset({"name", "face", "stranger", "acquaintance", "voice", "rumour", "rumor"})
# "a mere acquaintance", "a nodding acquaintance", "a passing acquaintance"
_THIN = frozenset({"mere", "passing", "nodding", "casual", "distant", "slight", "vague", "chance"})
_ONLY = frozenset({"only", "just", "merely", "simply"})
# "a complete stranger", "a near stranger"
_UTTER = frozenset({"complete", "total", "perfect", "utter", "virtual", "near", "relative", "absolute"})
_COPULA = frozenset({"is", "was", "are", "were", "remains", "remain", "seems", "seem", "'s", "be", "been"})
_LIKENESS = frozenset({"like", "as"})  # "cold as a stranger to him": a manner, not an acquaintance
# verbs of knowing someone, by lemma; speaking only with "never" ("never once spoken to him")
_KNOWING = frozenset({"know", "meet", "recognise", "recognize"})
_SPEAKING = frozenset({"speak", "talk", "hear"})  # "has never spoken to him", "has never heard of him"
_WEAK_NEG = frozenset({"not", "barely", "hardly", "scarcely"})
_BY = frozenset({"sight", "name", "reputation", "repute", "hearsay"})
# told as a pretence, a claim or a report: "pretends not to know him", "tells the guard she has never met him"
_REPORTING = frozenset(
    {"say", "tell", "insist", "swear", "claim", "answer", "reply", "explain", "declare", "lie", "pretend"}
    | {"feign", "deny", "profess", "protest", "assure", "reassure", "maintain", "whisper", "murmur", "mutter"}
    | {"act", "affect", "play", "pose", "bluff", "fake", "perform"}
)
# words of pretence, disguise or lost memory near the claim (stems, read in the narration only)
_COVER_RE = re.compile(
    r"\b(?:as if|as though|pretend|pretence|pretense|feign|for show|benefit|in front of|lie\b|lies\b|lying|"
    r"disguis|mask|hood|cowl|veil|incognito|guise|costume|unrecogni|dark|shadow|"
    r"amnes|forgot|forget|memory|memories|remember|recall|recollect)"
)
# told as how it stood before, not now: "had never met him until", "at first", "back then"
_PAST_RE = re.compile(
    r"\b(?:once|until|till|formerly|used to|no longer|long ago|ago|back then|in those days|at first|first|"
    r"at the time|then|before|any more|anymore|had|when they met|since)\b"
)
# conditions of either party that make strangerness true (a lost memory, a changed shape or face)
_COVER_CONDITIONS = ("amnes", "memory", "disguis", "polymorph", "shapechang", "transform", "confus")
_OBJECT_PRONOUNS = {"him": "he", "her": "she", "them": "they"}
_SUBJECT_PRONOUNS = {"he": "he", "she": "she", "they": "they"}
# the surface forms of the verbs of knowing (a cheap first look before any lemma), and "eyes" ("laid eyes on")
_VERB_FORMS = frozenset(
    {"know", "knows", "knew", "known", "knowing", "meet", "meets", "met", "meeting", "speak", "speaks"}
    | {"spoke", "spoken", "talk", "talks", "talked", "hear", "hears", "heard", "eyes"}
    | {f"recogni{z}{end}" for z in "sz" for end in ("e", "es", "ed", "ing")}
)


def _acquaintance(s: _Sentence) -> None:
    """relation(x, y, "stranger") from a predicate of scant acquaintance or a negated verb of knowing."""
    toks = s.tokens
    nouns = ACQUAINTANCE_NOUNS | {"strangers"}
    cues = [k for k in range(s.a, s.b) if not toks[k].quoted and toks[k].low in nouns | _VERB_FORMS]
    for k in cues:  # most sentences have none
        t = toks[k]
        pair = _predicate_pair(s, k) if t.low in nouns else None
        if (
            pair is None
            and t.low in _VERB_FORMS
            and (t.low == "eyes" or verb_lemma(t.low) in _KNOWING | _SPEAKING)
        ):
            pair = _verb_pair(s, k)
        if pair is None:
            continue
        x, y = pair
        if x == y or _covered(s, k, (x, y)):
            return
        anchor = Mention((x,), k, k + 1, False, False, "public")
        s.claim("relation", (x, y, "stranger"), anchor, Modality(), t.low)
        return


def _covered(s: _Sentence, k: int, ids: tuple[str, str]) -> bool:
    """True when the strangerness at token ``k`` is told as a pretence, a report, a memory or a disguise, or
    either party's conditions explain it: then it claims nothing about the tie."""
    toks = s.tokens
    for q in range(s.a, k):
        if not toks[q].quoted and (verb_lemma(toks[q].low) or "") in _REPORTING:
            return True  # "she tells the sergeant she has never met him", "pretends not to know him"
    lo = _previous_sentence(s)
    after = next((b for a, b in s.ex.sentences if a >= s.span[1]), s.span[1])
    start = toks[lo].start
    near = re.sub(r"[\"“][^\"”]*[\"”]", " ", s.text[start:after].lower())
    if _COVER_RE.search(near):
        return True
    here = re.sub(r"[\"“][^\"”]*[\"”]", " ", s.raw.lower()).replace("never once", "never")
    if _PAST_RE.search(here):
        return True
    for eid in ids:
        e = s.snap.entities.get(eid)
        if e is not None and any(w in c for c in e.conditions for w in _COVER_CONDITIONS):
            return True
    if _MEMORY & set(here.split()):
        return True  # "dreams that she has never met him", "mourns": the sentence's memory words
    for m in s.mentions:
        if m.id in ids:
            mod = s.modality(m)
            # the memory flag is read above without "never once" (an intensifier, not a time)
            if mod.in_dialogue or mod.hypothetical or mod.rumour:
                return True
    return False


def _predicate_pair(s: _Sentence, k: int) -> tuple[str, str] | None:
    """(x, y) for "X is <scant acquaintance> to Y" or "X and Y are strangers", the noun at ``k``."""
    toks = s.tokens
    low = toks[k].low
    lead = [toks[q].low for q in range(max(s.a, k - 4), k)]
    if low == "strangers":
        if not lead or lead[-1] not in _COPULA | _UTTER | {"total"}:
            return None
        cop = k - 1 if lead[-1] in _COPULA else k - 2
        if toks[cop].low not in _COPULA or _denied(s, cop, k):
            return None
        return _joined_before(s, cop)
    scant = (
        # "a stranger", "a complete stranger"
        (low == "stranger" and (lead[-1:] == ["a"] or (lead[-2:-1] == ["a"] and lead[-1] in _UTTER)))
        # "hardly more than a name", "little more than a face"
        or (len(lead) >= 4 and lead[-3:] == ["more", "than", "a"] and lead[-4] in SCANT)
        # "a nodding acquaintance", "only a name"
        or (lead[-2:-1] in (["a"], ["an"]) and lead[-1:] and lead[-1] in _THIN and low == "acquaintance")
        or (lead[-1:] == ["a"] and lead[-2:-1] and lead[-2] in _ONLY and low in ("name", "face", "voice"))
        # "just another face", "only another name"
        or (lead[-1:] == ["another"] and lead[-2:-1] and lead[-2] in _ONLY and low in ("name", "face"))
    )
    if not scant:
        return None
    if _LIKENESS & set(lead[-3:]):
        return None
    found = next((q for q in range(k - 1, max(s.a - 1, k - 7), -1) if toks[q].low in _COPULA), None)
    if found is None or _denied(s, found, k):
        return None
    cop = found
    if k + 2 < s.b and toks[k + 1].low == "to":
        y = _party_at(s, k + 2)  # "Bram is a stranger to her"
    elif toks[s.a].low == "to" and s.a + 2 < cop and toks[s.a + 2].text == ",":
        y = _party_at(s, s.a + 1)  # "To Wren, Bram is a stranger"
    else:
        return None
    x = _party_before(s, cop)
    return (x, y) if x and y else None


def _denied(s: _Sentence, lo: int, hi: int) -> bool:
    """A negation between the copula and the noun: "is no stranger to", "is not a stranger to"."""
    words = [s.tokens[q].low for q in range(lo, hi)] + [""]
    if any(w in ("not", "never") or w.endswith("n't") for w in words):
        return True
    # "no stranger", "no longer a stranger"; but "no more than a name" is scant, not denied
    return any(w == "no" and words[n + 1] != "more" for n, w in enumerate(words[:-1]))


def _verb_pair(s: _Sentence, k: int) -> tuple[str, str] | None:
    """(subject, object) of a negated verb of knowing at ``k``: "Wren barely knows Bram", "she has never met
    him", "has never once spoken to Bram", "has never laid eyes on him", "knows him only by sight", "does not
    even know Bram's name"; the object may be a relative clause's head ("Bram, whom she has never met"); or
    the pair of "Wren and Bram have never met"."""
    toks = s.tokens
    low = toks[k].low
    lemma = verb_lemma(low) or ""
    obj_at = k + 1
    if low == "eyes":
        # "has never laid / set eyes on him"
        if k - 1 <= s.a or (verb_lemma(toks[k - 1].low) or "") not in ("lay", "set", "clap"):
            return None
        if k + 1 >= s.b or toks[k + 1].low != "on":
            return None
        k, obj_at, lemma = k - 1, k + 2, "meet"
    elif lemma in _SPEAKING:
        # "has never (once) spoken to him": the perfect tells acquaintance; "never speaks to him in public"
        # tells a habit (lovers keeping a secret)
        preps = ("of",) if lemma == "hear" else ("to", "with")
        if low not in ("spoken", "talked", "heard") or obj_at >= s.b or toks[obj_at].low not in preps:
            return None
        obj_at += 1
    elif (
        lemma == "know"
        and k + 2 < s.b
        and toks[k + 1].low in ("nothing", "little")
        and toks[k + 2].low
        in (
            "of",
            "about",
        )
    ):
        # "knows nothing of Bram", "knows little about him": as scant as "barely knows him"
        k, obj_at = k + 1, k + 3
    back = [toks[q].low for q in range(max(s.a, k - 3), k)]
    never = "never" in back
    weak = any(w in _WEAK_NEG or w.endswith("n't") for w in back) or toks[k].low in ("nothing", "little")
    perfect = bool({"has", "have", "hasn't", "haven't", "'s", "'ve"} & set(back))
    if lemma in _SPEAKING and not (never and perfect):
        return None
    if lemma in ("recognise", "recognize") and not never:
        return None  # "does not recognise him": the dark, a hood, soot or distance as often as strangerness
    if lemma == "meet" and not (never or (weak and perfect)):
        return None  # "has not met Bram" (acquaintance), not "did not meet Bram at the gate" (an event)
    if lemma == "meet" and _EVENT_TIME & {toks[q].low for q in range(k, s.b)}:
        return None  # "has not met Bram today": a meeting, not an acquaintance
    only_by = False
    if not (never or weak):
        if lemma != "know":
            return None
        only_by = True  # "knows him only by sight": checked after the object
    subject = _subject_of(s, k, back)
    if subject is None:
        return None
    if obj_at >= s.b or not toks[obj_at].low.isalpha():
        # "Wren and Bram have never met"; "Bram, whom she has never met, ..."
        if lemma == "meet" and never:
            pair = _joined_before(s, k - len([w for w in back if w in ("never", "have", "had", "has")]))
            if pair is not None:
                return pair
        head = _relative_head(s, k, subject) if never or weak else None
        return (subject, head) if head else None
    obj, end = _object_at(s, obj_at)
    if obj is None and lemma == "know" and (never or weak):
        # "does not even know Bram's name"
        named = next((m for m in s.creatures() if m.i == obj_at and m.poss and m.id), None)
        if named is not None and named.j < s.b and toks[named.j].low == "name":
            obj, end = named.id, named.j + 1
    if obj is None:
        return None
    if only_by:
        rest = [toks[q].low for q in range(end, min(s.b, end + 3))]
        if not (rest[:2] == ["only", "by"] and len(rest) > 2 and rest[2] in _BY) and not (
            rest[:1] == ["by"] and len(rest) > 1 and rest[1] in _BY
        ):
            return None
    elif end < s.b and _clause_follows(s, end):
        return None  # "does not know Bram has gone": knowing a fact, not a person
    if obj == subject:
        return None
    return subject, obj


# a meeting told as an event of the day: "has not met Bram today", "hasn't met him yet this morning"
_EVENT_TIME = frozenset(
    {
        "today",
        "tonight",
        "morning",
        "evening",
        "afternoon",
        "week",
        "day",
        "lately",
        "recently",
        "yet",
        "since",
    }
)


def _relative_head(s: _Sentence, k: int, subject: str) -> str | None:
    """The creature a relative clause ending at the verb ``k`` is about: "Bram, whom she has never met",
    "Bram, a man she barely knows": a name, a comma, then "whom"/"who"/"that" or a short noun phrase, then
    the clause's subject."""
    toks = s.tokens
    q = k - 1
    while q > s.a and toks[q].low in (
        "never",
        "not",
        "barely",
        "hardly",
        "scarcely",
        "has",
        "have",
        "had",
        "does",
    ):
        q -= 1
    if q <= s.a or (toks[q].low not in _SUBJECT_PRONOUNS and not any(m.j == q + 1 for m in s.creatures())):
        return None
    first = next((m for m in s.creatures() if m.j == q + 1), None)
    q = first.i - 1 if first is not None else q - 1
    if q > s.a and toks[q].low in ("whom", "who", "that"):
        q -= 1
    else:
        steps = 0
        while q > s.a and toks[q].text.isalpha() and toks[q].text.islower() and steps < 3:
            if toks[q].low in ("a", "an", "the"):
                q -= 1
                break
            q -= 1
            steps += 1
        else:
            return None
    if toks[q].text != ",":
        return None
    head = next((m for m in s.creatures() if m.j == q and not m.poss and m.id), None)
    return head.id if head is not None and head.id != subject else None


def _clause_follows(s: _Sentence, q: int) -> bool:
    """True when the word at ``q`` opens a clause (a verb or an auxiliary): "knows Bram is here"."""
    t = s.tokens[q]
    if t.quoted or not t.text.isalpha() or t.low in ("well", "at", "by", "from", "and", "or", "personally"):
        return False
    lemma = verb_lemma(t.low)
    return lemma is not None and (any_lemma(t.low) == lemma or t.low.endswith("ing"))  # "Bram being here"


def _subject_of(s: _Sentence, k: int, back: list[str]) -> str | None:
    """The creature that knows (or meets) at the verb ``k``: a name or a subject pronoun before it in the
    clause, else, for "Bram, whom she has never met", the pronoun after "whom"."""
    toks = s.tokens
    c0, _ = s.clause_of(k)
    for q in range(k - 1, max(c0, k - 6) - 1, -1):
        t = toks[q]
        m = next((x for x in s.creatures() if x.j == q + 1 and not x.poss), None)
        if m is not None and m.id:
            return m.id
        if t.low in _SUBJECT_PRONOUNS:
            return _resolve(s, q, _SUBJECT_PRONOUNS[t.low])
        if t.text in (",", ";", ":") or t.low in ("and", "but", "who", "whom", "that"):
            return None
    return None


def _object_at(s: _Sentence, q: int) -> tuple[str | None, int]:
    """The creature named (or referred to by an object pronoun) at token ``q``, with the token after it."""
    t = s.tokens[q]
    m = next((x for x in s.creatures() if x.i == q), None)
    if m is not None:
        return (None if m.poss else m.id), m.j
    want = _OBJECT_PRONOUNS.get(t.low)
    if want is not None and not t.quoted:
        nxt = s.tokens[q + 1] if q + 1 < s.b else None
        if want == "she" and nxt is not None and nxt.text.isalpha() and any_lemma(nxt.low) != nxt.low:
            return None, q + 1  # "her brother": a possessive
        return _resolve(s, q, want), q + 1
    return None, q + 1


def _party_before(s: _Sentence, cop: int) -> str | None:
    """The subject of the copula at ``cop``: a creature named right before it (adverbs between), or a
    subject pronoun."""
    toks = s.tokens
    for q in range(cop - 1, max(s.a, cop - 3) - 1, -1):
        m = next((x for x in s.creatures() if x.j == q + 1 and not x.poss), None)
        if m is not None:
            return m.id
        if toks[q].low in _SUBJECT_PRONOUNS:
            return _resolve(s, q, _SUBJECT_PRONOUNS[toks[q].low])
        if not toks[q].text.isalpha() or not toks[q].text.islower():
            return None
    return None


def _party_at(s: _Sentence, q: int) -> str | None:
    """The creature at token ``q`` after "to": a name, or an object pronoun."""
    found, _ = _object_at(s, q)
    return found


def _joined_before(s: _Sentence, q: int) -> tuple[str, str] | None:
    """ "Wren and Bram" ending right before token ``q``."""
    second = next((m for m in s.creatures() if m.j == q and not m.poss), None)
    if second is None or second.i - 1 <= s.a or s.tokens[second.i - 1].low != "and":
        return None
    first = next((m for m in s.creatures() if m.j == second.i - 1 and not m.poss), None)
    if first is None or not first.id or not second.id or first.id == second.id:
        return None
    return first.id, second.id


def _resolve(s: _Sentence, q: int, want: str) -> str | None:
    """The creature a pronoun at ``q`` stands for: the nearest fitting creature named earlier in the
    sentence, else the previous sentence's subject if it fits, else the one fitting creature named in the
    sentence before. None when unclear."""
    fits = pronoun_fits(s, want)
    here = [m.id for m in s.creatures() if m.id and m.j <= q and not m.poss and fits(m.id)]
    if here:
        return here[-1]
    return antecedent_or_one_named(s, fits, s.a)


# --- the verdict ------------------------------------------------------------------------------------------

# recorded kinds that are a close bond whatever the attitude; kin counts when held dear
_INTIMATE = ("lover", "love", "spouse", "wife", "husband", "betrothed", "fianc", "paramour", "consort")
KIN_DEAR_AT = 40  # kin with at least this regard know each other
CLOSE_AT = 60  # any tie of at least this regard is no stranger's


def close_tie(e: Edge) -> bool:
    """True when the recorded edge makes its two well known to each other."""
    from ledger.check.extract.relations import is_kin_kind

    kind = e.kind.lower()
    if any(w in kind for w in _INTIMATE) and "ex-" not in kind and "former" not in kind:
        return True
    if is_kin_kind(kind) and e.attitude >= KIN_DEAR_AT:
        return True
    return e.attitude >= CLOSE_AT


def stranger_verdict(c: Claim, shown: Iterable[Edge]) -> Verdict:
    """The verdict on relation(x, y, "stranger") against the edges between them the audience may see."""
    close = [e for e in shown if close_tie(e)]
    if not close:
        return Verdict(c, "unknown")
    e = close[0]
    return Verdict(c, "contradicted", e.id, f"told as strangers, but the record says {e.kind}: {e.reason}")
