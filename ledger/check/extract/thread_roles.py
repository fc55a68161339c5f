"""Who owes whom: a debt or favour told with its two sides, judged against the thread's recorded roles.

A sentence that makes one creature owe another ("he still owes Fu Laosan thirty taels", "the twenty pounds
Hester owes him", "Zaynab is owed a favour by the Farba") names both sides of an owing thread: the debtor
(the subject of an active "owe", the agent of a passive one) and the creditor. The thread is the one owing
thread (debt or favour) those two are the parties of; the claim carries the debtor told
(``owes=<id>;`` in its detail), so the judge can say a thread told the wrong way round is false even when
its status is right (:func:`direction_conflict`, over :attr:`Thread.roles`). A creditor said to owe the
debtor nothing is true whatever the thread's status, and tells nothing. The debtor may be a pronoun, the
subject of a relative clause ("Odile, who owes Brannock ...") or of the clause a participle hangs on ("the
squire went into the ground still owing him"); an owing inside a noun phrase ("the favour the Farba owes
her was repaid") only names the thread when the rest of the sentence tells its status.

A debtor paying the creditor the whole of it in the scene ("she pays him the last coin") is a deed told
now (:func:`payment_claim`): the judge replays it, so "she owes him nothing now" after it is true.

Also here: the thread a sentence means when it names one by its kind's word, chosen by its parties and by
what it is for as well as by its kind (:func:`choose`): "the debt for his son's leg" is the favour the
Farba owes for setting his son's leg, not the only thread recorded as a debt; and a status word under an
approximation ("as good as paid", "all but settled") tells the status is not reached (:func:`approximated`).

Only narration is read here: a line of speech, a rumour, a plan, a memory or a question tells no status.
Imports :mod:`.sentence`, :mod:`.verbs` and :mod:`.thread_grammar` (and :mod:`.threads`, late).
"""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_grammar import negative
from ledger.check.extract.thread_words import _THREAD_WORDS
from ledger.check.extract.verbs import lemma
from ledger.check.snapshot import Thread, WorldSnapshot

# the owing kinds: a favour owed is a debt of a kind, and writers call either by the other's word
OWING = frozenset({"debt", "favour", "favor", "boon"})
# what a thread's kind word may stand for: the word's own kind first, then the kinds it is used for loosely
_FAMILY: dict[str, frozenset[str]] = {
    "debt": frozenset({"debt", "favour"}),
    "favour": frozenset({"favour", "debt"}),
    "oath": frozenset({"oath"}),
}
# a promise is sworn or owed: "his promise to stand as witness" may be recorded as an oath or a favour
_LOOSE_WORDS: dict[str, frozenset[str]] = {"promise": frozenset({"oath", "favour"})}

# words that may stand between a subject and its verb of owing: adverbs, auxiliaries, negation
_BETWEEN = frozenset(
    {"still", "yet", "no", "longer", "not", "never", "already", "now", "also", "even", "really", "truly"}
    | {"is", "are", "was", "were", "has", "have", "had", "does", "do", "did", "surely", "certainly", "all"}
    | {"doesn't", "don't", "didn't", "isn't", "wasn't", "hasn't", "n't", "'s", "been", "only", "just"}
    | {"will", "would", "shall", "should", "might", "may", "must", "can", "could", "'ll", "'d"}
)
_BE = frozenset({"is", "are", "was", "were", "been", "'s", "isn't", "wasn't", "aren't", "being"})
_EDGE = frozenset({";", ":", "—", "–", "(", ")", ".", "!", "?"})
_JOINING = frozenset({"and", "but", "so", "yet", "while", "though", "although", "because", "since", "or"})
_SUBJECT_PRONOUNS = frozenset({"he", "she", "they"})
_OBJECT_PRONOUNS = frozenset({"him", "her", "them"})
# an owing told over: "owes her nothing", "no longer owes him a penny", "doesn't owe him anything any more"
_NOTHING = frozenset({"nothing", "none", "naught", "nought"})
_MORE = frozenset({"more", "anymore", "longer"})
_LIES = frozenset(
    {"lied", "liar", "pretend", "pretends", "pretended", "claims", "claimed"}
    | {"insists", "insisted", "bluffs", "bluffed", "falsely", "supposedly", "allegedly", "reportedly"}
    | {"rumour", "rumor", "rumoured", "rumored", "gossip", "whispered", "whisper", "whispers"}
    # a belief, not the state: "or so he likes to think", "she believes he owes her"
    | {"think", "thinks", "believe", "believes", "believed", "fancies", "imagines", "suspects", "reckons"}
)
_SAYERS = frozenset({"they", "folk", "folks", "people", "everyone", "some", "men", "women"})


