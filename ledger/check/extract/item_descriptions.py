"""An item named by what it looks like, not by its name: "a tamarisk staff" for "Yusuf's guide-staff".

A recorded item has a head noun (the last word of its name, or of the first noun phrase of its recorded
description: "staff" of "A tamarisk staff carved with the wells of the crossing") and modifiers that tell it
from others of its kind: the lower-case words before that head, the nouns of an "of" phrase after it, a
participle right after it ("carved"). A noun phrase of the narration links to the item when its head noun
has the item's head lemma (singular or plural, by the lexicon) and at least one of its own modifiers is one
of the item's distinctive ones, no noun of material or kind in it contradicts the item ("a bone amulet" is
not the ivory one), and exactly one item of the world fits; a participle alone ("carved") links only a
definite phrase ("the carved amulet", not "a carved amulet"). Words of size, age, worth or number ("old",
"little", "long", "last") tell no thing from another and never link.

Read by :mod:`.item_scene`; imports :mod:`.item_mentions`, :mod:`.linker`, :mod:`.names`, :mod:`.sentence`,
:mod:`.text` and :mod:`.verbs`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.check.extract.item_mentions import _compound_noun, is_adjective
from ledger.check.extract.linker import is_noun, is_plural, noun_lemma
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import lemma as verb_lemma
from ledger.check.extract.verbs import tags
from ledger.check.snapshot import WorldSnapshot

# adjectives of size, age, worth, number and familiarity: every thing of a kind may be told so
_GENERIC = frozenset(
    {"old", "new", "young", "ancient", "little", "small", "big", "large", "great", "huge", "tiny", "long"}
    | {"short", "tall", "wide", "narrow", "thick", "thin", "heavy", "light", "good", "fine", "plain"}
    | {"simple", "ordinary", "common", "proper", "odd", "strange", "nice", "pretty", "handsome", "ugly"}
    | {"single", "same", "other", "own", "whole", "last", "first", "spare", "famous", "precious", "dear"}
    | {"favourite", "favorite", "usual", "familiar", "real", "true", "proper", "poor", "cheap", "rich", "one"}
    | {"full", "empty", "half", "only", "certain", "such", "very", "much", "many", "few", "more", "most"}
    | {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty", "hundred", "per"}
    | {"cent", "each", "every", "some", "any", "another", "next", "well", "still", "never", "quite"}
)
# words that open or glue a noun phrase, never a modifier of its own
_FUNCTION = frozenset(
    {"a", "an", "the", "this", "that", "these", "those", "his", "her", "their", "its", "my", "your", "our"}
    | {"of", "and", "or", "with", "in", "on", "at", "to", "for", "from", "by", "as", "which", "who", "whom"}
    | {"it", "he", "she", "they", "him", "them", "is", "are", "was", "were", "be", "has", "have", "had"}
    | {"under", "over", "beneath", "behind", "beside", "across", "against", "between", "into", "onto", "upon"}
    | {"through", "about", "after", "before", "without", "within", "around", "near", "like", "than", "but"}
    | {"so", "if", "while", "when", "where", "whose", "not", "no", "all", "both", "either", "neither"}
)
_DETERMINERS = frozenset(
    {"a", "an", "the", "this", "that", "his", "her", "their", "its", "my", "your", "our", "another"}
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_TOKENS = re.compile(r"[^\W\d_][\w'’-]*|,")


@dataclass(frozen=True, slots=True)
class ItemLook:
    """What an item looks like in words: the head lemmas it may be called by, its distinctive modifiers."""

    item: str
    heads: frozenset[str]
    modifiers: frozenset[str]
    plural: bool


def _noun_base(word: str) -> str:
    """A noun's singular ("jars" -> jar, "staves" -> staff), by the lexicon, else by cutting a plain "-s"
    ("bars" -> bar: the lexicon's table lacks some nouns)."""
    base = noun_lemma(word)
    if base == word and len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]  # both sides of a comparison are cut alike: "bars" -> bar, "taels" -> tael
    return base


def _parts(word: str) -> list[str]:
    """A hyphenated word's parts ("guide-staff" -> guide, staff), lower-cased, possessive cut."""
    word = re.sub(r"['’]s$", "", word)
    return [p.lower() for p in word.split("-") if p]


def _modifier(word: str) -> str | None:
    """The form a modifier is compared in (a noun's singular lemma), or None for a word that tells no thing
    from another: function words, numbers, generic adjectives, words shorter than three letters."""
    low = word.lower()
    if len(low) < 3 or not low.isalpha() or low in _GENERIC or low in _FUNCTION:
        return None
    return _noun_base(low) if is_noun(low) else low


