"""Thread claims: a favour, debt, oath or bounty told settled, broken or still open.

A thread is found by one of its aliases, by its kind's word ("the favour you owe"), or by two of its parties
owing each other; the status comes from a closed set of patterns, from a status verb told in the passive
("the slate was wiped clean"), or from the paper of a debt destroyed ("tore up the marker"). Imports
:mod:`.lexicon`, :mod:`.sentence` and :mod:`.thread_grammar`.
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
    owes_nothing_subject,
    passive_object,
    passive_span,
    reporter,
)
from ledger.check.extract.thread_roles import approximated, before_alias, choose, owing_claim, payment_claim
from ledger.check.extract.thread_words import (
    _ANY_STATUS,
    _CUE_WORDS,
    _DESTROY_LEMMAS,
    _OBJECT_PRONOUNS,
    _OPEN_IDIOMS,
    _PERSIST_LEMMAS,
    _RELEASE_LEMMAS,
    _SETTLED_AS,
    _STATUS_LEMMAS,
    _STATUS_PATTERNS,
    _STATUS_VERBS,
    _THREAD_WORDS,
    _UNREAL,
)
from ledger.check.snapshot import WorldSnapshot


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


def _threads_by_kind(snap: WorldSnapshot) -> dict[str, tuple[str, ...]]:
    """Thread kind -> its threads in record order, built once per snapshot (a long campaign has thousands)."""
    cached = snap.cache.get("threads-by-kind")
    if isinstance(cached, dict):
        return cached
    out: dict[str, list[str]] = {}
    for t in snap.threads.values():
        out.setdefault(t.kind, []).append(t.id)
    table = {k: tuple(v) for k, v in out.items()}
    snap.cache["threads-by-kind"] = table
    return table


def _threads_of(snap: WorldSnapshot, parties: set[str]) -> list[str]:
    """The threads any of ``parties`` is party to, in record order (from a per-snapshot index)."""
    cached = snap.cache.get("threads-by-party")
    if not isinstance(cached, dict):
        index: dict[str, list[str]] = {}
        for t in snap.threads.values():
            for p in dict.fromkeys(t.parties):
                index.setdefault(p, []).append(t.id)
        cached = {k: tuple(v) for k, v in index.items()}
        snap.cache["threads-by-party"] = cached
    found = {tid for p in parties for tid in cached.get(p, ())}
    if len(found) < 2:
        return list(found)
    order = snap.cache.get("threads-order")
    if not isinstance(order, dict):
        order = {tid: n for n, tid in enumerate(snap.threads)}
        snap.cache["threads-order"] = order
    return sorted(found, key=order.__getitem__)


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


# --- a thread's status said by one of its parties ---------------------------------------------------------
#
# A party to a favour, debt or oath knows where it stands: when one of them says it in a line of speech
# ("I owe you a good turn yet", "he swore us a truce and he has held to it", "he's never broken it"), it tells
# the thread's status as surely as narration does. The speaker is the sentence's one narrated subject, or the
# previous subject for a line with no narration of its own; the other party is named in the line or near it
# ("you" is the one other creature named nearby). Not read when the line is a question, a plan, a wish or a
# report ("they say"), or when the narration marks it as a lie (:data:`_LIE_MARKS`).

# words of speech that name a sworn pact, a good turn owed, or a debt
_SPOKEN_KINDS = {
    **_THREAD_WORDS,
    "turn": "favour",  # "a good turn"
    "word": "oath",  # "he keeps his word", "she broke her word": only with a status verb
    # the verb of swearing, told with what came of it ("made him swear to hold it, and he did")
    "swear": "oath",
    "swore": "oath",
    "sworn": "oath",
    "vowed": "oath",
    "promised": "oath",
    "pledged": "oath",
}
_LIE_MARKS = frozenset(
    {"lie", "lies", "lied", "lying", "liar", "claim", "claims", "claimed", "insist", "insists", "insisted"}
    | {"pretend", "pretends", "pretended", "bluff", "bluffs", "feign", "feigns", "smoothly", "glibly"}
    | {"falsely", "untrue", "deceit", "deceive", "deceives", "fib", "fibs", "coolly"}
    # a memory is not the state now
    | {"remember", "remembers", "remembered", "recall", "recalls", "recalled", "remembering", "recalling"}
)
_REPORTED = frozenset(
    {"heard", "hear", "hears", "rumour", "rumor", "rumours", "rumors", "gossip", "supposedly"}
)
_SAYERS = frozenset({"they", "folk", "folks", "people", "some", "men", "everyone", "others"})


def _reported(words: list[str]) -> bool:
    """True when a line passes on what others say ("they say he paid", "I heard ..."), not what the speaker
    knows."""
    if _REPORTED & set(words):
        return True
    return any(
        w in ("say", "says", "said") and n > 0 and words[n - 1] in _SAYERS for n, w in enumerate(words)
    )


_FIRST = frozenset({"i", "me", "my", "we", "us", "our", "i'm", "i've", "i'd", "i'll", "we've", "we're"})
_SECOND = frozenset({"you", "your", "you're", "you've", "yours"})
_KEEP_OBJECTS = frozenset(
    {"it", "faith", "word", "oath", "vow", "promise", "truce", "pact", "pledge", "bargain"}
)
_NEGATING = frozenset({"not", "never", "no", "n't", "nor"})
_WILL = frozenset({"will", "would", "shall", "can", "could", "might", "may", "must", "to", "if", "unless"})
_WILL |= frozenset({"when", "once", "until", "till", "i'll", "he'll", "she'll", "we'll", "you'll", "they'll"})


_CONTRACTING = frozenset({"he", "she", "it", "that", "who", "there", "everyone", "nobody", "one"})
_PERFECT = frozenset({"has", "have", "he's", "she's", "they've", "you've", "we've", "i've", "'s", "'ve"})
_CLAUSE_EDGE = frozenset({",", ";", ":", ".", "!", "?", "—", "–", "and", "but", "or"})


def _spoken_status(words: list[str], kind: str, terms: str = "") -> str | None:
    """The status a line of speech gives a thread of ``kind``: "unbroken" (an oath kept, held to, never
    broken), "broken", "open" (still owed) or "settled" (paid, square), by verb lemma, with negation. A status
    verb under a modal, "to" or "if" is a plan, not a state; a past "I owed you" is no state either. None when
    the line tells none, or two that disagree ("I owed you, and I paid it")."""
    from ledger.check.extract.predicates import verb_lemma

    found: set[str] = set()
    for n, w in enumerate(words):
        lemma = (verb_lemma(w) if w.isalpha() else None) or w
        back = words[max(0, n - 3) : n]
        negated = any(x in _NEGATING or x.endswith("n't") for x in back)
        if approximated(words, n):
            continue  # "she's as good as paid me": not paid
        start = n
        while start > 0 and words[start - 1] not in _CLAUSE_EDGE:
            start -= 1
        if any(
            (x in _WILL or x in _HYPO) and not (x == "once" and q > 0 and words[q - 1] in _NEGATING)
            for q, x in enumerate(words[start:n], start=start)
        ):
            continue  # "I will pay", "I'll see that he keeps his word", "once he has paid"; not "never once"
        nxt = words[n + 1 : n + 4]
        if kind == "oath":
            kept = lemma in ("keep", "honour", "honor") and bool(_KEEP_OBJECTS & set(nxt[:3]))
            # kept up to now ("keeps", "has held to it"), not kept once ("kept it back then")
            now = w.endswith("s") or bool(_PERFECT & set(back))
            if (kept or (lemma == "hold" and nxt[:1] == ["to"])) and (now or negated):
                found.add("broken" if negated else "unbroken")
            elif lemma in ("break", "forswear", "betray") and w not in ("break", "betray"):
                found.add("unbroken" if negated else "broken")
            elif lemma in _SWEAR and (done := _sworn_and_done(words, n, terms)) is not None:
                found.add(done)
        elif kind in ("debt", "favour"):
            if lemma == "owe":
                if negated or "nothing" in nxt:
                    found.add("settled")
                elif w in ("owe", "owes") or (back and back[-1] in ("still", "is", "are", "yet")):
                    found.add("open")
            elif lemma in ("repay", "pay", "settle", "square") and w.endswith(("id", "ed")):
                # paid someone, paid it back or off; not "paid for the drinks"
                if lemma == "repay" or (nxt[:1] and nxt[0] in _PAID_WHAT and "for" not in nxt[:2]):
                    found.add("open" if negated else "settled")
            elif w in ("square", "even", "quits") and n > 0 and words[n - 1] in ("we're", "are", "we", "now"):
                found.add("settled")
    return next(iter(found)) if len(found) == 1 else None


_SWEAR = frozenset({"swear", "vow", "promise", "pledge"})
_DID = frozenset({"did", "has", "have", "had", "didn't", "hasn't", "haven't", "hadn't"})
_PERSONS = frozenset({"he", "she", "they", "you", "i", "we"})


def _sworn_and_done(words: list[str], n: int, terms: str) -> str | None:
    """An oath's terms followed by what came of them, in a clause whose verb stands for the sworn act (verb
    phrase ellipsis): "made him swear to hold it, and he did" (unbroken), "she vowed she would come back, but
    she never did" (broken). ``words[n]`` is the verb of swearing; it must take its terms ("to", "that", a
    subject of "would"), and the answering clause is "and"/"but" + a person + "did"/"has" ending there."""
    head = words[n + 1 : n + 4]
    if not ({"to", "that"} & set(head) or "would" in head):
        return None
    for q in range(n + 2, min(len(words) - 2, n + 16)):
        if words[q] not in ("and", "but") or words[q + 1] not in _PERSONS:
            continue
        if not _same_terms(words[n + 1 : q], terms):
            return None  # "swore to bring the ale, and did": another promise than the recorded oath
        r = q + 2
        negated = False
        if words[r] in ("never", "not"):
            negated, r = True, r + 1
        if r >= len(words) or words[r] not in _DID:
            return None
        negated = negated or words[r].endswith("n't")
        if r + 1 < len(words) and words[r + 1] in ("not", "never"):
            negated, r = True, r + 1
        after = words[r + 1] if r + 1 < len(words) else "."
        if after in _CLAUSE_EDGE or after in ("so", "just", "too", "exactly"):
            return "broken" if negated else "unbroken"
        return None
    return None


def _sworn_in_narration(s: _Sentence, words: list[str], named: set[str]) -> bool:
    """thread_status from narration telling an oath sworn and what came of it ("Brann swore to guard the
    gate, and he did"): the oath of the one named party who has exactly one. True when it made the claim."""
    from ledger.check.extract.predicates import verb_lemma

    at = next((n for n, w in enumerate(words) if w.isalpha() and verb_lemma(w) in _SWEAR), None)
    if at is None or _RUMOURED & set(words) or "if" in words:
        return False
    if any(w in _HYPO or w in ("remember", "remembers", "recall", "recalls") for w in words[:at]):
        return False  # "she might have sworn ...", "he remembers swearing ..."; the terms may say "would"
    snap = s.snap
    tied = [tid for tid in _threads_of(snap, named) if snap.threads[tid].kind == "oath"]
    if len(tied) != 1:
        return False
    status = _sworn_and_done(words, at, snap.threads[tied[0]].terms)
    if status is None:
        return False
    s.ex.claims.append(
        Claim("thread_status", (tied[0], status), s.raw.strip(), s.span, Modality(), "sworn;" + s.narr)
    )
    return True


def _same_terms(sworn: list[str], terms: str) -> bool:
    """True when the words a line swears to share a content word, by lemma, with the oath's recorded terms
    ("swear to hold it" and "swore to hold the lower barbican"); no terms recorded is no check."""
    from ledger.check.extract.predicates import verb_lemma

    if not terms:
        return True
    recorded = {verb_lemma(w) or w for w in re.findall(r"[a-z]+", terms.lower()) if w not in _FOR_STOP}
    return any(
        (verb_lemma(w) or w) in recorded for w in sworn if w.isalpha() and w not in _FOR_STOP and len(w) > 2
    )


_PAID_WHAT = frozenset(
    {"me", "you", "him", "her", "us", "them", "it", "back", "off", "up", "in", "every", "all", "that", "what"}
)
_OWING_WORDS = frozenset({"owe", "owes", "owed", "paid", "repaid", "square", "quits"})


_FOR_STOP = frozenset(
    {"the", "a", "an", "his", "her", "their", "its", "my", "our", "your", "of", "new", "old", "from", "in"}
    | {"at", "on", "to", "and", "with", "by", "that", "this", "he", "she", "they", "it", "one", "two", "some"}
    | {"over", "back", "out", "up", "down", "off", "into", "onto", "across", "through", "after", "before"}
    | {"during", "last", "next", "each", "every", "all", "both", "him", "them", "about", "nothing", "for"}
)
_PAYING = re.compile(r"\b(?:paid|repaid|settled|cleared|squared|unpaid|owes?|owed|owing)\b")


def _what_for(snap: WorldSnapshot) -> dict[str, tuple[frozenset[str], str]]:
    """Thread -> (content words of what it is owed for, head noun), from "... owes Rask twenty crowns for the
    wagon axle": the words after " for " in its terms, up to the next clause. Built once per snapshot."""
    cached = snap.cache.get("threads-what-for")
    if isinstance(cached, dict):
        return cached
    out: dict[str, tuple[frozenset[str], str]] = {}
    for t in snap.threads.values():
        if t.kind not in ("debt", "favour"):
            continue
        terms = t.terms.lower()
        at = terms.find(" for ")
        if at < 0:
            continue
        # up to a clause of its own: "for the mooring fee he paid for her" is the fee, not "for"
        phrase = re.split(
            r"[;,(]| from | by | when | until | (?:he|she|they|who|which|that|we|i|you) ",
            terms[at + 5 :] + " ",
        )[0]
        words = [w.strip(".'’").removesuffix("'s") for w in phrase.split()]
        content = [w for w in words if w.replace("-", "").isalpha() and w not in _FOR_STOP and len(w) > 2]
        if content:
            out[t.id] = (frozenset(content), content[-1])
    snap.cache["threads-what-for"] = out
    return out


def _by_what_for(s: _Sentence, words: list[str]) -> bool:
    """thread_status from a payment told by what the debt or favour is for: "the wagon axle is paid for at
    last", "Rask still owes for the axle". The thing's head noun (and every other word of it the sentence
    has) binds the one thread; only words of paying or owing tell the status. True when it made the claim."""
    hit = _PAYING.search(s.narr)
    if hit is None:
        return False
    table = _what_for(s.snap)
    if not table:
        return False
    present = set(words) | {w.removesuffix("'s") for w in words}
    present |= {part for w in present if "-" in w for part in w.split("-")}  # "the pump-parts money"
    found = [
        tid
        for tid, (content, head) in table.items()
        if head in present and len(content & present) >= min(2, len(content))
    ]
    if len(found) != 1:
        return False
    lead = set(s.narr[: hit.start()].split()[-4:])
    if lead & (_HYPO | _RUMOURED | {"remember", "remembers", "if", "will", "to", "would", "must", "can"}):
        return False  # "Rask will pay for the axle", "means to pay": a plan
    status = None
    for st, pat in _STATUS_PATTERNS:
        if st in ("open", "settled") and pat.search(s.narr):
            status = st
            break
    if status is None and hit.group(0) in ("paid", "repaid", "settled", "cleared", "squared"):
        status = "settled"
    if status is None:
        return False
    framing = s.modality(Mention(("",), s.a, s.a + 1, False, False, "public"))
    if framing.rumour or framing.hypothetical or framing.memory:
        return False
    s.ex.claims.append(
        Claim("thread_status", (found[0], status), s.raw.strip(), s.span, Modality(), "for;" + s.narr)
    )
    return True


def _creditor_owes_nothing(s: _Sentence, tid: str) -> bool:
    """True when the sentence says a party owes nothing who is not the one the thread binds: "Caul owes Ines
    nothing" of Ines's debt to Caul is true whatever its status, and tells none."""
    who = owes_nothing_subject(s)
    if who is None or who not in s.snap.threads[tid].parties:
        return False
    role = s.snap.threads[tid].role_of(who)
    return role not in ("owes", "sworn") if role is not None else who != _bound(s.snap, tid)


def _in_a_party_report(s: _Sentence, k: int, tid: str, told: str) -> bool:
    """True when the status is only someone's words that tell nothing: a PC's (what a player had their
    character say is the player's claim, not the ledger's: "Greyrock tells Old Wei that the favour is paid"
    was flagged in play), or the one the thread binds saying it is paid or kept (as in a line of speech, they
    may be lying in their own defence). The creditor saying it is paid still tells a settlement."""
    who = reporter(s, k)
    if who is None:
        return False
    e = s.snap.entities.get(who)
    if e is not None and e.kind == "pc":
        return True
    role = s.snap.threads[tid].role_of(who)
    bound = role in ("owes", "sworn") if role is not None else who == _bound(s.snap, tid)
    return told in ("settled", "unbroken") and bound


def _bound(snap: WorldSnapshot, tid: str) -> str | None:
    """The party a thread binds (the one who swore, or owes): the party its terms name first."""
    t = snap.threads[tid]
    terms = t.terms.lower()
    found: list[tuple[int, str]] = []
    for p in dict.fromkeys(t.parties):
        e = snap.entities.get(p)
        words = {w for n in (e.names() if e else ()) for w in n.name.lower().split() if len(w) > 2}
        at = min((terms.find(w) for w in words if terms.find(w) >= 0), default=-1)
        if at >= 0:
            found.append((at, p))
    return min(found)[1] if found else (t.parties[0] if t.parties else None)


def _told(words: list[str]) -> list[str]:
    """The words of a line without its questions ("Cobb? He keeps his word." keeps the second part)."""
    out: list[str] = []
    part: list[str] = []
    for w in words:
        part.append(w)
        if w in (".", "!", "?"):
            if w != "?":
                out += part
            part = []
    return out + part


def _spoken_threads(s: _Sentence) -> bool:
    """thread_status(t, status) from a party's own line of speech about the thread; True when made."""
    toks = s.tokens
    quoted = [k for k in range(s.a, s.b) if toks[k].quoted and toks[k].text not in ('"', "“", "”")]
    if not quoted:
        return False
    # "he's kept it": a pronoun's "'s" is "has" or "is", kept on the word
    words = [toks[k].low + ("'s" if toks[k].poss and toks[k].low in _CONTRACTING else "") for k in quoted]
    kinds = {_SPOKEN_KINDS[w] for w in words if w in _SPOKEN_KINDS}
    if not kinds and not _OWING_WORDS & set(words):
        return False  # most lines of speech
    if _reported(words) or _LIE_MARKS & set(words):
        return False
    words = _told(words)
    if _owed_idiom(words):
        return False  # "I owe you my life": gratitude, not the favour
    from ledger.check.extract.predicates import _previous_sentence, _subjects

    nearby = range(_previous_sentence(s), min(len(toks), s.b + 40))
    if _LIE_MARKS & {toks[k].low for k in nearby if not toks[k].quoted}:
        return False
    subjects = {eid for eid, m, _, _ in _subjects(s) if not m.quoted}
    if len(subjects) > 1:
        return False
    speaker = next(iter(subjects)) if subjects else s.ex.antecedent.get(s.a)
    if speaker is None or (not subjects and any(t.text.isalpha() and not t.quoted for t in toks[s.a : s.b])):
        return False
    creature = ("pc", "npc", "monster")
    in_line = {m.id for m in s.mentions if m.id and m.quoted and s.kind(m) in creature} - {speaker}
    around = {m.id for m in s.ex.between(_previous_sentence(s), s.b) if m.id and s.kind(m) in creature} - {
        speaker
    }
    parties = {speaker} | in_line
    if _SECOND & set(words) and len(around) == 1:
        parties |= around  # "you": the one other creature named in this sentence or the one before
    if not (_FIRST & set(words) or in_line):
        return False
    snap = s.snap
    tied = [
        tid
        for tid in _threads_of(snap, {speaker})
        if set(snap.threads[tid].parties) <= parties
        and len(set(snap.threads[tid].parties)) >= 2
        and (not kinds or snap.threads[tid].kind in kinds or "owe" in " ".join(words))
    ]
    if len(tied) != 1:
        return False
    thread = snap.threads[tied[0]]
    status = _spoken_status(words, thread.kind, thread.terms)
    if status is None:
        return False
    if status in ("unbroken", "settled") and speaker == _bound(snap, thread.id):
        return False  # the one bound by it saying it is kept or paid may be lying in their own defence
    mod = s.modality(Mention(("",), quoted[0], quoted[0] + 1, False, False, "public"))
    if mod.memory or mod.rumour:
        return False
    detail = "spoken;" + " ".join(words)
    s.ex.claims.append(Claim("thread_status", (thread.id, status), s.raw.strip(), s.span, Modality(), detail))
    return True


# what one owes that is no debt: "owes her an apology", "I owe you my life", "you owe me the truth"
_OWED_NOT_DEBT = frozenset(
    {"apology", "apologies", "explanation", "truth", "thanks", "gratitude", "life", "lives", "everything"}
    | {"respect", "loyalty", "allegiance", "courtesy", "visit", "answer", "answers", "kindness", "decency"}
    | {"sympathy", "chance", "hearing", "drink", "dance", "kiss", "word", "favourite"}
)


def _owed_idiom(words: list[str]) -> bool:
    """True when a word of owing takes something that is no debt within its next four words."""
    return any(
        w in ("owe", "owes", "owed", "owing") and _OWED_NOT_DEBT & set(words[n + 1 : n + 5])
        for n, w in enumerate(words)
    )


def _threads(s: _Sentence) -> None:
    """thread_status(t, status) from "the favour you still owe Wei", "your debt is paid"."""
    if _spoken_threads(s) or owing_claim(s) or payment_claim(s):
        return
    words = s.narr.split()
    if _owed_idiom(words):
        return  # "Jun owes Wren an explanation"
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


_RUMOURED = frozenset(
    {"rumoured", "rumored", "reportedly", "supposedly", "allegedly", "rumour", "rumor", "whispered", "gossip"}
)
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
