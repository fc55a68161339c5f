"""Attitude shown by behaviour: ``attitude(actor, other, warm|hostile)`` from VADER's valence lexicon.

Words of behaviour carry a valence: to embrace, to thank or to kiss someone is warm; to betray, curse or
spite them is hostile. The valences come from the lexicon file of ``vaderSentiment`` (``vader_lexicon.txt``,
about 7,500 words rated -4..+4 by human raters, shipped in its wheel; only that file is read, never the
package's code, which can reach the network). A clause whose subject is a creature with a strong recorded
attitude toward another creature named (or referred to by pronoun) in the same clause is scored over the
verbs the subject governs (lemmas by lemminflect, a negated verb counts against), the adverbs of that
predicate ("warmly") and the noun each verb takes ("into a long embrace"), counting only verbs aimed at the
other creature. Facial displays (smile, grin, nod, greet ...) are left out: a polite smile at an enemy is not
warmth, nor is a gesture made coldly (:data:`COLD_MANNER`). Only a clear score (:data:`WARM_AT`,
:data:`HOSTILE_AT`) makes a claim, and :mod:`ledger.check.judge_meaning` only contradicts one whose sign is
opposite to a strong recorded attitude, to keep false alarms low. A few phrasal verbs whose meaning is not
their verb's ("sells them out") are mapped to a lexicon word (:data:`PHRASAL`).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from importlib import resources

from ledger.check.claims import Claim, Modality
from ledger.check.extract.attitude_words import FEELING, KNOWING, REPROOF, WILLING, mood
from ledger.check.extract.disposition import disposed
from ledger.check.extract.informing import _informing
from ledger.check.extract.lexicon import _BODY_NOUNS, SPEECH
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import (
    _GENDER_NOUNS,
    _OBJECT_PRONOUNS_ALL,
    _predicate,
    _previous_sentence,
    _resolve_pronoun,
    _subjects,
    any_lemma,
    verb_lemma,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.speakers import fronted_subject_at
from ledger.check.snapshot import WorldSnapshot

# the least valence that makes a claim: warmth from one rated gesture ("embrace" 1.3, "thank" 1.5, "hug" 2.1);
# hostility only from a clear word ("curse" -2.5, "betray" -3.2), since friends tease ("mock" -1.8)
WARM_AT = 1.3
HOSTILE_AT = -2.0
# a cold manner takes the warmth out of a gesture ("thanks him coldly", "embraces her stiffly")
COLD_MANNER = frozenset(
    {"coldly", "stiffly", "curtly", "icily", "frostily", "grudgingly", "sarcastically", "mockingly", "sourly"}
    | {"thinly", "tightly", "formally", "politely", "dryly", "drily", "flatly", "woodenly", "awkwardly"}
)
ATTITUDE_GATE = (-40, 60)  # only pairs with a recorded attitude at or beyond these are read (cost and noise)
# facial displays and courtesies: their valence says nothing about the attitude behind them
DISPLAYS = frozenset(
    {"smile", "grin", "smirk", "laugh", "chuckle", "nod", "greet", "bow", "wink", "beam", "like", "please"}
    | {"help", "assist"}  # working together is no warmth: enemies haul the same rope in a storm
)
# phrasal verbs whose meaning is not their verb's: (verb lemma, particle) -> a lexicon word
PHRASAL: dict[tuple[str, str], str] = {
    ("sell", "out"): "betray",
    ("rat", "out"): "betray",
    ("rat", "on"): "betray",
    ("inform", "on"): "betray",
    ("snitch", "on"): "betray",
    ("squeal", "on"): "betray",
    ("peach", "on"): "betray",
    ("turn", "against"): "betray",
    ("stab", "back"): "betray",
    ("throw", "around"): "hug",  # "throws her arms around him"
    ("fling", "around"): "hug",
    ("be", "rid"): "hate",  # "is glad to be rid of him": riddance, however glad
}
# verbs the lexicon lacks, read as a word it has
SYNONYMS = {"double-cross": "betray", "backstab": "betray", "doublecross": "betray"}
# gestures of contempt the lexicon does not rate, read as the insult they are when aimed at someone
SYNONYMS |= {"sneer": "insult", "jeer": "insult", "taunt": "insult", "spit": "insult", "slander": "insult"}
# lexicon entries rated for another sense than the one a narration uses them in ("hands him a note" is not
# help, "like a brother" is not liking); never counted
OTHER_SENSE = frozenset({"hand", "like", "please", "pretty", "well", "kind", "mean", "fine", "free", "fair"})
# Tender touch: a verb of gentle contact whose object is a part of the other's body ("squeezes her fingers",
# "strokes his hair", "cups her cheek"), or that takes something off it ("brushes the dust off his shoulder",
# "wipes the blood from her brow"), is care. The lexicon rates none of these verbs, so the gesture counts as
# the word it is read as (:data:`TENDER_AS`). Only the tender parts count: a throat or a wrist squeezed is no
# caress, and a hand pushed "away" or "aside" is refused.
TENDER_TOUCH = frozenset(
    {"squeeze", "pat", "stroke", "caress", "cup", "chafe", "ruffle", "tousle", "smooth", "kiss", "nuzzle"}
    | {"clasp", "rub", "warm", "tuck"}
)
TENDER_TAKING = frozenset({"brush", "dust", "wipe", "pick", "flick", "sponge", "dab"})
TENDER_PARTS = frozenset(
    {"hand", "hands", "finger", "fingers", "cheek", "cheeks", "hair", "curls", "shoulder", "shoulders", "arm"}
    | {"brow", "forehead", "head", "face", "knee", "back", "temple", "palm", "palms", "fingertips"}
)
TENDER_AS = "comfort"
_REFUSING = frozenset({"away", "aside", "off"})
# selling or trading a person (or what they are doing: "the hour Magda sleeps") is betraying them
_TRADE = frozenset({"sell", "trade", "barter", "peddle", "auction"})
# Care of the body the lexicon does not rate: to feed, nurse, bandage or cradle the other creature (its direct
# object, or a part of its body: "bandages his arm") is care (:data:`CARE_AS`); not when the object is sent
# on somewhere ("feeds him to the dogs").
CARE = frozenset(
    {"feed", "spoon-feed", "nurse", "bandage", "cradle", "console", "shelter", "succour", "succor"}
)
CARE_AS = "care"
_SENT_ON = frozenset({"to", "into", "through", "under"})
_SUBORDINATE = frozenset(
    {"while", "as", "when", "before", "after", "until", "because", "though", "although", "since", "whereas"}
)
_REFLEXIVE = frozenset({"himself", "herself", "themselves", "itself", "themself"})
_NEGATORS = frozenset({"not", "never", "no", "nor", "hardly", "barely"})
_NEGATION_SCALAR = -0.74  # VADER's own factor for a negated word


@lru_cache(maxsize=1)
def vader_lexicon() -> dict[str, float]:
    """word -> mean valence, read once from ``vaderSentiment/vader_lexicon.txt`` (no network, no import of
    the package's code)."""
    try:
        text = resources.files("vaderSentiment").joinpath("vader_lexicon.txt").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        # a broken install must not break the check: attitude by behaviour is then simply not read
        logging.getLogger(__name__).warning("vaderSentiment's lexicon is missing: attitude checks are off")
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0].isalpha():
            try:
                out[parts[0].lower()] = float(parts[1])
            except ValueError:
                continue
    return out