def _hearsay(words: list[str]) -> bool:
    """True when a sentence passes on what others say: "word is", "word on the quay is", "they say"."""
    for n, w in enumerate(words[:-1]):
        if w == "word" and (n == 0 or words[n - 1] in (",", "the")) and words[n + 1] in ("is", "on", "has"):
            return True
        if w in _SAYERS and words[n + 1] in ("say", "said", "whisper", "reckon", "claim"):
            return True
    return False


_FORMER = frozenset({"once", "used", "ago", "remember", "remembers", "recall", "recalls", "then", "formerly"})
# approximations: the status after them is not reached ("as good as paid", "all but settled", "nearly square")
_APPROXIMATING = (
    ("as", "good", "as"),
    ("all", "but"),
    ("almost",),
    ("nearly",),
    ("practically",),
    ("virtually",),
    ("just", "about"),
    ("more", "or", "less"),
    ("close", "to"),
    ("half",),
)


def approximated(words: list[str], n: int) -> bool:
    """True when the status word ``words[n]`` comes right after an approximation ("she's as good as paid
    me", "the debt is all but settled", "nearly square"): a status not yet reached, so none told."""
    for k in range(max(0, n - 4), n):
        for phrase in _APPROXIMATING:
            if tuple(words[k : k + len(phrase)]) == phrase and k + len(phrase) >= n - 1:
                return True
    return False


# --- the two sides of an owing --------------------------------------------------------------------------


def _mention_ending(s: _Sentence, q: int) -> Mention | None:
    """The creature mention whose last token is ``q`` (narration, not a possessive), if any."""
    for m in s.mentions:
        if m.j - 1 == q and m.id and not m.quoted and s.kind(m) in ("pc", "npc", "monster"):
            return None if m.poss else m
    return None


def _mention_at(s: _Sentence, q: int) -> Mention | None:
    """The creature mention starting at ``q`` (narration, not a possessive), if any."""
    for m in s.mentions:
        if m.i == q and m.id and not m.quoted and s.kind(m) in ("pc", "npc", "monster"):
            return None if m.poss else m
    return None


def _subject_pronoun(s: _Sentence, q: int) -> str | None:
    """The creature the subject pronoun at ``q`` stands for, as the subject pass resolved it, else the one
    creature of this and the previous sentence its gender fits."""
    from ledger.check.extract.predicates import _resolve_pronoun, _subjects

    found = next((eid for eid, m, _, _ in _subjects(s) if m.i == q), None)
    if found is not None:
        return found
    if q == s.a or s.tokens[q - 1].text in _EDGE or s.tokens[q - 1].low in _JOINING:
        return _resolve_pronoun(s, s.tokens[q].low)
    return None


def _object_pronoun(s: _Sentence, q: int, other: str) -> str | None:
    """The one creature the object pronoun at ``q`` may stand for, not ``other`` (the subject)."""
    from ledger.check.extract.predicates import _previous_sentence

    want = {"him": "he", "her": "she", "them": "they"}[s.tokens[q].low]
    fits = {
        m.id
        for m in s.ex.between(_previous_sentence(s), s.b)
        if m.id
        and not m.quoted
        and m.id != other
        and (e := s.snap.entities.get(m.id)) is not None
        and e.kind in ("pc", "npc")
        and e.pronoun == want
    }
    return next(iter(fits)) if len(fits) == 1 else None


