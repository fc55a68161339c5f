"""Split a narration into atomic claims, deterministically.

No model, no parser library: sentences and quotes are found by punctuation, known names and aliases by one
n-gram lookup per token (built once per snapshot and cached, so a world with thousands of entities costs the
same per word as a small one), and common game-master phrasing is mapped to the closed vocabulary of
:mod:`ledger.check.claims` with small word lists. Modality (quoted dialogue, memory, rumour, hypothetical,
negation) is attached to every claim so the checker can leave lies, memories and plans alone.

The extractor only reads; what a claim means against the ledger is :mod:`ledger.check.judge`'s job. Changes
the
narration itself makes (a dagger handed over, an NPC walking off) are emitted as claims with a ``detail``
the checker replays in text order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ledger.check.claims import Claim, ClaimKind, Modality
from ledger.check.snapshot import ActionResult, WorldSnapshot

# --- word lists ---------------------------------------------------------------------------------------------

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
        "grave",
        "graves",
        "tomb",
        "funeral",
        "headstone",
        "cairn",
        "epitaph",
        "buried",
        "late",
        "lament",
        "laments",
        "reminisce",
        "reminisces",
    ]
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
        "claim",
        "claims",
    ]
)
_NEGATION = frozenset({"not", "never", "nowhere", "cannot", "no", "without", "nor", "neither", "absent"})
_MOURN_NOUNS = frozenset(
    {
        "grave",
        "tomb",
        "corpse",
        "remains",
        "headstone",
        "cairn",
        "ashes",
        "funeral",
        "burial",
        "death",
        "killer",
        "murderer",
        "widow",
        "ghost",
        "shade",
        "spirit",
        "memory",
        "epitaph",
    }
)
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
_DEATH_WORDS = frozenset(
    {"dead", "dies", "died", "slain", "killed", "lifeless", "perishes", "perished", "expires", "lifelessly"}
)
_DEATH_PHRASES = re.compile(
    r"\b(?:breathes? (?:his|her|its|their) last|moves? no more|is no more|never rises|does not rise again|"
    r"goes still forever|last breath)\b"
)
_KILL_VERBS = frozenset({"kill", "slay", "finish", "fell"})
_DOWN_WORDS = re.compile(
    r"\b(?:falls? unconscious|drops? unconscious|knocked (?:out|unconscious|senseless)|senseless|"
    r"passes out|blacks out|crumples, unconscious|goes limp)\b"
)
_HIT = frozenset(
    [
        "hit",
        "hits",
        "strike",
        "strikes",
        "struck",
        "slam",
        "slams",
        "bite",
        "bites",
        "finds",
        "sink",
        "sinks",
        "bury",
        "buries",
        "cut",
        "cuts",
        "slash",
        "slashes",
        "pierce",
        "pierces",
        "connect",
        "connects",
        "wound",
        "wounds",
        "smash",
        "smashes",
        "cleave",
        "cleaves",
        "stab",
        "stabs",
        "gash",
        "gashes",
        "crunch",
        "crunches",
        "slice",
        "slices",
        "punch",
        "punches",
        "tear",
        "tears",
        "rake",
        "rakes",
        "skewer",
        "skewers",
        "impale",
        "impales",
        "lodge",
        "lodges",
        "batter",
        "batters",
        "sear",
        "sears",
        "scorch",
        "scorches",
        "burn",
        "burns",
        "hammer",
        "hammers",
        "crush",
        "crushes",
        "maul",
        "mauls",
        "gore",
        "gores",
        "shatter",
        "shatters",
        "kill",
        "kills",
        "slay",
        "slays",
        "fells",
        "finishes",
        "lands",
        "catches",
        "takes",
        "opens",
        "bites",
        "finds",
    ]
)
_HIT = _HIT | {
    "open",
    "rake",
    "rip",
    "rips",
    "tear",
    "drives",
    "plunges",
    "punches",
    "engulf",
    "engulfs",
    "smite",
    "smites",
    "blast",
    "blasts",
    "wreathes",
    "consumes",
    "rakes",
    "claws",
}
_MISS = frozenset(
    [
        "miss",
        "misses",
        "missed",
        "dodge",
        "dodges",
        "dodged",
        "sidestep",
        "sidesteps",
        "duck",
        "ducks",
        "parry",
        "parries",
        "deflect",
        "deflects",
        "harmlessly",
        "evades",
    ]
)
_MISS_PHRASES = re.compile(
    r"\b(?:goes wide|go wide|went wide|glances? off|whistle[sd]? past|hums? (?:harmlessly )?past|"
    r"skims? (?:past|over)|throws (?:himself|herself|itself) (?:aside|behind|clear|down)|"
    r"dives? (?:aside|behind|clear)|bites (?:wood|stone|dirt|earth|air)|finds only|whirls past|spins past|"
    r"rings off|thuds into the|sails? (?:past|over|wide)|fails? to|falls? short|"
    r"only air|empty air|just short|a hair's breadth|clatters? off|skitters? off|turns? aside|rolls? aside|"
    r"turned (?:aside|away)|fizzle[sd]?|sputters? out|peters? out|falls? flat|to no effect|"
    r"(?:a|an|one|two|three|a few|several) (?:yards?|feet|foot|inch|inches|hand's breadth|finger's width|"
    r"handspan|pace|paces) (?:from|short of|wide of|away from)|inches from|wide of|"
    r"deflected|parried|blocked|glanced off)\b"
)
_DAMAGE = frozenset(
    [
        "bleeds",
        "bleeding",
        "bloodied",
        "staggers",
        "reels",
        "wounded",
        "gasps",
        "howls",
        "shrieks",
        "winces",
        "blood",
        "cries",
        "stumbles",
    ]
)
_KIN = frozenset(
    [
        "brother",
        "sister",
        "father",
        "mother",
        "son",
        "daughter",
        "cousin",
        "uncle",
        "aunt",
        "twin",
        "kin",
        "kinsman",
        "kinswoman",
        "wife",
        "husband",
        "nephew",
        "niece",
        "grandfather",
        "grandmother",
        "sibling",
    ]
)
_POSITIVE = re.compile(
    r"\b(?:old friend|dear friend|friend|friends|ally|allies|warmly|fondly|embraces?|embracing|hugs?|beloved|"
    r"trusted|brother-in-arms|affection|affectionately|comrade|fondness|fond of|tenderness|gratitude|"
    r"grateful|adores?|dotes? on|devoted to|trusts|(?:thinks?|thought) the world of|soft spot for|"
    r"looks? up to)\b"
)
# kinship denied: "Sela is no relation to Voss", "Edric is no kin of the queen's", "not Wei's brother"
_NOT_KIN = re.compile(
    r"\b(?:no relation (?:to|of)|no kin (?:to|of)|not related to|unrelated to|no blood (?:to|of)|"
    r"not (?:his|her|their) (?:brother|sister|son|daughter|mother|father|kin|cousin|twin|sibling)|"
    r"no (?:brother|sister|son|daughter|mother|father|kin|cousin) (?:to|of)|(?:are|were) (?:not|no) "
    r"(?:kin|related|family|siblings|brothers|sisters))\b"
)
_NEGATIVE = re.compile(
    r"\b(?:enemy|enemies|sworn foe|foe|hatred|hates|loathes|despises|feud|nemesis|rival|spits at|"
    r"murderous glare|bitter enemy)\b"
)
_THREAD_WORDS = {
    "favour": "favour",
    "favor": "favour",
    "favours": "favour",
    "favors": "favour",
    "debt": "debt",
    "debts": "debt",
    "oath": "oath",
    "vow": "oath",
    "bounty": "bounty",
    "prophecy": "prophecy",
    "quest": "quest",
    "promise": "oath",
    "boon": "favour",
}
_STATUS_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "open",
        re.compile(
            r"\b(?:not yet|never|yet to be|has yet to|have yet to|still not|isn't|is not|wasn't|was not)\b"
            r"(?:\s+\w+){0,2}?\s+(?:paid|repaid|settled|fulfilled|honou?red|called in|discharged|cleared|"
            r"kept)\b|\b(?:unpaid|outstanding|unfulfilled|unsettled)\b"
        ),
    ),
    (
        "settled",
        re.compile(
            r"\b(?:no longer owes?|owes? (?:\w+ ){0,2}nothing|nothing (?:more )?owed|paid in full|"
            r"(?:is|was|been|now|finally|are) (?:\w+ )?(?:paid|repaid|settled|fulfilled|"
            r"honou?red|discharged|cleared|square|even|quits|done|collected|claimed|spent|used up|"
            r"called in|redeemed)|"
            r"(?:repaid|settled|fulfilled|honou?red|discharged|squared|kept)\b)"
        ),
    ),
    ("broken", re.compile(r"\b(?:broken|broke|forsworn|betrayed)\b")),
    ("expired", re.compile(r"\b(?:expired|lapsed)\b")),
    (
        "open",
        re.compile(
            r"\b(?:still owes?|still owed|owes?|still stands|hangs over|still binds|remains open|due|"
            r"waiting to be|still open|unpaid|outstanding)\b"
        ),
    ),
)
_CONDITIONS = frozenset(
    [
        "unconscious",
        "paralyzed",
        "paralysed",
        "petrified",
        "poisoned",
        "blinded",
        "deafened",
        "frightened",
        "grappled",
        "restrained",
        "stunned",
        "prone",
        "charmed",
        "invisible",
        "exhausted",
        "incapacitated",
    ]
)
INCAPACITATING = frozenset({"unconscious", "paralyzed", "petrified", "stunned", "incapacitated"})
_HOLD_VERBS = frozenset(_HOLDING.split())
_GIVE_VERBS = frozenset({"hand", "give", "pass", "toss", "offer", "slide", "throw", "press"})
_ACQUIRE_VERBS = frozenset(
    {"pick", "take", "grab", "snatch", "seize", "buy", "receive", "accept", "catch", "find"}
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
_QUOTE_CHARS = {'"': "both", "“": "open", "”": "close"}
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

_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z\-]*(?:['’][A-Za-z]+)*['’]?|\d+|[\"“”]|[^\s\w]")


@dataclass(frozen=True, slots=True)
class Token:
    """One word or mark: ``low`` is lowercased with any possessive ``'s`` removed."""

    text: str
    low: str
    start: int
    end: int
    poss: bool
    quoted: bool


