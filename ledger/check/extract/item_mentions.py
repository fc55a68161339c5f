"""An item's name in a sentence: whether it is the item at all, and how many of it the words tell.

A one-word name can be another word: a modifier of the noun after it ("a harpoon iron", "the bell rope"),
an act ("straightens from her bow"), an adjective after a possessive ("his dented helm"). The counts the
``holds`` claims carry: a number after the item ("all six of them", "three in all"), a partitive ("three
of", "some of"), an ordinal ("his second vial"), and whether the name or its record is plural. Read by
:mod:`.holdings`; imports :mod:`.lexicon`, :mod:`.linker`, :mod:`.text` and :mod:`.sentence`.
"""

from __future__ import annotations

from functools import lru_cache

from ledger.check.extract.counts import _QUALIFIERS
from ledger.check.extract.lexicon import (
    _NUMBERS,
    _PRONOUN_POSS,
)
from ledger.check.extract.linker import ORDINALS, _lemma_table, is_noun, is_plural, is_verb, noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import can_be_past
from ledger.check.extract.verbs import lemma as lexicon_lemma


def _count_after(s: _Sentence, j: int) -> tuple[int | None, bool]:
    """ "the torches ...: all six of them" / "three in all": an exact count told after the item."""
    words = [t.low for t in s.tokens[j : min(s.b, j + 16)] if not t.quoted]
    for n in range(len(words) - 1):
        # "...: a full dozen, fletched in grey" / "— just two." : a count set off after a colon or dash
        if words[n] in (":", "—", "–"):
            q = n + 1
            while q < len(words) and words[q] in ("a", "an", "just", "only", "full", "bare", "mere", "whole"):
                q += 1
            w = words[q] if q < len(words) else ""
            num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
            if num is not None and (q + 1 >= len(words) or words[q + 1] in (",", ".", ";", "!", "left")):
                if words[q + 2 : q + 3] and words[q + 2] in _QUALIFIERS:
                    return None, False  # "only two left with any charge": some of them
                return num, True
    for n in range(len(words) - 2):
        w = words[n]
        num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
        if num is None:
            continue
        if words[n + 1 : n + 3] == ["of", "them"] and _other_plural(words[:n]):
            return None, False  # "lights candles for the drowned sailors, all nine of them": the sailors
        if words[n + 1 : n + 3] in (["of", "them"], ["in", "all"]) or (
            n > 0 and words[n - 1] in (":", ",", "—") and words[n + 1 : n + 2] in (["left"], ["remaining"])
        ):
            return num, True
    return None, False


def _other_plural(words: list[str]) -> bool:
    """True when the words after an item name other things a later "all nine of them" may count instead: a
    plural noun ("for the drowned sailors", "the guards"; a verb in -s, "hangs", is none, and a possessed
    plural, "at his feet", is a part or gear of someone, where the thing is) or a new clause after a
    semicolon ("; the bargemen stare")."""
    for q, w in enumerate(words):
        if w == ";":
            return True
        before = words[q - 1] if q > 0 else ""
        if not w.isalpha() or not is_plural(w) or before in _POSSESSIVE_DETS:
            continue
        if not is_verb(w) or before in ("the", "these", "those"):
            return True
    return False


_POSSESSIVE_DETS = frozenset({"his", "her", "their", "its", "my", "your", "our"})


_SOME = frozenset({"some", "few", "several", "most", "half", "many", "each", "any", "none", "both"})


def _partitive(s: _Sentence, q: int) -> int | None:
    """The count of a partitive ending at token ``q`` ("three of", "one of", "some of"): the number it
    names (0 for "some", "few" ...), or None when token ``q`` is no "of" after a count."""
    toks = s.tokens
    if q - 1 < s.a or toks[q].low != "of":
        return None
    w = toks[q - 1].low
    if w.isdigit():
        return int(w)
    if w in _NUMBERS and w not in ("a", "an"):
        return _NUMBERS[w]
    return 0 if w in _SOME else None


def _participle(toks: list[Token], k: int, a: int) -> bool:
    """True when token ``k`` is a past participle used as an adjective right after a possessive ("Fenwick's
    confiscated spellbook", "his dented helm"): a lower-case "-ed" or "-en" word the lexicon reads as a
    verb form, after a name's "'s" or a possessive pronoun."""
    if k - 1 < a:
        return False
    w = toks[k]
    if not (w.text.isalpha() and w.text.islower() and w.low.endswith(("ed", "en"))):
        return False
    if lexicon_lemma(w.low) is None or is_noun(w.low):
        return False
    return toks[k - 1].poss or toks[k - 1].low in _PRONOUN_POSS


# what may stand before a noun modifying the next noun: an article, a possessive, a partitive's "of" ("a heel
# of barley bread", "her harpoon iron")
_MODIFIED_AFTER = frozenset({"a", "an", "the", "of", "some"}) | _PRONOUN_POSS | {"my", "your", "our"}
_MODIFIED_ENDS = frozenset({"on", "in", "at", "from", "into", "onto", "with", "by", "under", "over", "to"})


