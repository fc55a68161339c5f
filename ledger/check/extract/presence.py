"""Claims about creatures being and acting: acts, present, at, alive, dead, condition and pc_choice.

``_speech`` attributes quoted words to a speaker; ``_subjects`` reads each named creature's verb (or death,
down, alive or condition words after it) and ``_act`` turns a verb into acting, presence or a place;
``_remains`` reads "nothing left of it but ash". The death, mourning and condition word lists live here
(``INCAPACITATING`` is public: the judge uses it). Imports :mod:`.lexicon`, :mod:`.names` and
:mod:`.sentence`.
"""

from __future__ import annotations

import re

from ledger.check.claims import CLAIM_CONDITIONS, Claim, Modality
from ledger.check.extract.arrivals import (
    _bare_past,
    _carried_in,
    _from_own_place,
    _met_here,
    _origin_in_sentence,
    _origin_told_next,
)
from ledger.check.extract.lexicon import (
    _HYPO,
    _NEGATION,
    _OBJECT_LEAD,
    CHOICE,
    IDLE,
    MOTION,
    SPEECH,
    STATIC,
    VERBS,
    _is_past,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import is_finite, tags, verb_class
from ledger.check.extract.verbs import lemma as verb_lemma

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


_DEATH_WORDS = frozenset(
    {"dead", "dies", "died", "slain", "killed", "lifeless", "perishes", "perished", "expires", "lifelessly"}
)
_DEATH_PHRASES = re.compile(
    r"\b(?:breathes? (?:his|her|its|their) last|moves? no more|is no more|never rises|does not rise again|"
    r"goes still forever|last breath)\b"
)


_DOWN_WORDS = re.compile(
    r"\b(?:falls? unconscious|drops? unconscious|knocked (?:out|unconscious|senseless)|senseless|"
    r"passes out|blacks out|crumples, unconscious|goes limp)\b"
)


_ATTRIBUTIVE_LEAD = frozenset({"the", "a", "an", "his", "her", "its", "their", "this", "that", "whose"})


def _down_told(tail: str) -> bool:
    """A down phrase in ``tail`` said of the subject: "the senseless herald", with a determiner before the
    word, describes the noun after it (someone else), not the subject before."""
    for found in _DOWN_WORDS.finditer(tail):
        before = tail[: found.start()].split()
        if not (before and before[-1] in _ATTRIBUTIVE_LEAD):
            return True
    return False


#: The condition words read after a name (the claim vocabulary, with the British spelling of one).
_CONDITIONS = frozenset(CLAIM_CONDITIONS) | {"paralysed"}
INCAPACITATING = frozenset({"unconscious", "paralyzed", "petrified", "stunned", "incapacitated"})


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


# words that open a clause of their own inside a sentence: a place named after one belongs to that clause
# ("with the pistol that everybody on the marsh knows", "the inn where the Reeve drinks")
_RELATIVE = frozenset({"that", "which", "who", "whom", "whose", "where", "because", "although", "though"})


def _location_after(s: _Sentence, k: int) -> Mention | None:
    """A known location named after a preposition in the same clause after token ``k``, before any relative
    or subordinate clause opens ("... that everybody on the marsh knows": the marsh is that clause's)."""
    _, c1 = s.clause_of(k)
    starts = {x.i for x in s.mentions}
    c1 = next(
        (q for q in range(k + 1, c1) if s.tokens[q].low in _RELATIVE and q + 1 not in starts and q > k + 1),
        c1,
    )
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


# words that may open a sentence before its fronted place phrase: "Up at the manor", "Far off in the keep",
# "Meanwhile, back at the mill", "Somewhere in the town"
_FRONT_LEADS = frozenset(
    {
        "up",
        "down",
        "back",
        "out",
        "over",
        "across",
        "far",
        "away",
        "meanwhile",
        "somewhere",
        "elsewhere",
        "high",
    }
)


# ("below" and "across" are left out: "Below, in the hold, ...", "Across the water, ..." may be the scene)
_DISTANCE = frozenset({"far", "distance", "beyond", "yonder", "afar", "outside"})


def _distant_front(s: _Sentence, m: Mention) -> bool:
    """True when the sentence opens, before its subject ``m`` and a comma, with a phrase of distance naming
    no one: "Far below,", "In the distance,", "Beyond the wall,"."""
    toks = s.tokens
    if m.i - s.a < 2 or m.i - s.a > 8 or toks[m.i - 1].text != ",":
        return False
    if any(s.a <= x.i < m.i for x in s.mentions):
        return False
    return any(toks[q].low in _DISTANCE and not toks[q].quoted for q in range(s.a, m.i))


def _is_object(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` follows a preposition or a verb of owing: "Tamsin's debt to Brann still hangs"."""
    return m.i - 1 >= s.a and s.tokens[m.i - 1].low in _NAME_OBJECT_AFTER


def _fronted_location(s: _Sentence, m: Mention) -> Mention | None:
    """The place of an opening phrase before the subject: "In the doorway of the Gilded Anchor, Voss ..."."""
    toks = s.tokens
    lead = toks[s.a].low
    if lead in _FRONT_LEADS and s.a + 2 < m.i:
        # "Up at the manor, ...", "Meanwhile, back in the keep, ...": a particle or adverb, then the phrase
        if not any(toks[q].low in _FRONTED_PLACE for q in range(s.a + 1, min(m.i, s.a + 4))):
            return None
    elif lead not in _FRONTED_PLACE:
        return None
    if not any(toks[q].text == "," for q in range(s.a, m.i)):
        return None
    return next(
        (x for x in s.mentions if s.a <= x.i < m.i and s.kind(x) == "location" and not x.quoted), None
    )


def _where_place(s: _Sentence, m: Mention) -> str | None:
    """The known place a relative "where" before ``m`` attaches to: "the Gilded Anchor, where Brann ..."."""
    q = m.i - 1
    if q <= s.a or s.tokens[q].low != "where":
        return None
    q -= 1
    if s.tokens[q].text == ",":
        q -= 1
    place = next((x for x in s.mentions if x.j - 1 == q and s.kind(x) == "location" and not x.quoted), None)
    return place.id if place is not None else None


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
    starts = {x.i for x in s.creatures(narrative_only=False) if x is not m}
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
        if kind in ("npc", "monster") and _met_here(s, m):
            # "Mira finds the abbot waiting by the hearth", "you meet Voss at the door": met where the
            # narration is, unless a known place is named for the meeting (then that place is judged)
            place = _location_after(s, m.j - 1)
            if place is not None and place.id:
                s.claim("at", (eid, place.id), m, s.modality(m), "met")
            else:
                s.claim("present", (eid,), m, s.modality(m), "met")
            continue
        if _carried_in(s, m):
            # "the packet drops Delphine Marr onto the deck", "the guards bring Voss in": brought here,
            # so the narration's place is now theirs
            dest = next(
                (x for x in s.mentions if m.j < x.i <= m.j + 4 and s.kind(x) == "location" and not x.quoted),
                None,
            )
            if dest is not None and dest.id:
                s.claim("at", (eid, dest.id), m, s.modality(m), "to:brought")  # replayed: they go there
            s.claim("at", (eid, "*moving*"), m, s.modality(m), "brought")
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
        if _down_told(" ".join(first + tail.split()[4:6])) and not m.poss:
            s.claim("condition", (eid, "unconscious"), m, s.modality(m), "down")
            continue
        if v is None and _occupies(s, m, eid, kind, c1):
            continue
        if v is None:
            _fragment(s, m, eid, kind, c1)
            _existential(s, m, eid, kind, c1)
            continue
        if not inverted and _is_object(s, m):
            continue  # "the debt she owes Brann hangs over her": the debt hangs, not Brann
        k, form, lemma = v
        if form == "missing" and toks[k - 1].low in ("is", "was", "are", "were"):
            continue  # "the abbot is missing from the feast": told absent, doing nothing
        mod = s.modality(m, k)
        if (
            (_is_past(form, lemma) or _bare_past(s, m, eid, form, lemma))
            and not inverted
            and (s.ex.present_tense or _present_in(s))
        ):
            # "Mother Hesk warned you before you came down" in a present-tense scene looks back; so does "the
            # Dean let Sefa off her vow", whose one subject takes a bare form only in the past
            mod = Modality(mod.in_dialogue, mod.hypothetical, True, mod.rumour, mod.negated)
        if lemma == "be" and inverted and k == m.i - 1:
            # "Behind the bar, polishing a glass, is Harlan Voss": a place opens, then "is" and who is there
            # what they do is told by a participle before ("polishing a glass"); with none, a body may
            # simply be there ("In the crypt, under a slab, is Harlan Voss"), which is a posture
            doing = next(
                (
                    b
                    for q in (*range(s.a, k), *range(m.j, min(c1, m.j + 4)))
                    if toks[q].low.endswith("ing") and (b := verb_lemma(toks[q].low)) is not None
                ),
                "lie",
            )
            loc = _fronted_location(s, m) or _location_before(s, m.i)
            if loc is not None and loc.id:
                s.claim("at", (eid, loc.id), m, mod, doing)
            else:
                s.claim("present", (eid,), m, mod, doing)
            if doing != "lie":
                s.claim("acts", (eid,), m, mod, doing)
            continue
        if lemma == "be":
            nxt = [t.low for t in toks[k + 1 : min(c1, k + 4)]]
            if nxt[:1] and nxt[0] in _NEGATION:
                continue
            cond = next((w for w in nxt[:2] if w in _CONDITIONS), None)
            if cond:
                s.claim("condition", (eid, cond), m, mod, form)
                continue
            there = nxt[:1] == ["there"] and _location_after(s, k) is None  # "Brann is there too, ..."
            if nxt[:1] == ["here"] or nxt[:2] == ["already", "here"] or there:
                s.claim("present", (eid,), m, mod, "here")
                s.claim("acts", (eid,), m, mod, "be")
                continue
            loc = _location_after(s, k)
            if loc and loc.id:
                s.claim("at", (eid, loc.id), m, mod, form)
            continue
        if (eid, m.i) in attributed:
            continue
        if _parenthetical_speech(s, m, k, lemma):
            # "The Reeve, Tobit says, sits at the manor": the speaker is here speaking; the clause around
            # the aside (its place, its verbs) is what is said, not what the speaker does
            s.claim("acts", (eid,), m, mod, lemma)
            if kind in ("npc", "monster"):
                s.claim("present", (eid,), m, mod, lemma)
            continue
        # the first verb first: "strides in and shakes the sleet off" arrives before it shakes anything
        _act(s, m, eid, kind, k, lemma, mod, c1, inverted)
        for k2, lemma2 in _chained_verbs(s, k, c1):
            _act(s, m, eid, kind, k2, lemma2, mod, c1, False)


def _parenthetical_speech(s: _Sentence, m: Mention, k: int, lemma: str) -> bool:
    """ ", Tobit says," / ", she tells them," set off by commas inside another clause: a reporting aside."""
    toks = s.tokens
    return (
        (lemma in SPEECH or verb_class(lemma) in ("speech", "commitment"))
        and m.i > s.a + 1
        and toks[m.i - 1].text == ","
        and k + 1 < s.b
        and (toks[k + 1].text == "," or (k + 2 < s.b and toks[k + 2].text == ","))
    )


def _fragment(s: _Sentence, m: Mention, eid: str, kind: str | None, c1: int) -> None:
    """ "...: Captain Hamid, leaning on the doorpost of the khan": an NPC opening a clause with a participle
    and no finite verb is shown here doing it."""
    toks = s.tokens
    k = m.j + 1
    if kind not in ("npc", "monster") or m.poss or k >= c1 or toks[m.j].text != ",":
        return
    lead = toks[m.i - 1].text if m.i > s.a else ""
    if m.i > s.a and lead not in (":", "—", "–", ";"):
        return
    t = toks[k]
    base = verb_lemma(t.low) if t.text.islower() and not t.quoted else None
    if base is None or "VBG" not in tags(t.low, base):
        return
    _act(s, m, eid, kind, k, base, s.modality(m, k), c1, False)


def _existential(s: _Sentence, m: Mention, eid: str, kind: str | None, c1: int) -> None:
    """ "There is Harlan Voss, leaning on a bollard", "It is Voss, smiling": a creature presented as here,
    doing what the participle after it says (else just being there, which a body may be)."""
    toks = s.tokens
    c0, _ = s.clause_of(m.i)
    lead = [t.low for t in toks[max(c0, m.i - 3) : m.i] if t.text not in (",", "and", "then")]
    if (
        kind not in ("npc", "monster")
        or m.poss
        or lead[-2:] not in (["there", "is"], ["here", "is"], ["it", "is"])
    ):
        return
    base, k = "be", m.j
    if m.j + 1 < c1 and toks[m.j].text == ",":
        t = toks[m.j + 1]
        found = verb_lemma(t.low) if t.text.islower() and not t.quoted else None
        if found is not None and "VBG" in tags(t.low, found):
            base, k = found, m.j + 1
    mod = s.modality(m, k)
    s.claim("acts", (eid,), m, mod, base)
    s.claim("present", (eid,), m, mod, base)


def _present_in(s: _Sentence) -> bool:
    """True when the sentence also tells something in the present ("Hadda repaid her favour ...; she owes
    him nothing now"): against it, a past verb is backstory."""
    toks = s.tokens
    ends = {x.j for x in s.mentions if not x.poss}
    for q in range(s.a + 1, s.b):
        t = toks[q]
        if (
            t.quoted
            or not t.text.islower()
            or not (toks[q - 1].low in ("he", "she", "it", "they") or q in ends)
        ):
            continue
        base = verb_lemma(t.low)
        if base is not None and is_finite(t.low, base) and not _is_past(t.low, base):
            return True
    return False


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
            base = VERBS.get(t.low)
            if base is None and t.text.islower() and not t.poss:
                # a verb the hand table lacks ("... and blows a kiss"), only before an object or a particle
                nxt = toks[q + 1].low if q + 1 < s.b else "."
                found = verb_lemma(t.low)
                if found and is_finite(t.low, found) and (nxt in _OBJECT_LEAD or nxt in _DIRECTIONS):
                    base = found
            if base and (t.low.endswith("s") == third_person) and not t.low.endswith("ing"):
                if t.low.endswith("ed") and third_person:
                    continue
                out.append((q, base))
    return out


# a preposition of direction before a place: the place is where the subject goes
_DIRECTIONS = frozenset(
    {"to", "into", "onto", "toward", "towards", "up", "down", "in", "on", "over", "across"}
)
_GOING = frozenset({"to", "into", "onto", "toward", "towards"})
# verb classes that point, speak or look toward a place without going there ("nods to the gate")
_NOT_GOING = frozenset({"speech", "commitment", "perception", "state", "posture"})
_GESTURES_TOWARD = frozenset(
    {
        "point",
        "nod",
        "turn",
        "gesture",
        "wave",
        "bow",
        "motion",
        "beckon",
        "belong",
        "send",
        "write",
        "tie",
        "chain",
        "bind",
        "nail",
        "pin",
        "throw",
        "toss",
        "hand",
        "give",
        "pass",
        "sell",
        "tell",
        "report",
        "owe",
        "pay",
        "deliver",
        "show",
        "raise",
        "lift",
        "hold",
        "post",
    }
)


# verbs of reaching a place, whose object (or the way "of" it) is where the mover ends up
_REACHING = frozenset({"enter", "climb", "ascend", "descend", "board", "reach", "mount", "scale", "gain"})
# verbs that set out "for" a place ("makes for the gate", "sets off for the docks")
_SETTING_OUT = frozenset({"head", "make", "set", "leave", "depart", "start", "strike", "go", "sail", "ride"})


def _destination(s: _Sentence, k: int) -> str | None:
    """The known place the verb at ``k`` goes to: "to/into/onto/toward the X", or "up/down the X" right
    after the verb, in the same clause, before anyone else is named."""
    _, c1 = s.clause_of(k)
    base = verb_lemma(s.tokens[k].low) or ""
    if base in _GESTURES_TOWARD:
        return None
    starts = {x.i for x in s.mentions if s.kind(x) in ("pc", "npc", "monster")}
    for q in range(k + 1, min(c1, k + 14)):
        t = s.tokens[q]
        if t.quoted or q in starts or t.low in ("who", "which", "that", "where", "while", "when", "as", ","):
            return None  # another clause, or a participle of its own ("sits by the fire, drawing a route to")
        if t.low in ("he", "she", "they", "it", "you", "we", "i") and q > k + 1:
            return None
        if t.low == "of" and base in _REACHING and q > k + 1:
            # "climbs the hundred steps of the Dean's Tower", "reaches the gate of the keep": a way into a
            # place, taken by a verb of reaching, ends in that place
            nxt = next((x for x in s.mentions if x.i in (q + 1, q + 2)), None)
            if nxt is not None and nxt.id and s.kind(nxt) == "location" and not nxt.quoted:
                return nxt.id
        if q in (k + 1, k + 2) and base in _REACHING and (q == k + 1 or s.tokens[k + 1].low == "the"):
            # "enters the chapel", "boards the Widow": the verb's object is where they go
            here = next((x for x in s.mentions if x.i == q), None)
            if here is not None and here.id and s.kind(here) == "location" and not here.quoted:
                return here.id
        if (
            t.low in _GOING
            or (t.low == "for" and (base in MOTION or base in _SETTING_OUT))  # "heads for the gate"
            or (q == k + 1 and t.low in ("up", "down"))
            or (t.low in ("up", "down") and s.tokens[q - 1].low in ("out", "back", "and"))
        ):
            nxt = next((x for x in s.mentions if x.i in (q + 1, q + 2)), None)
            if nxt is not None and nxt.id and s.kind(nxt) == "location" and not nxt.quoted:
                return nxt.id
    return None


_PARTY_NOUNS = frozenset({"party", "company", "companions", "group", "adventurers", "band", "fellowship"})


def _they_are_the_party(s: _Sentence) -> bool:
    """ "They" means the party when the creatures named since the previous sentence began are PCs only."""
    here = s.tokens[s.a].start
    starts = [a for a, _ in s.ex.sentences if a < here]
    since = starts[-1] if starts else here
    named = [
        s.snap.entities[m.id].kind
        for m in s.ex.mentions
        if m.id is not None
        and m.id in s.snap.entities
        and since <= s.tokens[m.i].start < here + len(s.raw)
        and not m.quoted
    ]
    creatures = [k for k in named if k in ("pc", "npc", "monster")]
    return bool(creatures) and all(k == "pc" for k in creatures)


def _party_moves(s: _Sentence) -> None:
    """ "You take the back stairs down into the wine cellar", "We climb to the chapel", "The party heads up to
    the scriptorium": the party (you, we, the party) goes to a known place; replayed by the judge as
    ``at(*party*, place)``. The subject is read up to the clause's first verb."""
    toks = s.tokens
    words = set(s.narr.split())
    they = "they" in words and _they_are_the_party(s)
    if not (words & {"you", "we"} or words & _PARTY_NOUNS or they):
        return
    for c0 in s.clauses:
        _, c1 = s.clause_of(c0)
        party = False
        for q in range(c0, min(c1, c0 + 9)):
            t = toks[q]
            if t.quoted or any(x.i == q for x in s.mentions):
                break
            low = t.low
            if (
                low in ("you", "we")
                or (low == "they" and they)
                or (low in _PARTY_NOUNS and toks[q - 1].low in ("the", "your", "our"))
            ):
                party = True
                continue
            base = verb_lemma(low) if t.text.islower() and low not in _OBJECT_LEAD else None
            if base is None or not party or (not is_finite(low, base) and low != base):
                continue
            if verb_class(base) not in _NOT_GOING:
                dest = _destination(s, q)
                if dest is not None:
                    mod = Modality(False, bool(_HYPO & {t.low for t in toks[c0:q]}), False, False, False)
                    claim = Claim("at", ("*party*", dest), s.raw.strip(), s.span, mod, f"to:{base}")
                    s.ex.claims.append(claim)
            break


_MESSAGES = frozenset({"word", "message", "messages", "letter", "note", "runner", "messenger", "news"})
# verbs of a state of mind or of affairs: they put no one anywhere
_STATE_VERBS = frozenset(
    {"owe", "know", "remember", "believe", "need", "want", "deserve", "hope", "fear", "trust", "mean", "own"}
)


_REFLEXIVE_OF = {"he": "himself", "she": "herself", "it": "itself", "they": "themselves"}


def _to_oneself(s: _Sentence, eid: str, k: int, c1: int) -> bool:
    """ "has the settle to himself", "had the whole taproom to herself": "have", an object, then "to" and the
    reflexive of the subject, within a few words."""
    e = s.snap.entities.get(eid)
    own = _REFLEXIVE_OF.get(e.pronoun or "") if e is not None else None
    toks = s.tokens
    for q in range(k + 2, min(c1 - 1, k + 9)):
        if toks[q].quoted:
            return False
        if toks[q].low == "to":
            # "has a word to say to himself": an infinitive first is another idiom
            return toks[q + 1].low in (own, "themselves" if own is None else own)
    return False


def _occupies(s: _Sentence, m: Mention, eid: str, kind: str | None, c1: int) -> bool:
    """ "He has the inglenook to himself", "the bailiff had the best bench to himself": having a spot to
    oneself is sitting in it, so the creature is there (the named place, else where the narration is)."""
    k = m.j
    if kind not in ("npc", "monster") or m.poss or k >= c1 or s.tokens[k].low not in ("has", "had", "have"):
        return False
    if not _to_oneself(s, eid, k, c1):
        return False
    mod = s.modality(m, k)
    held = next((x for x in s.mentions if x.i in (k + 1, k + 2) and s.kind(x) == "location"), None)
    loc = held or _location_after(s, k) or _fronted_location(s, m)
    if loc is not None and loc.id:
        s.claim("at", (eid, loc.id), m, mod, "occupy")
    else:
        s.claim("present", (eid,), m, mod, "occupy")
    return True


_ENTRY = frozenset({"in", "inside", "indoors"})
# what may follow a particle of entry: a stop, or a phrase of where from, how or where through
_AFTER_ENTRY = frozenset(
    {
        "out",
        "from",
        "through",
        "with",
        "and",
        "at",
        "behind",
        "after",
        "off",
        "under",
        "without",
        "on",
        "like",
    }
)


def _enters(s: _Sentence, k: int) -> bool:
    """True when the verb at ``k`` takes a particle of entry and then ends its phrase: "stamps in out of the
    rain", "barges in, dripping", "sweeps inside." ("fills in the form" has an object instead)."""
    toks = s.tokens
    if k + 1 >= s.b or toks[k + 1].low not in _ENTRY or toks[k + 1].quoted:
        return False
    if k + 2 >= s.b:
        return True
    after = toks[k + 2]
    return after.text in (",", ".", ";", "!", "?", "—", "–") or after.low in _AFTER_ENTRY


# the end of an approach short of a place: "at the foot of", "outside", "no nearer"
_SHORT_OF = frozenset({"outside", "beyond"})
_EDGE_NOUNS = frozenset({"foot", "edge", "gate", "gates", "verge", "brink", "outskirts", "bottom"})
_PLACE_AT = (["at"], ["to"], ["by"], ["near"])


def _stops_outside(s: _Sentence, k: int, c1: int) -> bool:
    """True when the approach told by the verb at ``k`` ends short of where it leads: "reins in at the foot
    of the ramp and no nearer", "pulls up outside the wall", "halts short of the gate", "stops at the edge
    of the camp"."""
    toks = s.tokens
    words = [t.low for t in toks[k + 1 : min(c1, k + 20)] if not t.quoted]
    text = " ".join(words)
    if "no nearer" in text or "no closer" in text or "short of" in text:
        return True
    for q, w in enumerate(words[:10]):
        if w in _SHORT_OF and words[q - 1 : q] != ["from"]:
            return True  # "halts outside the fence" (but "comes in from outside" has come in)
        # "at the foot of", "to the edge of": a preposition of place, the article, the edge noun, "of"
        if w in _EDGE_NOUNS and words[q + 1 : q + 2] == ["of"] and words[max(0, q - 2) : q][:1] in _PLACE_AT:
            return True
    return False


_ACROSS = frozenset({"up", "down", "across", "over", "out"})


def _called_across(s: _Sentence, k: int) -> bool:
    """True when a verb of speech is aimed up, down, across or out to or from somewhere: "calls up to the
    wall", "shouts down from the gallery", "hails them across the water". The speaker is at a distance, so
    the words say nothing of being here."""
    toks = s.tokens
    if k + 2 >= s.b or toks[k + 1].low not in _ACROSS or toks[k + 1].quoted:
        return False
    return toks[k + 2].low in ("to", "from", "at", "the") or toks[k + 1].low == "across"


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
    if lemma in _STATE_VERBS or verb_class(lemma) == "state":
        return  # "she owes him nothing", "he knows the pass": no body in any place
    if lemma in ("send", "dispatch") and (
        nxt == "for" or _MESSAGES & {t.low for t in toks[k + 1 : min(c1, k + 4)]}
    ):
        return  # "the abbot sent word this morning", "sends for Mira": a message comes from the sender
    goes_to = _destination(s, k) if lemma not in STATIC and lemma not in IDLE else None
    if goes_to is not None and verb_class(lemma) not in _NOT_GOING:
        # "Faen walks through the fern-dark to the Willow Hall": whoever it is goes there (replayed)
        s.claim("at", (eid, goes_to), m, mod, f"to:{lemma}")
    # "stamps in out of the rain", "barges in", "sweeps inside": any verb with a particle of entry after it
    # tells a way of coming in (English makes a verb of manner one of motion so)
    moving = lemma in MOTION or (verb_class(lemma) not in _NOT_GOING and _enters(s, k))
    if moving and (
        _from_own_place(s, eid, k, c1) or _origin_in_sentence(s, eid) or _origin_told_next(s, eid)
    ):
        # "The abbot arrives from the chapel", "Roe stamps in. He has ridden all the way from Rye Gap":
        # coming here from where the record has them is consistent
        s.claim("at", (eid, "*moving*"), m, mod, lemma)
        return
    if moving and _stops_outside(s, max(k, m.j - 1), c1):
        # "rides up and reins in at the foot of the gate ramp and no nearer", "halts outside the wall": an
        # approach that ends short of the place is no one come in
        s.claim("at", (eid, "*moving*"), m, mod, lemma)
        return
    if lemma in SPEECH and kind in ("npc", "monster") and _called_across(s, k):
        return  # "calls up to the wall", "shouts down from the gallery": a voice from a distance
    if moving:
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
    elif kind in ("npc", "monster") and _where_place(s, m) is not None:
        # "Sela points to the Gilded Anchor, where Brann is rolling out a cask": Brann is there, not here
        s.claim("at", (eid, str(_where_place(s, m))), m, mod, lemma)
    elif kind in ("npc", "monster"):
        loc = (
            _location_after(s, k)
            or (_location_before(s, m.i) if inverted else None)
            or _fronted_location(s, m)
        )
        fronted = loc is not None and loc is _fronted_location(s, m)
        if loc and loc.id and (lemma in STATIC or lemma in SPEECH or lemma in IDLE or inverted or fronted):
            # a place the sentence opens with sets the scene for whatever its subject does ("Up at the
            # manor, the Reeve paces")
            s.claim("at", (eid, loc.id), m, mod, lemma)
        elif loc is None and _distant_front(s, m):
            pass  # "Far below, the Reeve trots along the lane", "In the distance, ...": seen from afar
        else:
            s.claim("present", (eid,), m, mod, lemma)
    if kind == "pc":
        words = " ".join(t.text for t in toks[k : min(c1, k + 12)] if not t.quoted)
        if lemma in CHOICE or lemma in SPEECH:
            s.claim("pc_choice", (eid,), m, mod, f"{lemma}:{words}")
        elif lemma not in IDLE:
            s.claim("pc_choice", (eid,), m, mod, f"do:{lemma}:{words}")
