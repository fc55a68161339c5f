"""Who a sentence is about and what its predicate says: the grammar the meaning-level passes share.

Lemma lookups (:func:`verb_lemma`: the verb lexicon, else lemminflect; :func:`any_lemma` for any part of
speech), a sentence's clause subjects with pronouns resolved (:func:`_subjects`, cached per sentence), the
verbs of one subject's predicate (:func:`_predicate`), negation at a token (:func:`_negated_at`) and where
the sentence before begins (:func:`_previous_sentence`). Kept apart so that :mod:`.senses`, :mod:`.health`
and :mod:`.conditions`, and the other passes that read subjects (:mod:`.valence`, :mod:`.threads`,
:mod:`.relations`, :mod:`.counts`, :mod:`.kin_pronouns`), find one copy of it. Imports :mod:`.lexicon`,
:mod:`.names`, :mod:`.sentence` and :mod:`.verbs`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import cast

from ledger.check.claims import Modality
from ledger.check.extract.lexicon import _BODY_NOUNS, _OBJECT_LEAD, _SUBJECT_LEAD, SPEECH, VERBS
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite


@lru_cache(maxsize=1)
def _lemmatizer() -> Callable[[str], Mapping[str, tuple[str, ...]]]:
    """lemminflect's lemma lookup, imported on first use (its tables ship in the wheel)."""
    from lemminflect import getAllLemmas

    return cast("Callable[[str], Mapping[str, tuple[str, ...]]]", getAllLemmas)


@lru_cache(maxsize=50000)
def verb_lemma(word: str) -> str | None:
    """The verb lemma of ``word`` (lower-case) by the verb lexicon, else lemminflect; None if not a verb."""
    low = word.lower()
    if low in VERBS:
        return VERBS[low]
    if not low.isalpha():
        return None
    forms = _lemmatizer()(low).get("VERB")
    return forms[0] if forms else None


@lru_cache(maxsize=50000)
def any_lemma(word: str) -> str:
    """The first lemma of ``word`` under any part of speech (noun, verb, adjective), else the word."""
    low = word.lower()
    if not low.isalpha():
        return low
    table = _lemmatizer()(low)
    for pos in ("NOUN", "VERB", "ADJ", "ADV"):
        if table.get(pos):
            return table[pos][0]
    return low


# the lexicon's speech verbs, less the ones that can be soundless or are not speech at all
_NOT_SPOKEN = frozenset(
    {"note", "observe", "greet", "continue", "begin", "laugh", "chuckle", "cackle", "gasp", "wheeze", "grunt"}
    | {"hum", "remind", "reassure", "promise", "suggest", "confirm", "add", "explain", "report", "warn"}
)
# beyond the lexicon: the verbs of articulate voice, singing and talk ("croons", "gossips", "harangues")
_VOCAL = frozenset(
    {"proclaim", "recite", "chant", "holler", "preach", "bellow", "boom", "croon", "warble", "yodel"}
    | {"serenade", "carol", "chatter", "babble", "prattle", "gossip", "lecture", "harangue", "recount"}
    | {"narrate", "converse", "chat", "jeer", "heckle", "natter", "sermonize", "sermonise", "lisp"}
    | {"argue", "bicker", "quarrel", "haggle", "banter", "joke", "gabble", "jabber", "blather", "rant"}
)
SPOKEN = (SPEECH - _NOT_SPOKEN) | _VOCAL
_SPOKEN_STRICT = SPOKEN | {"add", "explain", "warn", "suggest", "promise", "confirm", "report"}
_NEG_BEFORE = frozenset({"not", "never", "cannot", "can't", "couldn't", "unable", "nor", "barely", "hardly"})
_NEG_AFTER = frozenset({"nothing", "nobody", "none", "not"})
_AUX_LEMMAS = frozenset(
    {"have", "be", "do", "will", "would", "can", "could", "shall", "should", "may", "might"}
)
_STOP_PREDICATE = frozenset({";", "—", "–", ":", "but", "while", "though", "although", "whereas"})
_SUBJECT_PRONOUNS = {"he": "he", "she": "she", "they": "they", "it": "it"}
_OBJECT_PRONOUNS_ALL = {"him": "he", "her": "she", "them": "they", "his": "he", "their": "they"}
_GENDER_NOUNS = {
    "man": "he",
    "boy": "he",
    "lad": "he",
    "fellow": "he",
    "woman": "she",
    "girl": "she",
    "lass": "she",
    "lady": "she",
}


def _is_name(s: _Sentence, m: Mention) -> bool:
    """False for a lower-case word that happens to be an alias ("whisper" for a spy called Whisper)."""
    first = s.tokens[m.i]
    return not first.text.islower() or first.low in (
        "the",
        "a",
        "an",
        "he",
        "she",
        "they",
        "it",
        "his",
        "her",
    )