def _debtor_before(s: _Sentence, k: int) -> tuple[str | None, int, list[str]]:
    """(the subject of the verb at ``k``, where it stands, the words between): a named creature or a subject
    pronoun, with only adverbs, auxiliaries and negation between them ("he still owes", "Hester has never
    owed")."""
    between: list[str] = []
    q = k - 1
    while q >= s.a and not s.tokens[q].quoted:
        t = s.tokens[q]
        yet_to = t.low == "to" and q > s.a and s.tokens[q - 1].low == "yet"  # "has yet to repay her"
        if t.low in _BETWEEN or (t.low.endswith("ly") and len(t.low) > 4) or negative(t.low) or yet_to:
            between.append(t.low)
            q -= 1
            continue
        break
    if q < s.a or s.tokens[q].quoted:
        return None, q, between
    m = _mention_ending(s, q)
    if m is None and s.tokens[q].low in ("who", "that") and q - 1 > s.a and s.tokens[q - 1].text == ",":
        m = _mention_ending(s, q - 2)  # "Odile, who owes Brannock a favour"
    if m is not None:
        return m.id, m.i, between
    if s.tokens[q].low in _SUBJECT_PRONOUNS and not s.tokens[q].poss:
        return _subject_pronoun(s, q), q, between
    if s.tokens[k].low == "owing" or s.tokens[q].low == "and":
        # "the squire went into the ground still owing him"; "Tamsin counts out the gold and pays Brann"
        return _clause_subject(s, k), q, between
    return None, q, between


def _clause_subject(s: _Sentence, k: int) -> str | None:
    """The subject of the clause a participle at ``k`` hangs on: the one creature named (not as an owner)
    between the clause's start and ``k``, with a verb after it ("the squire went ... still owing him")."""
    q = k - 1
    while (
        q > s.a
        and s.tokens[q].text not in _EDGE
        and not (s.tokens[q].text == "," and s.tokens[q + 1].low in _JOINING)
    ):
        q -= 1
    found = [m for m in s.mentions if q <= m.i < k and m.id and not m.quoted and not m.poss]
    creatures = [m for m in found if s.kind(m) in ("pc", "npc", "monster")]
    if len(creatures) != 1 or not any(lemma(t.low) for t in s.tokens[creatures[0].j : k] if t.text.islower()):
        return None
    return creatures[0].id


def _creature_after(s: _Sentence, q: int, other: str | None) -> str | None:
    """The creature named, or meant by an object pronoun, at token ``q``."""
    if q >= s.b or s.tokens[q].quoted:
        return None
    m = _mention_at(s, q)
    if m is not None:
        return m.id
    if s.tokens[q].low in _OBJECT_PRONOUNS and other is not None:
        return _object_pronoun(s, q, other)
    return None


def _after_word(s: _Sentence, k: int, word: str, reach: int = 8) -> str | None:
    """The creature right after ``word`` ("to", "by") within ``reach`` tokens of ``k``, in its clause."""
    for q in range(k + 1, min(s.b - 1, k + reach)):
        t = s.tokens[q]
        if t.text in _EDGE or t.text == "," or t.quoted:
            return None
        if t.low == word:
            return _creature_after(s, q + 1, None)
    return None


def _sides(s: _Sentence, k: int) -> tuple[str, str, list[str], int] | None:
    """(debtor, creditor, the words between the subject and the verb, where the subject stands) of the verb
    of owing at ``k``: active "X (still) owes Y", "X owes thirty taels to Y"; passive "Y is owed ... by X";
    None when either side is not a creature told plainly."""
    subject, at, between = _debtor_before(s, k)
    if subject is None:
        return None
    passive = s.tokens[k].low == "owed" and bool(_BE & set(between))
    if passive:
        by = _after_word(s, k, "by")
        return (by, subject, between, at) if by is not None and by != subject else None
    if s.tokens[k].low == "owed" and _BE & set(between):
        return None
    obj = _creature_after(s, k + 1, subject) or _after_word(s, k, "to", 6)
    if obj is None or obj == subject:
        return None
    return subject, obj, between, at