def _phrase_look(words: list[str]) -> tuple[str, set[str]] | None:
    """The head lemma and modifiers of the first noun phrase of ``words`` (a name or a description)."""
    run: list[str] = []
    k = 0
    while k < len(words) and words[k].lower() in _DETERMINERS:
        k += 1
    mods: set[str] = set()
    while k < len(words):
        w = words[k]
        prev = run[-1].lower() if run else ""
        listed = k + 1 < len(words) and words[k + 1].islower()
        if w == "," and listed and is_adjective(prev) and not is_plural(prev):
            k += 1  # "A fat, butter-stained book": adjectives in a row
            continue
        if not _WORD.fullmatch(w) or w.lower() in _FUNCTION:
            break
        if run and w.islower() and not is_noun(w.lower()) and _participle(w.lower()):
            break  # "A tamarisk staff carved with ...": the phrase ends at the participle after it
        if w.endswith(("'s", "’s")):
            run = []  # "Agatha's sourdough starter": the possessor is no look of the thing
            k += 1
            continue
        run.append(w)
        k += 1
    if not run:
        return None
    head_parts = _parts(run[-1])
    head = _noun_base(head_parts[-1])
    for w in run[:-1]:
        if w[:1].isupper():
            continue  # a proper name ("Wild", "Marseilles"): the name linker reads it
        for p in _parts(w):
            m = _modifier(p)
            if m:
                mods.add(m)
    for p in head_parts[:-1]:
        m = _modifier(p)
        if m:
            mods.add(m)
    # "of the rice blight", "of sourdough starter": the nouns of an "of" phrase after the head
    if k < len(words) and words[k].lower() == "of":
        q = k + 1
        while q < len(words) and words[q].lower() in _DETERMINERS:
            q += 1
        while q < len(words) and _WORD.fullmatch(words[q]) and words[q].lower() not in _FUNCTION:
            if not words[q][:1].isupper():
                for p in _parts(words[q]):
                    m = _modifier(p)
                    if m:
                        mods.add(m)
            q += 1
        k = q
    # "A tamarisk staff carved with ...": a participle right after the head
    if k < len(words) and words[k].islower() and _participle(words[k]):
        mods.add(words[k])
    mods.discard(head)
    return head, mods


def _common(word: str) -> bool:
    """True when the lexicon knows ``word`` as a common noun, adjective or verb form."""
    return word.isalpha() and (is_noun(word) or is_adjective(word) or verb_lemma(word) is not None)


def _participle(word: str) -> bool:
    """True when ``word`` is a past participle by the lexicon ("carved", "sealed", "clipped")."""
    base = verb_lemma(word)
    return base is not None and base != word and bool(tags(word, base) & {"VBN", "VBD"})


def looks(snap: WorldSnapshot) -> list[ItemLook]:
    """Every item's look, from its name and the first phrase of its description (cached on the snapshot)."""
    found: list[ItemLook] | None = snap.cache.get("item-looks")
    if found is not None:
        return found
    out: list[ItemLook] = []
    for e in snap.entities.values():
        if e.kind != "item":
            continue
        heads: set[str] = set()
        mods: set[str] = set()
        plural = False
        name_words = _TOKENS.findall(e.name)
        cut = next((n for n, w in enumerate(name_words) if w.lower() in ("of", "to") and n > 0), None)
        named = _phrase_look(name_words)
        if named is not None:
            heads.add(named[0])
            mods |= named[1]
            plural = is_plural(_parts(name_words[(cut or len(name_words)) - 1])[-1])
        first = re.split(r"[;:.(]| which | that | who ", e.description, maxsplit=1)[0]
        opener = first.split(" ", 1)[0]
        if opener[:1].isupper() and _common(opener.lower()):
            first = first[:1].lower() + first[1:]  # "Foil ration bars": capitalised as a sentence opens
        described = _phrase_look(_TOKENS.findall(first)) if first.strip() else None
        if described is not None:
            heads.add(described[0])
            mods |= described[1]
        mods -= heads
        if heads and mods:
            out.append(ItemLook(e.id, frozenset(heads), frozenset(mods), plural))
    snap.cache["item-looks"] = out
    return out