def _subject_position(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` opens its sentence or clause (after a comma, a conjunction or a quote)."""
    if m.quoted or not _is_name(s, m):
        return False
    if m.poss and not (m.j < s.b and s.tokens[m.j].low in _BODY_NOUNS):
        return False
    if m.i == s.a:
        return True
    prev = s.tokens[m.i - 1]
    return prev.low in _SUBJECT_LEAD or (prev.quoted and not s.tokens[m.i].quoted) or _fronted(s, m.i)


def _negated_at(s: _Sentence, k: int) -> bool:
    toks = s.tokens
    before = [toks[q].low for q in range(max(s.a, k - 3), k)]
    said = " ".join(before)
    if any(w in _NEG_BEFORE or w.endswith("n't") for w in before) or "rather than" in said:
        return True
    if said.endswith(_DENIALS):
        return True  # "looks anything but unharmed": a phrase that denies what follows
    return k + 1 < s.b and toks[k + 1].low in _NEG_AFTER


def _predicate(s: _Sentence, m: Mention) -> list[tuple[int, str]]:
    """(token, verb lemma) of the verbs subject ``m`` governs: its verb (:meth:`_Sentence.verb_after`) and
    those joined to it by "and", "then" or a comma ("holds the poster out and reads it aloud", "leans in,
    reading each letter"), up to another subject or a clause break."""
    first = s.verb_after(m)
    if first is None and m.j < s.b and _fronted(s, m.i) and s.tokens[m.j].low in VERBS:
        # "Within the hour Tomas is at the jail": the verb right after a subject behind a fronted phrase
        first = (m.j, s.tokens[m.j].low, VERBS[s.tokens[m.j].low])
    if first is None and not m.poss:
        # the caller found ``m`` at a subject position (behind a fronted phrase, after "as she works"): a
        # finite verb right after it, any the lexicon knows ("Bertil overhears", "she chatters")
        first = _finite_after(s, m.j)
    while first is None:
        # "Zaid the water-boy hurries over": a title or role naming the same creature right after the name
        nxt = next((x for x in s.mentions if x.i == m.j and x.ids == m.ids), None)
        if nxt is None:
            return []
        m = nxt
        first = s.verb_after(m)
    toks = s.tokens
    out: list[tuple[int, str]] = [(first[0], verb_lemma(first[1]) or first[2])]
    if out[0][1] in _AUX_LEMMAS:
        # "has never cared for", "is barely listening": the main verb after the auxiliary and adverbs
        q = first[0] + 1
        while q < s.b and (
            toks[q].low in _NEG_BEFORE or toks[q].low.endswith("ly") or toks[q].low in _AUX_ADV
        ):
            q += 1
        main = verb_lemma(toks[q].low) if q < s.b and toks[q].text.islower() else None
        # "is sitting", "has got" make the verb; "is still", "is frozen" (a state, or done to it) keep "be"
        passive = out[0][1] == "be" and not toks[q].low.endswith("ing") if q < s.b else True
        if main is not None and main not in _AUX_LEMMAS and _participle(toks[q].low, main) and not passive:
            out = [(q, main)]
            first = (q, toks[q].low, main)
    for k in range(first[0] + 1, s.b):
        t = toks[k]
        if t.quoted or t.low in _STOP_PREDICATE or t.low in _SUBJECT_PRONOUNS:
            break
        if (t.low in ("his", "her", "their", "its") or t.low in _BODY_NOUNS) and toks[k - 1].text == ",":
            break  # "lies there, his chest rising and falling", "sits, eyes closed": an absolute phrase
        other = next(
            (
                x
                for x in s.mentions
                if x.i == k and not x.poss and _is_name(s, x) and s.kind(x) in ("pc", "npc", "monster")
            ),
            None,
        )
        if other is not None:
            if other.j < s.b and verb_lemma(toks[other.j].low) is not None:
                break  # "... and Orrin answers", "and the padre is hunched": another subject takes over
            continue
        prev = toks[k - 1].low
        if prev.endswith("ly") and k - 2 > first[0]:
            prev = toks[k - 2].low
        if prev not in ("and", ",", "then") or not t.text.islower():
            continue
        lemma = verb_lemma(t.low)
        if lemma is None:
            continue
        bare_subject = first[1] == out[0][1]  # "They nod and whisper": a plural subject's bare forms
        if t.low == lemma and not bare_subject and not (k + 1 < s.b and toks[k + 1].low in _OBJECT_LEAD):
            continue  # a bare form after "and" is likelier a noun ("bread and butter")
        out.append((k, lemma))
    return out


_AUX_ADV = frozenset({"still", "already", "just", "now", "only", "even", "always", "often", "again", "yet"})


def _participle(word: str, base: str) -> bool:
    """True when ``word`` may be the -ing or past participle of ``base`` ("sitting", "got", "read")."""
    from ledger.check.extract.verbs import tags

    return word.endswith("ing") or "VBN" in tags(word, base)


def _finite_after(s: _Sentence, k: int) -> tuple[int, str, str] | None:
    """(token, form, lemma) of a finite verb (-s or past form) at token ``k``, past one adverb in -ly."""
    toks = s.tokens
    if k < s.b and toks[k].low.endswith("ly") and toks[k].low not in VERBS:
        k += 1
    if k >= s.b or toks[k].quoted or not toks[k].text.isalpha() or not toks[k].text.islower():
        return None
    if any(x.i == k for x in s.mentions):
        return None
    low = toks[k].low
    base = verb_lemma(low)
    if base is None or base in _AUX_LEMMAS or not is_finite(low, base):
        return None
    if k + 1 < s.b and toks[k + 1].low in ("of", "'s"):
        return None  # "Bertil's drums of ...": a noun phrase
    return k, low, base


def _speech_acts(s: _Sentence, lo: int, hi: int, listener: str) -> bool:
    """True when someone other than ``listener`` speaks between tokens ``lo`` and ``hi``."""
    toks = s.ex.tokens
    for k in range(lo, hi):
        t = toks[k]
        if t.quoted:
            continue
        lemma = verb_lemma(t.low)
        if lemma in _SPOKEN_STRICT or (
            lemma == "breathe"
            and any(toks[q].low in ("word", "something", "into") for q in range(k + 1, k + 4))
        ):
            own = any(
                m.id == listener and (k == m.j or (k == m.j + 1 and toks[m.j].low.endswith("ly")))
                for m in s.ex.mentions
            )
            if not own:
                return True
    return False


def pronoun_fits(s: _Sentence, want: str) -> Callable[[str], bool]:
    """A test: may the pronoun ``want`` (he, she, they, it) stand for the creature ``eid``? A creature with no
    recorded pronoun fits any but "it", and a monster none then."""

    def fits(eid: str) -> bool:
        e = s.snap.entities.get(eid)
        if e is None or e.kind not in ("pc", "npc", "monster"):
            return False
        if e.pronoun is None:
            return want != "it" and e.kind != "monster"
        return e.pronoun == want

    return fits


def _resolve_pronoun(s: _Sentence, word: str) -> str | None:
    """The creature a clause-opening pronoun or "the man" stands for: the previous sentence's subject when
    it fits, else the one creature named in this or the previous sentence that fits."""
    want = _SUBJECT_PRONOUNS.get(word) or _GENDER_NOUNS.get(word)
    if want is None:
        return None
    return antecedent_or_one_named(s, pronoun_fits(s, want), s.b)


def antecedent_or_one_named(s: _Sentence, fits: Callable[[str], bool], end: int) -> str | None:
    """The previous sentence's subject when it ``fits``, else the one fitting creature named (outside
    quotes) from the start of the sentence before up to token ``end``; None when none or several fit."""
    ante = s.ex.antecedent.get(s.a)
    if ante is not None and fits(ante):
        return ante
    prev = _previous_sentence(s)
    named = {m.id for m in s.ex.between(prev, end) if m.id and not m.quoted and fits(m.id)}
    return next(iter(named)) if len(named) == 1 else None


def _previous_sentence(s: _Sentence, back: int = 1) -> int:
    """The first token of the sentence ``back`` sentences before this one (or of this one)."""
    bounds = _sentence_token_starts(s)
    idx = _start_index(s.ex, bounds).get(s.a, 0)
    return bounds[max(0, idx - back)][0]


_LAST_STARTS: list[tuple[object, dict[int, int]]] = []  # (extraction, sentence start token -> its number)


def _start_index(ex: object, bounds: list[tuple[int, int]]) -> dict[int, int]:
    """Sentence start token -> sentence number, for the last extraction (a dict, not a list search)."""
    if _LAST_STARTS and _LAST_STARTS[0][0] is ex and len(_LAST_STARTS[0][1]) == len(bounds):
        return _LAST_STARTS[0][1]
    table = {a: n for n, (a, _) in enumerate(bounds)}
    _LAST_STARTS[:] = [(ex, table)]
    return table


_LAST_BOUNDS: list[tuple[object, list[tuple[int, int]]]] = []  # (extraction, its sentences' token bounds)


def _sentence_token_starts(s: _Sentence) -> list[tuple[int, int]]:
    """The token bounds of every sentence of the extraction (kept for the last extraction only)."""
    if _LAST_BOUNDS and _LAST_BOUNDS[0][0] is s.ex and len(_LAST_BOUNDS[0][1]) == len(s.ex.sentences):
        return _LAST_BOUNDS[0][1]
    out: list[tuple[int, int]] = []
    toks = s.ex.tokens
    k = 0
    for a, b in s.ex.sentences:
        while k < len(toks) and toks[k].start < a:
            k += 1
        lo = k
        while k < len(toks) and toks[k].start < b:
            k += 1
        out.append((lo, k))
    _LAST_BOUNDS[:] = [(s.ex, out)]
    return out


_LAST_SUBJECTS: list[tuple[object, list[tuple[str, Mention, Modality, bool]]]] = []  # (sentence, subjects)


def _subjects(s: _Sentence) -> list[tuple[str, Mention, Modality, bool]]:
    """(entity, mention, modality, named) for each clause subject: a named creature at a subject position,
    or a clause-opening pronoun or "the man" resolved to the creature it stands for (named False). Kept for
    the last sentence, which several passes read."""
    if _LAST_SUBJECTS and _LAST_SUBJECTS[0][0] is s:
        return _LAST_SUBJECTS[0][1]
    out = _find_subjects(s)
    _LAST_SUBJECTS[:] = [(s, out)]
    return out


def _find_subjects(s: _Sentence) -> list[tuple[str, Mention, Modality, bool]]:
    out: list[tuple[str, Mention, Modality, bool]] = []
    for m in s.mentions:
        if m.id and s.kind(m) in ("pc", "npc", "monster") and _subject_position(s, m):
            out.append((m.id, m, s.modality(m), True))
    toks = s.tokens
    covered = {k for m in s.mentions for k in range(m.i, m.j)}
    for k in range(s.a, s.b):
        t = toks[k]
        word = t.low
        if (word != "the" and word not in _SUBJECT_PRONOUNS) or t.quoted or k in covered:
            continue
        j = k + 1
        if word == "the" and k + 1 < s.b and toks[k + 1].low in _GENDER_NOUNS:
            word = toks[k + 1].low
            j = k + 2
        elif word not in _SUBJECT_PRONOUNS:
            continue
        if (
            k > s.a
            and toks[k - 1].low not in _SUBJECT_LEAD
            and not toks[k - 1].quoted
            and not _fronted(s, k)
            and not (word in _NOMINATIVE and _after_adverbial_clause(s, k))
        ):
            continue
        eid = _resolve_pronoun(s, word)
        if eid is not None:
            m = Mention((eid,), k, j, False, False, "public")
            out.append((eid, m, s.modality(m), False))
    out.sort(key=lambda x: x[1].i)
    return out


_NOMINATIVE = frozenset({"he", "she", "they"})
# subordinators of time and manner that open a clause set before the main one ("as she works she sings")
_SUBORDINATORS = frozenset({"as", "while", "when", "once", "after", "before", "until", "since", "whenever"})


def _after_adverbial_clause(s: _Sentence, k: int) -> bool:
    """True when token ``k`` follows a short adverbial clause with no comma, "as she works" + "she sings":
    subordinator, subject (a pronoun or a name), an optional adverb, then a verb right before ``k``."""
    toks = s.tokens
    q = k - 1
    if q <= s.a or verb_lemma(toks[q].low) is None or not toks[q].text.islower():
        return False
    q -= 1
    if toks[q].low.endswith("ly") and q > s.a:
        q -= 1  # "as he slowly works"
    if toks[q].low in _NOMINATIVE or toks[q].low == "it":
        q -= 1
    else:
        m = next((x for x in s.mentions if x.j == q + 1 and not x.quoted), None)
        if m is None:
            return False
        q = m.i - 1
    return q >= s.a and toks[q].low in _SUBORDINATORS


_PREPOSITIONS = frozenset(
    {"within", "at", "in", "after", "by", "on", "under", "over", "across", "behind", "beside", "near", "from"}
)


_NOUN_LEAD = frozenset({"the", "a", "an", "his", "her", "its", "their", "my", "your", "our", "this", "that"})


def _fronted(s: _Sentence, k: int) -> bool:
    """True when the sentence opens (after a conjunction, if any) with a prepositional phrase that runs up
    to token ``k`` with no verb in it: "Within the hour he is at the watchhouse door", "But from the settle
    by the door Old Noah cocks his head" (a word right after an article is its noun, not a verb)."""
    toks = s.tokens
    a = s.a + 1 if toks[s.a].low in ("but", "and", "yet", "then", "so") else s.a
    if k - a > 9 or a >= k or toks[a].low not in _PREPOSITIONS:
        return False
    return not any(toks[q].low in VERBS and toks[q - 1].low not in _NOUN_LEAD for q in range(a + 1, k))


# phrases that deny the health word after them
_DENIALS = ("anything but", "far from", "less than", "none too", "hardly", "scarcely", "nowhere near")
