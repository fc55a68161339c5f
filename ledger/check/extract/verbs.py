"""Verb morphology from a lexicon, not word lists: any English verb form, its lemma, tense and claim class.

The hand table :data:`ledger.check.extract.lexicon.VERBS` knows a few hundred verbs the passes rely on; every
other verb comes from ``lemminflect``'s lexicon (its tables ship in the wheel, loaded on first use, nothing is
downloaded). :func:`lemma` gives a word's verb lemma ("pirouettes" -> "pirouette", "fell" -> "fall"),
:func:`tags` its Penn forms relative to that lemma (VBZ, VBD, VBN, VBG, VB, VBP), :func:`is_past` whether it
can only be a past form, and :func:`verb_class` maps a lemma to the closed claim vocabulary's classes:
speech, commitment, motion, handling, perception, attack, posture (what a body may be told doing: lying,
hanging, resting), state (owing, knowing) or ``act``, the default for any other verb: an unknown verb still
tells a living subject acting. Imports :mod:`.lexicon` only.
"""

from __future__ import annotations

from functools import lru_cache

from ledger.check.extract.lexicon import (
    _HOLDING,
    _IRREGULAR,
    CHOICE,
    MOTION,
    SPEECH,
    VERBS,
)

# Posture: what a corpse or a helpless body may be told doing without acting ("lies", "hangs", "rests").
# A closed class: the verbs of lying, sitting slumped, floating and being laid out.
POSTURE = frozenset(
    {
        "lie",
        "rest",
        "remain",
        "be",
        "sprawl",
        "hang",
        "dangle",
        "sag",
        "slump",
        "float",
        "drift",
        "bob",
        "lay",
        "stay",
        "sleep",
        "repose",
        "stiffen",
        "rot",
        "decay",
        "molder",
        "moulder",
    }
)
# Perception: seeing, hearing, smelling, attending; the senses a condition may take away.
PERCEPTION = frozenset(
    {
        "see",
        "watch",
        "look",
        "glance",
        "stare",
        "gaze",
        "peer",
        "squint",
        "notice",
        "spot",
        "observe",
        "eye",
        "study",
        "read",
        "scan",
        "hear",
        "listen",
        "overhear",
        "smell",
        "sniff",
        "taste",
        "sense",
        "feel",
    }
)
# Attack: the verbs of striking a creature (the combat pass reads hits and misses; this only classes them).
ATTACK = frozenset(
    {
        "attack",
        "strike",
        "hit",
        "stab",
        "slash",
        "cut",
        "shoot",
        "fire",
        "swing",
        "lunge",
        "charge",
        "punch",
        "kick",
        "bite",
        "claw",
        "smite",
        "cleave",
        "hack",
        "kill",
        "slay",
        "maul",
        "gore",
        "impale",
        "skewer",
        "blast",
        "thrust",
    }
)
# States of mind or affairs: they put no body anywhere and tell no action.
STATE = frozenset(
    {
        "owe",
        "know",
        "remember",
        "believe",
        "need",
        "want",
        "deserve",
        "hope",
        "fear",
        "trust",
        "mean",
        "own",
        "wish",
        "like",
        "love",
        "hate",
        "prefer",
        "intend",
        "seem",
        "expect",
        "plan",
        "dread",
        "doubt",
        "suspect",
        "think",
        "forget",
        "understand",
        "care",
        "mind",
        "belong",
        "lack",
        "matter",
        "resemble",
        "regret",
        "recall",
        "imagine",
        "suppose",
        "reckon",
        "envy",
        "admire",
        "despise",
        "loathe",
        "adore",
        # the rest of the verbs of feeling toward someone (attitude_words.FEELING and the verbs of distrust)
        "detest",
        "abhor",
        "resent",
        "mistrust",
        "distrust",
        "pity",
        "scorn",
        "disdain",
        "cherish",
    }
)
# Auxiliaries and modals: a closed class; never the action a subject takes ("Lorcan would be left behind").
AUXILIARIES = frozenset(
    {
        "would",
        "could",
        "should",
        "might",
        "must",
        "shall",
        "will",
        "can",
        "may",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "ought",
        "dare",
        "need",
        "used",
        "wo",
        "ca",
    }
)
HANDLING = frozenset(_HOLDING.split()) | {"hand", "give", "pass", "take", "grab", "snatch", "seize", "pocket"}

