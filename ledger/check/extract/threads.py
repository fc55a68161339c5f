"""Thread claims: a favour, debt, oath or bounty told settled, broken or still open.

A thread is found by one of its aliases, by its kind's word ("the favour you owe"), or by two of its parties
owing each other; the status comes from a closed set of patterns, from a status verb told in the passive
("the slate was wiped clean"), or from the paper of a debt destroyed ("tore up the marker"). A party's own
line of speech is read in :mod:`.thread_spoken`, a payment told by what it is for in :mod:`.thread_paid_for`,
the per-snapshot lookups in :mod:`.thread_index`.
"""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_grammar import (
    PARTICLES,
    chained_pronoun,
    negative,
    passive_object,
    passive_span,
)
from ledger.check.extract.thread_index import (
    _creditor_owes_nothing,
    _in_a_party_report,
    _threads_by_kind,
    _threads_of,
)
from ledger.check.extract.thread_paid_for import _by_what_for
from ledger.check.extract.thread_roles import before_alias, choose, owing_claim, payment_claim
from ledger.check.extract.thread_spoken import (
    _NEGATING,
    _PERFECT,
    _owed_idiom,
    _spoken_threads,
    _sworn_in_narration,
)
from ledger.check.extract.thread_value import matter_persists, matter_verb, worthless_oath
from ledger.check.extract.thread_words import (
    _ANY_STATUS,
    _CUE_WORDS,
    _DESTROY_LEMMAS,
    _OBJECT_PRONOUNS,
    _OPEN_IDIOMS,
    _PERSIST_LEMMAS,
    _RELEASE_LEMMAS,
    _RUMOURED,
    _SETTLED_AS,
    _STATUS_LEMMAS,
    _STATUS_PATTERNS,
    _STATUS_VERBS,
    _THREAD_WORDS,
    _UNREAL,
)


def _status_by_lemma(s: _Sentence) -> tuple[str, int] | None:
    """(status, token) of a thread status told in indirect words ("made good", "broke faith with",
    "at each other's throats", "counts it as closed")."""
    from ledger.check.extract.predicates import verb_lemma

    for idiom in _OPEN_IDIOMS:
        at = s.narr.find(idiom)
        if at >= 0:
            return "open", s.a + s.narr[:at].count(" ")
    words = set(s.narr.split())
    if not words & _CUE_WORDS and not any(w.startswith(("reneg", "forsw")) for w in words):
        return None  # none of the words a lemma rule needs after its verb: most sentences
    toks = [(q, t) for q, t in enumerate(s.tokens[s.a : s.b], start=s.a) if not t.quoted]
    for n, (q, t) in enumerate(toks):
        lemma = verb_lemma(t.low) if t.text.islower() else None
        if lemma is None or lemma not in _STATUS_VERBS:
            continue
        nxt = " " + " ".join(x.low for _, x in toks[n + 1 : n + 5]) + " "
        passive = passive_object(s, [x for _, x in toks], n)
        for status, want, after in _STATUS_LEMMAS:
            if lemma == want and (
                any(f" {a} " in nxt or not a for a in after) or passive & set(after) - PARTICLES
            ):
                if passive and any(negative(x.low) for _, x in toks[max(0, n - 3) : n]):
                    return ("open", q) if status == "settled" else None  # "the slate was never wiped"
                near = [x.low for _, x in toks[max(0, n - 2) : n]]
                if (n > 0 and toks[n - 1][1].low == "yet") or any(negative(w) or w == "cannot" for w in near):
                    # "never paid her back", "couldn't pay him off", "can't forgive the debt": still open
                    return ("open", q) if status == "settled" else None
                if _UNREAL & {x.low for _, x in toks[max(0, n - 3) : n]}:
                    continue  # "until he can pay Edda back", "means to pay": not a deed done or a state
                if want == "turn" and s.ex.present_tense and t.low in ("turn", "turns"):
                    continue  # "he turns his back on Hatch and waits": a gesture in the scene, no betrayal
                return status, q
    found = _SETTLED_AS.search(s.narr)
    if found is not None:
        return "settled", s.a + s.narr[: found.start()].count(" ")
    return None