def valence(word: str) -> float:
    """The lexicon valence of ``word`` or of its lemma (0.0 when neither is rated)."""
    lex = vader_lexicon()
    low = word.lower()
    if low in lex:
        return lex[low]
    lemma = verb_lemma(low) or any_lemma(low)
    return lex.get(lemma, 0.0)


def _score(
    s: _Sentence, verbs: list[tuple[int, str]], hi: int, at: frozenset[int]
) -> tuple[float, list[str]]:
    """The summed valence of the predicate's verbs aimed at the other creature (a token of ``at`` lies
    between the verb and the next verb: "thanks him", "folds her into an embrace", "cared for the Regent"),
    their object nouns and adverbs, with the words counted."""
    toks = s.tokens
    total = 0.0
    words: list[str] = []
    counted: set[int] = set()
    named = {q for m in s.mentions if m.id for q in range(m.i, m.j)}
    for n, (k, lemma) in enumerate(verbs):
        jeer = (
            lemma in SYNONYMS and k + 1 < hi and toks[k + 1].low == "at"
        )  # "sneers at him": no tone of voice
        if (lemma in DISPLAYS | OTHER_SENSE | SPEECH | REPROOF | KNOWING or mood(lemma)) and not jeer:
            continue  # a display, a word rated for another sense, a tone of voice, a reproof, one's own mood
        end = verbs[n + 1][0] if n + 1 < len(verbs) else hi
        end = next((q for q in range(k + 1, end) if toks[q].low in _SUBORDINATE), end)
        if k + 1 < hi and toks[k + 1].low in _REFLEXIVE:
            continue  # "helps himself to a drink"
        if not any(k < q < end for q in at):
            continue  # "curses the cold and follows Pike out": the curse is not aimed at Pike
        if lemma in FEELING and not ({k + 1, k + 2} & at and (k + 1 in at or toks[k + 1].low == "the")):
            continue  # "hates the way Idra limps", "hates seeing her in pain": a feeling about a thing
        neg = any(toks[q].low in _NEGATORS or toks[q].low.endswith("n't") for q in range(max(s.a, k - 2), k))
        nxt = [toks[q].low for q in range(k + 1, min(hi, k + 5))]
        phrasal = next((w for (v, p), w in PHRASAL.items() if v == lemma and p in nxt), None)
        if lemma in _TRADE and any(k < q < end and not _possessive_at(s, q) for q in at):
            phrasal = "betray"  # "trading the hour Magda sleeps for a crown": a person sold is betrayed
        if phrasal is None and _tender(s, k, lemma, end, at):
            phrasal = TENDER_AS
        if phrasal is None and lemma in CARE and _cared_for(s, k, hi, at):
            phrasal = CARE_AS
        v = (
            valence(phrasal or SYNONYMS.get(lemma, ""))
            if phrasal or lemma in SYNONYMS
            else valence(toks[k].low)
        )
        if phrasal is None:
            # the noun the verb takes: "folds her into a long embrace"
            for q in range(k + 1, min(hi, k + 6)):
                if toks[q].quoted or any(q == x for x, _ in verbs) or toks[q].text in (",", ";"):
                    break  # the verb's own object, not a phrase after a comma ("kneels, blind fingers ...")
                if q in named:
                    continue  # a creature's own name or title ("the smuggler") is no word of behaviour
                w = toks[q].low
                if w.isalpha() and q not in counted and not w.endswith("ly") and w not in _BODY_NOUNS:
                    nv = 0.0 if mood(w) else valence(w)
                    if nv < 0 and _REMOVED & {x.low for x in toks[q + 1 : min(hi, q + 3)]}:
                        break  # "eases the gag from her mouth": a harm taken away is no harm done
                    if nv and any_lemma(w) not in DISPLAYS | OTHER_SENSE | REPROOF:
                        v += nv
                        counted.add(q)
                        words.append(w)
                        break
        # an adverb right by the verb: "embraces him warmly"; a cold manner cancels a warm gesture
        near = [toks[q].low for q in (k - 1, k + 1, k + 2, k + 3) if s.a <= q < hi]
        if COLD_MANNER & set(near) and v > 0:
            continue
        # and a manner adverb anywhere in the verb's own phrase: "lays her gloved hand gently over his"
        for q in (k - 1, *_fronted_manner(s, k), *range(k + 1, end)):
            if q + 1 == end and end < hi and n + 1 < len(verbs) and end == verbs[n + 1][0]:
                continue  # "glares at her, then tenderly wraps his daughter": the next verb's adverb
            if s.a <= q < hi and q not in counted and toks[q].low.endswith("ly") and not toks[q].quoted:
                av = 0.0 if mood(toks[q].low) else valence(toks[q].low)
                if toks[q].low in WILLING and v < 0:
                    av = -abs(av)  # "sells him out gladly": eagerness in a hostile act is more hostility
                if av:
                    v += av
                    counted.add(q)
                    words.append(toks[q].low)
        if v:
            total += v * (_NEGATION_SCALAR if neg else 1.0)
            words.append(("not " if neg else "") + (phrasal or toks[k].low))
    return total, words