def _another_purpose(s: _Sentence, k: int, t: Thread) -> bool:
    """True when the owing at ``k`` says what it is for ("owes her for the glass") and the thread's terms say
    it is for something else, sharing no content word with it: a debt the record does not hold."""
    toks = s.tokens
    at = next((q for q in range(k + 1, min(s.b, k + 8)) if toks[q].low == "for" and not toks[q].quoted), None)
    if at is None or " for " not in f" {t.terms.lower()} ":
        return False
    words: list[str] = []
    for q in range(at + 1, min(s.b, at + 8)):
        if toks[q].quoted or toks[q].text in _EDGE or toks[q].text == "," or toks[q].low in _JOINING:
            break
        words.append(toks[q].low)
    what = _content(words)
    return bool(what) and not what & _terms_words(t)


_NOUN_OPENERS = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "his", "her", "their", "its", "my", "your", "our"}
    | {"every", "any", "some", "each", "all", "two", "three", "four", "five", "six", "seven", "eight", "ten"}
    | {"twenty", "thirty", "forty", "fifty", "hundred", "whatever"}
)


def _relative(s: _Sentence, at: int) -> bool:
    """True when the subject at token ``at`` opens a clause modifying a noun before it ("the favour the Farba
    owes Zaynab", "the debt that Teo owes", "the crowns Teo owes her"): the owing names a thing, and the
    sentence's own verb comes after it."""
    q = at - 1
    if q >= s.a and s.tokens[q].low in ("that", "which", "whom"):
        q -= 1
    if q < s.a:
        return False
    t = s.tokens[q]
    if not t.text.isalpha() or t.low in _JOINING or t.low in _BETWEEN or t.low in _SUBJECT_PRONOUNS:
        return False
    # a noun phrase ends right before it: a determiner at most three words back, nothing but words between
    for r in range(q - 1, max(s.a, q - 4) - 1, -1):
        if not s.tokens[r].text.isalpha():
            return False
        if s.tokens[r].low in _NOUN_OPENERS or s.tokens[r].poss:
            return True
    return False


def _settled_elsewhere(s: _Sentence) -> bool:
    """True when the sentence tells a thread settled or broken somewhere, by pattern or by verb lemma."""
    from ledger.check.extract.thread_words import _STATUS_PATTERNS
    from ledger.check.extract.threads import _status_by_lemma

    if any(st in ("settled", "broken") and pat.search(s.narr) for st, pat in _STATUS_PATTERNS):
        return True
    found = _status_by_lemma(s)
    return found is not None and found[0] in ("settled", "broken")


def _repay_sides(s: _Sentence, k: int) -> tuple[str, str, list[str], int] | None:
    """(payer, paid, the words between, where the payer stands) of "X repaid Y", "X has yet to repay Y"."""
    payer, at, between = _debtor_before(s, k)
    paid = _creature_after(s, k + 1, payer) if payer is not None else None
    if payer is None or paid is None or paid == payer or _BE & set(between):
        return None
    return payer, paid, between, at


def owing_threads(snap: WorldSnapshot, a: str, b: str) -> list[str]:
    """The owing threads (debt, favour) whose parties are ``a`` and ``b``."""
    return [
        t.id
        for t in snap.threads.values()
        if t.kind in OWING and a in t.parties and b in t.parties and a != b
    ]


def _status(s: _Sentence, k: int, between: list[str]) -> str | None:
    """ "open" for an owing told now ("owes", "still owes", "is owed"), "settled" for one told over ("owes
    her nothing", "no longer owes", "doesn't owe him anything any more"), "unreal" for one planned or
    supposed ("will owe", "would owe"); None for a past one or a denial."""
    form = s.tokens[k].low
    after = [t.low for t in s.tokens[k + 1 : min(s.b, k + 7)] if not t.quoted]
    lead = [t.low for t in s.tokens[max(s.a, k - 4) : k]]
    near = lead[len(lead) - len(between) - 1 :] if len(between) < len(lead) else lead
    if any(w in _HYPO or w in ("will", "shall", "must", "can") for w in lead) or "to" in near:
        return "unreal"  # "would owe", "will owe", "comes to owe": not a state now
    told_over = (
        _NOTHING & set(after[:4])
        or ("no" in between and "longer" in between)
        or (any(negative(w) for w in between) and _MORE & set(after))
    )
    if told_over:
        return "settled"
    if any(negative(w) for w in between):
        return None  # "never owed him a penny": a denial, not a state
    if form in ("owe", "owes") or (form == "owed" and _BE & set(between)) or form == "owing":
        return "open"
    if form == "owed" and "still" in between:
        return "open"
    return None  # "owed": a past state, no status now