def _named_status(s: _Sentence) -> tuple[str, int | None] | None:
    """(status, token) of a thread this sentence names, told by a release ("let Sefa off her vow"), by the
    paper it is written on destroyed ("tore up the marker": the token is that verb's, for a deed told now),
    or by the matter persisting ("is still hanging between them"); None when none of these."""
    from ledger.check.extract.predicates import verb_lemma

    toks = [t for t in s.tokens[s.a : s.b] if not t.quoted]
    # where the thread is named by an alias ("Wren's marker"): a verb of destroying right before it
    named_at = {st for _, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]}
    for n, t in enumerate(toks):
        lem = verb_lemma(t.low) if t.text.islower() else None
        if lem is None:
            continue
        prev = [x.low for x in toks[max(0, n - 3) : n]]
        if any(w in ("not", "never", "n't") or w.endswith("n't") for w in prev):
            continue
        nxt = " " + " ".join(x.low for x in toks[n + 1 : n + 5]) + " "
        for status, want, after in _RELEASE_LEMMAS:
            if lem == want and any(f" {a} " in nxt for a in after):
                return status, None
        destroyed = lem in _DESTROY_LEMMAS and any(x.start in named_at for x in toks[n + 1 : n + 4])
        if destroyed and not _UNREAL & set(prev):
            # "tore up the marker himself", "burns Odo's bond": the debt's paper gone
            return "settled", next(q for q in range(s.a, s.b) if s.tokens[q] is t)
        # "is still hanging between them"; "still has a promise hanging over her": still with the verb
        # that holds the matter, a few words back, in the same clause
        wider = [x.low for x in toks[max(0, n - 5) : n]]
        still_before = "still" in wider and not {",", ";", ":", "—", "but"} & set(
            wider[wider.index("still") :]
        )
        if lem in _PERSIST_LEMMAS and ("still" in prev or still_before or nxt.startswith(" still ")):
            return "open", None
    return None


def _parties(s: _Sentence, lo: int, hi: int) -> tuple[set[str], set[str]]:
    """(sure, maybe): the creatures tokens ``lo``..``hi`` are about. Sure: those named, and pronouns (he,
    her, them ...) that fit one creature of this or the previous sentence (the previous subject first for a
    subject); maybe: every creature an ambiguous pronoun could stand for."""
    from ledger.check.extract.predicates import _previous_sentence, _resolve_pronoun

    creature = ("pc", "npc", "monster")
    people = {m.id for m in s.mentions if m.id and not m.quoted and lo <= m.i < hi and s.kind(m) in creature}
    maybe: set[str] = set()
    first = _previous_sentence(s)
    recent = [m.id for m in s.ex.between(first, s.b) if m.id and not m.quoted]
    for k in range(lo, hi):
        t = s.tokens[k]
        want = _OBJECT_PRONOUNS.get(t.low)
        if t.quoted or want is None or any(m.i == k for m in s.mentions):
            continue
        subject = k == s.a or s.tokens[k - 1].low in ("and", ",", ";", "now", "that", "whatever")
        eid = _resolve_pronoun(s, t.low) if subject and t.low in ("he", "she", "they") else None
        if eid is None:
            fits = {
                r
                for r in recent
                if r not in people
                and (e := s.snap.entities.get(r)) is not None
                and e.kind in ("pc", "npc")
                and e.pronoun == want
            }
            if len(fits) == 1:
                eid = next(iter(fits))
            elif not fits:
                eid = chained_pronoun(s, want, people)
            else:
                maybe |= fits
        if eid is not None:
            people.add(eid)
    return people, maybe - people


