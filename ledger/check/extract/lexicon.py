"""The extractor's verb lexicon and the grammar words several passes share.

``VERBS`` maps every inflected form of a known verb to its lemma; ``SPEECH``, ``CHOICE``, ``IDLE``, ``STATIC``
and ``MOTION`` sort the lemmas by what they tell (words, a decision, idling, staying put, moving). The other
tables are the small closed word lists of grammar and modality: adverbs and auxiliaries, hedges of
hypothesis, memory and rumour, negation, body nouns, numbers, possessive pronouns, and the words that may
lead or follow a clause subject. A word list used by one claim family lives with that family's pass.
Any verb outside these lists is read from a lexicon by :mod:`.verbs` (which imports this module; only
``_is_past`` imports it back, on first use).
"""

from __future__ import annotations

import re

_SPEECH = (
    "say greet call shout whisper mutter growl snap laugh ask reply answer tell murmur bark hiss sneer "
    "chuckle bellow cry yell warn explain announce declare demand plead add continue remark speak rasp "
    "croak drawl grumble grunt boom purr sing hum cackle scoff snarl insist begin wheeze gasp rumble "
    "intone blurt exclaim stammer stutter sputter mumble confirm report observe note retort quip "
    "interject muse suggest reassure remind promise"
)
_CHOICE = (
    "decide choose agree accept refuse decline promise swear vow resolve volunteer confess admit "
    "apologize apologise surrender yield betray relent concede consent pledge forgive"
)
_IDLE = (
    "watch look see hear notice feel stand wait sit lean breathe listen glance stare gaze linger remain "
    "rest sense smell lie stay lounge loom perch kneel crouch lurk hover sleep work keep know realise "
    "realize suspect learn wonder think prop beg hang"
)
_STATIC = (
    "stand wait sit lean linger remain rest stay lounge loom perch kneel crouch lurk hover sleep work "
    "keep lie tend preside sprawl"
)
_MOTION = (
    "arrive enter come hurry walk stride step rush climb ride return leave head approach emerge appear "
    "slip wander stroll march storm limp stumble shuffle run flee hobble sail row dart spring vault "
    "sprint scramble creep sneak stalk prowl lurch barrel bolt dash scurry skulk tiptoe swagger saunter"
)
_ACTION = (
    "draw raise wield grip pour wipe nod shake point turn reach grab take hand give pass toss throw lift "
    "push pull open close light slam strike swing fire loose shoot attack lunge charge dodge block parry "
    "cast drink read sign count smile grin frown scowl shrug sigh wave beckon gesture bow salute spit "
    "glare slide produce pocket tuck polish nock aim fling hurl cut slash stab bite claw rise stir wake "
    "move follow lead guide help offer carry hold clutch brandish unsheathe sheathe level ready tap drum "
    "knock fold clap press study wince flinch pause hesitate tense straighten counter scribble write mark "
    "sweep pick set place drop unfold unroll signal sniff spin whirl leap jump duck crawl circle flank "
    "slump straighten peer squint tilt cock clear shove kick tug usher motion jab jot fill scrawl hunch "
    "bristle snatch seize sell buy trade pay hide ignore refill slap thump rap lock unlock bar guard "
    "bless pray chant heal tend bind bandage examine search kill slay finish fell flutter blink twitch "
    "narrow widen soften harden tighten curl darken flick drag shoulder stomp stamp grasp squeeze rub "
    "scratch brush trace touch stroke hammer smash tear rip haul heave hoist feint sway weave evade lash "
    "retreat advance press squat pluck kneel engulf smite blast drive plunge skim jog stop catch light "
    "douse snuff "
    "kindle stoke stab "
    "thrust cleave hack chop howl rally scream shriek roar screech stretch lose grab yank wrench shove "
    "sprawl settle gather collect load unload saddle mount dismount"
)
_HOLDING = (
    "draw raise wield grip hold clutch carry produce pull nock drink uncork polish level swing lift "
    "sheathe unsheathe brandish tuck fire loose read unroll unfold open show finger twirl heft ready aim "
    "spin press tap flash use pat weigh toss juggle flip consult check unwrap turn examine inspect "
    "roll rub twist cradle clasp stroke jingle rattle fasten pin wear don buckle"
)
_IRREGULAR = {
    "knew": "know",
    "known": "know",
    "thought": "think",
    "said": "say",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "drew": "draw",
    "drawn": "draw",
    "stood": "stand",
    "sat": "sit",
    "came": "come",
    "ran": "run",
    "rose": "rise",
    "risen": "rise",
    "threw": "throw",
    "bit": "bite",
    "struck": "strike",
    "swung": "swing",
    "shook": "shake",
    "held": "hold",
    "led": "lead",
    "saw": "see",
    "heard": "hear",
    "felt": "feel",
    "told": "tell",
    "spoke": "speak",
    "left": "leave",
    "swore": "swear",
    "chose": "choose",
    "woke": "wake",
    "drank": "drink",
    "strode": "stride",
    "lay": "lie",
    "shot": "shoot",
    "flung": "fling",
    "slid": "slide",
    "began": "begin",
    "kept": "keep",
    "slew": "slay",
    "slain": "slay",
    "fled": "flee",
    "sold": "sell",
    "bought": "buy",
    "paid": "pay",
    "hid": "hide",
    "knelt": "kneel",
    "forgave": "forgive",
    "sang": "sing",
    "wrote": "write",
    "lies": "lie",
    "lying": "lie",
    "dies": "die",
    "dying": "die",
}


