"""Which verb governs a thing named after a creature, and whether it takes the thing in hand.

The verb tables of handling (at a distance, writing in, touching, in hand, steered, operated, leafed
through), the verb of giving before a thing, a new clause with a thing of its own as subject, a place
phrase that makes the thing a landmark, and an infinitive of intent: all read by :mod:`.holdings`.
"""

from __future__ import annotations

from ledger.check.extract.handovers import _GIVE_VERBS
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _PRONOUN_POSS,
    VERBS,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.owners import (
    _TRAILING_PREPS,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite, verb_class
from ledger.check.extract.verbs import lemma as lexicon_lemma

_LOCATIVE = frozenset(
    {
        "beside",
        "near",
        "by",
        "under",
        "over",
        "across",
        "against",
        "behind",
        "toward",
        "towards",
        "at",
        "on",
        "onto",
        "upon",
        "past",
        "around",
        "between",
        "beneath",
        "above",
        "below",
        "along",
        "into",
        "in",
        "inside",
        "from",
        "through",
        "among",
        "beyond",
        "alongside",
    }
)


# verb classes that do something to a thing without having it in hand (or are read elsewhere)
_NOT_HANDLING = frozenset({"speech", "commitment", "perception", "state", "posture", "motion"})
# verbs of wanting, missing, judging, naming or trading a thing: about it, at a distance, not in hand
_AT_A_DISTANCE = frozenset(
    {"miss", "covet", "seek", "mourn", "desire", "praise", "mention", "describe", "recognise", "recognize"}
    | {"find", "search", "guard", "ignore", "lose", "sell", "buy", "pawn", "forget", "discuss", "consider"}
    | {"name", "blame", "bless", "admire", "envy", "regard", "recall", "picture", "imagine", "demand"}
    | {"refuse", "decline", "appraise", "value", "price", "eye", "point", "indicate", "trade", "steal", "owe"}
    | {"request"}
)


# verbs of going that take the craft or the beast they go in or on as object: "rows the skiff across",
# "rides the grey mare", "sails the lugger out": whoever does it has that thing in hand
_STEERED = frozenset(
    {"row", "sail", "ride", "drive", "steer", "pilot", "pole", "paddle", "scull", "punt", "helm", "launch"}
    | {"board"}
)


def _giving_verb(s: _Sentence, lo: int, hi: int) -> str | None:
    """The verb of giving that governs the thing at token ``hi``: the nearest verb before it (from ``lo``),
    if that verb gives ("lends Tam his dagger"); a noun ("Cordelia's hands") or another verb in between
    ("slides it into the lock of the reliquary") governs nothing here."""
    toks = s.tokens
    for q in range(hi - 1, lo - 1, -1):
        w = toks[q].low
        if w in _BODY_NOUNS or toks[q - 1].poss or toks[q - 1].low in _PRONOUN_POSS:
            continue
        if toks[q - 1].low in _NOUN_MARKERS:
            return None  # "waves away your offer of a draught", "into the lock of": a noun governs it
        if w in VERBS or (toks[q].text.islower() and lexicon_lemma(w) is not None and w.endswith("s")):
            base = _lemma_of(w)
            return base if base in _GIVE_VERBS else None
    return None


_CLAUSE_BREAKS = frozenset({",", ";", "and", "but", "while", "as", "when", "until", "—", "–"})


def _thing_subject(s: _Sentence, lo: int, hi: int) -> bool:
    """True when a new clause between tokens ``lo`` and ``hi`` opens with a noun phrase of its own ("..., and
    the light catches", "; the wind tugs at"): the verb before the item then has that thing as its subject,
    not the creature named before the clause break."""
    toks = s.tokens
    for q in range(lo, hi - 2):
        if toks[q].low not in _CLAUSE_BREAKS or toks[q].quoted:
            continue
        r = q + 1
        if toks[r].low not in ("the", "a", "an"):
            continue
        if not (toks[r + 1].text.isalpha() and toks[r + 1].text.islower()):
            continue
        r += 2  # the noun phrase's first word, whatever else it may be ("the light", "the cold wind")
        while r < hi and toks[r].text.isalpha() and toks[r].text.islower() and VERBS.get(toks[r].low) is None:
            r += 1
        if r >= hi or VERBS.get(toks[r].low) is None:
            continue
        if not any(q < c.i < r for c in s.creatures()):
            return True
    return False


# verbs of writing in a thing, which may lie on a desk while it is done: "signs the log", "initials the
# manifest"; whoever writes in it need not hold it
_WRITE_IN = frozenset(
    {"sign", "countersign", "initial", "endorse", "annotate", "inscribe", "stamp", "witness", "notarise"}
    | {"notarize", "autograph", "amend", "update"}
)
# verbs of touching, striking or tending a thing without taking it in hand
_CONTACT = frozenset(
    {"touch", "tap", "brush", "stroke", "pat", "nudge", "kick", "knock", "bump", "poke", "prod", "kiss"}
    | {"caress", "graze", "bless", "follow", "guard", "admire", "lick", "sniff", "step", "tread", "trip"}
)
# verbs of doing (outside the hand table) that need the thing in one's hands: a thing another owns, told
# done to this way, is in the doer's hands ("leans Durgan's greataxe against", "sharpens Mira's knife");
# other verbs of doing may act on it where it is ("fills his cup", "straightens her collar")
_IN_HAND = frozenset(
    {"leaf", "thumb", "flick", "page", "riffle", "rifle", "sharpen", "hone", "clean", "wipe", "oil", "tune"}
    | {"string", "restring", "load", "reload", "cock", "prime", "lean", "prop", "rest", "stand", "shoulder"}
    | {"hoist", "pocket", "sling", "strap", "wrap", "pack", "unpack", "fold", "shuffle", "wield", "lug"}
)
_THROUGH = frozenset({"through", "over"})
# phrasal verbs of working a device, their particle before the thing: "switches on the radio"
_OPERATE = frozenset(
    {
        "switch",
        "turn",
        "power",
        "fire",
        "boot",
        "start",
        "crank",
        "rev",
        "key",
        "flick",
        "click",
        "wind",
        "warm",
    }
)
# turning a book's pages: "leafs through the almanac" has it in hand ("leans over the chart" does not)
_LEAF_THROUGH = frozenset({"leaf", "thumb", "flick", "page", "riffle", "rifle", "pore", "browse", "skim"})


def _handles_owned(s: _Sentence, subject: Mention, poss: Mention) -> bool:
    """True when the subject's own verb, right after it, takes another's named thing as its object as a verb
    of handling ("Kestrel leans Durgan's greataxe against a tomb", "Hollis leafs through Fenwick's
    spellbook"): the owner is named, the hand is the subject's. Verbs of touching, striking, seeing,
    saying or wanting ("pats Durgan's axe", "eyes Fenwick's book") leave it with its owner."""
    toks = s.tokens
    k = poss.i - 1
    if k > subject.j and toks[k].low in _THROUGH:
        k -= 1  # "leafs through", "pores over"
    if k < subject.j or toks[k].quoted or not toks[k].text.islower():
        return False
    if any(not w.low.endswith("ly") for w in toks[subject.j : k]):
        return False  # only adverbs between the subject and its verb
    form = toks[k].low
    base = _lemma_of(form)
    if base is None or not is_finite(form, base) or base in _CONTACT or base in _AT_A_DISTANCE:
        return False
    return base in _IN_HAND or verb_class(base) == "handling"


def _lemma_of(word: str) -> str | None:
    """A word's verb lemma by the hand table, else by the lexicon."""
    return VERBS.get(word) or lexicon_lemma(word)


def _handling_verb(s: _Sentence, subject: Mention, it: Mention) -> str:
    """A verb the hand table lacks that takes the item as its direct object right after the subject ("Tam
    tunes the rosewood lute", "spreads the sea chart", "sharpens the silver dagger"): the lemma, when the
    lexicon knows it as a finite verb of doing (not of seeing, saying, thinking or going); else ""."""
    toks = s.tokens
    k = _before_determiners(s, it.i - 1, subject.j, ("the", "a", "an", "his", "her", "their", "its"))
    if k - 1 >= subject.j and toks[k].low in _THROUGH:
        k -= 1  # "leafs through the almanac", "pores over the chart"
    elif k - 1 >= subject.j and toks[k].low in ("on", "off", "up") and _lemma_of(toks[k - 1].low) in _OPERATE:
        k -= 1  # "switches on the radio", "cranks up the generator": a device worked by hand
    boarded = k - 1 >= subject.j and toks[k].low == "aboard"
    if boarded:
        k -= 1  # "steps aboard the Grey Heron", "clambers aboard the skiff": the craft is taken out
    if k < subject.j or k >= it.i or toks[k].quoted:
        return ""
    between = [t.low for t in toks[subject.j : k]]
    coordinated = (
        k - 1 > subject.j
        and toks[k - 1].low == "and"
        and not any(m.i >= subject.j and m.i < k for m in s.creatures())
        and not {";", ":", "—", ".", "he", "she", "they", "it", "who", "which", "that", "while", "as"}
        & set(between)
    )
    if not coordinated and any(
        not (w.endswith("ly") or w in ("then", "carefully", "slowly", "quickly")) for w in between
    ):
        return ""  # only adverbs between the subject and its verb, or its own earlier predicate and "and"
    form = toks[k].low
    base = lexicon_lemma(form) if toks[k].text.islower() else None
    if base is None or not is_finite(form, base):
        return ""
    if (
        verb_class(base) in _NOT_HANDLING
        and base not in _STEERED
        and not (boarded and verb_class(base) == "motion")
        and not (base in _PLACING and k == it.i - 1 - _determiners_before(s, it.i))
    ):
        return ""  # but "lays the cloak over the bench", "hangs the ring on a peg": put down by hand
    if base in _AT_A_DISTANCE or base in _WRITE_IN:
        return ""
    if (boarded or base == "board") and s.snap.holders_of(it.id or ""):
        return ""  # "climbs aboard the captain's skiff": a passenger on a craft someone holds, not its keeper
    return "hold"


# verbs of posture that also put a thing somewhere when it is their direct object
_PLACING = frozenset({"lay", "hang", "set", "prop", "lean", "rest", "stand", "perch", "drape", "spread"})


def _determiners_before(s: _Sentence, i: int) -> int:
    """How many articles or possessive pronouns stand right before token ``i``."""
    n = 0
    while i - n - 1 >= s.a and s.tokens[i - n - 1].low in ("the", "a", "an", "his", "her", "their", "its"):
        n += 1
    return n


# contractions read as possessives that own nothing: "it's", "that's", "there's"
_NOT_OWNERS = frozenset({"it", "he", "she", "that", "there", "here", "what", "who", "where", "this", "let"})


def _before_determiners(s: _Sentence, k: int, lo: int, dets: tuple[str, ...]) -> int:
    """The token before the determiners ending at token ``k`` (down to ``lo``): articles, possessive
    pronouns and the possessive of a thing that is no creature ("the town's ledger", "the palace's great
    lute"), which owns nothing in hand and so leaves the verb before it governing the item."""
    toks = s.tokens
    while k > lo:
        if toks[k].low in dets:
            k -= 1
        elif (
            toks[k].poss
            and not toks[k].quoted
            and toks[k].low not in _NOT_OWNERS
            and not any(c.i <= k < c.j for c in s.creatures())
        ):
            k -= 1  # "the town's": the article before it is stepped over next
        else:
            break
    return k


def _landmark(s: _Sentence, it: Mention, subject: Mention) -> bool:
    """True when a preposition of place governs the item ("unrolls her sketch beside the siege map", "sets
    the lamp on the ledger"): the item is where the handling happens, not what the subject's verb takes."""
    toks = s.tokens
    k = _before_determiners(s, it.i - 1, subject.j, ("the", "a", "an", "this", "that"))
    if toks[k].low in _THROUGH and _lemma_of(toks[k - 1].low) in _LEAF_THROUGH:
        return False  # "leafs through the almanac": the book is in the hands that leaf it
    if toks[k].low in ("on", "off", "up") and _lemma_of(toks[k - 1].low) in _OPERATE:
        return False  # "switches on the radio": the particle of a device worked, no place
    return k > subject.j and toks[k].low in _LOCATIVE and not toks[k].quoted


# words after which a verb form is a noun ("your offer", "the pass", "a toss")
_NOUN_MARKERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "my", "your", "our"})


# verbs of meaning to do something: what follows their "to" is a plan, not done yet
_INTEND = frozenset(
    {"decide", "want", "mean", "plan", "intend", "hope", "wish", "resolve", "choose", "promise", "refuse"}
    | {"long", "yearn", "need", "offer", "threaten", "agree", "vow", "swear", "dare", "itch", "ache"}
)


def _intended(s: _Sentence, it: Mention) -> bool:
    """True when the item is the object of an infinitive after a verb of meaning to ("decides to open the
    reliquary", "wants to borrow her lute"): the handling is intended, not told done."""
    toks = s.tokens
    k = it.i - 1
    while k > s.a and (toks[k].low in ("the", "a", "an", "this", "that") or toks[k].low in _PRONOUN_POSS):
        k -= 1
    if k - 2 < s.a or toks[k - 1].low != "to" or toks[k].quoted:
        return False
    base = lexicon_lemma(toks[k].low)
    return base is not None and base == toks[k].low and _lemma_of(toks[k - 2].low) in _INTEND


_PREPOSITIONS = _TRAILING_PREPS | {
    "to",
    "toward",
    "towards",
    "with",
    "by",
    "for",
    "of",
    "at",
    "past",
    "around",
}