@dataclass(frozen=True, slots=True)
class Mention:
    """A known name found in the text: the entity ids it may denote and the token range it covers."""

    ids: tuple[str, ...]
    i: int
    j: int  # exclusive token index
    poss: bool
    quoted: bool
    alias_visibility: str

    @property
    def id(self) -> str | None:
        """The entity, when the name is unambiguous."""
        return self.ids[0] if len(self.ids) == 1 else None


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Lowercased token n-grams -> (entity id, alias visibility); tells of facts; thread aliases."""

    names: Mapping[tuple[str, ...], tuple[tuple[str, str], ...]]
    tells: Mapping[tuple[str, ...], tuple[str, ...]]
    threads: Mapping[tuple[str, ...], tuple[str, ...]]
    longest: int
    starts: frozenset[str] = frozenset()  # first words of every phrase: most words are skipped at once


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


def name_index(snapshot: WorldSnapshot) -> NameIndex:
    """The snapshot's name matcher, built on first use and cached on the snapshot."""
    cached = snapshot.cache.get("names")
    if isinstance(cached, NameIndex):
        return cached
    names: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    longest = 1

    def add(phrase: str, eid: str, vis: str) -> None:
        nonlocal longest
        k = _key(phrase)
        if not k:
            return
        bucket = names.setdefault(k, [])
        if all(b[0] != eid for b in bucket):
            bucket.append((eid, vis))
        longest = max(longest, len(k))

    for e in snapshot.entities.values():
        for alias in e.names():
            vis = alias.visibility if alias.visibility != "public" else e.visibility
            add(alias.name, e.id, vis)
            words = alias.name.split()
            # "the Gilded Anchor" is also "Gilded Anchor"; "the merchant" is never just "merchant".
            if len(words) > 1 and words[0].lower() == "the" and any(w[:1].isupper() for w in words[1:]):
                add(" ".join(words[1:]), e.id, vis)
    tells: dict[tuple[str, ...], list[str]] = {}
    for f in snapshot.facts.values():
        for t in f.tells:
            k = _key(t)
            if k:
                tells.setdefault(k, []).append(f.key)
                longest = max(longest, len(k))
    threads: dict[tuple[str, ...], list[str]] = {}
    for th in snapshot.threads.values():
        for a in th.aliases:
            k = _key(a)
            if k:
                threads.setdefault(k, []).append(th.id)
                longest = max(longest, len(k))
    index = NameIndex(
        names={k: tuple(v) for k, v in names.items()},
        tells={k: tuple(v) for k, v in tells.items()},
        threads={k: tuple(v) for k, v in threads.items()},
        longest=longest,
        starts=frozenset(k[0] for table in (names, tells, threads) for k in table),
    )
    snapshot.cache["names"] = index
    return index


@dataclass
class Extraction:
    """Everything the extractor found in one narration."""

    tokens: list[Token]
    mentions: list[Mention]
    claims: list[Claim] = field(default_factory=list)
    tells: list[tuple[str, int, int]] = field(default_factory=list)  # fact key, char span
    thread_mentions: list[tuple[str, int, int]] = field(default_factory=list)
    new_entities: list[str] = field(default_factory=list)
    sentences: list[tuple[int, int]] = field(default_factory=list)  # char spans
    antecedent: dict[int, str] = field(default_factory=dict)  # sentence start token -> previous subject
    it_antecedent: dict[int, str] = field(default_factory=dict)  # sentence start -> previous lone monster
    present_tense: bool = False  # the narration is told in the present tense


_EPITHETS = frozenset({"dead", "late", "slain", "fallen", "murdered", "drowned", "poor", "old", "wounded"})


