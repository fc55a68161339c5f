"""A thread known by what it is about, and a line of speech the narration vouches for.

What a debt, favour or oath is about is in its record: the content words of its terms and aliases less its
parties' names ("Gudrun owes Snorri a fee for speaking the case": fee, speaking, case). A line of speech that
names that matter ("The fee stands owing", "every crown of the three hundred") is about that thread when the
speaker has exactly one thread with such a word, so a party can tell its status without naming the other
party. A line is vouched for when the narration right after it says it is true ("And it is true", "She is
right", "True enough"): then what the speaker says stands as narration, even in their own favour. Read by
:mod:`.thread_spoken`.
"""

from __future__ import annotations

import re

from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_words import _FOR_STOP
from ledger.check.snapshot import WorldSnapshot

# words of the terms that say how a thread binds, not what it is about
_BINDING = frozenset(
    {"owe", "owes", "owed", "owing", "swear", "swore", "sworn", "swears", "vow", "vowed", "vows", "promise"}
    | {"promised", "promises", "pledge", "pledged", "debt", "favour", "favor", "oath", "session", "repaid"}
    | {"paid", "settled", "done", "guards", "until", "when", "will", "would", "not", "never", "still", "who"}
)


def _stem(word: str) -> str:
    """A crude singular: "crowns" and "crown", "wages" and "wage" meet."""
    word = word.removesuffix("'s").strip(".,;:'’")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def matter_words(snap: WorldSnapshot) -> dict[str, frozenset[str]]:
    """Thread -> the stems of what it is about (built once per snapshot)."""
    cached = snap.cache.get("threads-matter")
    if isinstance(cached, dict):
        return cached
    out: dict[str, frozenset[str]] = {}
    for t in snap.threads.values():
        names: set[str] = set()
        for p in t.parties:
            e = snap.entities.get(p)
            for n in e.names() if e else ():
                names |= {_stem(w) for w in n.name.lower().split()}
        text = " ".join((t.terms, *t.aliases)).lower()
        words = {_stem(w) for w in re.findall(r"[a-z][a-z'-]+", text)}
        out[t.id] = frozenset(
            w for w in words - names if len(w) > 2 and w not in _FOR_STOP and w not in _BINDING
        )
    snap.cache["threads-matter"] = out
    return out


def matter_tied(snap: WorldSnapshot, candidates: list[str], words: list[str], least: int = 1) -> list[str]:
    """The one of ``candidates`` whose matter the words name most (shared stems), when no other thread of the
    snapshot shares as many: "twenty cans of diesel" is the toll of twenty cans, not a debt of two cans.
    ``least``: the fewest shared words that tie."""
    said = {_stem(w) for w in words if w.isalpha() or "'" in w}
    table = matter_words(snap)
    score = {tid: len(m & said) for tid, m in table.items() if m & said}
    if not score:
        return []
    best = max(score.values())
    if best < least:
        return []
    top = [tid for tid, n in score.items() if n == best]
    return top if len(top) == 1 and top[0] in candidates else []


_TRUE = re.compile(
    r"(?:^|[.;:!] )(?:and |but )?(?:(?:it|that|this|all of it)(?: is| was|'s) (?:all )?true|true enough|"
    r"so it (?:is|was)|(?:he|she|they)(?: is| are| was| were|'s|'re) right|it is so)\b"
)


def endorsed(s: _Sentence, last_quoted: int) -> bool:
    """True when the narration right after token ``last_quoted`` (past a speech tag, up to the next line of
    speech) opens a clause telling the line true: "And it is true; Anika remembers the purse"."""
    toks = s.tokens
    k = last_quoted + 1
    while k < len(toks) and toks[k].quoted:
        k += 1  # past the rest of the line
    words: list[str] = []
    for t in toks[k : k + 16]:
        if t.quoted:
            break
        words.append(t.low + ("'s" if t.poss else ""))
    return _TRUE.search(" ".join(words).replace('" ', "").strip()) is not None
