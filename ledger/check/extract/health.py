"""Health words, cures: ``health(entity, unhurt|unharmed|unmarked|well|near_death)``, ``condition_gone``.

*Unmarked* (no mark on the body: "unbruised", "not a bruise on her") and *unharmed* ("unscathed") deny any
wound, *unhurt* tells vigour ("hale", "in rude health": "in" + a state noun of bodily condition rated well
by its modifier), *well* a sign of health that tells nothing of wounds (a hearty appetite, rosy cheeks).
The phrases: any "un-" adjective built on an injury verb (unharmed, unhurt, unscathed, unmarked, unbruised:
the stem's verb lemma from lemminflect is one of :data:`INJURY_VERBS`), "not a / without a / no" + an injury
noun (a scratch, a mark, a bruise, by lemma: "not a scratch on her"), a vigour adjective (:data:`HALE`) or
one of a few fixed idioms (:data:`UNHURT_IDIOMS`); *near death* is "barely" + a life verb (standing, alive,
breathing), an injury participle after a severity adverb (gravely wounded) or a fixed idiom ("at death's
door"). The phrase must describe a creature: it opens a comma-set phrase (an appositive, "Hale, not a
scratch on her, ...") or follows a linking verb ("the man is fit as a fiddle"), and binds to that clause's
subject, or to the one "on him" names ("Brann finds him, not a mark on him": not the finder).
``condition_gone(entity, condition)``: "cured", "clean of the sickness", "the fever broke" for a diseased
or poisoned creature. Read by :mod:`.conditions`; imports :mod:`.predicates`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ledger.check.claims import Modality
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import (
    _DENIALS,
    _NEG_BEFORE,
    _OBJECT_PRONOUNS_ALL,
    _negated_at,
    _previous_sentence,
    any_lemma,
    pronoun_fits,
    verb_lemma,
)
from ledger.check.extract.sentence import _Sentence

# --- health: a two-ended scale ------------------------------------------------------------------------------

# verbs of leaving a mark on a body ("unbruised", "unmarked") and of harming it in general ("unharmed")
MARK_VERBS = frozenset({"mark", "bruise", "scratch", "scar", "blemish", "bloody", "batter", "graze"})
HARM_VERBS = frozenset({"harm", "hurt", "scathe", "injure", "wound", "maim"})
INJURY_VERBS = MARK_VERBS | HARM_VERBS | {"touch"}
INJURY_NOUNS = frozenset(
    {"scratch", "mark", "bruise", "wound", "cut", "graze", "nick", "scrape", "scar", "blemish", "injury"}
    | {"welt", "gash", "abrasion", "contusion", "laceration"}
)
HALE = frozenset(
    {"hale", "hearty", "healthy", "spry", "sprightly", "robust", "vigorous", "fresh", "whole"}
    | {"hardy", "strapping", "lusty", "blooming", "flourishing", "thriving", "fit"}
)
# "in rude health", "in the best of health", "in fine fettle", "in good trim": a state noun of bodily
# condition after "in", with a modifier that rates it well (by the list or by VADER valence, "rude" aside)
_HEALTH_HEADS = frozenset({"health", "fettle", "trim", "vigour", "vigor", "shape"})
_GOOD_HEALTH = frozenset(
    {"rude", "fine", "good", "perfect", "robust", "excellent", "splendid", "best", "full", "sound", "great"}
    | {"glowing", "blooming", "radiant", "vigorous", "hale", "hearty", "peak", "top", "high", "better"}
    | {"fighting", "rare", "tip-top", "prime", "bounding"}
)
_POOR_HEALTH = frozenset(
    {"poor", "ill", "bad", "frail", "fragile", "declining", "delicate", "precarious", "broken", "failing"}
    | {"indifferent", "uncertain", "shaky", "sorry", "rough", "worse", "worst", "sickly", "feeble", "weak"}
)
# signs of health that say nothing of wounds (an appetite, a colour in the cheeks): against an ailment only
_CHEEKS = frozenset({"pink", "rosy", "apple", "ruddy", "red"})
_APPETITE_GOOD = frozenset(
    {"hearty", "enormous", "huge", "great", "good", "healthy", "big", "keen", "prodigious", "vast", "fine"}
    | {"excellent", "tremendous", "robust", "lusty", "famous", "splendid", "wolfish"}
)
_EAT = frozenset({"eat", "dine", "feast", "sup"})
_COMPARATIVE_HEALTH = frozenset({"better", "stronger", "fitter", "healthier", "finer", "livelier"})
UNHURT_IDIOMS = (
    "none the worse",
    "never looked better",
    "right as rain",
    "fit as a fiddle",
    "in fine fettle",
    "in the pink",
    "fresh as a",
    "sound of limb",
    "in rude health",
    "worse for wear",
    "picture of health",
    "in perfect health",
    "best of health",
    "full of vigour",
    "full of vigor",
    "full of energy",
    "full of life",
    "as strong as ever",
    "as strong as he was",
    "as strong as she was",
    "as strong as they were",
    "strong as an ox",
    "strong as a bull",
    "safe and sound",
    "glowing with health",
    "bursting with health",
    "brimming with health",
    "radiant with health",
    "bright-eyed and bushy-tailed",
)
NEAR_DEATH_IDIOMS = (
    "death's door",
    "near death",
    "close to death",
    "last legs",
    "half dead",
    "half-dead",
    "hanging by a thread",
    "bleeding out",
    "clinging to life",
    "at death's",
    "one foot in the grave",
    "more dead than alive",
    "fading fast",
)
_HEALED = frozenset({"heal", "healed", "mend", "mended", "gone"})
_NOT_HEALTH_AFTER = frozenset({"out", "from", "off", "into", "with", "in", "on", "for", "to"})
_LIFE_VERBS = frozenset({"stand", "alive", "breathe", "conscious", "cling", "move", "hang"})
_SEVERE = frozenset({"gravely", "mortally", "grievously", "badly", "sorely", "terribly", "fatally"})
_LINKING = frozenset({"be", "look", "seem", "appear", "remain", "stay", "feel"})
_SEGMENT_SKIP = frozenset({"and", "quite", "still", "looking", "apparently", "seemingly", "clearly", "now"})

# --- a condition told gone ---------------------------------------------------------------------------------

AILMENT_NOUNS = {
    "sickness": "diseased",
    "disease": "diseased",
    "fever": "diseased",
    "plague": "diseased",
    "pox": "diseased",
    "contagion": "diseased",
    "rot": "diseased",
    "illness": "diseased",
    "infection": "diseased",
    "poison": "poisoned",
    "venom": "poisoned",
    "toxin": "poisoned",
}
_CURE_WORDS = frozenset({"cured", "recovered", "healed", "well", "mend"})  # "is cured", "has recovered"
_CURED = re.compile(
    r"\b(?:(?:clean|free|rid|clear|cured) of (?:the |her |his |their |its )?(?P<noun>\w+)|"
    r"(?:the )?(?P<noun2>\w+) (?:has |had )?(?:broke|broken|lifted|passed|gone|left (?:her|him|them))\b)"
)


_HEALTH_FIRST = frozenset(
    {w.split()[0] for w in (*UNHURT_IDIOMS, *NEAR_DEATH_IDIOMS)}
    | HALE
    | _SEVERE
    | {"not", "without", "nary", "no", "barely", "hardly", "scarcely", "death", "never", "full"}
    | _HEALTH_HEADS
    | {"appetite", "heartily", "safe"}
)


@lru_cache(maxsize=65536)
def _health_trigger(word: str) -> bool:
    """A word that can open a health phrase (cheap test before the phrase rules run; cached per word)."""
    return (
        word in _HEALTH_FIRST
        or (word.startswith("un") and word.endswith("ed"))
        or word.endswith("-cheeked")
        or (word.startswith("un") and word[2:] in _BARE_PARTICIPLES)
        or (word.endswith(("s", "d")) and any_lemma(word) in _INJURED_OR_HEALED)
    )


_INJURED_OR_HEALED = INJURY_NOUNS | _HEALED


_PRONOUNS = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "him", "them", "i", "you"})


def _named(s: _Sentence) -> set[int]:
    """The tokens of names that are no health word: "Hale's cleaver comes down", "Hale nods". A name
    that opens a sentence or a quotation and is followed by neither a possessive nor a verb is read as the
    word it also is ('"Hale as a bull," he says')."""
    toks = s.tokens
    out: set[int] = set()
    for m in s.mentions:
        first = (
            m.i == s.a
            or toks[m.i - 1].text in ('"', "\u201c", "'", "\u2018")
            or toks[m.i].quoted != toks[m.i - 1].quoted
        )
        nxt = toks[m.j] if m.j < s.b else None
        verb = nxt is not None and nxt.text.islower() and verb_lemma(nxt.low) is not None and nxt.low != "as"
        if not first or m.poss or toks[m.j - 1].poss or verb:
            # the capitalised words of the name; not a pronoun standing for someone ("as strong as he was")
            out.update(
                q for q in range(m.i, m.j) if toks[q].text[:1].isupper() and toks[q].low not in _PRONOUNS
            )
    return out


def _health(
    s: _Sentence,
    subjects: list[tuple[str, Mention, Modality, bool]],
    claim: Callable[[str, tuple[str, str], Modality, str], None],
) -> None:
    """health(entity, unhurt|near_death) for a health phrase describing a clause subject."""
    toks = s.tokens
    subject_ends = {m.j for _, m, _, _ in subjects}
    named = _named(s)
    k = s.a
    while k < s.b:
        t = toks[k]
        if t.quoted:
            k += 1
            continue
        opens = (
            k == s.a
            or toks[k - 1].text in (",", ":", ";", "—", "–")
            or verb_lemma(toks[k - 1].low) in _LINKING
            or k in subject_ends  # "Hedda has never felt better"
        )
        if not opens:
            k += 1
            continue
        # the comma-set phrase (or predicate) from k to the next comma or clause break
        end = k
        while end < s.b and toks[end].text not in (",", ";", ".", "—", ":") and not toks[end].quoted:
            end += 1
        words = ["<name>" if q in named else toks[q].low for q in range(k, end)]
        while words and words[0] in _SEGMENT_SKIP:
            words = words[1:]
        state = _health_state(words)
        if state is not None and _denied(words, state[1]):
            state = None  # "looks anything but unharmed"
        if state is not None and not _negated_at(s, k):
            owner = _on_whom(s, subjects, k, end) or _owner(s, subjects, k)
            if owner is not None:
                eid, mod = owner
                # "not a scratch on her" is the claim itself: only other framings keep it from being asserted;
                # a past linking verb in a present-tense scene ("Tam, who was hale a week ago, now leans")
                # or a look-back inside the phrase tells how they were, not how they are
                back = _told_as_before(s, k, words, state[1])
                lead = state[1].split()[0] if state[1] else ""
                at = next((q for q in range(k, end) if toks[q].low == lead), k)
                told = _reported_before(s, at)
                mod = Modality(
                    mod.in_dialogue, mod.hypothetical, mod.memory or back, mod.rumour or told, False
                )
                claim("health", (eid, state[0]), mod, state[1])
        k += 1
    for k, phrase in _well_signs(s, subjects) if "appetite" in s.narr or "heartily" in s.narr else ():
        owner = _owner(s, subjects, k)
        if owner is not None and not _negated_at(s, k):
            claim("health", (owner[0], "well"), owner[1], phrase)


def _reported_before(s: _Sentence, k: int) -> bool:
    """True when a verb of saying, claiming or pretending comes before the health phrase at token ``k`` in
    its sentence ("Jory swears he is in perfect health"): the words are the creature's, not the narrator's."""
    toks = s.tokens
    for q in range(s.a, k - 1):
        if toks[q].quoted or verb_lemma(toks[q].low) not in _REPORTING:
            continue
        nxt = toks[q + 1]
        if nxt.low in _CLAUSE_OPEN or any(m.i == q + 1 for m in s.mentions):
            return True  # "swears he is in perfect health"; not "laughs, hale and hearty"
    return False


def _denied(words: list[str], phrase: str) -> bool:
    """True when a denial ("anything but", "far from") comes right before ``phrase`` in ``words``."""
    first = phrase.split()[0] if phrase else ""
    at = words.index(first) if first in words else -1
    return at > 0 and " ".join(words[max(0, at - 2) : at]).endswith(_DENIALS)


def _told_as_before(s: _Sentence, k: int, words: list[str], phrase: str = "") -> bool:
    """True when the health phrase at token ``k`` (``words``) describes a past state: after "was", "were"
    or "had been" in a present-tense narration, or with "ago", "once" or "used to" inside the phrase."""
    toks = s.tokens
    prev = toks[k - 1].low if k > s.a else ""
    prev2 = toks[k - 2].low if k - 1 > s.a else ""
    past = prev in ("was", "were") or (prev == "been" and prev2 == "had")
    if past and (s.ex.present_tense or prev == "been"):
        return True
    if _BEFORE_NOW & set(words) and "as" not in words:
        # "in rude health before the feast", "hale until the arrow struck"; not an equal to a past state, "as
        # strong as he was before the hunt", which tells how strong he is now
        return True
    if "ago" in words or "once" in words or " ".join(words).startswith("used to"):
        return True
    # "how he came through it without a scratch": a past verb in the phrase ahead of the health words, in a
    # present-tense narration, tells of then
    lead = words.index(phrase.split()[0]) if phrase and phrase.split()[0] in words else 0
    return s.ex.present_tense and any(
        _past_only(w) and n > 0 and words[n - 1] in _CLAUSE_SUBJECTS for n, w in enumerate(words[:lead])
    )  # "he came"; not "barely winded and without a mark", a participle


_CLAUSE_SUBJECTS = frozenset({"he", "she", "they", "it", "i", "we", "you"})


@lru_cache(maxsize=4096)
def _past_only(word: str) -> bool:
    """True when ``word`` is a verb form that can only be past ("came", "walked"; not "read", "put")."""
    from ledger.check.extract.verbs import can_be_past

    return word.isalpha() and word not in ("was", "were") and can_be_past(word) and not is_finite_now(word)


def is_finite_now(word: str) -> bool:
    """True when ``word`` can also be read as a present form or a noun ("read", "put", "left" as a side)."""
    base = verb_lemma(word)
    return base is not None and word in (base, base + "s", base + "es")


_BEFORE_NOW = frozenset({"before", "until", "till", "yesterday", "formerly", "previously"})
# injury verbs whose past participle has no -ed ("unhurt", "uncut")
_BARE_PARTICIPLES = frozenset({"hurt", "cut"})
# verbs that put what follows in someone's mouth or mind: "swears he is in perfect health", "pretends to be"
_REPORTING = frozenset(
    {"swear", "claim", "insist", "pretend", "feign", "boast", "protest", "assure", "maintain", "declare"}
    | {"say", "tell", "announce", "think", "believe", "hope", "wish", "imagine", "suppose", "reckon"}
    | {"expect", "fear", "doubt", "suspect", "dream", "hear", "report", "rumour", "rumor", "whisper"}
)
# what opens the clause a reporting verb takes: "swears that ...", "says he is", "pretends to be"
_CLAUSE_OPEN = frozenset({"that", "he", "she", "they", "it", "himself", "herself", "themselves", "to", "i"})


def _health_state(words: list[str]) -> tuple[str, str] | None:
    """("unhurt" | "near_death", the phrase) when ``words`` open with a health phrase."""
    if not words:
        return None
    text = " ".join(words)
    for idiom in NEAR_DEATH_IDIOMS:
        if idiom.replace("'s", "") in text:  # a token keeps its "'s" apart: "death's door" reads "death door"
            return "near_death", idiom
    w0 = words[0]
    if w0 in ("barely", "hardly", "scarcely") and len(words) > 1:
        if (verb_lemma(words[1]) or words[1]) in _LIFE_VERBS:
            return "near_death", " ".join(words[:2])
        if len(words) > 2 and words[1] == "able":
            return None
    if w0 in _SEVERE and len(words) > 1 and verb_lemma(words[1]) in INJURY_VERBS - {"touch", "mark"}:
        return "near_death", " ".join(words[:2])
    for idiom in UNHURT_IDIOMS:
        if idiom in text:
            return "unhurt", idiom
    in_health = _in_good_health(words)
    if in_health is not None:
        return "unhurt", in_health
    if len(words) > 3 and words[0] == "as" and words[1] in HALE and words[2] == "as":
        return "unhurt", " ".join(words[:3])  # "as fresh as the morning", "as hale as ever"
    for n, w in enumerate(words[:-2]):
        lemmas = [verb_lemma(x) or x for x in words[n + 1 : n + 3]]
        if w == "never" and _COMPARATIVE_HEALTH & set(words[n + 1 : n + 4]):
            return "unhurt", " ".join(words[n : n + 4])  # "has never felt better", "never looked stronger"
        if any_lemma(w) in INJURY_NOUNS and any(x in _HEALED for x in lemmas):
            return "unhurt", " ".join(words[n : n + 3])  # "her wounds long healed"
    for n, w in enumerate(words[:6]):
        if w.startswith("un") and (w.endswith("ed") or w[2:] in _BARE_PARTICIPLES):
            # "unbruised", "unmarked": no mark on the body; "unharmed", "unscathed": no harm done at all
            base = verb_lemma(w[2:]) or ("scathe" if w[2:-2] in ("scath", "scathe") else None)
            if base in MARK_VERBS:
                return "unmarked", w
            if base in HARM_VERBS:
                return "unharmed", w
            if base in INJURY_VERBS:
                return "unhurt", w
        if w in ("not", "without", "nary", "no") and n + 1 < len(words):
            skip = ("a", "one", "single", "so", "much", "as", "sign", "trace", "hint", "of", "any")
            rest = [x for x in words[n + 1 : n + 7] if x not in skip]  # "without so much as a bruise"
            if rest and any_lemma(rest[0]) in INJURY_NOUNS:
                return "unmarked", " ".join(words[n : n + 4])
        if n < 3 and w.endswith("-cheeked") and w.split("-")[0] in _CHEEKS:
            return "well", w  # "pink-cheeked and bright-eyed": a colour in the face, no word on wounds
        after = words[n + 1] if n + 1 < len(words) else ""
        hale = w in HALE and n < 3 and (n == 0 or words[n - 1] in ("and", "quite", "looking"))
        if hale and after not in _NOT_HEALTH_AFTER:  # "fresh out of patience" is no health
            return "unhurt", w
    return None


def _in_good_health(words: list[str]) -> str | None:
    """ "in rude health", "in the best of health", "in fine fettle", "in the rudest health anyone has seen":
    "in" opening the phrase, up to three modifiers, a state noun of bodily condition; at least one modifier
    rates it well and none rates it badly (VADER valence, with "rude" read in its old sense of robust)."""
    if len(words) < 3 or words[0] != "in":
        return None
    head = next((n for n in range(1, min(len(words), 6)) if words[n] in _HEALTH_HEADS), None)
    if head is None:
        return None
    from ledger.check.extract.valence import valence  # imports this module: on first use only

    mods = [w for w in words[1:head] if w not in ("the", "a", "of", "very", "most", "such", "so", "as")]
    if not mods:
        return None
    lemmas = [any_lemma(w) if w not in _GOOD_HEALTH else w for w in mods]
    if any(x in _POOR_HEALTH or (valence(x) < 0 and x != "rude") for x in lemmas):
        return None
    if any(x in _GOOD_HEALTH or valence(x) >= 1.0 for x in lemmas):
        return " ".join(words[: head + 1])
    return None


def _well_signs(s: _Sentence, subjects: list[tuple[str, Mention, Modality, bool]]) -> list[tuple[int, str]]:
    """(token, phrase) of a sign of good health anywhere in a subject's clause that tells nothing of wounds:
    "with a hearty appetite", "eats heartily" (against an ailment only)."""
    toks = s.tokens
    out: list[tuple[int, str]] = []
    for k in range(s.a, s.b):
        t = toks[k]
        if t.quoted:
            continue
        if t.low == "appetite" and k - 1 > s.a:
            mods = [toks[q].low for q in range(max(s.a, k - 3), k)]
            good = _APPETITE_GOOD & {any_lemma(x) if x not in _APPETITE_GOOD else x for x in mods}
            if "with" in mods and good and not {"no", "without", "little", "poor"} & set(mods):
                out.append((k, " ".join([*mods[mods.index("with") :], "appetite"])))
        elif t.low == "heartily" and k > s.a and verb_lemma(toks[k - 1].low) in _EAT:
            out.append((k, f"{toks[k - 1].low} heartily"))
    return out


def _owner(
    s: _Sentence, subjects: list[tuple[str, Mention, Modality, bool]], k: int
) -> tuple[str, Modality] | None:
    """The clause subject a phrase at token ``k`` describes: the last subject before it in the sentence."""
    before = [(eid, mod) for eid, m, mod, _ in subjects if m.j <= k]
    return before[-1] if before else None


def _on_whom(
    s: _Sentence, subjects: list[tuple[str, Mention, Modality, bool]], k: int, end: int
) -> tuple[str, Modality] | None:
    """The creature a health phrase (tokens ``k`` to ``end``) places the marks on, when it says: "not a
    mark on him", "without a scratch upon the girl". A name there is that creature; an object pronoun is
    the one it stood for earlier in the sentence ("Brann finds him, not a mark on him": not Brann, who
    found him), else the clause subject it fits, else the one creature named nearby that it fits."""
    toks = s.tokens
    q = next((q for q in range(k, end - 1) if toks[q].low in ("on", "upon")), None)
    if q is None:
        return None
    named = next((x for x in s.mentions if x.i == q + 1 and x.id and not x.quoted), None)
    if named is not None and s.kind(named) in ("pc", "npc", "monster"):
        return named.id, s.modality(named)  # type: ignore[return-value]
    want = _OBJECT_PRONOUNS_ALL.get(toks[q + 1].low)
    if want is None or toks[q + 1].low in ("his", "their"):
        return None
    fits = pronoun_fits(s, want)
    before = [(eid, m, mod) for eid, m, mod, _ in subjects if m.j <= k]
    # the same pronoun earlier as a verb's object ("finds him"): not that verb's subject
    earlier = [p for p in range(s.a, k) if toks[p].low == toks[q + 1].low and not toks[p].quoted]
    if earlier and earlier[0] > s.a and verb_lemma(toks[earlier[0] - 1].low) is not None:
        doer = [eid for eid, m, _ in before if m.j <= earlier[0]]
        lo = _previous_sentence(s)
        near = {
            m.id
            for m in s.ex.between(lo, s.b)
            if m.id and not m.quoted and fits(m.id) and (not doer or m.id != doer[-1])
        }
        if len(near) == 1:
            eid = next(iter(near))
            mod = next((mod for e2, _, mod in before if e2 == eid), before[-1][2] if before else Modality())
            return eid, mod
        return None
    if before and fits(before[-1][0]):
        return before[-1][0], before[-1][2]
    lo = _previous_sentence(s)
    near = {m.id for m in s.ex.between(lo, s.b) if m.id and not m.quoted and fits(m.id)}
    if len(near) == 1:
        return next(iter(near)), before[-1][2] if before else Modality()
    return None


def _cured(
    s: _Sentence,
    subjects: list[tuple[str, Mention, Modality, bool]],
    claim: Callable[[str, tuple[str, str], Modality, str], None],
) -> None:
    """condition_gone(entity, diseased|poisoned): "clean of the sickness", "the fever broke", or a subject
    told "cured" / "recovered" / "on the mend" after a linking verb while the record gives it an ailment."""
    toks = s.tokens
    for eid, m, mod, _ in subjects:
        e = s.snap.entities.get(eid)
        ill = sorted(set(AILMENT_NOUNS.values()) & e.conditions) if e is not None else []
        if not ill:
            continue
        for k in range(m.j, min(s.b, m.j + 5)):
            w = toks[k].low
            prev = verb_lemma(toks[k - 1].low) if k > s.a else None
            if toks[k].quoted or w in _NEG_BEFORE or w.endswith("n't"):
                break
            cured = w in _CURE_WORDS or (w == "mend" and toks[k - 1].low == "the")
            if cured and (prev in _LINKING or prev == "have" or toks[k - 1].low == "the"):
                claim("condition_gone", (eid, ill[0]), mod, w)
                break
    if not any(w in AILMENT_NOUNS for w in s.narr.split()):
        return
    for found in _CURED.finditer(s.narr):
        noun = found.group("noun") or found.group("noun2")
        cond = AILMENT_NOUNS.get(any_lemma(noun or ""))
        if cond is None:
            continue
        # the creature it is about: a subject named here; else (a pronoun, "the fever broke") the one creature
        # named in this or the previous sentence that has the ailment
        named = [(eid, mod) for eid, _, mod, is_named in subjects if is_named]
        if named:
            eid, mod = named[-1]
        else:
            lo = _previous_sentence(s)
            sick = {
                m.id
                for m in s.ex.mentions
                if m.id and lo <= m.i < s.b and cond in getattr(s.snap.entities.get(m.id), "conditions", ())
            }
            if len(sick) != 1:
                continue
            eid = next(iter(sick))
            mod = subjects[0][2] if subjects else Modality()
        claim("condition_gone", (eid, cond), mod, found.group(0))


# what poisons or sickens, told driven out of a body: "the coolant fumes burned clean out of him overnight",
# "sweated the fever out of her", "the venom is out of his blood"
_PURGED_AGENTS = {**AILMENT_NOUNS, "fumes": "poisoned", "gas": "poisoned", "smoke": "poisoned"}
_PURGED = re.compile(r"\bout of (?:him|her|them|his|their)\b")
_AFTER_BODY = frozenset(
    {".", ",", ";", ":", "!", "—", "and", "system", "blood", "body", "lungs", "veins", "chest", "overnight"}
    | {"now", "at", "by", "completely", "entirely", "in", "for", "since", "already"}
)
_NOT_YET = frozenset({"not", "never", "n't", "yet", "still", "no", "if", "would", "might", "could", "until"})


def purged(s: _Sentence, claim: Callable[[str, tuple[str, str], Modality, str], None]) -> None:
    """condition_gone(entity, poisoned|diseased) for a poison or sickness told driven out of a body, the one
    creature named in this or the previous sentence that has that condition."""
    for found in _PURGED.finditer(s.narr):
        before = s.narr[: found.start()].split()[-5:]  # the agent, a few words back: "the fumes burned clean"
        cond = next(
            (c for w in before if (c := _PURGED_AGENTS.get(w) or _PURGED_AGENTS.get(any_lemma(w)))), None
        )
        after = s.narr[found.end() :].split()[:1] or ["."]
        if (
            cond is None
            or _NOT_YET & set(before)
            or "," in before
            or ";" in before
            or after[0] not in _AFTER_BODY
        ):
            continue  # not "the smoke blows out of her hair": only the body itself, or the clause ending
        lo = _previous_sentence(s)
        sick = {
            m.id
            for m in s.ex.mentions
            if m.id and lo <= m.i < s.b and cond in getattr(s.snap.entities.get(m.id), "conditions", ())
        }
        ante = s.ex.antecedent.get(s.a)
        if ante is not None and cond in getattr(s.snap.entities.get(ante), "conditions", ()):
            sick.add(ante)
        if len(sick) == 1:
            claim("condition_gone", (next(iter(sick)), cond), Modality(), found.group(0))