def _verb_forms(base: str) -> set[str]:
    forms = {base, base + "s", base + "ing", base + "ed"}
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        forms.add(base + "es")
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    if len(base) <= 5 and re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", base):
        forms |= {base + base[-1] + "ed", base + base[-1] + "ing"}
    return forms


def _lexicon() -> dict[str, str]:
    out: dict[str, str] = {}
    for words in (_SPEECH, _CHOICE, _IDLE, _STATIC, _MOTION, _ACTION, _HOLDING):
        for base in words.split():
            for f in _verb_forms(base):
                out.setdefault(f, base)
    out.update(_IRREGULAR)
    return out


VERBS: dict[str, str] = _lexicon()
SPEECH = frozenset(_SPEECH.split())
CHOICE = frozenset(_CHOICE.split())
IDLE = frozenset(_IDLE.split())
STATIC = frozenset(_STATIC.split())
MOTION = frozenset(_MOTION.split())

_ADVERBS = frozenset(
    [
        "still",
        "already",
        "just",
        "then",
        "now",
        "again",
        "finally",
        "suddenly",
        "simply",
        "quietly",
        "also",
        "even",
        "barely",
        "only",
        "merely",
        "calmly",
        "abruptly",
        "slowly",
        "silently",
        "softly",
        "gently",
        "briefly",
        "once",
        "more",
        "instead",
        "first",
    ]
)
_AUX = frozenset({"is", "was", "are", "were", "stays", "remains", "sits", "stands", "lies", "lay", "seems"})
_MODAL_AFTER = frozenset({"would", "could", "might", "may", "should", "will", "shall", "must", "can"})
_HYPO = frozenset(
    [
        "if",
        "unless",
        "whenever",
        "would",
        "could",
        "might",
        "perhaps",
        "maybe",
        "imagine",
        "imagines",
        "imagining",
        "plan",
        "plans",
        "planning",
        "planned",
        "hope",
        "hopes",
        "hoping",
        "wish",
        "wishes",
        "wonder",
        "wonders",
        "wondering",
        "whether",
        "suppose",
        "should",
        "expect",
        "expects",
    ]
)
_MEMORY = frozenset(
    [
        "remember",
        "remembers",
        "remembered",
        "recall",
        "recalls",
        "recalled",
        "memory",
        "memories",
        "flashback",
        "ago",
        "once",
        "used",
        "dream",
        "dreams",
        "dreamed",
        "dreamt",
        "vision",
        "visions",
        "mourn",
        "mourns",
        "mourning",
        "funeral",
        "epitaph",
        "buried",
        "late",
        "lament",
        "laments",
        "reminisce",
        "reminisces",
    ]
)
# places of the dead: "the grave of Voss" looks back at Voss; a cairn as scenery does not ("Beside the cairn,
# Caelan sits" tells him sitting there)
_GRAVES = frozenset(
    {"grave", "graves", "tomb", "tombs", "headstone", "cairn", "barrow", "crypt", "niche", "coffin"}
)
_RUMOUR = frozenset(
    [
        "rumour",
        "rumours",
        "rumor",
        "rumors",
        "rumoured",
        "rumored",
        "gossip",
        "gossips",
        "legend",
        "legends",
        "tale",
        "tales",
        "stories",
        "story",
        "ballad",
        "ballads",
        "claim",
        "claims",
    ]
)
_NEGATION = frozenset({"not", "never", "nowhere", "cannot", "no", "without", "nor", "neither", "absent"})


