"""Thread claims told by what is done with the thread's matter, not by a word of status.

An oath's word told worthless is a broken oath: "whose sworn silence is worth nothing now", "her word is
worthless to him". A debt's matter waited on, chased or demanded by a party is still owed: "Ilse is still
waiting on the twelve silver for the nets" (the matter is what the thread's recorded terms are about, read by
:mod:`.thread_matter`: the one thread whose terms share most words with the verb's object). Plans, memories,
rumours and negated verbs tell nothing; the thread must have a party in the sentence, named or by pronoun.
The matter told still lingering between both parties is owed too: "the twelve silver for the nets still sits
between her and Tomas".
"""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_index import _bound, _threads_of
from ledger.check.extract.thread_matter import matter_tied
from ledger.check.extract.thread_words import _PERSIST_LEMMAS

# a pledged word: "sworn silence", "her given word", "his oath", "their promise"
_PLEDGE = re.compile(
    r"\b(?:sworn|given|pledged|plighted) (?:word|silence|oath|vow|promise|faith|pledge|secrecy)\b|"
    # a possessor's ("her oath", "Merrow's word": the narration drops the "'s"), not "the word", "a vow"
    r"\b(?!(?:the|a|an|this|that|each|every|one|no|any|some|last|first|which|what|his|her) )\w+ "
    r"(?:word|oath|vow|promise|pledge)\b|\b(?:his|her|their|your|my|whose) (?:word|oath|vow|promise|pledge)\b"
)
# told worth nothing, within a few words: "is worth nothing now", "was worthless", "counts for nothing"
_WORTHLESS = re.compile(
    r"^(?: \w+){0,3}? (?:is|was|are|were|'s|has been|had been)(?: now| long| since)? "
    r"(?:worth nothing|worthless|meaningless|not worth \w+|worth less than \w+)\b|"
    r"^(?: \w+){0,3}? (?:counts|counted|means|meant) (?:for )?nothing\b"
)
_NEGATING = frozenset({"not", "never", "no", "n't", "nor"})


def _framed(s: _Sentence, k: int) -> bool:
    """True when token ``k`` is in a plan, a memory, a rumour or a supposition."""
    mod = s.modality(Mention(("",), k, k + 1, False, False, "public"))
    return mod.hypothetical or mod.memory or mod.rumour


def _people(s: _Sentence) -> set[str]:
    from ledger.check.extract.threads import _parties

    sure, _ = _parties(s, s.a, s.b)
    return sure


def worthless_oath(s: _Sentence) -> bool:
    """thread_status(oath, broken) from a pledged word told worth nothing; True when made."""
    hit = _PLEDGE.search(s.narr)
    if hit is None:
        return False
    after = _WORTHLESS.search(s.narr[hit.end() :])
    if after is None or "if" in s.narr.split():
        return False
    k = s.a + s.narr[: hit.start()].count(" ")
    if _framed(s, min(k, s.b - 1)):
        return False
    people = _people(s)
    oaths = [tid for tid in _threads_of(s.snap, people) if s.snap.threads[tid].kind == "oath"]
    if len(oaths) != 1:
        return False
    s.ex.claims.append(
        Claim("thread_status", (oaths[0], "broken"), s.raw.strip(), s.span, Modality(), "worthless;" + s.narr)
    )
    return True


# verbs whose object is a debt still owed when a party does them: waiting on it, chasing it, demanding it
_AWAITING = {"wait": ("on", "for"), "await": ("",), "chase": ("",), "dun": ("",), "demand": ("",)}
_AWAITING |= {"want": ("back",)}
_AWAITING_STARTS = ("wait", "await", "chas", "dun", "demand", "want")
_MODALS = frozenset({"will", "shall", "would", "could", "can", "may", "might", "must", "going", "to", "if"})


def matter_verb(s: _Sentence) -> bool:
    """thread_status(debt, open) from a party waiting on, chasing or demanding the debt's matter; True when
    made."""
    from ledger.check.extract.predicates import verb_lemma

    words = s.narr.split()
    if not any(w.startswith(_AWAITING_STARTS) for w in words):
        return False  # most sentences: no verb of waiting or demanding at all
    toks = s.tokens
    if "if" in words or "unless" in words:
        return False  # "she will demand the casks if the harvest fails"
    for q in range(s.a, s.b):
        t = toks[q]
        if t.quoted or not t.text.islower():
            continue
        lemma = verb_lemma(t.low)
        if lemma not in _AWAITING:
            continue
        back = [x.low for x in toks[max(s.a, q - 3) : q]]
        if _NEGATING & set(back) or any(w.endswith("n't") or w in _HYPO or w in _MODALS for w in back):
            continue  # "no longer waits", "will demand", "means to chase"
        preps = _AWAITING[lemma]
        obj = [x.low for x in toks[q + 1 : min(s.b, q + 10)] if not x.quoted]
        if "" not in preps and (not obj or obj[0] not in preps):
            continue
        if lemma == "want" and "back" not in obj:
            continue
        from ledger.check.extract.threads import _parties

        lo, _ = s.clause_of(q)
        doer, _ = _parties(s, lo, q)  # who waits: the one creature of the clause before the verb
        if len(doer) != 1:
            return False
        debts = [
            tid
            for tid in _threads_of(s.snap, doer)
            if s.snap.threads[tid].kind in ("debt", "favour") and len(set(s.snap.threads[tid].parties)) >= 2
        ]
        # two words of the matter ("the two litres of spirt"): one ("waits for the ferry") is no debt
        tied = matter_tied(s.snap, debts, obj, least=2)
        if len(tied) != 1 or _framed(s, q) or _bound(s.snap, tied[0]) in doer:
            return False  # the debtor waiting on it is no creditor's claim
        detail = "awaits;" + s.narr
        s.ex.claims.append(
            Claim("thread_status", (tied[0], "open"), s.raw.strip(), s.span, Modality(), detail)
        )
        return True
    return False


def matter_persists(s: _Sentence) -> bool:
    """thread_status(debt, open) from the debt's matter told still standing between its parties: "the twelve
    silver for the nets still sits between her and Tomas" (the subject names two words of the matter, the
    verb is one of lingering with "still", both parties are in the sentence); True when made."""
    from ledger.check.extract.predicates import verb_lemma
    from ledger.check.extract.threads import _parties

    if " still " not in f" {s.narr} ":
        return False
    toks = s.tokens
    for q in range(s.a + 1, s.b):
        t = toks[q]
        if t.quoted or not t.text.islower() or toks[q - 1].low != "still":
            continue
        if verb_lemma(t.low) not in _PERSIST_LEMMAS:
            continue
        lo, hi = s.clause_of(q)
        subject = [x.low for x in toks[lo : q - 1] if not x.quoted]
        if "if" in s.narr.split() or _framed(s, q):
            return False
        people, _ = _parties(s, lo, hi)
        debts = [
            tid
            for tid in _threads_of(s.snap, people)
            if s.snap.threads[tid].kind in ("debt", "favour") and set(s.snap.threads[tid].parties) <= people
        ]
        tied = matter_tied(s.snap, debts, subject, least=2)
        if len(tied) != 1:
            return False
        claim = Claim(
            "thread_status", (tied[0], "open"), s.raw.strip(), s.span, Modality(), "lingers;" + s.narr
        )
        s.ex.claims.append(claim)
        return True
    return False