def find_mentions(
    tokens: list[Token], index: NameIndex, snapshot: WorldSnapshot
) -> tuple[list[Mention], list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """Longest-first lookup of names, fact tells and thread aliases at every token."""
    mentions: list[Mention] = []
    tells: list[tuple[str, int, int]] = []
    threads: list[tuple[str, int, int]] = []
    lows = [t.low for t in tokens]
    n = len(tokens)
    present = snapshot.scene.present
    best: list[int] = [0] * n  # length of the longest name starting at each token
    epithet: dict[int, tuple[str, ...]] = {}  # token -> the alias key once its epithet is dropped
    starts = index.starts
    for i in range(n):
        if lows[i] not in starts:
            continue
        for size in range(min(index.longest, n - i), 0, -1):
            key = tuple(lows[i : i + size])
            span = (tokens[i].start, tokens[i + size - 1].end)
            for fk in index.tells.get(key, ()):
                tells.append((fk, *span))
            for tid in index.threads.get(key, ()):
                threads.append((tid, *span))
            if not best[i] and key in index.names:
                best[i] = size
        # "the dead merchant", "the late abbot": an epithet inside a "the ..." alias still names it
        if not best[i] and lows[i] == "the" and i + 2 < n and lows[i + 1] in _EPITHETS:
            for size in range(min(index.longest, n - i - 1), 1, -1):
                key = ("the", *lows[i + 2 : i + size + 1])
                if key in index.names:
                    best[i] = size + 1
                    epithet[i] = key
                    break
    i = 0
    while i < n:
        size = best[i]
        if not size:
            i += 1
            continue
        # "the crypt map": "crypt map" (an item) beats "the crypt" (a place) when it reaches further
        if any(best[k] and k + best[k] > i + size for k in range(i + 1, i + size)):
            i += 1
            continue
        found = index.names[epithet.get(i) or tuple(lows[i : i + size])]
        ids = tuple(eid for eid, _ in found)
        if len(ids) > 1:  # "the guard": prefer whoever is in the scene
            here = tuple(eid for eid in ids if eid in present)
            ids = here if here else ids
        vis = next((v for eid, v in found if eid == ids[0]), "public")
        mentions.append(Mention(ids, i, i + size, tokens[i + size - 1].poss, tokens[i].quoted, vis))
        i += size
    return mentions, tells, threads


def _sentences(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """Token ranges of sentences; a sentence never ends inside quotation marks."""
    out: list[tuple[int, int]] = []
    start = 0
    closers = {q1 for _, q1 in _quote_ranges(tokens)}
    for k, t in enumerate(tokens):
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


class _Sentence:
    """One sentence's tokens and mentions, with helpers for the phrase rules."""

    def __init__(self, ex: Extraction, snap: WorldSnapshot, text: str, a: int, b: int) -> None:
        self.ex = ex
        self.snap = snap
        self.text = text
        self.a = a
        self.b = b
        self.tokens = ex.tokens
        self.mentions = [m for m in ex.mentions if a <= m.i < b]
        self.span = (ex.tokens[a].start, ex.tokens[b - 1].end)
        self.raw = text[self.span[0] : self.span[1]]
        narrative = [t.low for t in ex.tokens[a:b] if not t.quoted]
        self.narr = " ".join(narrative)
        self.clauses = self._clause_starts()

    def _clause_starts(self) -> list[int]:
        starts = [self.a]
        for k in range(self.a, self.b):
            t = self.tokens[k]
            if not t.quoted and (t.text in (";", "—", "–") or t.low in ("but", "instead", "meanwhile")):
                starts.append(k + 1)
        return starts

    def clause_of(self, k: int) -> tuple[int, int]:
        start = max(s for s in self.clauses if s <= k)
        later = [s for s in self.clauses if s > k]
        return start, (later[0] if later else self.b)

    def kind(self, m: Mention) -> str | None:
        eid = m.id
        if eid is None:
            return None
        e = self.snap.entities.get(eid)
        return e.kind if e else None

    def creatures(self, narrative_only: bool = True) -> list[Mention]:
        return [
            m
            for m in self.mentions
            if m.id and self.kind(m) in ("pc", "npc", "monster") and not (narrative_only and m.quoted)
        ]

    def modality(self, m: Mention, verb_at: int | None = None) -> Modality:
        c0, c1 = self.clause_of(m.i)
        before = [t.low for t in self.tokens[self.a : m.i] if not t.quoted]
        before_clause = [t.low for t in self.tokens[c0 : m.i] if not t.quoted]
        after = [t.low for t in self.tokens[m.j : min(c1, m.j + 4)] if not t.quoted]
        whole = self.narr
        hypo = bool(_HYPO & set(before_clause)) or bool(after and after[0] in _MODAL_AFTER)
        hypo = hypo or "going to" in " ".join(after) or bool(after and after[0].endswith("'ll"))
        memory = bool(_MEMORY & set(before)) or bool(after and after[0] in ("had", "once", "used"))
        # "the warehouse where Harlan Voss kept his wine": a past-tense relative clause looks back
        prev_word = self.tokens[m.i - 1].low if m.i > self.a else ""
        if (
            prev_word in ("where", "when", "whom", "that")
            and after
            and (after[0].endswith("ed") or after[0] in _IRREGULAR)
        ):
            memory = True
        memory = memory or any(
            p in whole
            for p in (
                "years ago",
                "long ago",
                "used to",
                "back when",
                "last winter",
                "last week",
                "last night",
                "last month",
                "last year",
                "yesterday",
            )
        )
        rumour = bool(_RUMOUR & set(before_clause)) or any(
            p in " ".join(before)
            for p in (
                "they say",
                "it is said",
                "word is",
                "people say",
                "some say",
                "say that",
                "says that",
                "said that",
                "whisper that",
                "whispers that",
                "heard that",
                "hear that",
                "swear that",
                "swears that",
                "insist that",
                "insists that",
                "talk of",
                "tell of",
                "tells of",
                "word from",
                "news from",
                "reports say",
            )
        )
        # "... says Prince Edric holds the pass": a speech verb right before a name, not after a quote or
        # a comma, reports someone else's words about that name
        if m.i - 2 >= self.a:
            prev, prev2 = self.tokens[m.i - 1], self.tokens[m.i - 2]
            if (
                not prev.quoted
                and VERBS.get(prev.low) in SPEECH
                and not prev2.quoted
                and prev2.text not in (",", '"', "”", "“")
            ):
                rumour = True
        neg_zone = after[: (verb_at - m.j + 1) if verb_at is not None else 3]
        negated = any(w in _NEGATION or w.endswith("n't") for w in neg_zone)
        negated = negated or " ".join(before_clause[-3:]).endswith(("no sign of", "without", "nor", "no"))
        return Modality(m.quoted, hypo, memory, rumour, negated)

    def claim(
        self, kind: ClaimKind, args: Iterable[str], m: Mention | None, modality: Modality, detail: str = ""
    ) -> None:
        self.ex.claims.append(Claim(kind, tuple(args), self.raw.strip(), self.span, modality, detail))

    def verb_after(self, m: Mention) -> tuple[int, str, str] | None:
        """(token index, surface form, lemma) of the verb whose subject is ``m``, if any."""
        k = m.j
        if m.poss:
            # "Voss's eyes narrow": possessive + body noun + verb acts for the owner
            if k < self.b and self.tokens[k].low in _BODY_NOUNS:
                k += 1
                while k < self.b and self.tokens[k].low in _BODY_NOUNS | {"and"}:
                    k += 1
            else:
                return None
        steps = 0
        while k < self.b and steps < 14:
            t = self.tokens[k]
            if t.quoted:
                return None
            if t.text == ",":
                # skip an appositive: "Voss, wiping a mug, greets you"
                close = next(
                    (q for q in range(k + 1, min(self.b, k + 10)) if self.tokens[q].text == ","), None
                )
                if close is None:
                    return None
                k = close + 1
                steps += 1
                continue
            if t.low in _ADVERBS or (t.low.endswith("ly") and t.low not in VERBS and len(t.low) > 4):
                k += 1
                steps += 1
                continue
            if t.low in _AUX:
                nxt = self.tokens[k + 1].low if k + 1 < self.b else ""
                if nxt in VERBS and nxt.endswith("ing"):
                    return k + 1, nxt, VERBS[nxt]
                return (
                    k,
                    t.low,
                    "be" if t.low in ("is", "was", "are", "were", "seems") else VERBS.get(t.low, "be"),
                )
            if t.low in VERBS:
                if t.low.endswith("ing"):
                    return None  # "Voss, smiling" is not a finite verb
                return k, t.low, VERBS[t.low]
            if t.low in ("and",) and steps == 0:
                return None
            guess = _unknown_verb(self, m, k)
            if guess is not None:
                return k, t.low, guess
            return None
        return None

    def verb_before(self, m: Mention) -> tuple[int, str, str] | None:
        """Inversion: "behind the bar stands Harlan Voss", '"Welcome," says Voss'."""
        k = m.i - 1
        if k < self.a:
            return None
        t = self.tokens[k]
        lemma = VERBS.get(t.low)
        if lemma is None or t.quoted or not (lemma in SPEECH or lemma in STATIC or lemma in MOTION):
            return None
        if t.low.endswith("ing"):
            return None
        # a verb with its own subject before it is not inverted: "her eyes never leave Greyrock"; nor is a
        # bare plural form, which cannot agree with one named creature ("stands Voss", never "stand Voss")
        before = self.tokens[k - 1].low if k - 1 >= self.a else ""
        if before in _NEGATION or before.endswith("n't") or before in _BODY_NOUNS:
            return None
        if t.low == lemma and not t.low.endswith("s") and lemma not in ("come", "run", "put", "set"):
            return None
        prev = [
            x
            for x in self.mentions
            if x.j <= k and self.kind(x) in ("pc", "npc", "monster") and not x.quoted and not x.poss
        ]
        if prev and self.clause_of(prev[-1].i)[0] == self.clause_of(k)[0]:
            return None
        return k, t.low, lemma


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


def _unknown_verb(s: _Sentence, m: Mention, k: int) -> str | None:
    """Verb-agnostic subject detection: a named subject opening its clause, then a word the verb lexicon
    does not know but shaped like a finite verb and followed by an object or particle ("Voss jerks his
    chin", "she tugged the rope"), acts for that subject. Returns a guessed lemma.

    Only a lower-case word ending in -s/-es/-ed counts, not a known name and not a function word. A verb
    followed by a bare preposition ("galumphs across") stays unknown: too many nouns read that way
    ("Ilse's prayers for ..."), and the LLM extractor covers it."""
    t = s.tokens[k]
    low = t.low
    if t.quoted or not t.text.islower() or len(low) < 4 or low in _NOT_VERBS or low.endswith(("ss", "us")):
        return None
    if any(x.i == k for x in s.mentions):
        return None
    lead = s.tokens[m.i - 1].low if m.i > s.a else ""
    if m.i > s.a and lead not in _SUBJECT_LEAD:
        return None
    nxt = s.tokens[k + 1].low if k + 1 < s.b else "."
    if nxt not in _OBJECT_LEAD and nxt not in (",", ".", "!", ";", "and"):
        return None
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "xes", "zes", "sses", "oes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("'s"):
        return low[:-1]
    if low.endswith("ed") and len(low) > 4:
        return low[:-2] if low[-3] == low[-4] or low[-3] not in "aeiou" else low[:-1]
    return None


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


def extract(text: str, snapshot: WorldSnapshot) -> Extraction:
    """Find every claim in ``text`` (known names only; unknown names go to ``new_entities``)."""
    index = name_index(snapshot)
    tokens = tokenize(text)
    mentions, tells, threads = find_mentions(tokens, index, snapshot)
    ex = Extraction(tokens=tokens, mentions=mentions, tells=tells, thread_mentions=threads)
    covered = {k for m in mentions for k in range(m.i, m.j)}
    quotes = _quote_ranges(tokens)
    attributed: set[tuple[str, int]] = set()
    sentences = _sentences(text, tokens)
    _pronouns(ex, snapshot, sentences)
    ex.present_tense = _present_tense(tokens, sentences)
    ex.sentences = [(tokens[a].start, tokens[b - 1].end) for a, b in sentences]
    for a, b in sentences:
        s = _Sentence(ex, snapshot, text, a, b)
        _speech(s, quotes, attributed)
        _subjects(s, attributed)
        _combat(s)
        _holdings(s)
        _relations(s)
        if not any(c.kind == "relation" and c.span == s.span for c in ex.claims):
            _relation_by_pronoun(s)
        _threads(s)
        _remains(s)
        _knows(s)
        _new_names(s, covered)
    return ex


_PAST_IRREGULAR = frozenset(
    w for w in _IRREGULAR if not w.endswith(("s", "ing", "en", "wn")) and w not in ("lay", "slain")
)


def _is_past(form: str, lemma: str) -> bool:
    return form != lemma and (form.endswith("ed") or form in _PAST_IRREGULAR)


def _present_tense(tokens: list[Token], sentences: list[tuple[int, int]]) -> bool:
    """True when the narration is told in the present tense: most sentences' first finite verb is a
    present form ("Sela turns", "Kestrel finds") rather than a past one ("Sela turned")."""
    now = past = 0
    for a, b in sentences:
        for q in range(a, b):
            t = tokens[q]
            if t.quoted or t.low.endswith("ing"):
                continue
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


_REMAINS = re.compile(
    r"\bnothing (?:is |was )?left of (it|him|her)\b(?! *(?:to|that|but (?:the|a|his|her|its) (?:wound|scar)))"
    r"|\b(it|he|she) (?:crumbles?|collapses?|burns?|falls?) (?:away )?(?:in)?to (?:ash|ashes|dust)\b"
)


def _remains(s: _Sentence) -> None:
    """ "there is nothing left of it but ash": the pronoun's creature is destroyed."""
    found = _REMAINS.search(s.narr)
    if found is None or _HYPO & set(s.narr.split()):
        return
    word = found.group(1) or found.group(2)
    if any(m.id and s.kind(m) in ("pc", "npc", "monster") and not m.quoted for m in s.mentions):
        return  # a creature named here is the likelier referent; the subject rules handle it
    eid = s.ex.it_antecedent.get(s.a) if word == "it" else s.ex.antecedent.get(s.a)
    if eid is None:
        return
    e = s.snap.entities.get(eid)
    if e is None or (word != "it" and e.pronoun not in (word, None, "they")):
        return
    s.ex.claims.append(Claim("dead", (eid,), s.raw.strip(), s.span, Modality(), found.group(0)))


def _pronouns(ex: Extraction, snap: WorldSnapshot, sentences: list[tuple[int, int]]) -> None:
    """A sentence opening with "He"/"She" (or "His eyes ...") continues the previous sentence's subject.

    Only unambiguous antecedents count: the named subject opening the previous sentence, or else its only
    named person; "it" is the previous sentence's only monster. Monsters are never "he" or "she".
    """
    added: list[Mention] = []
    prev_subject: str | None = None
    prev_monster: str | None = None
    prev_people: list[str] = []
    toks = ex.tokens

    def pick(word: str) -> str | None:
        """The previous sentence's subject if the pronoun fits it, else its only person it fits."""
        if word not in ("he", "she", "his", "her"):
            return None
        if prev_subject is not None and fits(prev_subject, word):
            return prev_subject
        fitting = [p for p in prev_people if fits(p, word)]
        known = all(snap.entities[p].pronoun is not None for p in fitting if p in snap.entities)
        return fitting[0] if len(fitting) == 1 and known else None

    def kind(eid: str | None) -> str:
        e = snap.entities.get(eid or "")
        return e.kind if e else ""

    def fits(eid: str | None, word: str) -> bool:
        """ "she" cannot be a man, "he" cannot be a woman, and neither is a monster."""
        e = snap.entities.get(eid or "")
        if e is None:
            return False
        want = "he" if word in ("he", "his", "him") else "she"
        if e.pronoun is not None:
            return e.pronoun in (want, "they")
        return e.kind != "monster"

    for a, b in sentences:
        if prev_subject is not None:
            ex.antecedent[a] = prev_subject
        if prev_monster is not None:
            ex.it_antecedent[a] = prev_monster
        here = [m for m in ex.mentions if a <= m.i < b and not m.quoted and m.id]
        creatures = [m for m in here if kind(m.id) in ("pc", "npc", "monster")]
        first_named = creatures[0].i if creatures else b
        # the pronoun opens the sentence, follows a quote ('"...," she says') or a lead-in ("Satisfied, she")
        k = next((q for q in range(a, b) if not toks[q].quoted), None)
        if k is not None and toks[k].text == "," and k > a:
            k += 1
        if k is not None and toks[k].low not in ("he", "she", "his", "her", "it"):
            comma = next((q for q in range(k, min(b, k + 5)) if toks[q].text == ","), None)
            if comma is not None and comma + 1 < b and toks[comma + 1].low in ("he", "she"):
                k = comma + 1
        continued = False
        if k is not None and k < first_named and k + 1 <= b:
            low = toks[k].low
            nxt = toks[k + 1].low if k + 1 < b else ""
            chosen = pick(low)
            if low in ("he", "she") and chosen is not None:
                added.append(Mention((chosen,), k, k + 1, False, False, "public"))
                continued = True
            elif low in ("his", "her") and nxt in _BODY_NOUNS and chosen is not None:
                added.append(Mention((chosen,), k, k + 1, True, False, "public"))
                continued = True
            if continued:
                prev_subject = chosen
            elif low == "it" and prev_monster is not None:
                added.append(Mention((prev_monster,), k, k + 1, False, False, "public"))
        # "It is Tobin, and he is limping": a pronoun opening a later clause of the same sentence is the one
        # person named before it whom it fits
        for q in range(max(a + 1, first_named + 1), b):
            if toks[q].quoted or toks[q].low not in ("he", "she") or any(m.i == q for m in ex.mentions):
                continue
            if toks[q - 1].low not in ("and", "but", ",", ";", "then", "while", "as", "when", "until"):
                continue
            named = {m.id for m in creatures if m.i < q and m.id is not None}
            fitting = [p for p in named if fits(p, toks[q].low)]
            if len(named) == 1 and len(fitting) == 1 and snap.entities[fitting[0]].pronoun is not None:
                added.append(Mention((fitting[0],), q, q + 1, False, False, "public"))
        monsters = {m.id for m in creatures if kind(m.id) == "monster"}
        prev_monster = next(iter(monsters)) if len(monsters) == 1 else None
        if not continued:
            opener = creatures[0] if creatures and creatures[0].i == a else None
            if (
                opener is not None
                and opener.poss
                and not (opener.j < b and toks[opener.j].low in _BODY_NOUNS)
            ):
                opener = None
            people = [p for p in dict.fromkeys(m.id for m in creatures) if p and kind(p) in ("pc", "npc")]
            first: list[str] = [opener.id] if opener is not None and opener.id else []
            prev_people = [*first, *(p for p in people if p not in first)]
            if opener is not None and kind(opener.id) != "monster":
                prev_subject = opener.id
            elif len(people) == 1:
                prev_subject = people[0]
            else:
                prev_subject = None
    if added:
        ex.mentions = sorted(ex.mentions + added, key=lambda m: m.i)


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


def _speech(s: _Sentence, quotes: list[tuple[int, int]], attributed: set[tuple[str, int]]) -> None:
    """Attribute quoted speech to a speaker: '"...," Mira says', 'Voss growls: "..."', '"..." says Wei'."""
    toks = s.tokens
    for q0, q1 in quotes:
        if not (s.a <= q1 < s.b or s.a <= q0 < s.b):
            continue
        words = " ".join(t.text for t in toks[q0 + 1 : q1])
        speaker: Mention | None = None
        verb = ""
        # after the closing mark
        after = [m for m in s.mentions if q1 < m.i <= q1 + 3 and not m.quoted]
        for m in after:
            between = [t.low for t in toks[q1 + 1 : m.i] if t.text not in ",."]
            v = s.verb_after(m)
            if not between and v and VERBS.get(v[1]) in SPEECH:
                speaker, verb = m, v[2]
            elif between and VERBS.get(between[-1]) in SPEECH:
                speaker, verb = m, VERBS[between[-1]]
            if speaker:
                break
        if speaker is None:
            # before the opening mark: Mira says, "..." / Voss growls: "..."
            before = [m for m in s.mentions if m.j <= q0 and q0 - m.j <= 5 and not m.quoted]
            if before:
                m = before[-1]
                v = s.verb_after(m)
                if v and v[2] in SPEECH and v[0] < q0:
                    speaker, verb = m, v[2]
                elif q0 - m.j <= 1 and toks[m.j].text == ":" if m.j < len(toks) else False:
                    speaker, verb = m, "say"
        if speaker is None or speaker.id is None:
            continue
        mod = s.modality(speaker)
        mod = Modality(False, mod.hypothetical, mod.memory, mod.rumour, mod.negated)
        attributed.add((speaker.id, speaker.i))
        s.claim("acts", (speaker.id,), speaker, mod, verb)
        if s.kind(speaker) == "pc":
            s.claim("pc_choice", (speaker.id,), speaker, mod, f"say:{words}")


_ARRIVE = frozenset({"arrive", "enter", "come", "emerge", "appear", "approach", "return"})


def _location_after(s: _Sentence, k: int) -> Mention | None:
    """A known location named after a preposition in the same clause after token ``k``."""
    _, c1 = s.clause_of(k)
    for m in s.mentions:
        if k < m.i < c1 and s.kind(m) == "location" and not m.quoted:
            prev = s.tokens[m.i - 1].low if m.i - 1 >= s.a else ""
            if prev in (
                "at",
                "in",
                "on",
                "inside",
                "by",
                "near",
                "beside",
                "outside",
                "behind",
                "of",
                "into",
                "onto",
                "across",
                "over",
                "under",
                "within",
                "the",
            ) or prev.endswith("side"):
                return m
    return None


# a name right after one of these is its object, never the subject of the verb that follows
_NAME_OBJECT_AFTER = frozenset(
    {"to", "of", "for", "from", "about", "against", "toward", "towards", "owes", "owed", "owe"}
)
# a sentence opening with one of these and a place sets the scene for its subject: "In the doorway of X, she"
_FRONTED_PLACE = frozenset({"in", "at", "inside", "outside", "on", "by", "near", "beside", "within", "from"})


def _is_object(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` follows a preposition or a verb of owing: "Tamsin's debt to Brann still hangs"."""
    return m.i - 1 >= s.a and s.tokens[m.i - 1].low in _NAME_OBJECT_AFTER


def _fronted_location(s: _Sentence, m: Mention) -> Mention | None:
    """The place of an opening phrase before the subject: "In the doorway of the Gilded Anchor, Voss ..."."""
    toks = s.tokens
    if toks[s.a].low not in _FRONTED_PLACE or not any(toks[q].text == "," for q in range(s.a, m.i)):
        return None
    return next(
        (x for x in s.mentions if s.a <= x.i < m.i and s.kind(x) == "location" and not x.quoted), None
    )


def _location_before(s: _Sentence, k: int) -> Mention | None:
    c0, _ = s.clause_of(k)
    for m in s.mentions:
        if c0 <= m.i < k and s.kind(m) == "location" and not m.quoted:
            return m
    return None


def _alive_after(s: _Sentence, m: Mention, c1: int) -> bool:
    """ "Harlan Voss, alive and smiling" / "Voss is alive": told alive, before anyone else is named."""
    starts = {x.i for x in s.mentions if x is not m}
    for k in range(m.j, min(c1, m.j + 6)):
        if k in starts or s.tokens[k].quoted:
            return False
        if s.tokens[k].low in ("alive", "living", "unharmed") and s.tokens[k - 1].low not in _NEGATION:
            return True
    return False


def _condition_after(s: _Sentence, m: Mention, c1: int) -> str | None:
    """ "Sir Hollis stands rigid, paralyzed by the spell": a condition word describing ``m``."""
    toks = s.tokens
    starts = {x.i for x in s.mentions if x is not m and s.kind(x) in ("pc", "npc", "monster")}
    for k in range(m.j, min(c1, m.j + 10)):
        if k in starts or toks[k].quoted:
            return None
        low = toks[k].low
        if low in _CONDITIONS and toks[k - 1].low in {
            ",",
            "still",
            "is",
            "lies",
            "remains",
            "stands",
            "sits",
            "now",
        }:
            return "paralyzed" if low == "paralysed" else low
    return None


def _dies_after(s: _Sentence, m: Mention, c1: int) -> bool:
    """True when the clause after ``m`` tells its death ("falls dead", "breathes its last") first."""
    toks = s.tokens
    starts = {x.i for x in s.mentions if x is not m}
    end = min(c1, m.j + 12)
    for k in range(m.j, end):
        if k in starts:
            return False
        if toks[k].quoted:
            continue
        if toks[k].low in (
            "he",
            "she",
            "they",
            "who",
            "whose",
            "whom",
            "which",
            "that",
            "by",
            "you",
            "i",
            "we",
        ):
            return False
        if toks[k].low in _DEATH_WORDS and (k + 1) not in starts:
            if k > m.j and toks[k - 1].low in (
                "the",
                "a",
                "an",
                "his",
                "her",
                "its",
                "their",
                "this",
                "that",
            ):
                continue  # attributive: "no relation to the dead merchant" is about someone else
            return True
    tail = " ".join(t.low for t in toks[m.j : end] if not t.quoted)
    return bool(_DEATH_PHRASES.search(tail))


def _subjects(s: _Sentence, attributed: set[tuple[str, int]]) -> None:
    """Creatures doing things: acts / present / at / dead / condition / pc_choice."""
    toks = s.tokens
    for m in s.creatures(narrative_only=False):
        eid = m.id
        assert eid is not None
        kind = s.kind(m)
        # "the late Harlan Voss", "the dead goblin"
        prev = toks[m.i - 1].low if m.i - 1 >= s.a else ""
        if prev in ("late", "dead", "slain", "fallen") and not m.quoted:
            s.claim("dead", (eid,), m, s.modality(m), prev)
            continue
        inner = toks[m.i + 1].low if m.i + 1 < m.j and toks[m.i].low == "the" else ""
        if inner in ("late", "dead", "slain", "fallen", "murdered", "drowned") and not m.quoted:
            s.claim("dead", (eid,), m, s.modality(m), inner)
            continue
        if m.poss and m.j < s.b and toks[m.j].low in _MOURN_NOUNS and not m.quoted:
            s.claim("dead", (eid,), m, s.modality(m), toks[m.j].low)
            continue
        if m.quoted:
            continue
        v = s.verb_after(m)
        inverted = False
        if v is None:
            v = s.verb_before(m)
            inverted = v is not None
        # death and down phrases in the clause after the mention
        _, c1 = s.clause_of(m.i)
        tail = " ".join(t.low for t in toks[m.j : min(c1, m.j + 8)] if not t.quoted)
        first = tail.split()[:4]
        if not m.poss and _dies_after(s, m, c1):
            s.claim("dead", (eid,), m, s.modality(m, v[0] if v else None), tail)
            continue
        if not m.poss and _alive_after(s, m, c1):
            s.claim("alive", (eid,), m, s.modality(m), "alive")
        cond = _condition_after(s, m, c1)
        if cond is not None:
            s.claim("condition", (eid, cond), m, s.modality(m), "described")
        if _DOWN_WORDS.search(" ".join(first + tail.split()[4:6])) and not m.poss:
            s.claim("condition", (eid, "unconscious"), m, s.modality(m), "down")
            continue
        if v is None:
            continue
        if not inverted and _is_object(s, m):
            continue  # "the debt she owes Brann hangs over her": the debt hangs, not Brann
        k, form, lemma = v
        mod = s.modality(m, k)
        if s.ex.present_tense and _is_past(form, lemma) and not inverted:
            # "Mother Hesk warned you before you came down" in a present-tense scene looks back
            mod = Modality(mod.in_dialogue, mod.hypothetical, True, mod.rumour, mod.negated)
        if lemma == "be":
            nxt = [t.low for t in toks[k + 1 : min(c1, k + 4)]]
            if nxt[:1] and nxt[0] in _NEGATION:
                continue
            cond = next((w for w in nxt[:2] if w in _CONDITIONS), None)
            if cond:
                s.claim("condition", (eid, cond), m, mod, form)
                continue
            if nxt[:1] == ["here"] or nxt[:2] == ["already", "here"]:
                s.claim("present", (eid,), m, mod, "here")
                s.claim("acts", (eid,), m, mod, "be")
                continue
            loc = _location_after(s, k)
            if loc and loc.id:
                s.claim("at", (eid, loc.id), m, mod, form)
            continue
        if (eid, m.i) in attributed:
            continue
        for k2, lemma2 in _chained_verbs(s, k, c1):
            _act(s, m, eid, kind, k2, lemma2, mod, c1, False)
        _act(s, m, eid, kind, k, lemma, mod, c1, inverted)


def _chained_verbs(s: _Sentence, k: int, c1: int) -> list[tuple[int, str]]:
    """Later verbs of the same subject: "stretches his arms, strolls over and helps himself"."""
    out: list[tuple[int, str]] = []
    toks = s.tokens
    first = toks[k].low
    third_person = first.endswith("s")
    for q in range(k + 1, min(c1, k + 16)):
        t = toks[q]
        if t.quoted:
            break
        if any(x.i == q for x in s.mentions) or t.low in ("he", "she", "it", "they", "who", "which", "that"):
            break
        if toks[q - 1].text in (",", "and") or toks[q - 1].low == "then":
            lemma = VERBS.get(t.low)
            if lemma and (t.low.endswith("s") == third_person) and not t.low.endswith("ing"):
                if t.low.endswith("ed") and third_person:
                    continue
                out.append((q, lemma))
    return out


# verbs of a state of mind or of affairs: they put no one anywhere
_STATE_VERBS = frozenset(
    {"owe", "know", "remember", "believe", "need", "want", "deserve", "hope", "fear", "trust", "mean", "own"}
)


def _act(
    s: _Sentence,
    m: Mention,
    eid: str,
    kind: str | None,
    k: int,
    lemma: str,
    mod: Modality,
    c1: int,
    inverted: bool,
) -> None:
    """Emit acts / present / at / pc_choice for ``m`` doing ``lemma`` at token ``k``."""
    toks = s.tokens
    nxt = toks[k + 1].low if k + 1 < s.b else ""
    if (lemma in SPEECH or lemma in CHOICE) and nxt in ("nothing", "not", "no", "never"):
        # "says nothing", "agrees to nothing": a silence is no words put in anyone's mouth
        mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, True)
    s.claim("acts", (eid,), m, mod, lemma)
    if lemma in _STATE_VERBS:
        return  # "she owes him nothing", "he knows the pass": no body in any place
    if lemma in MOTION:
        dest = _location_after(s, k)
        arriving = (
            lemma in _ARRIVE
            or nxt in ("in", "up")
            or (
                dest is not None
                and dest.id is not None
                and s.snap.scene.location is not None
                and s.snap.within(dest.id, s.snap.scene.location)
            )
        )
        if arriving and kind in ("npc", "monster"):
            s.claim("present", (eid,), m, mod, lemma)  # walking in does not put them here
        else:
            s.claim("at", (eid, "*moving*"), m, mod, lemma)
    elif kind in ("npc", "monster"):
        loc = (
            _location_after(s, k)
            or (_location_before(s, m.i) if inverted else None)
            or _fronted_location(s, m)
        )
        if loc and loc.id and (lemma in STATIC or lemma in SPEECH or lemma in IDLE or inverted):
            s.claim("at", (eid, loc.id), m, mod, lemma)
        else:
            s.claim("present", (eid,), m, mod, lemma)
    if kind == "pc":
        words = " ".join(t.text for t in toks[k : min(c1, k + 12)] if not t.quoted)
        if lemma in CHOICE or lemma in SPEECH:
            s.claim("pc_choice", (eid,), m, mod, f"{lemma}:{words}")
        elif lemma not in IDLE:
            s.claim("pc_choice", (eid,), m, mod, f"do:{lemma}:{words}")


_DEFEND = frozenset(
    {
        "dodge",
        "sidestep",
        "duck",
        "parry",
        "deflect",
        "twist",
        "block",
        "roll",
        "leap",
        "jump",
        "sway",
        "weave",
        "evade",
    }
)
_DEFEND = _DEFEND | {"ignore", "resist", "withstand"}


_WEAPONS = frozenset(
    [
        "cut",
        "thrust",
        "stroke",
        "lunge",
        "attack",
        "riposte",
        "counter",
        "insult",
        "taunt",
        "mockery",
        "curse",
        "prayer",
        "words",
        "arrow",
        "arrows",
        "bolt",
        "bolts",
        "blade",
        "blades",
        "axe",
        "sword",
        "spear",
        "dagger",
        "knife",
        "cudgel",
        "club",
        "claws",
        "claw",
        "fist",
        "fists",
        "swing",
        "strike",
        "blow",
        "blows",
        "spell",
        "flame",
        "flames",
        "fire",
        "hammer",
        "greataxe",
        "mace",
        "teeth",
        "jaws",
        "bite",
        "shot",
        "throw",
        "lance",
        "staff",
        "whip",
        "rapier",
        "scimitar",
        "javelin",
        "javelins",
        "knuckles",
        "talons",
        "tail",
        "boot",
        "shield",
        "sling",
        "stone",
        "ray",
        "bolt",
        "magic",
        "hand",
        "hands",
    ]
)


def _weapon_at(s: _Sentence, m: Mention) -> int | None:
    """The token naming the means of an attack after a possessive ("Mira's arrow", "Durgan's greataxe"),
    or None; "Gault's sword arm" is a body part, not a weapon."""
    for k in range(m.j, min(s.b, m.j + 3)):
        low = s.tokens[k].low
        item = next((x for x in s.mentions if x.i == k and s.kind(x) == "item"), None)
        if low in _WEAPONS or item is not None:
            end = item.j if item is not None else k + 1
            if end < s.b and s.tokens[end].low in _BODY_NOUNS | {"arm", "hand"}:
                return None
            return end - 1
    return None


def _weapon_follows(s: _Sentence, m: Mention) -> bool:
    """True when a possessive names the means of an attack: "Mira's arrow", "Durgan's greataxe"."""
    return _weapon_at(s, m) is not None


_POSSESSIVE_OF = {"his": "he", "her": "she", "its": "it", "their": "they"}


def _pronoun_fits(snap: WorldSnapshot, eid: str, word: str) -> bool:
    """Whether "his"/"her"/"its"/"their" can point back at ``eid`` (by its recorded pronoun or its kind)."""
    e = snap.entities.get(eid)
    want = _POSSESSIVE_OF.get(word)
    if e is None or want is None:
        return False
    if e.pronoun is not None:
        return e.pronoun == want or e.pronoun == "they"
    return (want == "it") if e.kind == "monster" else want in ("he", "she", "they")


def _polarity(words: list[str]) -> tuple[bool, bool]:
    text = " ".join(words)
    hit = any(w in _HIT for w in words) or bool(_HIT_PHRASES.search(text))
    miss = any(w in _MISS for w in words) or bool(_MISS_PHRASES.search(text))
    return hit, miss


_HIT_PHRASES = re.compile(
    r"\b(?:down (?:on|upon|across)|crashes into|finds (?:its|his|her) mark|bites deep|sinks deep|"
    r"draws blood|connects with)\b"
)


def _is_attack(a: ActionResult) -> bool:
    """An action whose result a narration can tell as a hit or a miss."""
    return a.target is not None and a.outcome != "refused"


def _defends(s: _Sentence, v: tuple[int, str, str] | None) -> bool:
    """The verb tells a defence: "dodges", "parries", "laughs off", "shrugs off"."""
    if v is None:
        return False
    if v[2] in _DEFEND:
        return True
    nxt = s.tokens[v[0] + 1].low if v[0] + 1 < s.b else ""
    # "laughs off Anwen's mockery" defends; "shrugs off the wound and hammers ..." does not
    owner = next((x for x in s.mentions if x.i == v[0] + 2 and x.poss), None)
    return v[2] in ("laugh", "shrug", "shake", "brush", "wave") and nxt == "off" and owner is not None


def _actor_like(s: _Sentence, x: Mention) -> bool:
    """A creature mention that starts its own attack: "the northman's longsword", "Gault swings"."""
    if x.poss:
        return _weapon_follows(s, x)
    v = s.verb_after(x)
    return v is not None and not _defends(s, v)


def _kills(s: _Sentence, start: int, stop: int) -> bool:
    """A kill verb whose object is a creature ("finishes the ghoul", "slays it", "fells him"), not a thing
    ("finishes his casting")."""
    toks = s.tokens
    for k in range(start, stop):
        w = toks[k].low
        if toks[k].quoted or not (w in _KILL_VERBS or VERBS.get(w) in _KILL_VERBS):
            continue
        nxt = toks[k + 1].low if k + 1 < s.b else ""
        if nxt in ("him", "her", "it", "them", "off", "outright") or k + 1 >= stop:
            return True
        if any(k < x.i <= k + 3 and s.kind(x) in ("pc", "npc", "monster") and not x.poss for x in s.mentions):
            return True
        if w.endswith("ed") or w in ("slain", "fell"):
            return True  # passive or past: "killed by", "fell dead"
    return False


# what a falling body "hits" or "strikes": never a creature
_SURFACES = frozenset(
    {"floor", "ground", "flagstones", "flagstone", "flags", "cobbles", "deck", "dirt", "earth", "mud", "sand"}
)


def _combat(s: _Sentence) -> None:
    """hit / missed / damaged / dead from attack phrasing, guided by who acted this round."""
    rnd = s.snap.round
    toks = s.tokens
    creatures = s.creatures()
    if not creatures:
        return
    for m in creatures:
        eid = m.id
        assert eid is not None
        attacks = [a for a in rnd.actions_by(eid) if _is_attack(a)]
        if not attacks:
            continue
        v = s.verb_after(m) if not m.poss else None
        if m.poss and not _weapon_follows(s, m):
            continue  # "the ghoul's head" is where a blow lands, not who strikes
        if m.poss and any(
            x.i < m.i and (vx := s.verb_after(x)) is not None and _defends(s, vx) and vx[0] < m.i
            for x in creatures
            if s.clause_of(x.i) == s.clause_of(m.i)
        ):
            continue  # "the hyena ignores Anwen's taunt": told from the defender's side below
        if _defends(s, v):
            continue  # "the thug twists aside": the thug defends here, it does not attack
        if not m.poss and v is None:
            continue
        c0, c1 = s.clause_of(m.i)
        # the blow this attacker lands: stop where another attacker's words begin
        stop = next((x.i for x in creatures if x.i > m.i and x.i < c1 and _actor_like(s, x)), c1)
        # "... and her answering dagger whirls past": another attacker's weapon starts here
        stop = next(
            (
                k
                for k in range(m.j + 1, stop)
                if toks[k].low in _PRONOUN_POSS
                and not _pronoun_fits(s.snap, eid, toks[k].low)
                and any(t.low in _WEAPONS for t in toks[k + 1 : min(stop, k + 3)])
            ),
            stop,
        )
        # after "Jarl's cut", the weapon word itself says nothing about the outcome
        start = (_weapon_at(s, m) or m.j - 1) + 1 if m.poss else m.j
        words = [t.low for t in toks[start:stop] if not t.quoted]
        hit, miss = _polarity(words)
        nxt_end = c1
        if c1 < s.b and toks[c1 - 1].low == "but":
            # "Jarl cuts low, but Gault parries": the clause after "but" tells the outcome
            nxt_end = s.clause_of(c1)[1]
            later = [t.low for t in toks[c1:nxt_end] if not t.quoted]
            l_hit, l_miss = _polarity(later)
            defended = any(VERBS.get(w) in _DEFEND for w in later)
            if l_miss or defended:
                hit, miss = False, True
            elif not hit and not miss and l_hit:
                hit = True
        if hit == miss:
            continue
        others = [x for x in creatures if x.id != eid and c0 <= x.i < nxt_end]
        after = [x for x in others if x.i > m.i]
        # a creature named before the attacker is its target only if it is one of the attacker's targets
        aimed = {a.target for a in attacks}
        pool = after or [x for x in others if x.id in aimed]
        target: Mention | None = pool[0] if pool else None
        if target is None and _SURFACES & set(words):
            continue  # "dead before she hits the flagstones": a body meeting the floor is no attack
        tid = (target.id if target is not None else None) or attacks[0].target or ""
        mod = s.modality(m)
        if mod.hypothetical or mod.memory or mod.rumour:
            continue
        s.claim("hit" if hit else "missed", (eid, tid), m, mod, "")
        if hit and tid and _kills(s, start, stop):
            s.claim("dead", (tid,), target, mod, "killed")
    # "the goblin dodges Mira's arrow": a defender, then the attacker's weapon
    for d in creatures:
        v = s.verb_after(d) if not d.poss else None
        if v is None or not _defends(s, v) or d.id is None:
            continue
        c0, c1 = s.clause_of(d.i)
        a = next((x for x in creatures if v[0] < x.i < c1 and x.poss and _weapon_follows(s, x)), None)
        if a is not None and a.id and any(_is_attack(x) for x in rnd.actions_by(a.id)):
            s.claim("missed", (a.id, d.id), a, s.modality(d), "dodged")
    # damage without a named attacker: "Greyrock staggers, blood running down his arm"
    for m in creatures:
        eid = m.id
        assert eid is not None
        if not rnd.actions_on(eid) or m.poss:
            continue
        c0, c1 = s.clause_of(m.i)
        words = [t.low for t in toks[m.j : min(c1, m.j + 6)] if not t.quoted]
        if any(w in _DAMAGE for w in words[:4]):
            s.claim("damaged", (eid,), m, s.modality(m), " ".join(words))


_TRAILING_PREPS = frozenset(
    {
        "at",
        "on",
        "in",
        "from",
        "under",
        "against",
        "across",
        "over",
        "into",
        "between",
        "upon",
        "inside",
        "within",
        "beneath",
        "behind",
        "beside",
    }
)


_CARRIED_IN = frozenset(
    [
        "hip",
        "belt",
        "hand",
        "hands",
        "fingers",
        "knuckles",
        "palm",
        "sleeve",
        "pocket",
        "pack",
        "satchel",
        "pouch",
        "lap",
        "knees",
        "knee",
        "quiver",
        "boot",
        "sash",
        "scabbard",
        "bandolier",
        "coat",
        "cloak",
        "bag",
        "purse",
        "side",
        "back",
        "shoulder",
        "arms",
        "grip",
        "fist",
    ]
)


_BUNDLES = frozenset(
    [
        "bundle",
        "stack",
        "quiver",
        "pouch",
        "sack",
        "bag",
        "case",
        "brace",
        "handful",
        "pair",
        "set",
        "crate",
        "bundle",
        "box",
        "satchel",
    ]
)


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
                return num, True
    for n in range(len(words) - 2):
        w = words[n]
        num = int(w) if w.isdigit() else _NUMBERS.get(w) if w not in ("a", "an") else None
        if num is None:
            continue
        if words[n + 1 : n + 3] in (["of", "them"], ["in", "all"]) or (
            n > 0 and words[n - 1] in (":", ",", "—") and words[n + 1 : n + 2] in (["left"], ["remaining"])
        ):
            return num, True
    return None, False


_ITEM_HERE = frozenset(
    {"sit", "rest", "lie", "hang", "stand", "wait", "gleam", "glint", "glitter", "shine", "lean"}
)


def _item_is_here(s: _Sentence, it: Mention) -> bool:
    """An item opening its clause, then a present-tense verb of lying about ("sits", "gleams", "is on")."""
    c0, _ = s.clause_of(it.i)
    first = it.i == c0 or (it.i - 1 >= s.a and s.tokens[it.i - 1].low in _SUBJECT_LEAD)
    if not first or it.j >= s.b or it.poss:
        return False
    form = s.tokens[it.j].low
    lemma = VERBS.get(form) or (form[:-1] if form.endswith("s") else "")
    return lemma in _ITEM_HERE and form.endswith("s") and not _is_past(form, lemma)


def _holdings(s: _Sentence) -> None:
    """holds(holder, item, qty?) from possessives, pronouns and handling verbs; hand-overs as details."""
    toks = s.tokens
    items = [m for m in s.mentions if s.kind(m) == "item" and not m.quoted]
    if not items:
        return
    creatures = s.creatures()
    for it in items:
        iid = it.id
        assert iid is not None
        holder: Mention | None = None
        qlo = it.i
        # Mira's silver dagger / Greyrock's last three arrows
        k = it.i - 1
        while k >= s.a and (
            toks[k].low in _NUMBERS
            or toks[k].low.isdigit()
            or toks[k].low
            in ("last", "remaining", "only", "final", "trusty", "old", "own", "spare", "prized", "precious")
        ):
            k -= 1
        if k - 1 >= s.a and toks[k].low == "of" and toks[k - 1].low in _BUNDLES:
            k -= 2  # "Lorcan's bundle of torches"
        poss = next((c for c in creatures if c.j - 1 == k and c.poss), None)
        pronoun = k >= s.a and toks[k].low in _PRONOUN_POSS
        verb_lemma = ""
        subject = None
        before = [c for c in creatures if c.j <= it.i and not c.poss]
        if (
            not before
            and creatures
            and creatures[0].i < it.i
            and creatures[0].j < s.b
            and toks[creatures[0].j].low in _BODY_NOUNS
        ):
            before = [creatures[0]]  # "Kestrel's fingers brush the bone flute"
        if before:
            subject = before[-1]
            between = [t.low for t in toks[subject.j : it.i]]
            verb_lemma = next(
                (VERBS.get(w) or "hold" for w in reversed(between) if w in VERBS or w in ("has", "have")), ""
            )
        elif pronoun and creatures:
            subject = creatures[0]
        elif pronoun and s.ex.antecedent.get(s.a):
            # "His last two water skins ..." continues the previous sentence's subject
            ante = s.ex.antecedent[s.a]
            subject = Mention((ante,), it.i, it.i, False, False, "public")
        trailing = [t.low for t in toks[it.j : min(s.b, it.j + 5)]]
        if (
            not pronoun
            and subject is not None
            and any(
                trailing[j] in _TRAILING_PREPS
                and trailing[j + 1] in _PRONOUN_POSS
                and trailing[j + 2] in _CARRIED_IN
                for j in range(max(0, len(trailing) - 2))
            )
        ):
            pronoun = True  # "the dagger at his hip", "turns it over in his hands": carried, not in a wound
        # "the crown rests on the duke's brow", "the dagger at Mira's hip": worn or carried by that owner
        worn = next(
            (
                x
                for x in creatures
                if x.poss
                and it.j < x.i <= it.j + 4
                and toks[x.i - 1].low in _TRAILING_PREPS
                and x.j < s.b
                and toks[x.j].low in _CARRIED_IN | _BODY_NOUNS | {"brow", "neck", "finger", "head", "belt"}
            ),
            None,
        )
        if poss is not None:
            holder, qlo = poss, poss.j
        elif worn is not None and not (subject is not None and verb_lemma in _GIVE_VERBS):
            holder, qlo = worn, it.i
        elif subject is not None and subject.i == subject.j == it.i:
            holder, qlo = subject, k + 1
        elif subject is not None and (pronoun or verb_lemma in _HOLD_VERBS | _GIVE_VERBS | _ACQUIRE_VERBS):
            holder, qlo = subject, subject.j
        if holder is None and subject is None and not pronoun and _item_is_here(s, it):
            # "The poisoned chalice sits on a velvet cushion": the item is told to exist somewhere now
            s.claim("holds", ("*somewhere*", iid), it, s.modality(it), "exists")
            continue
        if holder is None or holder.id is None:
            continue
        qty, exact = _number(toks, qlo, it.i)
        if qty is None:
            qty, exact = _count_after(s, it.j)
        if qty is None and exact and not toks[it.j - 1].low.endswith("s"):
            qty = 1
        if (qty is not None and poss is not None) or pronoun:
            exact = exact or qty is not None
        mod = s.modality(holder)
        if "sold" in s.narr or "pawned" in s.narr or "lost" in s.narr.split():
            mod = Modality(mod.in_dialogue, mod.hypothetical, True, mod.rumour, mod.negated)
        detail = ""
        if verb_lemma in _GIVE_VERBS and holder is subject:
            to = next((c for c in creatures if c.i > it.j and c.id != holder.id), None)
            if to is not None and to.id:
                detail = f"give:{to.id}"
        elif verb_lemma in _ACQUIRE_VERBS and holder is subject and poss is None:
            detail = "acquire"
        if qty is not None:
            detail = (detail + ";" if detail else "") + (f"qty={qty}" if exact else f"qty>={qty}")
        s.claim("holds", (holder.id, iid), holder, mod, detail)


def _relations(s: _Sentence) -> None:
    """Kinship ("Wei's brother") and attitude ("greets his old friend") between two named creatures."""
    creatures = [c for c in s.creatures() if c.id]
    if len({c.id for c in creatures}) < 2:
        return
    toks = s.tokens
    for found in _NOT_KIN.finditer(s.raw.lower()):
        at = s.span[0] + found.start()
        k = next((i for i in range(s.a, s.b) if toks[i].start >= at), s.b - 1)
        end = s.span[0] + found.end()
        before = [x for x in creatures if x.j <= k and not x.poss]
        after = [x for x in creatures if toks[x.i].start >= end]
        if len({x.id for x in before}) >= 2 and toks[before[-1].i - 1].low == "and" and before[-1].j >= k - 1:
            # "He and Hadda are not kin": both parties right before the denial
            after, before = [before[-1]], before[:-1]
        if toks[k].quoted or not before or not after or before[-1].id == after[0].id:
            continue
        a, b = before[-1], after[0]
        mod = s.modality(a)
        # the denial is the claim itself, not a negation of it
        mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
        s.claim("relation", (a.id, b.id, "notkin"), a, mod, found.group(0))  # type: ignore[arg-type]
        return

    def apposed(k: int) -> Mention | None:
        """The named creature standing in apposition to the kin noun at ``k``: "Wei's brother(,) Voss",
        "Voss, Wei's brother"."""
        nxt = k + 1 + (1 if k + 1 < s.b and toks[k + 1].text == "," else 0)
        after = next((x for x in creatures if x.i == nxt), None)
        if after is not None:
            return after
        return None

    for c in creatures:
        if c.poss and c.j < s.b and toks[c.j].low in _KIN:
            other = apposed(c.j)
            denied = c.i > s.a and toks[c.i - 1].low in ("not", "no", "never")
            if other is None:
                # "Voss, Wei's brother": the name right before the possessive, set off by a comma
                other = next((x for x in creatures if x.j == c.i - 1 and toks[c.i - 1].text == ","), None)
            if other is None and denied:
                # "Sela is not Voss's sister": the subject before the denial
                other = next((x for x in reversed(creatures) if x.j < c.i - 1 and not x.poss), None)
            if other is not None and other.id and c.id and other.id != c.id:
                mod = s.modality(c)
                if denied:
                    mod = Modality(mod.in_dialogue, mod.hypothetical, mod.memory, mod.rumour, False)
                s.claim("relation", (c.id, other.id, "notkin" if denied else "kin"), c, mod, toks[c.j].low)
                return
    for k in range(s.a, s.b):
        t = toks[k]
        if not t.quoted and t.low in _KIN and k > s.a and toks[k - 1].low in _PRONOUN_POSS:
            before = [x for x in creatures if x.j <= k]
            other = apposed(k)
            if before and other is not None and before[-1].id and other.id and other.id != before[-1].id:
                s.claim(
                    "relation", (before[-1].id, other.id, "kin"), before[-1], s.modality(before[-1]), t.low
                )
                return
    for kind, pattern in (("positive", _POSITIVE), ("negative", _NEGATIVE)):
        for found in pattern.finditer(s.raw.lower()):
            at = s.span[0] + found.start()
            k = next((i for i in range(s.a, s.b) if toks[i].start >= at), s.b - 1)
            if toks[k].quoted:
                continue
            before = [x for x in creatures if x.j <= k]
            if not before:
                break
            a = before[-1]
            rest = [x for x in creatures if x.id != a.id]
            after = [x for x in rest if x.i > k]
            other = after[0] if after else (min(rest, key=lambda x: abs(x.i - k)) if rest else None)
            if other is None or a.id is None or other.id is None:
                break
            s.claim("relation", (a.id, other.id, kind), a, s.modality(a), found.group(0))
            return


def _relation_by_pronoun(s: _Sentence) -> None:
    """ "the guide is his bitter enemy" after a sentence about Venn: the pronoun is the earlier subject."""
    creatures = [c for c in s.creatures() if c.id]
    antecedent = s.ex.antecedent.get(s.a)
    ids = {c.id for c in creatures}
    if len(ids) != 1 or antecedent is None or antecedent in ids:
        return
    toks = s.tokens
    c = creatures[0]
    for k in range(s.a + 1, s.b):
        t = toks[k]
        after_pronoun = toks[k - 1].low in _PRONOUN_POSS or (k >= 2 and toks[k - 2].low in _PRONOUN_POSS)
        # "he is the queen's sworn enemy": a subject pronoun, then the other party's possessive
        after_named = (
            c.poss
            and c.j in (k, k - 1)
            and any(toks[q].low in ("he", "she") for q in range(max(s.a, c.i - 4), c.i))
        )
        if t.quoted or not (after_pronoun or after_named):
            continue
        words = " ".join(x.low for x in toks[k : min(s.b, k + 2)])
        kind = (
            "kin"
            if t.low in _KIN
            else "positive"
            if _POSITIVE.match(words)
            else ("negative" if _NEGATIVE.match(words) else None)
        )
        if kind is None:
            continue
        s.claim("relation", (c.id, antecedent, kind), c, s.modality(c), t.low)  # type: ignore[arg-type]
        return


def _threads(s: _Sentence) -> None:
    """thread_status(t, status) from "the favour you still owe Wei", "your debt is paid"."""
    words = s.narr.split()
    kinds = {_THREAD_WORDS[w] for w in words if w in _THREAD_WORDS}
    aliased = [tid for tid, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]]
    snap = s.snap
    named = {m.id for m in s.mentions if m.id and not m.quoted}
    if not kinds and not aliased:
        # "Kestrel still owes Mother Hesk": owing between two named parties is their debt or favour
        owing = next((w for w in words if w in ("owe", "owes", "owed", "repaid", "repays", "repay")), None)
        if owing is None or len(named) < 2:
            return
        tied = [
            t.id
            for t in snap.threads.values()
            if t.kind in ("debt", "favour") and len(named & set(t.parties)) >= 2
        ]
        if len(tied) != 1:
            return
        # the thread's terms may say who owes whom ("Greyrock owes one favour"): the debtor must lead
        debtor = next((m.id for m in s.mentions if m.id in named and m.id), None)
        terms = snap.threads[tied[0]].terms.lower()
        at = terms.find(" owe")
        if debtor is not None and at >= 0:
            # the party named last before "owe" in the terms is the debtor
            def last_before(eid: str) -> int:
                e = snap.entities.get(eid)
                names = [n.name.lower().removeprefix("the ") for n in e.names()] if e else []
                return max((terms.rfind(n, 0, at) for n in names), default=-1)

            parties = snap.threads[tied[0]].parties
            if max(parties, key=last_before) != debtor:
                return
        aliased = tied
        words = [("debt" if w == owing else w) for w in words]
    candidates = list(dict.fromkeys(aliased)) or [t.id for t in snap.threads.values() if t.kind in kinds]
    if len(candidates) > 1:
        narrowed = [t for t in candidates if named & set(snap.threads[t].parties)]
        candidates = narrowed
    if len(candidates) != 1:
        return
    first = next((i for i, w in enumerate(words) if w in _THREAD_WORDS), len(words))
    lead = words[:first]
    if any(w in _HYPO or w in ("remember", "remembers", "recall", "recalls") for w in lead) or "if" in words:
        return
    status = None
    for st, pat in _STATUS_PATTERNS:
        if pat.search(s.narr):
            status = st
            break
    if status is None:
        return
    s.ex.claims.append(
        Claim("thread_status", (candidates[0], status), s.raw.strip(), s.span, Modality(), s.narr)
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


_KNOW_VERBS = frozenset(
    {
        "know",
        "knows",
        "knew",
        "realise",
        "realises",
        "realize",
        "realizes",
        "suspect",
        "suspects",
        "learned",
        "learnt",
        "learns",
        "remembers",
        "heard",
        "hears",
        "saw",
    }
)


def _knows(s: _Sentence) -> None:
    """knows(npc, fact): "Wei knows about the tunnel" names a fact (by one of its tells) an NPC knows."""
    tells = [(key, a) for key, a, _ in s.ex.tells if s.span[0] <= a < s.span[1]]
    if not tells:
        return
    for m in s.creatures():
        v = s.verb_after(m)
        if m.id is None or v is None or s.tokens[v[0]].low not in _KNOW_VERBS:
            continue
        for key, a in tells:
            if a > s.tokens[v[0]].start:
                s.claim("knows", (m.id, key), m, s.modality(m, v[0]), s.tokens[v[0]].low)
        return


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
            if nxt not in VERBS or t.low in VERBS:
                continue
        name = " ".join(run)
        if name not in s.ex.new_entities:
            s.ex.new_entities.append(name)