_BODY_NOUNS = frozenset(
    {
        "eyes",
        "eye",
        "voice",
        "hand",
        "hands",
        "face",
        "gaze",
        "lips",
        "smile",
        "jaw",
        "fingers",
        "brow",
        "mouth",
        "shoulders",
        "head",
        "laugh",
        "grin",
        "expression",
        "arm",
        "arms",
    }
)


_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
    "twenty": 20,
    "a": 1,
    "an": 1,
    "single": 1,
}
_PRONOUN_POSS = frozenset({"his", "her", "their", "its"})


# words after a name that end like a verb but are not one ("Mira's", "Wei always", "Voss himself")
_NOT_VERBS = frozenset(
    {
        "as",
        "is",
        "was",
        "has",
        "his",
        "hers",
        "its",
        "this",
        "thus",
        "us",
        "yes",
        "less",
        "unless",
        "across",
        "perhaps",
        "always",
        "towards",
        "afterwards",
        "himself",
        "herself",
        "itself",
        "themselves",
        "others",
        "yours",
        "ours",
        "whereas",
        "various",
        "famous",
        "nervous",
        "glorious",
        "anxious",
        "dangerous",
        "gracious",
        "pious",
        "once",
        "alas",
        "chaos",
        "bias",
        "canvas",
        "atlas",
        "bless",
        "boss",
        "loss",
        "kiss",
        "mass",
    }
)
# what may stand right before a clause subject: nothing, punctuation, a conjunction
_SUBJECT_LEAD = frozenset(
    {
        ",",
        ";",
        ":",
        "—",
        "–",
        '"',
        "“",
        "”",
        "and",
        "but",
        "then",
        "while",
        "as",
        "when",
        "before",
        "after",
        "until",
        "so",
        "now",
        "yet",
    }
)
# what follows a transitive verb: an object's determiner or possessive, or a particle ("jerks his chin")
_OBJECT_LEAD = frozenset(
    {
        "the",
        "a",
        "an",
        "his",
        "her",
        "its",
        "their",
        "my",
        "your",
        "one",
        "some",
        "back",
        "up",
        "down",
        "out",
        "off",
        "away",
        "him",
        "them",
        "it",
    }
)


def _is_past(form: str, lemma: str) -> bool:
    """True when ``form`` can only be a past form of ``lemma``, by lemminflect's inflection tables
    (:mod:`.verbs`, imported here on first use: it imports this module)."""
    if form == lemma or form == "lay":
        return False  # "lay" is also the present of "lay"
    from ledger.check.extract.verbs import is_past

    return is_past(form, lemma)


# Ordinals as counts: "the sixth" of a stack says at least six (counts, count_totals).
ORDINALS = {
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "hundredth": 100,
}
# "twenty-first" ... "ninety-ninth": a tens word, a hyphen, a unit's ordinal (one token)
_UNIT_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_UNIT_ORDINALS |= {"eighth": 8, "ninth": 9}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80}
_TENS |= {"ninety": 90}
ORDINALS |= {f"{t}-{u}": tn + un for t, tn in _TENS.items() for u, un in _UNIT_ORDINALS.items()}