def _np_words(s: _Sentence, h: int) -> tuple[int, int, list[str]]:
    """The noun phrase whose head noun stands at token ``h``: its first token (after any determiner), its
    end (past an "of" phrase) and its modifiers' comparison forms (the words before the head, an "of"
    phrase's nouns, a participle after it)."""
    toks = s.tokens
    lo = h
    while lo - 1 >= s.a and h - lo < 4:
        t = toks[lo - 1]
        if t.quoted or not _WORD.fullmatch(t.text) or t.low in _FUNCTION or t.poss or t.text[:1].isupper():
            break
        lo -= 1
    words = [t.text for t in toks[lo:h]]
    q = h + 1
    if q < s.b and toks[q].low == "of":
        q += 1
        while q < s.b and toks[q].low in _DETERMINERS:
            q += 1
        n = 0
        while q < s.b and n < 3 and _WORD.fullmatch(toks[q].text) and toks[q].low not in _FUNCTION:
            words.append(toks[q].text)
            q, n = q + 1, n + 1
    elif q < s.b and toks[q].text.islower() and toks[q].low.endswith("ed"):
        words.append(toks[q].text)  # "a staff carved with ...", "the vial sealed in wax"
    mods: list[str] = []
    for w in words:
        if w[:1].isupper():
            continue
        for p in _parts(w):
            m = _modifier(p)
            if m:
                mods.append(m)
    return lo, q, mods


def _fits(lk: ItemLook, mods: list[str], indefinite: bool) -> bool:
    """True when the phrase's modifiers fit the item's look: one at least is the item's, no noun of
    material or kind contradicts it ("a carved bone amulet" is not the ivory one), and "a carved amulet"
    (a participle alone, some thing of the kind) links only when told as the one ("the carved amulet")."""
    shared = set(mods) & lk.modifiers
    if not shared:
        return False
    if any(w not in lk.modifiers and is_noun(w) and not is_adjective(w) for w in mods):
        return False
    return not indefinite or any(not _participle(w) for w in shared)


_OWNERS = frozenset({"his", "her", "their", "its", "my", "your", "our"})


def _another(s: _Sentence, lo: int, after: int, end: int) -> bool:
    """True when the phrase tells a thing other than the recorded one: "another brass compass", "a brass
    compass of his own", "a brass compass like Ada's" (one of the kind, not the one)."""
    toks = s.tokens
    if lo - 1 >= s.a and toks[lo - 1].low == "another":
        return True
    nxt = [t.low for t in toks[after : min(s.b, after + 3)]]
    if nxt[:1] == ["of"] and end > after + 3:
        nxt = [t.low for t in toks[end : min(s.b, end + 3)]]  # "a jar of lavender honey of her own"
    return bool(nxt) and (
        nxt[0] == "like"
        or (nxt[:1] == ["of"] and nxt[1:2] != [] and nxt[1] in _OWNERS and nxt[2:3] == ["own"])
    )


def _looks_by_head(snap: WorldSnapshot) -> dict[str, list[ItemLook]]:
    """The items' looks by each of their head nouns, built once per snapshot (cached on it), not once per
    sentence: a world of thousands of items would be walked again for every sentence."""
    index: dict[str, list[ItemLook]] | None = snap.cache.get("item-looks-by-head")
    if index is None:
        index = {}
        for lk in looks(snap):
            for word in lk.heads:
                index.setdefault(word, []).append(lk)
        snap.cache["item-looks-by-head"] = index
    return index


def described_items(s: _Sentence) -> list[Mention]:
    """Item mentions made by description in the sentence: a head noun of some item's look, not inside a
    name already found, with a modifier of that look, which exactly one item of the world fits. The
    mention spans the modifiers and the head (not the determiner before them)."""
    by_head = _looks_by_head(s.snap)
    if not by_head:
        return []
    covered = {k for m in s.mentions for k in range(m.i, m.j)}
    out: list[Mention] = []
    for h in range(s.a, s.b):
        t: Token = s.tokens[h]
        if t.quoted or h in covered or not t.text.isalpha() or not t.text.islower():
            continue
        head = _noun_base(t.low)
        candidates = by_head.get(head)
        if not candidates:
            continue
        if h + 2 < s.b and _compound_noun(s.tokens[h + 1]) and not s.tokens[h + 2].text.isalpha():
            continue  # "the staff room.": the head modifies a noun after it
        lo, end, mods = _np_words(s, h)
        indefinite = lo - 1 >= s.a and s.tokens[lo - 1].low in ("a", "an", "another", "some", "one")
        if _another(s, lo, h + 1, end):
            continue
        fits = [lk for lk in candidates if _fits(lk, mods, indefinite)]
        if len(fits) != 1 or any(k in covered for k in range(lo, h)):
            continue
        told_plural = is_plural(t.low)
        if told_plural and not fits[0].plural:
            continue  # "ivory amulets": several things, not the one recorded
        out.append(Mention((fits[0].item,), lo, h + 1, False, False, "public", True, told_plural))
        covered |= set(range(lo, end))  # "a jar of lavender honey": one thing, linked once
    return out