_REMOVED = frozenset({"from", "off", "away"})


def _cared_for(s: _Sentence, k: int, hi: int, at: frozenset[int]) -> bool:
    """True when the verb at ``k`` takes the other creature as its direct object ("is feeding him noodles",
    "nurses Wat through the fever") or a part of its body ("bandages her arm"), and does not send it on
    somewhere ("feeds him to the dogs")."""
    toks = s.tokens
    q = k + 1
    if q >= hi or q not in at:
        return False
    named = next((m for m in s.mentions if m.i == q), None)
    end = named.j if named is not None else q + 1
    part = end < hi and toks[end].low in _BODY_NOUNS | TENDER_PARTS
    if (named is not None and named.poss) or toks[q].low in ("his", "their"):
        return part
    if part:
        return True  # "bandages her arm"; "feeds her broth" takes her as its object
    return not (end < hi and toks[end].low in _SENT_ON)


def _fronted_manner(s: _Sentence, k: int) -> tuple[int, ...]:
    """The adverb opening the sentence before a one-word subject and the verb at ``k``: "Gently he eases
    the gag": the manner of the subject's first verb."""
    toks = s.tokens
    if k - 2 == s.a and toks[k - 1].low in _NOMINATIVE and toks[s.a].low.endswith("ly"):
        return (s.a,)
    if k - 3 == s.a and toks[k - 1].low in _NOMINATIVE and toks[k - 2].text == ",":
        return (s.a,)
    return ()