def _repay_status(s: _Sentence, k: int, between: list[str]) -> str | None:
    """ "open" for a repaying not yet done ("has yet to repay", "never repaid", "hasn't repaid her"),
    "settled" for one done ("repaid her", "has repaid him"), "unreal" for one planned ("will repay");
    None for one told now ("repays"), which may be only a part of it."""
    form = s.tokens[k].low
    lead = [t.low for t in s.tokens[max(s.a, k - 4) : k]]
    if "yet" in between or any(negative(w) for w in between):
        return "open"
    if any(w in _HYPO or w in ("will", "shall", "must", "can", "to") for w in lead):
        return "unreal"
    return "settled" if form == "repaid" else None


def owing_claim(s: _Sentence) -> bool:
    """thread_status(t, open|settled) with its debtor, from a verb of owing between the two parties of one
    owing thread; True when the sentence was read (a claim made, or a creditor said to owe nothing)."""
    from ledger.check.extract.thread_index import _bound, _in_a_party_report
    from ledger.check.extract.thread_spoken import _owed_idiom

    toks = s.tokens
    narrated = [x.low for x in toks[s.a : s.b] if not x.quoted]
    if (_LIES & set(narrated) or _hearsay(narrated)) and any(lemma(w) in ("owe", "repay") for w in narrated):
        return True  # "she insists he owes her", "word is he owes her", "he believes he owes her": no status
    for k in range(s.a, s.b):
        t = toks[k]
        verb = lemma(t.low) if t.text.islower() and not t.quoted else None
        if verb not in ("owe", "repay"):
            continue
        sides = _sides(s, k) if verb == "owe" else _repay_sides(s, k)
        if sides is None:
            continue
        debtor, creditor, between, at = sides
        if _owed_idiom([x.low for x in toks[k : min(s.b, k + 6)]]):
            return False  # "owes her an apology": no debt
        lo = max(s.a, at - 4)
        lo = max([lo] + [q + 1 for q in range(lo, at) if toks[q].text in _EDGE])  # within its own clause
        if _FORMER & {x.low for x in toks[lo:k]}:
            return True  # "he once owed her", "she remembers he owed her": no status now
        tied = owing_threads(s.snap, debtor, creditor)
        if len(tied) != 1:
            return False
        status = _status(s, k, between) if verb == "owe" else _repay_status(s, k, between)
        if status is None or (status == "open" and _relative(s, at) and _settled_elsewhere(s)):
            # "the favour Greyrock owed Old Wei has been repaid", "the favour the Farba owes her was repaid":
            # the owing names the thread, and its status is told by the rest of the sentence
            return False
        framing = s.modality(Mention(("",), k, k + 1, False, False, "public"))
        # a repaying told done is in the past by nature ("repaid her last winter"): still its status now
        looking_back = framing.memory and not (verb == "repay" and status == "settled")
        if status == "unreal" or framing.rumour or framing.hypothetical or looking_back:
            return True  # "if he owes her": read, and no status told
        role = s.snap.threads[tied[0]].role_of(debtor) or (
            "owes" if debtor == _bound(s.snap, tied[0]) else "owed"
        )
        if status == "settled" and role == "owed" and verb == "owe":
            return True  # "Zaynab owes the Farba nothing": true of the Farba's favour, whatever its status
        if _in_a_party_report(s, k, tied[0], status):
            return True
        # the sides are judged only when nothing says it is owed for something else than the thread's terms
        # ("Odile owes Brannock for the glass" of his favour to her for the flue may be another debt)
        told = "" if _another_purpose(s, k, s.snap.threads[tied[0]]) else f"owes={debtor};owed={creditor};"
        detail = told + s.narr
        s.ex.claims.append(
            Claim("thread_status", (tied[0], status), s.raw.strip(), s.span, Modality(), detail)
        )
        return True
    return False