CLASSES = ("speech", "commitment", "motion", "handling", "perception", "attack", "posture", "state", "act")


@lru_cache(maxsize=1)
def _lexicon() -> tuple[object, object]:
    """lemminflect's two lookups, imported on first use (its tables take a moment to load)."""
    from lemminflect import getAllInflections, getAllLemmas

    return getAllLemmas, getAllInflections


@lru_cache(maxsize=65536)
def lemma(word: str) -> str | None:
    """The verb lemma of a lower-case ``word``, by the hand table first, else lemminflect's lexicon;
    ``None`` when the word is no form of any verb the lexicon knows (names, function words, most nouns)."""
    known = VERBS.get(word)
    if known is not None:
        return known
    if word in AUXILIARIES or len(word) < 3 or not word.isalpha():
        return None
    get_lemmas = _lexicon()[0]
    found = get_lemmas(word, "VERB").get("VERB")  # type: ignore[operator]
    if not found:
        return None
    # "fell" is both "fall" and "fell": prefer a lemma the word inflects from over the word itself
    other = [x for x in found if x != word]
    return str(other[0] if other else found[0])


@lru_cache(maxsize=65536)
def tags(word: str, base: str) -> frozenset[str]:
    """The Penn tags (VB, VBP, VBZ, VBD, VBN, VBG) ``word`` has as a form of the verb ``base``."""
    get_inflections = _lexicon()[1]
    table = get_inflections(base, "VERB")  # type: ignore[operator]
    out = {tag for tag, forms in table.items() if word in forms}
    if not out:
        # the hand table's forms (regular endings and its irregulars) when lemminflect lacks the verb
        if word == base:
            out = {"VB", "VBP"}
        elif word.endswith("ing"):
            out = {"VBG"}
        elif word.endswith("ed") or (word in _IRREGULAR and not word.endswith("s")):
            out = {"VBD", "VBN"}
        elif word.endswith("s"):
            out = {"VBZ"}
    return frozenset(out)


def is_past(word: str, base: str) -> bool:
    """True when ``word`` can only be a past form of ``base`` ("fell", "walked"; not "read", "put", "cut")."""
    t = tags(word, base)
    return bool(t) and t <= {"VBD", "VBN"}


@lru_cache(maxsize=65536)
def can_be_past(word: str) -> bool:
    """True when some reading of ``word`` is only a past form ("fell" of "fall", though "fell" is a verb too;
    "kept"; "walked"): for a past verb after "where" or "the night", whichever verb it is."""
    readings = {x for x in (VERBS.get(word),) if x}
    if word not in AUXILIARIES and word.isalpha():
        readings |= set(_lexicon()[0](word, "VERB").get("VERB", ()))  # type: ignore[operator]
    if not readings:
        return word.endswith("ed") and len(word) > 4
    return any(r != word and is_past(word, r) for r in readings)


def is_finite(word: str, base: str) -> bool:
    """True when ``word`` may be the finite verb of a third-person subject ("walks", "walked", "fell")."""
    return bool(tags(word, base) & {"VBZ", "VBD"})


def verb_class(base: str) -> str:
    """The claim class of a verb lemma (one of :data:`CLASSES`); ``act`` for a verb in no closed class."""
    if base in STATE:
        return "state"
    if base in CHOICE:
        return "commitment"
    if base in SPEECH:
        return "speech"
    if base in POSTURE:
        return "posture"
    if base in MOTION:
        return "motion"
    if base in PERCEPTION:
        return "perception"
    if base in ATTACK:
        return "attack"
    if base in HANDLING:
        return "handling"
    return "act"