def _tender(s: _Sentence, k: int, lemma: str, end: int, at: frozenset[int]) -> bool:
    """True when the verb at ``k`` touches a tender part of the other's body gently: "squeezes their
    fingers", "cups Mara's cheek" (the part right after the other's possessive), or takes something off it:
    "brushes the dust off Quill's shoulder" (a particle of taking before the possessive)."""
    if lemma not in TENDER_TOUCH and lemma not in TENDER_TAKING:
        return False
    toks = s.tokens
    for q in range(k + 1, min(end, k + 11)):
        if toks[q].quoted or toks[q].low not in TENDER_PARTS:
            continue
        owner = q - 1 if q - 1 in at else (q - 2 if q - 2 in at and toks[q - 1].text.islower() else None)
        if owner is None or not _possessive_at(s, owner):
            return False
        if lemma in TENDER_TAKING:
            return owner > k + 1 and toks[owner - 1].low in ("off", "from")
        return not (q + 1 < s.b and toks[q + 1].low in _REFUSING)
    return False


# Endearments said to someone: a term of affection set off as a vocative in a line of speech ("Eat, love.",
# "My dear girl.", "Come here, sweetheart") is warmth from the speaker to the one addressed. Read only with
# no menace about it: a hostile word in the same quote, a manner of contempt or menace in the narration that
# carries it ("purrs", "sneers"), or a cold manner (:data:`COLD_MANNER`) makes it mockery.
ENDEARMENTS = frozenset(
    {"love", "dear", "darling", "sweetheart", "dearest", "sweeting", "beloved", "lovey", "treasure"}
    | {"pet", "lamb", "poppet", "honey", "duck", "ducky", "chuck", "sweet", "precious", "heart"}
)
_ENDEARMENT_AS = "dear"  # an endearment the lexicon does not rate ("pet", "lamb") reads as "dear"
_VOCATIVE_NOUNS = frozenset(
    {"girl", "boy", "lad", "lass", "child", "one", "friend", "heart", "fellow", "man"}
)
_VOCATIVE_EDGE = frozenset({",", ".", "!", "?", '"', "“", "”", "—", "–", ";"})
MENACE = frozenset(
    {"sneer", "hiss", "snarl", "drawl", "purr", "mock", "jeer", "taunt", "spit", "growl", "smirk", "leer"}
    | {"croon", "simper", "scoff", "gloat", "threaten", "menace", "coo"}
)
_THANKS = frozenset({"thank", "thanks", "ta", "cheers", "obliged", "grateful"})
_HOSTILE_WORD = -1.5  # a word this hostile in the quote makes the endearment mockery


# Warmth told as performed, or undercut in the telling, is no warmth: an enemy who "pretends" or "plays the
# gracious host", embraces "for the crowd's benefit", smiles "falsely", whose kiss is "a viper's", whose
# squeeze runs "until the knuckles crack", or whose eyes "stay cold" while she greets. The words of pretence,
# of a predator, of a hurting grip and of a cold contrast, in the sentence or the one after it ("Her smile
# never reaches her eyes."), take the warmth out of a warm gesture. Stems: a word starting with one counts.
FEIGNED_STEMS = (
    # pretence and performance
    "pretend", "pretence", "pretense", "feign", "fake", "sham", "false", "insincer", "hollow", "counterfeit",
    "forced", "forces herself", "forces himself", "forces themselves", "performance", "appearances",
    "facade", "façade", "veneer", "mask", "masquerad", "charade", "acting", "playing the", "plays the",
    "play-act", "for show", "for the crowd", "for the benefit", "'s benefit", "ironic", "sarcas", "mock",
    # a manner of guile
    "sly", "oily", "unctuous", "honeyed", "saccharin", "syrup", "cloying", "calculat", "scheming", "plot",
    "cunning",
    # a predator's likeness
    "viper", "snake", "serpent", "venom", "poison", "spider", "wolfish", "predator",
    # a hand that goes to a weapon
    "knife", "dagger", "blade", "hilt", "weapon",
    # a grip that hurts
    "until the knuckles", "until his knuckles", "until her knuckles", "bruis", "wince", "crush", "painful",
    # warmth contradicted in the telling
    "but her eyes", "but his eyes", "but their eyes", "never reach", "not reach", "doesn't reach", "steely",
    "gritted", "clenched", "icily", "dislike", "distaste", "disgust", "loath", "hate", "hatred", "contempt",
    "grudg", "resent", "revuls",
    # words told as a lie: "hears the lie for what it is", "a lie so big it has its own weather"
    "the lie", "a lie", "lies through", "lying through", "liar", "falsehood", "untruth", "untrue",
)  # fmt: skip
_FEIGNED_RE = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in FEIGNED_STEMS) + r")")