def _modifier_noun(s: _Sentence, it: Mention) -> bool:
    """True when an item name after an article, a possessive or "of" modifies the noun right after it ("a
    harpoon iron on the anvil", "the bell rope.", "a heel of barley bread into her hand", "taps the
    station's log display", "repairs the drone bay door"): that next word (or the next two, a compound)
    is a lower-case singular noun that is no past verb form (so "the bell rang" stays the bell) nor a word
    of time or direction ("the drone back"), and the phrase ends after it (a preposition, a conjunction or
    a mark)."""
    toks = s.tokens
    if it.j + 1 >= s.b or it.poss or _told_plural(s, it):
        return False  # a plural names no modifier: "Saskia's candles lie at her feet" is the candles
    led = toks[it.i].low in ("the", "a", "an")  # a name recorded with its article: "the drone"
    before = toks[it.i - 1] if it.i > s.a else None
    if not led and (before is None or (before.low not in _MODIFIED_AFTER and not before.poss)):
        return False
    if not led and it.j - it.i != 1 and before is not None and before.low not in ("the", "a", "an"):
        return False  # a longer name after "of" or a pronoun is read as before: the thing itself
    for end in (it.j, it.j + 1):
        if end + 1 >= s.b or not _compound_noun(toks[end]):
            return False
        after = toks[end + 1]
        if (
            after.low in _MODIFIED_ENDS
            or after.low in _COMPOUND_ENDS
            or after.text in (",", ".", ";", "!", "?")
            or _participle_phrase(s, end + 1)
        ):
            return True
    return False


def _participle_phrase(s: _Sentence, q: int) -> bool:
    """True when a past participle at token ``q`` opens a place phrase ("the silver pin [fastened] at her
    breast", "the bell rope [tied] to the beam"): it describes the noun before it, ending that phrase."""
    toks = s.tokens
    t = toks[q]
    if q + 1 >= s.b or t.quoted or not t.text.isalpha() or not t.text.islower() or not t.low.endswith("ed"):
        return False
    base = lexicon_lemma(t.low)
    return base is not None and base != t.low and toks[q + 1].low in _MODIFIED_ENDS


# what may end a compound's phrase besides a preposition: "the drone bay and ...", "the log display while"
_COMPOUND_ENDS = frozenset({"and", "but", "or", "while", "as", "then", "until", "before", "after", "—", "–"})


@lru_cache(maxsize=20000)
def is_adverb(word: str) -> bool:
    """True when lemminflect knows ``word`` as an adverb too ("back", "round", "today", "aside")."""
    return bool(_lemma_table()(word, upos="ADV").get("ADV"))


@lru_cache(maxsize=20000)
def is_adjective(word: str) -> bool:
    """True when lemminflect knows ``word`` as an adjective ("hard", "easy", "clean")."""
    return bool(_lemma_table()(word, upos="ADJ").get("ADJ"))


def _compound_noun(nxt: Token) -> bool:
    """True when ``nxt`` may be the head noun a thing's name modifies: a lower-case singular noun, no past
    verb form, no word the lexicon also reads as an adverb ("the drone back", "twists the signet round",
    "the log today") and no reflexive ("the charter itself")."""
    if nxt.quoted or not nxt.text.isalpha() or not nxt.text.islower() or nxt.low.endswith(("s", "self")):
        return False
    if noun_lemma(nxt.low) != nxt.low or not is_noun(nxt.low) or is_adverb(nxt.low):
        return False
    return not can_be_past(nxt.low)


_ACT_LEAD = frozenset({"from", "after", "mid", "into", "during", "before", "of"})


def _act_noun(s: _Sentence, it: Mention, k: int) -> bool:
    """A one-word item name after a possessive that is also a verb ("her bow"), read as the act when a
    preposition leads it ("straightens from her bow") or it is told left or held in the air ("Ilyra's bow
    is left hanging"), not the thing."""
    toks = s.tokens
    if it.j - it.i != 1 or k != it.i - 1 or not is_verb(toks[it.i].low):
        return False
    lead = toks[k - 1].low if k - 1 >= s.a else ""
    if lead in _ACT_LEAD:
        return True
    after = [t.low for t in toks[it.j : min(s.b, it.j + 2)]]
    return len(after) == 2 and after[0] in ("is", "was") and after[1].endswith(("ed", "eft", "ung"))


def _head(s: _Sentence, it: Mention) -> str:
    """The head noun of an item mention: the word before "of"/"to", else the last word."""
    words = [t.low for t in s.tokens[it.i : it.j]]
    cut = next((n for n, w in enumerate(words) if w in ("of", "to") and n > 0), len(words))
    return words[cut - 1]


def _told_plural(s: _Sentence, it: Mention) -> bool:
    return it.plural or is_plural(_head(s, it))


def _named_plural(s: _Sentence, iid: str) -> bool:
    """True when the item's recorded name, or one of its aliases, is itself plural ("lockpicks", "moon
    pearls", a tarot pack called "the cards")."""
    e = s.snap.entities.get(iid)
    if e is None:
        return True
    for name in (e.name, *(a.name for a in e.aliases)):
        words = [w.lower() for w in name.replace("'s", "").split()]
        cut = next((n for n, w in enumerate(words) if w in ("of", "to") and n > 0), len(words))
        if words and is_plural(words[cut - 1].strip(".,")):
            return True
    return False


def _ordinal(toks: list[Token], lo: int, hi: int) -> int | None:
    """ "his second vial": an ordinal before the item says at least that many."""
    for t in toks[lo:hi]:
        if t.low in ORDINALS:
            return ORDINALS[t.low]
    return None
