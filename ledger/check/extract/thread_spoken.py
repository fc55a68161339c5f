"""Thread claims from a line of speech by one of the thread's parties, and from an oath told sworn with what
came of it ("swore to hold it, and he did"). Split out of :mod:`.threads`."""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.thread_index import _bound, _threads_of
from ledger.check.extract.thread_matter import endorsed, matter_tied
from ledger.check.extract.thread_roles import approximated
from ledger.check.extract.thread_words import _FOR_STOP, _RUMOURED, _THREAD_WORDS

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
_MEMORY_MARKS = frozenset(w for w in _LIE_MARKS if w.startswith(("remem", "recal")))
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
        if _subordinate(words, n):
            continue  # "When the salt is sold and the thirty are paid, then ...": a condition, not a state
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
            if w in _STANDING and back and (back[-1] in _STATE_VERBS or back[-1].endswith("'s")):
                found.add("settled" if negated else "open")  # "the fee stands owing", "it's still unpaid"
            elif lemma == "owe":
                if negated or "nothing" in nxt:
                    found.add("settled")
                elif w in ("owe", "owes") or (back and back[-1] in ("still", "is", "are", "yet")):
                    found.add("open")
            elif lemma in ("repay", "pay", "settle", "square") and w.endswith(("id", "ed")):
                # paid someone, paid it back or off; not "paid for the drinks"
                passive = bool(back) and (back[-1] in _BE_PAST or back[-1].endswith("'s"))  # "Toll's paid"
                paying = passive or bool(nxt[:1] and nxt[0] in _PAID_WHAT)
                if lemma == "repay" or (paying and "for" not in nxt[:2]):
                    found.add("open" if negated else "settled")
            elif w in ("square", "even", "quits") and n > 0 and words[n - 1] in ("we're", "are", "we", "now"):
                found.add("settled")
    return next(iter(found)) if len(found) == 1 else None


_SUBORDINATORS = frozenset({"when", "if", "unless", "once", "until", "till", "after", "before", "whenever"})


def _subordinate(words: list[str], n: int) -> bool:
    """True when ``words[n]`` is in a clause opened by a word of time or condition at the start of its
    sentence, up to the first comma: both halves of "when the salt is sold and the thirty are paid,"."""
    k = n - 1
    while k >= 0 and words[k] not in (".", "!", "?", ";", ":", ","):
        k -= 1
    return k + 1 < n and words[k + 1] in _SUBORDINATORS and (k < 0 or words[k] != ",")


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
    | {"out"}
)
_OWING_WORDS = frozenset({"owe", "owes", "owed", "owing", "paid", "repaid", "square", "quits", "unpaid"})
# a debt told standing by its state: "the fee stands owing", "it's still unpaid", "it remains outstanding"
_STANDING = frozenset({"owing", "unpaid", "outstanding"})
_STATE_VERBS = frozenset({"is", "'s", "are", "was", "stands", "remains", "sits", "lies", "still", "yet"})
_BE_PAST = frozenset({"is", "'s", "are", "was", "were", "been", "be"})


def _landform(words: list[str], n: int) -> bool:
    """True when a mark of lying is the noun for a cliff: "counted out on the bluff"."""
    return words[n] == "bluff" and n > 0 and words[n - 1] in ("the", "high", "river", "that")


def _contracted(toks: list[Token], k: int) -> bool:
    """True when a word's "'s" is "is" or "has": a pronoun's ("he's kept it"), or a noun's before a participle
    of settling ("Toll's paid")."""
    if toks[k].low in _CONTRACTING:
        return True
    nxt = toks[k + 1].low if k + 1 < len(toks) else ""
    return nxt in ("paid", "repaid", "settled", "squared", "cleared", "owing", "unpaid", "kept", "broken")


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
    words = [toks[k].low + ("'s" if toks[k].poss and _contracted(toks, k) else "") for k in quoted]
    kinds = {_SPOKEN_KINDS[w] for w in words if w in _SPOKEN_KINDS}
    if not kinds and not _OWING_WORDS & set(words):
        return False  # most lines of speech
    if _reported(words) or _LIE_MARKS & {w for n, w in enumerate(words) if not _landform(words, n)}:
        return False
    words = _told(words)
    if _owed_idiom(words):
        return False  # "I owe you my life": gratitude, not the favour
    from ledger.check.extract.predicates import _previous_sentence, _subjects

    nearby = range(_previous_sentence(s), min(len(toks), s.b + 40))
    vouched = endorsed(s, quoted[-1])
    marks = _LIE_MARKS - _MEMORY_MARKS if vouched else _LIE_MARKS  # "it is true; she remembers the purse"
    if marks & {toks[k].low for k in nearby if not toks[k].quoted}:
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
    snap = s.snap
    tied = [
        tid
        for tid in _threads_of(snap, {speaker})
        if set(snap.threads[tid].parties) <= parties
        and len(set(snap.threads[tid].parties)) >= 2
        and (not kinds or snap.threads[tid].kind in kinds or "owe" in " ".join(words))
    ]
    if not (_FIRST & set(words) or in_line) or len(tied) != 1:
        # the other party unnamed: a thread named by its alias in the line, whoever speaks ("Toll's paid"),
        # else the speaker's one thread whose matter the line names ("The fee stands owing")
        start = toks[quoted[0]].start
        tied = list({tid for tid, st, _ in s.ex.thread_mentions if start <= st < s.span[1]})
        if not tied:
            mine = [tid for tid in _threads_of(snap, {speaker}) if len(set(snap.threads[tid].parties)) >= 2]
            tied = matter_tied(snap, mine, words)
        if len(tied) != 1:
            return False
    thread = snap.threads[tied[0]]
    status = _spoken_status(words, thread.kind, thread.terms)
    if status is None:
        return False
    if status in ("unbroken", "settled") and speaker == _bound(snap, thread.id) and not vouched:
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