def feigned(s: _Sentence) -> bool:
    """True when the narration of this sentence, or of the next one, marks warmth as performed or undercut
    (:data:`FEIGNED_STEMS`). Read only for a sentence that makes a warm claim."""
    after = next((b for a, b in s.ex.sentences if a >= s.span[1]), s.span[1])
    text = s.text[s.span[0] : after].lower()
    plain = re.sub(r"[\"“][^\"”]*[\"”]", " ", text)  # the narration, not the lines spoken
    return _FEIGNED_RE.search(plain + " ") is not None


# A tie told as over, or as it was long ago, is no claim about now: "was once his friend", "were friends until
# the dice game", "rivals as children", "used to", "no longer", "years ago", "back then".
_ENDED_RE = re.compile(
    r"\b(?:once|until|till|formerly|used to|no longer|long ago|years ago|ago|back then|in those days|"
    r"in the old days|as children|as girls|as boys|as lads|in their youth|in better days|any more|anymore)\b"
)


def ended(s: _Sentence) -> bool:
    """True when this sentence's narration tells a tie as past or over (:data:`_ENDED_RE`)."""
    plain = re.sub(r"[\"“][^\"”]*[\"”]", " ", s.raw.lower())
    return _ENDED_RE.search(plain) is not None


def _quote_around(s: _Sentence, k: int) -> tuple[int, int]:
    """The token range of the quotation holding token ``k`` (marks included), within the narration."""
    toks = s.tokens
    lo = k
    while lo > 0 and toks[lo - 1].quoted and toks[lo].text not in ('"', "“"):
        lo -= 1
    hi = k
    while hi + 1 < len(toks) and toks[hi + 1].quoted:
        hi += 1
        if toks[hi].text in ('"', "”"):
            break
    return lo, hi + 1


def _endearment_at(s: _Sentence) -> int | None:
    """The first quoted endearment of this sentence used as a vocative: set off by punctuation or a quote
    mark before it (or "my", "oh", "dear" before it) and after it (or one vocative noun: "my dear girl")."""
    toks = s.tokens
    for k in range(s.a, s.b):
        t = toks[k]
        if not t.quoted or t.low not in ENDEARMENTS or t.poss:
            continue
        p = k - 1
        while p >= s.a and toks[p].low in ("my", "oh", "dear", "old", "sweet", "poor"):
            p -= 1
        if p >= 0 and toks[p].text not in _VOCATIVE_EDGE and toks[p].low not in ("my", "oh"):
            continue
        n = k + 1
        if n < len(toks) and toks[n].low in _VOCATIVE_NOUNS and toks[n].text.islower():
            n += 1
        if n < len(toks) and toks[n].text in _VOCATIVE_EDGE:
            return k
    return None


