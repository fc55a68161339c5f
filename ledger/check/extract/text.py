"""Text before names: tokens, quotation marks, sentences, quantities, content words and the narration's tense.

Everything here reads the token stream only; no snapshot, no names. Imports :mod:`.lexicon`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ledger.check.extract.lexicon import _NOT_VERBS, _NUMBERS, SPEECH, VERBS, _is_past

_QUOTE_CHARS = {'"': "both", "“": "open", "”": "close"}


_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z\-]*(?:['’][A-Za-z]+)*['’]?|\d+|[\"“”]|[^\s\w]")


class Token(NamedTuple):
    """One word or mark: ``low`` is lowercased with any possessive ``'s`` removed. A named tuple, not a
    frozen dataclass: a narration makes hundreds per check, and a tuple is several times cheaper to build."""

    text: str
    low: str
    start: int
    end: int
    poss: bool
    quoted: bool


@lru_cache(maxsize=65536)
def _norm(word: str) -> tuple[str, bool]:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        return w[:-2], True
    if w.endswith("s'"):
        return w[:-1], True
    return w.rstrip("'"), False


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, marking possessives and whether each lies inside quotation marks."""
    out: list[Token] = []
    inside = False
    for m in _TOKEN_RE.finditer(text):
        s = m.group(0)
        if s in _QUOTE_CHARS:
            mode = _QUOTE_CHARS[s]
            inside = (not inside) if mode == "both" else (mode == "open")
            out.append(Token(s, s, m.start(), m.end(), False, True))
            continue
        low, poss = _norm(s)
        out.append(Token(s, low, m.start(), m.end(), poss, inside))
    return out


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(_norm(m.group(0))[0] for m in _TOKEN_RE.finditer(phrase) if m.group(0) not in _QUOTE_CHARS)


#: Titles written with a full stop before a name ("Mr. Fang", "Dr. Osei", "St. Aldous"): that stop ends no
#: sentence. Not "Jr."/"Sr.", which close a name and may close a sentence too.
_TITLE_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "capt",
        "lt",
        "sgt",
        "cpl",
        "col",
        "maj",
        "gen",
        "prof",
        "rev",
        "fr",
        "mt",
        "messrs",
        "mme",
        "mlle",
        "hon",
        "adm",
        "cmdr",
        "insp",
        "det",
    ]
)


def _title_stop(tokens: list[Token], k: int) -> bool:
    """True when the full stop at ``k`` closes a title written before a capitalised name ("Mr. Fang")."""
    if k == 0 or k + 1 >= len(tokens):
        return False
    before, after = tokens[k - 1], tokens[k + 1]
    return before.low in _TITLE_ABBREVIATIONS and before.end == tokens[k].start and after.text[:1].isupper()


def _sentences(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """Token ranges of sentences; a sentence never ends inside quotation marks, nor at a title's stop."""
    out: list[tuple[int, int]] = []
    start = 0
    closers = {q1 for _, q1 in _quote_ranges(tokens)}
    for k, t in enumerate(tokens):
        if t.text == "." and _title_stop(tokens, k):
            continue
        if t.text in ".!?" and not t.quoted:
            end = k + 1
            while end < len(tokens) and end in closers:
                end += 1
            out.append((start, end))
            start = end
        elif t.text in ".!?" and t.quoted and k + 1 < len(tokens) and tokens[k + 1].text in '"”':
            # a quote that closes a sentence: "Welcome." Voss turns away.
            nxt = k + 2
            tail = [VERBS.get(t.low) for t in tokens[nxt : nxt + 4]]
            if (
                nxt < len(tokens)
                and tokens[nxt].text[:1].isupper()
                and tokens[nxt].low not in VERBS
                and not any(v in SPEECH for v in tail)
            ):
                out.append((start, k + 2))
                start = k + 2
    if start < len(tokens):
        out.append((start, len(tokens)))
    return [(a, b) for a, b in out if b > a]


def _content(words: Iterable[str]) -> set[str]:
    stop = {
        "the",
        "and",
        "you",
        "your",
        "with",
        "that",
        "this",
        "for",
        "are",
        "was",
        "his",
        "her",
        "him",
        "she",
        "they",
        "them",
        "then",
        "have",
        "has",
        "not",
        "but",
        "will",
        "from",
        "into",
        "what",
        "our",
        "all",
    }
    out: set[str] = set()
    for w in words:
        w = w.lower().strip("'’")
        if len(w) < 3 or w in stop:
            continue
        for suf in ("ing", "ed", "es", "s", "ly"):
            if w.endswith(suf) and len(w) - len(suf) >= 3:
                w = w[: -len(suf)]
                break
        out.add(w[:5])
    return out


def content_words(text: str) -> set[str]:
    """Stemmed content words of ``text`` (for comparing narrated speech with what a player wrote)."""
    return _content(m.group(0) for m in _TOKEN_RE.finditer(text))


def _number(tokens: list[Token], lo: int, hi: int) -> tuple[int | None, bool]:
    """A quantity between tokens ``lo`` and ``hi``, and whether it is exact ("last", "all", possessed)."""
    qty: int | None = None
    exact = False
    for t in tokens[lo:hi]:
        if t.low.isdigit():
            qty = int(t.low)
        elif t.low in _NUMBERS and t.low not in ("a", "an"):
            qty = _NUMBERS[t.low]
        if t.low in ("last", "remaining", "only", "all", "final"):
            exact = True
    return qty, exact


def _present_tense(tokens: list[Token], sentences: list[tuple[int, int]]) -> bool:
    """True when the narration is told in the present tense: most sentences' first finite verb is a
    present form ("Sela turns", "Kestrel finds") rather than a past one ("Sela turned")."""
    now = past = 0
    for a, b in sentences:
        for q in range(a, b):
            t = tokens[q]
            if t.quoted or t.low.endswith("ing"):
                continue
            if t.low in ("is", "are", "am", "was", "were"):
                # "the arrears are settled": the finite verb is the auxiliary, not the participle after it
                if t.low in ("was", "were"):
                    past += 1
                else:
                    now += 1
                break
            lemma = VERBS.get(t.low)
            if lemma is None:
                prev = tokens[q - 1] if q > a else None
                after_subject = prev is not None and (
                    prev.low in ("he", "she", "it", "they") or (prev.text[:1].isupper() and not prev.poss)
                )
                if not (after_subject and t.text.islower() and len(t.low) > 3) or t.low in _NOT_VERBS:
                    continue
                if t.low.endswith("ed"):
                    past += 1
                    break
                if t.low.endswith("s") and not t.low.endswith(("ss", "us")):
                    now += 1
                    break
                continue
            if t.low == lemma:
                continue
            if _is_past(t.low, lemma):
                past += 1
            else:
                now += 1
            break
    return now > past


def _quote_ranges(tokens: list[Token]) -> list[tuple[int, int]]:
    """(open token, close token) index pairs of quotation marks."""
    out: list[tuple[int, int]] = []
    open_at: int | None = None
    for k, t in enumerate(tokens):
        if t.text in _QUOTE_CHARS:
            if open_at is None and t.text != "”":
                open_at = k
            elif open_at is not None and t.text != "“":
                out.append((open_at, k))
                open_at = None
    return out