# a payment told whole: "pays him the last coin", "repays Odo the rest of it", "counts her out every crown"
_WHOLE = frozenset(
    {"last", "rest", "remainder", "balance", "every", "all", "full", "whole", "remaining", "entire", "final"}
)
_PAYING = frozenset({"pay", "repay"})


def payment_claim(s: _Sentence) -> bool:
    """thread_status(t, settled), told now, from a debtor paying the creditor the whole of it in the scene
    ("Sefa pays Odo the last coin"): the judge replays it, so later sentences that tell the debt paid are
    true of the story so far. Only a deed told now in a present-tense narration, between the two parties of
    one owing thread, the payer its recorded debtor; True when the claim was made."""
    toks = s.tokens
    for k in range(s.a, s.b):
        t = toks[k]
        if t.quoted or not t.text.islower() or lemma(t.low) not in _PAYING:
            continue
        payer, _, between = _debtor_before(s, k)
        if payer is None or any(negative(w) for w in between):
            continue
        payee = _creature_after(s, k + 1, payer)
        if payee is None or payee == payer:
            continue
        rest = {x.low for x in toks[k + 1 : min(s.b, k + 9)] if not x.quoted}
        if not rest & _WHOLE:
            continue  # "pays him ten crowns": perhaps only part of it
        tied = owing_threads(s.snap, payer, payee)
        if len(tied) != 1 or s.snap.threads[tied[0]].role_of(payer) != "owes":
            continue
        framing = s.modality(Mention(("",), k, k + 1, False, False, "public"))
        if framing.rumour or framing.hypothetical or framing.memory or framing.negated:
            continue
        if not _told_now(s, k):
            continue  # "paid him the last coin": when, the narration does not say
        detail = f"now;owes={payer};owed={payee};" + s.narr
        claim = Claim("thread_status", (tied[0], "settled"), s.raw.strip(), s.span, Modality(), detail)
        s.ex.claims.append(claim)
        return True
    return False


# words that set a deed back in time ("a week ago", "yesterday"), outside what is paid ("the last coin")
_BACK_THEN = frozenset({"ago", "yesterday", "since", "once", "before", "earlier", "already", "then"})


def _told_now(s: _Sentence, k: int) -> bool:
    """True when the verb at ``k`` tells a deed happening in this narration: a present third-person form
    ("pays") in a present-tense narration, with nothing in its sentence that sets it back in time."""
    from ledger.check.extract.verbs import is_finite, is_past

    form = s.tokens[k].low
    base = lemma(form)
    if base is None or not s.ex.present_tense or is_past(form, base) or not is_finite(form, base):
        return False
    return form.endswith("s") and not _BACK_THEN & {t.low for t in s.tokens[s.a : s.b] if not t.quoted}


_PASSIVE_TERMS = re.compile(r"\b(?:is|are|was|were|been) owed\b|\bowed (?:to|by)\b")
_TOLD_DEBTOR = re.compile(r"(?:^|;)owes=([A-Za-z0-9_-]+);owed=([A-Za-z0-9_-]+);")


def direction_conflict(t: Thread, detail: str, snap: WorldSnapshot | None = None) -> str | None:
    """Why a claim on ``t`` told with its debtor and creditor (``owes=..;owed=..;`` in ``detail``) has them
    the wrong way round by the thread's recorded roles; None when it agrees or the roles are not recorded."""
    found = _TOLD_DEBTOR.search(detail)
    if found is None or _PASSIVE_TERMS.search(t.terms.lower()):
        return None  # "Wei is owed a favour by Greyrock": roles read off such terms may be the wrong way
    debtor, creditor = found.group(1), found.group(2)
    if t.role_of(debtor) == "owed" and t.role_of(creditor) == "owes":
        ents = snap.entities if snap is not None else {}
        a, b = (getattr(ents.get(x), "name", x) for x in (creditor, debtor))
        return f"on this {t.kind} {a} is the one who owes {b}, not the other way round"
    return None


