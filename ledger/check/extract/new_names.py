"""Capitalised names nobody recorded, reported so the GM can add them (never a conflict).

Holds the titles that start a name and the capitalised words that never are one. Imports :mod:`.lexicon`,
:mod:`.text` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.extract.lexicon import VERBS
from ledger.check.extract.linker import noun_lemma
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import _QUOTE_CHARS

_NEW_NAME_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "he",
        "she",
        "it",
        "they",
        "his",
        "her",
        "their",
        "its",
        "you",
        "your",
        "i",
        "we",
        "our",
        "my",
        "me",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "then",
        "now",
        "when",
        "while",
        "as",
        "at",
        "in",
        "on",
        "by",
        "with",
        "behind",
        "beside",
        "outside",
        "inside",
        "above",
        "below",
        "across",
        "from",
        "to",
        "of",
        "for",
        "but",
        "and",
        "or",
        "so",
        "yet",
        "if",
        "no",
        "not",
        "one",
        "two",
        "three",
        "somewhere",
        "someone",
        "something",
        "everyone",
        "nobody",
        "none",
        "all",
        "every",
        "each",
        "only",
        "still",
        "even",
        "just",
        "welcome",
        "yes",
        "well",
        "oh",
        "ah",
        "aye",
        "gods",
        "sir",
        "madam",
        "lady",
        "lord",
        "captain",
        "master",
        "mistress",
        "father",
        "mother",
        "brother",
        "sister",
        "friend",
        "friends",
        "come",
        "go",
        "look",
        "listen",
        "wait",
        "stop",
        "please",
        "thank",
        "thanks",
        "good",
        "where",
        "what",
        "who",
        "why",
        "how",
        "which",
        "before",
        "after",
        "again",
        "around",
        "over",
        "under",
        "beyond",
        "near",
        "far",
        "up",
        "down",
        "out",
        "off",
        "meanwhile",
        "somewhere",
        "nearby",
        "overhead",
        "above",
        "below",
        "around",
        "through",
        "along",
        "against",
        "toward",
        "towards",
        "upon",
        "without",
        "within",
        "though",
        "although",
        "because",
        "since",
        "until",
        "once",
        "twice",
        "never",
        "always",
        "perhaps",
        "maybe",
        "later",
        "soon",
        "today",
        "tonight",
        "tomorrow",
        "morning",
        "evening",
        "dawn",
        "dusk",
        "night",
        "day",
        "monday",
        "sunday",
        "spring",
        "summer",
        "autumn",
        "winter",
        "north",
        "south",
        "east",
        "west",
        "something",
        "nothing",
        "another",
        "other",
        "whatever",
        "whoever",
        "don't",
        "can't",
        "won't",
        "it's",
        "i'm",
        "you're",
        "we're",
        "that's",
        "there's",
        "let's",
    ]
)


_TITLES = frozenset(
    [
        "captain",
        "lord",
        "lady",
        "sir",
        "ser",
        "master",
        "mistress",
        "brother",
        "sister",
        "father",
        "mother",
        "king",
        "queen",
        "prince",
        "princess",
        "duke",
        "duchess",
        "baron",
        "baroness",
        "count",
        "countess",
        "dame",
        "old",
        "widow",
    ]
)


def _new_names(s: _Sentence, covered: set[int]) -> None:
    """Capitalised names nobody recorded: reported so the GM can add them, never a conflict."""
    toks = s.tokens
    k = s.a
    while k < s.b:
        t = toks[k]
        titled = (
            t.low in _TITLES
            and k + 1 < s.b
            and toks[k + 1].text[:1].isupper()
            and k + 1 not in covered
            and toks[k + 1].low not in _NEW_NAME_STOP
        )
        if k in covered or not t.text[:1].isupper() or (t.low in _NEW_NAME_STOP and not titled):
            k += 1
            continue
        start = k
        run = [t.text.rstrip("'’s") if t.poss else t.text]
        k += 1
        while (
            k < s.b and toks[k].text[:1].isupper() and k not in covered and toks[k].low not in _NEW_NAME_STOP
        ):
            run.append(toks[k].text)
            k += 1
        sentence_start = start == s.a or toks[start - 1].text in _QUOTE_CHARS or toks[start - 1].text in ".!?"
        if sentence_start and len(run) == 1:
            nxt = toks[k].low if k < s.b else ""
            if nxt not in VERBS or t.low in VERBS or (not t.poss and noun_lemma(t.low) != t.low):
                # "Lanterns sway", "Gulls wheel": a plural the lexicon knows opening a sentence is the word
                # (a name that ends in s and is no plural, "Jones", "Hobbs", is still reported)
                continue
        name = " ".join(run)
        if name not in s.ex.new_entities:
            s.ex.new_entities.append(name)