def _endearments(s: _Sentence, strong: dict[str, tuple[str, ...]]) -> None:
    """attitude(speaker, addressee, warm) from an endearment said to someone the speaker has a strong
    recorded attitude toward. The speaker is this sentence's narrated subject, else the previous subject
    (the beat before an unattributed line); the addressee is the one such creature named in the quote or in
    this sentence or the one before."""
    k = _endearment_at(s)
    if k is None:
        return
    toks = s.tokens
    subjects = [(eid, m, md) for eid, m, md, _ in _subjects(s) if not m.quoted]
    if len({eid for eid, _, _ in subjects}) > 1:
        return  # two narrated subjects: which one speaks is not clear
    if subjects:
        speaker, _, mod = subjects[0]
    else:
        ante = s.ex.antecedent.get(s.a)
        if ante is None or any(t.text.isalpha() and not t.quoted for t in toks[s.a : s.b]):
            return  # only a line with no narration of its own is the beat's ('her father says': another)
        if any(toks[q].low in _THANKS for q in range(s.a, s.b) if toks[q].quoted):
            return  # "Thanks, love." after "Tove hands Jun the bowl": the one thanked may be the beat's actor
        speaker, mod = ante, None
    targets = set(strong.get(speaker, ()))
    if not targets:
        return
    q0, q1 = _quote_around(s, k)
    first = _recent_start(s)
    named = {
        m.id
        for m in s.mentions + s.ex.between(first, s.a)
        if m.id in targets and (q0 <= m.i < q1 or not m.quoted)
    } | {m.id for m in s.ex.between(q0, q1) if m.id in targets}
    if len(named) != 1:
        return
    other = next(iter(named))
    if other is None:
        return
    # no menace in the quote or in the narration around it
    lo = min(first, q0)
    words = [toks[q] for q in range(lo, max(q1, s.b))]
    if any(t.quoted and valence(t.low) <= _HOSTILE_WORD for t in words[q0 - lo : q1 - lo]):
        return
    plain = [t.low for t in words if not t.quoted]
    if COLD_MANNER & set(plain) or any((verb_lemma(w) or w) in MENACE | SYNONYMS.keys() for w in plain):
        return
    if mod is None:
        mod = s.modality(Mention(("",), k, k + 1, False, False, "public"))
    # the endearment is the speaker's own act, not a claim made in dialogue
    mod = Modality(False, mod.hypothetical, mod.memory, mod.rumour, False)
    if feigned(s):
        return
    v = valence(toks[k].low) or valence(_ENDEARMENT_AS)
    s.ex.claims.append(
        Claim(
            "attitude",
            (speaker, other, "warm"),
            s.raw.strip(),
            s.span,
            mod,
            f"valence={v:+.1f};{toks[k].low}",
        )
    )


# Joy at the sight of someone: "her face lights up when she sees Jun", "his eyes brighten as Tamsin
# approaches", "his face lit with pleasure at the sight of her". The face or eyes of the one who feels it, a
# verb of lighting up, and the other named after it in the same sentence behind a word of seeing or coming.
_LIGHT = frozenset({"light", "brighten", "glow", "shine", "kindle"})
_FACE = frozenset({"face", "eyes", "features", "countenance", "expression"})
_JOY = frozenset({"up", "pleasure", "joy", "delight", "gladness", "warmth", "happiness", "relief"})
_SIGHT = frozenset({"when", "as", "sees", "see", "sight", "seeing", "spots", "spies", "at", "to"})
_GENDER_OF = {"his": "m", "her": "f"}


_SIGHT_GLUE = frozenset({"of", "the", "she", "he", "they", "catches", "first", "sight", "at", "as", "when"})


def _seen(s: _Sentence, k: int, at: int) -> bool:
    """True when the creature named at token ``at`` is what is seen or what comes, right behind a word of
    seeing after token ``k``: "when she sees Jun", "at the sight of Jun", "as Jun comes" (not "sees the silver
    Jun carries", not "at the news; Jun frowns")."""
    toks = s.tokens
    last = next((q for q in range(at - 1, k, -1) if toks[q].low in _SIGHT), None)
    if last is None:
        return False
    return all(toks[q].low in _SIGHT_GLUE | _SIGHT for q in range(last + 1, at))


def _joy_at_sight(s: _Sentence, strong: dict[str, tuple[str, ...]]) -> None:
    """attitude(actor, other, warm) from joy on the actor's face at the sight of the other."""
    toks = s.tokens
    for k in range(s.a + 1, s.b - 1):
        t = toks[k]
        if t.quoted or (verb_lemma(t.low) or "") not in _LIGHT or toks[k - 1].low not in _FACE:
            continue
        joy = _JOY & {x.low for x in toks[k + 1 : min(s.b, k + 4)]}
        if not joy and verb_lemma(t.low) in ("light", "glow", "shine"):
            continue  # "lights up", "glows with pleasure"; "brightens" is joy by itself
        q = k - 2 if k - 2 >= s.a and toks[k - 2].text.islower() and not toks[k - 2].poss else k - 1
        q = q - 1 if q == k - 1 else q  # the word before the face: "Tove's face", "his whole face"
        owner = next((m for m in s.mentions if m.j == q + 1 and m.poss and m.id), None)
        actor = owner.id if owner is not None else None
        if actor is None and q >= s.a and toks[q].low in _GENDER_OF:
            from ledger.check.extract.kin_pronouns import _resolve

            actor = _resolve(s, q, _GENDER_OF[toks[q].low])
        targets = strong.get(actor or "", ())
        if actor is None or not targets:
            return
        after = [m for m in s.mentions if m.id in targets and m.i > k and not m.quoted and not m.poss]
        if len(after) != 1 or not _seen(s, k, after[0].i):
            return
        if feigned(s) or ended(s):
            return
        mod = s.modality(after[0])
        mod = Modality(False, mod.hypothetical, mod.memory, mod.rumour, mod.negated)
        detail = f"valence={valence('joy'):+.1f};{t.low}"
        s.ex.claims.append(
            Claim("attitude", (actor, after[0].id or "", "warm"), s.raw.strip(), s.span, mod, detail)
        )
        return