# --- which thread a kind's word means ----------------------------------------------------------------------

_STOP = frozenset(
    {"the", "a", "an", "his", "her", "their", "its", "my", "our", "your", "of", "for", "and", "with", "to"}
    | {"that", "this", "he", "she", "they", "him", "them", "it", "was", "is", "were", "are", "be", "been"}
    | {"at", "on", "in", "by", "from", "over", "all", "some", "any", "each", "every", "one", "two", "who"}
    | {"owes", "owe", "owed", "owing", "debt", "favour", "favor", "oath", "vow", "promise", "paid", "pay"}
    | {"now", "still", "long", "last", "full", "due", "money", "sum", "which", "whose", "had", "has"}
)


def _stem(word: str) -> str:
    w = word.strip(".,;:'’\"").removesuffix("'s").removesuffix("’s")
    return w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w


def _content(words: list[str]) -> set[str]:
    return {_stem(w) for w in words if w.isalpha() and len(w) > 2 and w not in _STOP}


def purpose_words(s: _Sentence, at: int) -> set[str]:
    """The content words of what the thread word at token ``at`` is for: the words modifying it ("the inn
    debt") and its "for" phrase ("the debt for his son's leg"), up to the clause's end or its verb."""
    toks = s.tokens
    out: list[str] = []
    q = at - 1
    while q >= s.a and at - q <= 3 and toks[q].text.isalpha() and toks[q].low not in _STOP:
        if toks[q].poss:
            break  # "Gao's debt": the owner, a party, not what it is for
        out.append(toks[q].low)
        q -= 1
    q = at + 1
    if q < s.b and toks[q].low in ("for", "over"):
        for r in range(q + 1, min(s.b, q + 8)):
            t = toks[r]
            if t.quoted or t.text in _EDGE or t.text == "," or t.low in _BE or t.low in _JOINING:
                break
            out.append(t.low)
    return _content(out)


def _terms_words(t: Thread) -> set[str]:
    return _content(re.findall(r"[a-z']+", t.terms.lower()))


def choose(s: _Sentence, kinds: set[str]) -> list[str] | None:
    """The thread a sentence naming a thread by its kind's word means, or None to leave the choice to the
    kind alone: among the threads of the word's kind and the kinds it is loosely used for, the one that
    matches what the word says it is for, else the one most of whose parties the sentence names, the word's
    own kind breaking a tie. An empty list when two fit equally: then no claim."""
    snap = s.snap
    named = {m.id for m in s.mentions if m.id and not m.quoted and s.kind(m) in ("pc", "npc", "monster")}
    told = {q: s.tokens[q].low for q in range(s.a, s.b) if not s.tokens[q].quoted}
    kind_words = {q: w for q, w in told.items() if w in _THREAD_WORDS}
    family: set[str] = set()
    for word in kind_words.values():
        family |= _LOOSE_WORDS.get(word, _FAMILY.get(_THREAD_WORDS.get(word, ""), frozenset()))
    if not family:
        return None
    pool = [t for t in snap.threads.values() if t.kind in family]
    if not pool:
        return None
    purpose: set[str] = set()
    for at in kind_words:
        purpose |= purpose_words(s, at)

    def score(t: Thread) -> tuple[int, int, int]:
        fits = len(purpose & _terms_words(t)) if purpose else 0
        return (1 if fits else 0, len(named & set(t.parties)), 1 if t.kind in kinds else 0)

    scored = sorted(((score(t), t.id) for t in pool), reverse=True)
    best = scored[0][0]
    if best[0] == 0 and best[1] == 0:
        return None  # nothing but the kind's word: the kind alone decides, as before
    top = [tid for sc, tid in scored if sc == best]
    return top if len(top) == 1 else []


def before_alias(s: _Sentence, words: list[str]) -> list[str]:
    """The words before the alias a sentence names its thread by ("... the spirt Timur lost to him, and a man
    could use them": what is said after it is no frame of it); all ``words`` when there is none."""
    at = next((st for _, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]), None)
    return words if at is None else s.text[s.span[0] : at].lower().split()
