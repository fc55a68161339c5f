"""Meaning-level condition claims: health words, senses used, and a condition told gone.

Three claim families, each read from what the words imply rather than from a list of sentences:

- ``health(entity, unhurt|unharmed|unmarked|well|near_death)``: health states at the ends of the HP range.
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
- ``senses(entity, sight|hearing|speech)``: a verb of the subject's predicate whose lemma (lemminflect) is in
  the sight class (reads, watches, squints ...), the hearing class (hears, listens, or a reply right after
  someone else spoke: "answers her just as softly", "whispers something back"), or the speech class (the
  lexicon's speech verbs, "reads ... aloud", "in a low voice"). Only creatures that have a condition able to
  take the faculty away are read, so the pass costs nothing on a healthy cast.
- ``condition_gone(entity, condition)``: "cured", "clean of the sickness", "the fever broke" for a diseased
  or poisoned creature.

Negated or modal verbs ("hears nothing", "cannot answer", "rather than looking") make no claim. Imports
:mod:`.lexicon`, :mod:`.names` and :mod:`.sentence`; :func:`_conditions` is one pass over a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import cast

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _BODY_NOUNS, _OBJECT_LEAD, _SUBJECT_LEAD, SPEECH, VERBS
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite
from ledger.check.snapshot import WorldSnapshot


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


# --- faculties: verb lemma classes ------------------------------------------------------------------------

SIGHT = frozenset(
    {"read", "watch", "see", "spot", "notice", "glimpse", "squint", "peer", "gaze", "scan", "eye", "glance"}
    | {"ogle", "survey", "behold", "skim", "peruse", "espy", "sight"}
    # verbs of examining a thing are done with the eyes unless the text says by touch
    | {"study", "examine", "inspect", "scrutinize", "scrutinise", "observe", "stare"}
)
HEARING = frozenset({"hear", "overhear", "listen", "eavesdrop"})
# a reply (or a nod to obey) right after someone else spoke to the creature means it heard the words
REPLY = frozenset({"answer", "reply", "respond", "obey", "comply", "nod", "heed"})
# an answer given without the voice, and words passed without sound
_MUTE_MEANS = frozenset(
    {
        "nod",
        "shrug",
        "gesture",
        "sign",
        "signs",
        "shake",
        "note",
        "slate",
        "writing",
        "wave",
        "look",
        "glance",
    }
)
_SILENT_CHANNELS = frozenset(
    {
        "lips",
        "mouth",
        "slate",
        "note",
        "notes",
        "writes",
        "written",
        "wrote",
        "scrawls",
        "scribbles",
        "signs",
        "mouths",
    }
)
# what eyes do when they see ("her eyes follow him"); not "move" or "turn", which blind eyes do too
_EYES_SEE = frozenset(
    {"follow", "track", "scan", "find", "meet", "sweep", "dart", "flick", "settle", "fix", "rest"}
)
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
_LOUD_AFTER = frozenset({"aloud", "out"})  # "reads the prices out", "reads ... aloud"
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
# the conditions that could take a faculty away (see ledger.check.judge_meaning.FACULTY_LOST)
_SENSE_CONDITIONS = frozenset(
    {"blinded", "blind", "deafened", "deaf", "silenced", "gagged", "mute", "muted", "unconscious", "asleep"}
    | {"petrified", "paralyzed", "paralysed", "stunned", "incapacitated"}
)

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


def _senses_blocked(e_conditions: frozenset[str]) -> bool:
    return bool(e_conditions & _SENSE_CONDITIONS)


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
        if any(
            x.i == k and not x.poss and _is_name(s, x)
            for x in s.mentions
            if s.kind(x) in ("pc", "npc", "monster")
        ):
            if k + 1 < s.b and verb_lemma(toks[k + 1].low) is not None:
                break  # "... and Orrin answers": another subject takes over
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


def _resolve_pronoun(s: _Sentence, word: str) -> str | None:
    """The creature a clause-opening pronoun or "the man" stands for: the previous sentence's subject when
    it fits, else the one creature named in this or the previous sentence that fits."""
    want = _SUBJECT_PRONOUNS.get(word) or _GENDER_NOUNS.get(word)
    if want is None:
        return None

    def fits(eid: str) -> bool:
        e = s.snap.entities.get(eid)
        if e is None or e.kind not in ("pc", "npc", "monster"):
            return False
        if e.pronoun is None:
            return want != "it" and e.kind != "monster"
        return e.pronoun == want

    ante = s.ex.antecedent.get(s.a)
    if ante is not None and fits(ante):
        return ante
    prev = _previous_sentence(s)
    named = {m.id for m in s.ex.between(prev, s.b) if m.id and not m.quoted and fits(m.id)}
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


def _conditions(s: _Sentence) -> None:
    """health, senses and condition_gone claims for the creatures of one sentence.

    The clause subjects are worked out only when the sentence has a health phrase, a cure word, or names
    (or continues with) a creature whose condition could take a sense away: most sentences have none."""
    snap = s.snap
    blocked = _sense_blocked(snap)
    ante = s.ex.antecedent.get(s.a)
    senses = ante in blocked or any(m.id in blocked for m in s.mentions)
    health = any(_health_trigger(t.low) for t in s.tokens[s.a : s.b] if not t.quoted)
    cured = any(w in AILMENT_NOUNS or w in _CURE_WORDS for w in s.narr.split())
    if not (senses or health or cured):
        return
    subjects = _subjects(s)
    seen: set[tuple[str, str, str]] = set()

    def claim(kind: str, args: tuple[str, str], mod: Modality, detail: str) -> None:
        if (kind, *args) in seen:
            return
        seen.add((kind, *args))
        s.ex.claims.append(Claim(kind, args, s.raw.strip(), s.span, mod, detail))  # type: ignore[arg-type]

    for eid, m, mod, _ in subjects if senses else ():
        if eid in blocked:
            for faculty, verb in _faculties(s, eid, m):
                claim("senses", (eid, faculty), mod, verb)
            if _helpless(s.snap, eid):
                _helpless_acts(s, eid, m, mod)
    if senses and any(t.quoted for t in s.tokens[s.a : s.b]):
        # quoted words the speech pass gave a speaker ('"Wait," says Pim'): speaking, whatever the word order
        for c in list(s.ex.claims):
            if c.kind == "acts" and c.span == s.span and c.args[0] in blocked and c.detail in SPOKEN:
                claim("senses", (c.args[0], "speech"), c.modality, c.detail)
        speaker = _bare_quote_speaker(s, ante)
        if speaker is not None and speaker in blocked:
            claim("senses", (speaker, "speech"), Modality(), "a line of speech after their action")
    if health:
        _health(s, subjects, claim)
    if cured:
        _cured(s, subjects, claim)


_INCAPACITATED = frozenset({"unconscious", "paralyzed", "paralysed", "petrified", "stunned", "incapacitated"})


def _helpless(snap: WorldSnapshot, eid: str) -> bool:
    e = snap.entities.get(eid)
    return e is not None and bool(e.conditions & _INCAPACITATED)


def _helpless_acts(s: _Sentence, eid: str, m: Mention, mod: Modality) -> None:
    """acts(entity) for each verb a helpless creature's predicate gives it, by any verb lemma ("By the
    hearth Orm whittles a spoon", "is sitting up in bed, sipping broth"): the subject finding here reaches
    clauses the presence pass leaves (a fronted phrase, "as she works she sings"). The judge keeps what a
    senseless body may do (lie, breathe, twitch); verbs of state and posture are left out here."""
    from ledger.check.extract.verbs import verb_class

    have = {(c.args[0], c.detail) for c in s.ex.claims if c.kind == "acts" and c.span == s.span}
    for k, lemma in _predicate(s, m):
        if (eid, lemma) in have or _negated_at(s, k) or verb_class(lemma) in ("state", "posture"):
            continue
        if s.tokens[k].low in _BODY_NOUNS:
            continue  # "eyes wide", "hands shaking": the body part, not a verb
        if lemma in _AUX_LEMMAS or lemma in ("get", "become", "seem", "look", "appear", "feel", "try"):
            continue
        have.add((eid, lemma))
        s.ex.claims.append(Claim("acts", (eid,), s.raw.strip(), s.span, mod, lemma))


def _bare_quote_speaker(s: _Sentence, ante: str | None) -> str | None:
    """The creature a bare line of speech belongs to: a sentence that is only a quotation, with no verb of
    saying, right after a sentence whose subject is ``ante`` ('Bron grins. "Tuesday."'), unless the words
    were written, signed or mouthed ("slides a note across", "mouths", "on her slate")."""
    if ante is None:
        return None
    toks = s.tokens[s.a : s.b]
    words = [t for t in toks if t.text.isalnum()]
    if not words or any(not t.quoted for t in words):
        return None
    lo = _previous_sentence(s)
    if lo >= s.a:
        return None
    before = s.ex.tokens[lo : s.a]
    if not before or before[-1].quoted or any(t.quoted for t in before):
        return None  # the sentence before must be the narrator's: an action, not more dialogue
    if any(
        t.low in _SILENT_CHANNELS or t.low in _MUTE_MEANS or t.low in _WRITTEN or t.text == ":"
        for t in before
    ):
        return None  # "unfolds the letter. 'Meet me at dawn.'": the words on the page
    e = s.snap.entities.get(ante)
    # only a creature whose voice alone is gone: a senseless one's neighbour is the likelier speaker
    return ante if e is not None and e.conditions & _VOICELESS else None


_VOICELESS = frozenset({"silenced", "gagged", "mute", "muted"})
# things that carry written words: a quotation after them may be what they say
_WRITTEN = frozenset(
    {"letter", "note", "page", "paper", "sign", "placard", "inscription", "scroll", "writing", "card"}
    | {"message", "notice", "ledger", "book", "map", "parchment", "banner", "label", "reads", "read"}
)


def _sense_blocked(snap: WorldSnapshot) -> frozenset[str]:
    """The creatures with a condition that can take a sense away, built once per snapshot."""
    cached = snap.cache.get("meaning-sense-blocked")
    if isinstance(cached, frozenset):
        return cached
    found = frozenset(e.id for e in snap.entities.values() if e.conditions and _senses_blocked(e.conditions))
    snap.cache["meaning-sense-blocked"] = found
    return found


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


def _faculties(s: _Sentence, eid: str, m: Mention) -> list[tuple[str, str]]:
    """The faculties the predicate of subject ``m`` uses: (faculty, verb)."""
    toks = s.tokens
    out: list[tuple[str, str]] = []
    heard_speech: bool | None = None
    eyes = m.poss and m.j < s.b and toks[m.j].low in ("eyes", "eye", "gaze")
    # "stares sightlessly", "gazes into the fire she cannot see": the sentence says the eyes see nothing
    unseeing = any(t.low in _UNSEEING for t in toks[s.a : s.b] if not t.quoted) or _cannot_see(s)
    for k, lemma in _predicate(s, m):
        if _negated_at(s, k):
            continue
        nxt = [toks[q].low for q in range(k + 1, min(s.b, k + 8))]
        if eyes and lemma in _EYES_SEE:
            out.append(("sight", f"eyes {toks[k].low}"))  # "Quill's eyes follow Nyx across the ward"
        # "reads the runes with her fingertips", "reads his lips"; not "reads the letter, his lips moving"
        phrase = nxt[: nxt.index(",")] if "," in nxt else nxt
        by_touch = bool({"fingers", "fingertips", "touch", "braille", "lips"} & set(phrase))
        # "notices the draught", "reads the room by sound and smell": a percept of another sense
        objects = [w for w in phrase[:5] if w not in _DETERMINERS][:2]  # the object noun, after its article
        by_touch = by_touch or bool(_OTHER_PERCEPTS & {any_lemma(w) for w in objects})
        by_touch = by_touch or (lemma == "read" and bool(_READ_NOT_SEEN & set(phrase[:3])))
        # not "reads the runes with her fingertips", "sees to the lamps", "sees the future in the smoke"
        if lemma in SIGHT and not by_touch and not unseeing and not (lemma == "see" and _inner_sight(phrase)):
            out.append(("sight", toks[k].low))
        if (lemma == "look" and nxt[:1] == ["at"]) or (lemma == "catch" and nxt[:1] == ["sight"]):
            out.append(("sight", toks[k].low))
        if lemma not in SPOKEN and _at_a_sound(nxt):
            out.append(("hearing", toks[k].low))  # "turns at the sound of his name", "jumps at the bang"
        if lemma == "catch" and _caught_words(phrase):
            out.append(("hearing", toks[k].low))  # "catches every word", "catches her name"
        to_whom = "to" in nxt[:7] and not {"himself", "herself", "themselves", "itself"} & set(nxt)
        if lemma == "read" and (_LOUD_AFTER & set(nxt) or to_whom):
            out.append(("speech", toks[k].low))
        if lemma == "follow" and "eyes" in nxt:
            out.append(("sight", "follows with the eyes"))
        if lemma in HEARING:
            out.append(("hearing", toks[k].low))
        mute_means = bool(_MUTE_MEANS & set(nxt[:5]))  # "answers with a nod", "replies on her slate"
        if not mute_means and (
            lemma in SPOKEN
            or (lemma == "pipe" and "up" in nxt[:1])
            or (lemma in ("tell", "say") or ("voice" in nxt[:6] and lemma in _SPOKEN_STRICT))
        ):
            out.append(("speech", toks[k].low))
        if lemma in REPLY or (lemma in SPOKEN and ("back" in nxt[:3] or "reply" in nxt[:3])):
            if heard_speech is None:
                lo = _previous_sentence(s, 2)
                # words read off the lips or a slate are not heard
                silent = any(t.low in _SILENT_CHANNELS for t in s.ex.tokens[lo : s.b] if not t.quoted)
                heard_speech = not silent and _speech_acts(s, lo, k, eid)
            if heard_speech:
                out.append(("hearing", toks[k].low))
    return out


# what "sees" takes when it means foresight or understanding, not the eyes ("sees the future", "sees the
# sense in it", "sees fit", "sees through the lie", "sees that the plan is mad")
_INNER_SEEN = frozenset(
    {"future", "futures", "vision", "visions", "sense", "point", "truth", "reason", "fit", "omen", "omens"}
    | {
        "portent",
        "portents",
        "dream",
        "dreams",
        "meaning",
        "through",
        "what",
        "how",
        "why",
        "that",
        "whether",
    }
    | {"if", "mind's", "mind", "fate", "fates", "destiny", "wisdom", "merit", "use", "to"}
    | {"past", "spirit", "spirits", "soul", "heart", "ghost", "ghosts", "beyond", "clearly"}
)
# the noun of a sound heard: a creature that starts, turns or wakes "at" or "to" it heard it
_SOUND_NOUNS = frozenset(
    {"sound", "noise", "crack", "bang", "clang", "clatter", "knock", "knocking", "cry", "shout", "voice"}
    | {"creak", "footstep", "laughter", "music", "singing", "rattle", "roar", "scream", "whisper", "crash"}
    | {"thud", "howl", "barking", "gunshot", "clamour", "clamor", "din", "racket", "commotion", "uproar"}
    | {"tolling", "chime", "ringing", "shriek", "yelp", "squeal", "hiss", "snap", "slam", "bellow"}
)
# what ears catch ("catches every word", "catches his name", "catches snatches of the song")
_CAUGHT = frozenset(
    {"word", "words", "whisper", "whispers", "name", "remark", "question", "conversation", "snatches"}
    | {"murmur", "tune", "song", "sound", "answer", "reply", "gist", "drift"}
)
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "every", "each", "some", "that"})


# words that tell eyes seeing nothing ("stares sightlessly", "peers blindly about", "her blind eyes")
_UNSEEING = frozenset(
    {"sightlessly", "blindly", "blankly", "unseeingly", "unseeing", "sightless", "vacantly"}
)
# percepts of the other senses: what is noticed or studied without the eyes ("notices the draught")
_OTHER_PERCEPTS = frozenset(
    {"draught", "draft", "smell", "scent", "perfume", "odour", "odor", "stink", "stench", "reek", "sound"}
    | {"noise", "cold", "chill", "warmth", "heat", "breeze", "silence", "tremor", "vibration", "taste"}
    | {"footstep", "voice", "hush", "ear", "feel", "texture", "weight", "breath", "creak", "whisper"}
)
# what "reads" takes in the sense of judging, not of reading with the eyes ("reads the room", "the mood")
_READ_NOT_SEEN = frozenset({"room", "mood", "crowd", "situation", "silence", "air", "wind", "weather"})


def _cannot_see(s: _Sentence) -> bool:
    """True when the sentence says someone cannot see ("the fire she cannot see", "no longer sees")."""
    toks = s.tokens
    for k in range(s.a + 1, s.b):
        if verb_lemma(toks[k].low) == "see" and not toks[k].quoted:
            before = {toks[q].low for q in range(max(s.a, k - 3), k)}
            if before & {"cannot", "can't", "not", "never", "longer", "unable"}:
                return True
    return False


def _inner_sight(phrase: list[str]) -> bool:
    """True when "see" is followed by what it means to foresee or understand, not to look at."""
    if phrase[:1] and phrase[0] in _INNER_SEEN:
        return True  # "sees that ...", "sees to the lamps", "sees fit"
    head = [w for w in phrase[:4] if w not in _DETERMINERS]
    return bool(head) and (head[0] in _INNER_SEEN or (len(head) > 1 and head[1] in _INNER_SEEN))


def _at_a_sound(nxt: list[str]) -> bool:
    """ "at the sound of", "to the clang of the bell", "up at the noise": "at" or "to" (after a particle), a
    determiner or two, an adjective at most, then a noun of sound."""
    q = 1 if nxt[:1] and nxt[0] in ("up", "round", "around", "back", "awake", "along", "about") else 0
    if q >= len(nxt) or nxt[q] not in ("at", "to"):
        return False
    rest = [w for w in nxt[q + 1 : q + 6] if w not in _DETERMINERS]
    for n, w in enumerate(rest[:2]):
        if w in _SOUND_NOUNS or any_lemma(w) in _SOUND_NOUNS:
            after = rest[n + 1] if n + 1 < len(rest) else "."
            # "the singing girl": a form in -ing before a noun is its adjective, not the sound
            return not w.endswith("ing") or after in ("of", ",", ".", "and", "from", "in", ";")
    return False


def _caught_words(phrase: list[str]) -> bool:
    """True when "catch" takes words or a sound as its object: "catches every word of the quarrel"."""
    head = [w for w in phrase[:4] if w not in _DETERMINERS and w not in ("of", "one", "few", "last")]
    return bool(head) and head[0] in _CAUGHT


def _health(
    s: _Sentence,
    subjects: list[tuple[str, Mention, Modality, bool]],
    claim: Callable[[str, tuple[str, str], Modality, str], None],
) -> None:
    """health(entity, unhurt|near_death) for a health phrase describing a clause subject."""
    toks = s.tokens
    subject_ends = {m.j for _, m, _, _ in subjects}
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
        words = [x.low for x in toks[k:end]]
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


# phrases that deny the health word after them
_DENIALS = ("anything but", "far from", "less than", "none too", "hardly", "scarcely", "nowhere near")


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
    fits = _fits(s, want)
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


def _fits(s: _Sentence, want: str) -> Callable[[str], bool]:
    """A test: may the pronoun ``want`` (he, she, they) stand for the creature ``eid``."""

    def fits(eid: str) -> bool:
        e = s.snap.entities.get(eid)
        if e is None or e.kind not in ("pc", "npc", "monster"):
            return False
        if e.pronoun is None:
            return want != "it" and e.kind != "monster"
        return e.pronoun == want

    return fits


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