def _attitudes(s: _Sentence) -> None:
    """attitude(actor, other, warm|hostile) for a creature's behaviour toward another in one clause."""
    strong = _strong_edges(s.snap)
    charmed = _charmed(s)
    _endearments(s, strong)
    _joy_at_sight(s, strong)
    first = _recent_start(s)  # a pronoun subject stands for someone named here or just before
    here = {m.id for m in s.ex.between(first, s.b) if m.id}
    if not (here & strong.keys()) and not charmed:
        return
    actors = _actors(s)
    _informing(s, actors, strong)  # "tells the sheriff where Pike hides": a loyal tie sold out
    for eid, m, mod in actors:
        if eid not in strong and eid not in charmed:
            continue
        lo, hi = s.clause_of(m.i)
        where = _others(s, eid, lo, hi)
        others = set(where)
        targets = [t for t in strong.get(eid, ()) if t in others]
        if charmed.get(eid) in others and charmed[eid] not in targets:
            targets.append(charmed[eid])
        if not targets:
            continue
        verbs = [(k, lemma) for k, lemma in _predicate(s, m) if k < hi]
        if (main := disposed(s, verbs, m.j)) is not None:
            # "would sell Vell for a loaf of bread": a disposition, told of now
            verbs, mod = main, Modality(mod.in_dialogue, False, mod.memory, mod.rumour, mod.negated)
        if not verbs:
            continue
        for other in targets:
            total, words = _score(s, verbs, hi, where[other])
            if HOSTILE_AT < total < WARM_AT:
                continue
            shown = "warm" if total > 0 else "hostile"
            if (shown == "warm" and feigned(s)) or ended(s):
                continue
            s.ex.claims.append(
                Claim(
                    "attitude",
                    (eid, other, shown),
                    s.raw.strip(),
                    s.span,
                    mod,
                    f"valence={total:+.1f};" + ",".join(words),
                )
            )


def _actors(s: _Sentence) -> list[tuple[str, Mention, Modality]]:
    """The clause subjects of this sentence (:func:`_subjects`), and a subject behind fronted words that
    pass does not read: "Instead Master Hobb crouches ...", "With his own hands he eases ..." (the pronoun
    standing for the creature the sentence continues, or the one named just before that fits)."""
    out = [(eid, m, mod) for eid, m, mod, _ in _subjects(s)]
    named = [m for m in s.mentions if m.id and not m.quoted and not m.poss and s.kind(m) in _CREATURES]
    q = fronted_subject_at(s.tokens, s.a, s.b, frozenset(k for m in named for k in range(m.i, m.j)))
    if q is None or any(m.i <= q < m.j for _, m, _ in out):
        return out
    found = next((m for m in named if m.i == q), None)
    if found is None and s.tokens[q].low in _NOMINATIVE:
        eid = next((m.id for m in s.mentions if m.i == q and m.id), None) or _resolve_pronoun(
            s, s.tokens[q].low
        )
        found = Mention((eid,), q, q + 1, False, False, "public") if eid else None
    if found is not None and found.id:
        out.append((found.id, found, s.modality(found)))
    return out


_CREATURES = ("pc", "npc", "monster")
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "this", "that", "my", "your"})
_NOMINATIVE = frozenset({"he", "she", "they"})


def _recent_start(s: _Sentence) -> int:
    """The first token of the previous sentence, or of the one before it when the previous one names no
    creature outside quotes (a line of speech between "Nils sees Brisa" and "He throws his arms around
    her")."""
    first = _previous_sentence(s)
    if first < s.a and not any(m.id and not m.quoted for m in s.ex.between(first, s.a)):
        return _previous_sentence(s, 2)
    return first


def _strong_edges(snap: WorldSnapshot) -> dict[str, tuple[str, ...]]:
    """Source -> the targets it holds a strong attitude toward (beyond :data:`ATTITUDE_GATE`), built once
    per snapshot: the pass reads only creatures that have one."""
    cached = snap.cache.get("meaning-strong-edges")
    if isinstance(cached, dict):
        return cached
    low, high = ATTITUDE_GATE
    out: dict[str, list[str]] = {}
    for e in snap.edges:
        if (e.attitude <= low or e.attitude >= high) and e.visibility in ("public", "party"):
            out.setdefault(e.source, []).append(e.target)
    table = {k: tuple(v) for k, v in out.items()}
    snap.cache["meaning-strong-edges"] = table
    return table