def _threads(s: _Sentence) -> None:
    """thread_status(t, status) from "the favour you still owe Wei", "your debt is paid"."""
    if _spoken_threads(s) or owing_claim(s) or payment_claim(s):
        return
    words = s.narr.split()
    if _owed_idiom(words):
        return  # "Jun owes Wren an explanation"
    if worthless_oath(s) or matter_verb(s) or matter_persists(s):
        return
    kinds = {_THREAD_WORDS[w] for w in words if w in _THREAD_WORDS}
    aliased = [tid for tid, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]]
    snap = s.snap
    named = {m.id for m in s.mentions if m.id and not m.quoted}
    # before the indirect-speech test: "vowed that he would ..., and he did" tells what came of it
    if not kinds and not aliased and _sworn_in_narration(s, words, named):
        return
    if not kinds and not aliased and _indirect(s):
        return
    if not kinds and not aliased and _by_what_for(s, words):
        return
    if not kinds and not aliased:
        # "Kestrel still owes Mother Hesk": owing between two named parties is their debt or favour
        owing = next((w for w in words if w in ("owe", "owes", "owed", "repaid", "repays", "repay")), None)
        if owing is None or len(named) < 2:
            return
        tied = [
            tid
            for tid in _threads_of(snap, named)
            if snap.threads[tid].kind in ("debt", "favour")
            and len(named & set(snap.threads[tid].parties)) >= 2
        ]
        if len(tied) != 1:
            return
        # the thread's terms may say who owes whom ("Greyrock owes one favour"): the debtor must lead
        debtor = next((m.id for m in s.mentions if m.id in named and m.id), None)
        terms = snap.threads[tied[0]].terms.lower()
        at = terms.find(" owe")
        if debtor is not None and at >= 0:
            # the party named last before "owe" in the terms is the debtor
            def last_before(eid: str) -> int:
                e = snap.entities.get(eid)
                names = [n.name.lower().removeprefix("the ") for n in e.names()] if e else []
                return max((terms.rfind(n, 0, at) for n in names), default=-1)

            parties = snap.threads[tied[0]].parties
            if max(parties, key=last_before) != debtor:
                return
        aliased = tied
        words = [("debt" if w == owing else w) for w in words]
    by_kind = _threads_by_kind(snap)
    # by the kind's word, its parties and what it is for ("the debt for his son's leg": the favour for it)
    candidates = choose(s, kinds) if not aliased else None
    if candidates is None:
        candidates = list(dict.fromkeys(aliased)) or [t for k in sorted(kinds) for t in by_kind.get(k, ())]
    if len(candidates) > 1:
        narrowed = [t for t in candidates if named & set(snap.threads[t].parties)]
        candidates = narrowed
    if len(candidates) != 1:
        return
    first = next((i for i, w in enumerate(words) if w in _THREAD_WORDS), len(words))
    lead = words[:first] if first < len(words) else before_alias(s, words)
    if _RUMOURED & set(words) or "is said" in s.narr or "are said" in s.narr:
        return  # "Cobb is said to have broken his pact": a rumour tells no status
    if any(w in _HYPO or w in ("remember", "remembers", "recall", "recalls") for w in lead) or "if" in words:
        return
    status = None
    for st, pat in _STATUS_PATTERNS:
        if pat.search(s.narr):
            status = st
            break
    now = False
    if status is None:
        by_lemma = _status_by_lemma(s)
        by_name = None if by_lemma else _named_status(s)
        status = by_lemma[0] if by_lemma else by_name[0] if by_name else None
        if by_lemma is not None:
            status, now = _as_told_now(s, *by_lemma)
        elif by_name is not None and by_name[1] is not None:
            status, now = _as_told_now(s, by_name[0], by_name[1])
    if status is None and snap.threads[candidates[0]].kind == "oath":
        held = _HELD_TO.search(s.narr)
        if held is not None and not _NEGATING & set(s.narr[: held.start()].split()[-3:]):
            status = "unbroken"  # "he has held to the truce"
    if status is None or (status == "settled" and _creditor_owes_nothing(s, candidates[0])):
        return
    # where the thread is told: its word, else its alias (a character offset, turned into a token)
    alias_at = next((st for _, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]), None)
    said_at = (
        s.a + first
        if first < len(words) or alias_at is None
        else next((q for q in range(s.a, s.b) if s.tokens[q].start >= alias_at), s.b - 1)
    )
    if _in_a_party_report(s, min(said_at, s.b - 1), candidates[0], status):
        return
    status = _kept_oath(s, snap.threads[candidates[0]].kind, status)
    s.ex.claims.append(
        Claim(
            "thread_status",
            (candidates[0], status),
            s.raw.strip(),
            s.span,
            Modality(),
            ("now;" if now else "") + s.narr,
        )
    )


_HELD_TO = re.compile(
    r"\b(?:held|holds|hold|holding|stood|stands|stuck|sticks|abided|abides)\s+(?:\w+\s+)?(?:to|by)\b"
)
# words that tell an oath done with, not only kept: "kept faith ... and she released him from it"
_DONE = re.compile(
    r"\b(?:fulfill?(?:ed|s)?|discharged|released|freed|absolved|completed|done|finished|over|ended|"
    r"let \w+ off)\b"
)
_KEEPING = re.compile(r"\b(?:kept|keeps|honou?rs|honou?red|held|holds)\b")