def _possessive_at(s: _Sentence, q: int) -> bool:
    """True when token ``q`` names the other creature as an owner ("Magda's boots"), not as the one sold."""
    named = next((m for m in s.mentions if m.i <= q < m.j), None)
    if named is not None:
        return named.poss
    return s.tokens[q].poss or s.tokens[q].low in ("his", "her", "their", "its")


def _charmed(s: _Sentence) -> dict[str, str]:
    """Charmed creature -> its charmer, for the creatures named in this sentence (from the record)."""
    out: dict[str, str] = {}
    for m in s.mentions:
        e = s.snap.entities.get(m.id or "")
        src = e.source_of("charmed") if e is not None and "charmed" in e.conditions else None
        if e is not None and src:
            out[e.id] = src
    return out


def _others(s: _Sentence, actor: str, lo: int, hi: int) -> dict[str, frozenset[int]]:
    """The creatures other than ``actor`` a clause names, or refers to by an object pronoun that fits one
    creature of this or the previous sentence, with the tokens where each is named."""
    found: dict[str, set[int]] = {}
    for m in s.mentions:
        if m.id and m.id != actor and lo <= m.i < hi and s.kind(m) in ("pc", "npc", "monster"):
            found.setdefault(m.id, set()).update(range(m.i, m.j))
    first = _recent_start(s)
    near = s.ex.between(first, s.b)
    recent = {m.id for m in near if m.id and m.id != actor}
    me = s.snap.entities.get(actor)
    for k in range(lo, hi):
        low = s.tokens[k].low
        want = _OBJECT_PRONOUNS_ALL.get(low)
        if want is None or s.tokens[k].quoted:
            continue
        if low in ("his", "their", "her") and me is not None and me.pronoun in (want, None):
            continue  # "saves his breath": a possessive of the actor's own pronoun is likelier the actor's
        fits = {r for r in recent if (e := s.snap.entities.get(r)) is not None and e.pronoun == want}
        if len(fits) > 1:
            # one named as a person, the rest only as owners ("at the factor's desk"): the person
            fits &= {m.id for m in near if m.id and not m.poss}
        if len(fits) == 1:
            found.setdefault(next(iter(fits)), set()).add(k)
    for k in range(lo + 1, hi):
        # "pats the young man's shoulder": a person described, owning a part of the body, is the one creature
        # just spoken of whom the description fits
        want = _GENDER_NOUNS.get(s.tokens[k].low)
        if (
            want is None
            or not s.tokens[k].poss
            or s.tokens[k].quoted
            or any(m.i <= k < m.j for m in s.mentions)
        ):
            continue
        q = k - 1
        while q > lo and s.tokens[q].text.islower() and s.tokens[q].low not in _DETERMINERS:
            q -= 1
        if s.tokens[q].low != "the":
            continue
        fits = {r for r in recent if (e := s.snap.entities.get(r)) is not None and e.pronoun == want}
        if len(fits) == 1 and me is not None:
            found.setdefault(next(iter(fits)), set()).update(range(q, k + 1))
    for k in range(lo + 1, hi):
        # "curses his mistress", "sells her master out": the one the actor serves, by the recorded tie
        if s.tokens[k].low in _MASTER_NOUNS and s.tokens[k - 1].low in ("his", "her", "their") and me:
            if me.pronoun not in (_OBJECT_PRONOUNS_ALL.get(s.tokens[k - 1].low), None):
                continue
            served = _served_by(s.snap, actor)
            if served is not None and served != actor:
                found.setdefault(served, set()).update((k - 1, k))
    return {eid: frozenset(ks) for eid, ks in found.items()}


# what a servant calls the one they serve
_MASTER_NOUNS = frozenset({"master", "mistress", "lord", "lady", "employer", "patron", "liege", "boss"})
_SERVICE = ("serv", "employ", "steward", "retainer", "vassal", "loyal", "housekeeper", "clerk", "squire")


def _served_by(snap: WorldSnapshot, actor: str) -> str | None:
    """The one creature ``actor`` serves by a recorded tie (servant, employee, steward ...), if just one."""
    served = [
        t
        for t in _strong_edges(snap).get(actor, ())
        for e in snap.edges_by_pair.get(frozenset((actor, t)), ())
        if e.source == actor and any(w in f"{e.kind} {e.reason}".lower() for w in _SERVICE)
    ]
    unique = set(served)
    return next(iter(unique)) if len(unique) == 1 else None