def _kept_oath(s: _Sentence, kind: str, status: str) -> str:
    """An oath told kept or honoured ("Brann has kept his oath") is unbroken, which is true of one still
    standing as of one fulfilled: "settled" would contradict an oath the record still has open."""
    kept = _KEEPING.search(s.narr)
    if kind == "oath" and status == "settled" and kept is not None and not _DONE.search(s.narr):
        # kept so far ("keeps", "has kept"), not kept to its end ("kept her oath to the end": fulfilled)
        form = kept.group(0)
        before = s.narr[: kept.start()].split()[-2:]
        if form.endswith("s") or _PERFECT & set(before):
            return "unbroken"
    return status


_LOOKING_BACK = frozenset({"ago", "last", "since", "once", "yesterday", "before", "back", "earlier"})


def _as_told_now(s: _Sentence, status: str, q: int) -> tuple[str, bool]:
    """(status, now): whether the status verb at token ``q`` tells a deed happening in this narration
    ("Tam pays off his debt", "Mira breaks her oath"): a present finite form in a present-tense narration,
    with no look-back in the sentence. Keeping an oath now ("Mira keeps her oath") is the oath still
    standing, so open; a deed of settling or breaking now is replayed by the judge for later sentences."""
    from ledger.check.extract.verbs import is_finite, is_past, lemma

    form = s.tokens[q].low
    base = lemma(form)
    if base is None or not s.ex.present_tense or is_past(form, base) or not is_finite(form, base):
        return status, False
    if not form.endswith("s") or _LOOKING_BACK & set(s.narr.split()):
        return status, False
    if base in ("keep", "honour", "honor") and status == "settled":
        return "open", True
    return status, True


def _indirect(s: _Sentence) -> bool:
    """A status told in indirect words between the parties of one thread, named or by pronoun, within the
    clause that tells it ("he has cleared his account with her", "She still owes him for Idris", "Quill and
    the bosun are still at each other's throats"). Returns True when it made the claim."""
    found = _status_by_lemma(s)
    by_lemma = found is not None
    some_pattern = found is None and _ANY_STATUS.search(s.narr) is not None  # one search, not five
    if not (by_lemma or some_pattern):
        return False  # most sentences tell no status at all: nothing more to read
    words = s.narr.split()
    if any(w in _HYPO or w in ("remember", "remembers", "if") for w in words):
        return False
    spots: list[int] = []  # where the status is told: each place it is, in the text's order
    for st, pat in _STATUS_PATTERNS if some_pattern else ():
        hit = pat.search(s.narr)
        # open only with a word of owing or repaying ("never repaid her"): "never paid him any mind" is not
        if hit is not None and (st != "open" or any(w.startswith(("owe", "repa")) for w in words)):
            found = st, s.a + s.narr[: hit.start()].count(" ")
            # every place a pattern of that status hits: "he still owes Ash ...; it sits between them like
            # an unpaid tab" tells it in the first clause, whose parties are named, as well as the last
            spots = sorted(
                {
                    s.a + s.narr[: h.start()].count(" ")
                    for other, p in _STATUS_PATTERNS
                    if other == st
                    for h in p.finditer(s.narr)
                    # "her name was cleared": a reputation, not an account
                    if not {"name", "reputation"} & set(s.narr[: h.start()].split()[-3:])
                }
            )
            if not spots:
                return False
            break
    if found is None:
        return False
    status, first = found
    for at in spots or [first]:
        k = min(max(at, s.a), s.b - 1)
        told, now = _as_told_now(s, status, k) if by_lemma else (status, False)
        framing = s.modality(Mention(("",), k, k + 1, False, False, "public"))
        if framing.rumour or framing.hypothetical:
            return False  # "word is Finch has paid off Magda": a rumour of a settlement is not one
        lo, hi = s.clause_of(k)
        span = passive_span(s, k) if by_lemma else None
        if span is not None:
            lo, hi = max(lo, span[0]), min(hi, span[1])  # "the slate was wiped clean, and Caul ..."
        people, maybe = _parties(s, lo, hi)
        threads = s.snap.threads
        tied = [
            tid
            for tid in _threads_of(s.snap, people)
            if len(set(threads[tid].parties)) >= 2
            and set(threads[tid].parties) <= people | maybe
            and len(set(threads[tid].parties) & people) >= 1
        ]
        if len(tied) != 1 or (told == "settled" and _creditor_owes_nothing(s, tied[0])):
            continue
        if _in_a_party_report(s, k, tied[0], told):
            return False
        told = _kept_oath(s, threads[tied[0]].kind, told)
        detail = ("now;" if now else "") + s.narr
        s.ex.claims.append(Claim("thread_status", (tied[0], told), s.raw.strip(), s.span, Modality(), detail))
        return True
    return False
