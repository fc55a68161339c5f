"""Claims about creatures being and acting: acts, present, at, alive, dead, condition and pc_choice.

``_speech`` attributes quoted words to a speaker; ``_subjects`` reads each named creature's verb (or death,
down, alive or condition words after it) and ``_act`` turns a verb into acting, presence or a place (the
place words are :mod:`.places`'); ``_remains`` reads "nothing left of it but ash". The death, mourning and
condition word lists live here (``INCAPACITATING`` is public: the judge uses it). Imports :mod:`.lexicon`,
:mod:`.names`, :mod:`.sentence`, :mod:`.arrivals` and :mod:`.places`.
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
    _own_place_beside,
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
from ledger.check.extract.places import (
    _NOT_GOING,
    _called_across,
    _destination,
    _distant_front,
    _enters,
    _fronted_location,
    _location_after,
    _location_before,
    _occupies,
    _stops_outside,
    _where_place,
)
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.speakers import addressed
from ledger.check.extract.verbs import is_finite, tags, verb_class
from ledger.check.extract.verbs import lemma as verb_lemma

# verbs of putting a thing somewhere: the place after them is the thing's ("stores his nets in the boathouse")
_PUTS = frozenset(
    {"put", "place", "set", "lay", "leave", "keep", "store", "stow", "hide", "lock", "hang", "drop", "throw"}
    | {
        "toss",
        "pour",
        "bury",
        "send",
        "post",
        "pin",
        "nail",
        "tuck",
        "pack",
        "stack",
        "pile",
        "dip",
        "plunge",
    }
)
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


# a name right after one of these is its object, never the subject of the verb that follows
_NAME_OBJECT_AFTER = frozenset(
    {"to", "of", "for", "from", "about", "against", "toward", "towards", "owes", "owed", "owe"}
)


def _clause_between(s: _Sentence, k: int, q: int) -> bool:
    """True when a colon or a clause of its own (a subject pronoun, a relative word) stands between the
    copula at ``k`` and the place at ``q``: "Duque is hardly a name to her: a man she has nodded to in the
    lift car" places him nowhere (the place is the relative clause's)."""
    return any(
        t.text == ":" or t.low in ("he", "she", "they", "i", "we", "you", "who", "whom", "which", "that")
        for t in s.tokens[k + 1 : q]
        if not t.quoted
    )


def _is_object(s: _Sentence, m: Mention) -> bool:
    """True when ``m`` follows a preposition or a verb of owing: "Tamsin's debt to Brann still hangs"."""
    return m.i - 1 >= s.a and s.tokens[m.i - 1].low in _NAME_OBJECT_AFTER


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
        if m.quoted or addressed(toks, m, s.a, s.b):
            continue  # quoted, or called on: "Orrin, on his third pass he stops in front of you"
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
        if v is None and m.j < s.b and toks[m.j].low in ("has", "have") and not m.poss and not m.quoted:
            # "Ilyin has the guitar across his knee and is easing a peg up": having is no act, but the verbs
            # chained after it are the subject's own
            for k2, lemma2 in _chained_verbs(s, m.j, c1, past_things=True):
                if lemma2 != "be":
                    _act(s, m, eid, kind, k2, lemma2, s.modality(m, k2), c1, False)
        _set_apart(s, m, eid, kind, c1)
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
            if loc and loc.id and not _clause_between(s, k, loc.i):
                s.claim("at", (eid, loc.id), m, mod, form)
            continue
        if (eid, m.i) in attributed:
            # '"...," Amsel grunts, wipes his mouth and reaches for the bread': the line tag is read as
            # speech already; the verbs chained after it are the speaker's own acts here
            for k2, lemma2 in _chained_verbs(s, k, c1):
                _act(s, m, eid, kind, k2, lemma2, mod, c1, False)
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


_SET_AT = frozenset({"on", "in", "at", "aboard", "inside", "by"})
_SET_AT_ADVERBS = frozenset({"up", "down", "out", "over", "back", "still", "away", "off"})


def _set_apart(s: _Sentence, m: Mention, eid: str, kind: str | None, c1: int) -> None:
    """ "Commander Rourke, on the bridge of the Corvid two kilometres out, a mug at her elbow": a name set
    off by a comma and a phrase of place, with no verb of its own, tells where they are (a face on a screen, a
    cut-away); what they go on doing is done there (:attr:`Extraction.placed`), as after a fronted place."""
    toks = s.tokens
    if kind not in ("npc", "monster") or m.poss or m.quoted or m.j + 1 >= c1 or toks[m.j].text != ",":
        return
    if m.i > s.a and toks[m.i - 1].text not in (":", "—", "–", ";", "."):
        return
    k = m.j + 1
    if toks[k].low in _SET_AT_ADVERBS:
        k += 1
    if k >= c1 or toks[k].low not in _SET_AT or toks[k].quoted:
        return
    stop = next((q for q in range(k + 1, c1) if toks[q].text in (",", ";", ":", "—")), c1)
    place = next(
        (x for x in s.mentions if k < x.i < stop and x.id is not None and s.kind(x) == "location"), None
    )
    if place is None or place.id is None:
        return
    mod = s.modality(m)
    s.claim("at", (eid, place.id), m, mod, "set apart")
    if not mod.hypothetical and not mod.memory and not mod.in_dialogue:
        s.ex.placed[eid] = place.id


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


def _chained_verbs(s: _Sentence, k: int, c1: int, *, past_things: bool = False) -> list[tuple[int, str]]:
    """Later verbs of the same subject: "stretches his arms, strolls over and helps himself"; with
    ``past_things``, past a thing named on the way ("has the fiddle on his knee and is tuning it")."""
    out: list[tuple[int, str]] = []
    toks = s.tokens
    first = toks[k].low
    third_person = first.endswith("s")
    for q in range(k + 1, min(c1, k + 16)):
        t = toks[q]
        if t.quoted:
            break
        named = next((x for x in s.mentions if x.i == q), None)
        if named is not None and past_things and s.kind(named) not in ("pc", "npc", "monster"):
            continue
        if named is not None or t.low in ("he", "she", "it", "they", "who", "which", "that"):
            break
        if toks[q - 1].text in (",", "and") or toks[q - 1].low == "then":
            ing = toks[q + 1].low if q + 1 < min(c1, s.b) and t.low in ("is", "are") else ""
            if ing.endswith("ing") and (doing := verb_lemma(ing)) is not None and not toks[q + 1].quoted:
                out.append((q + 1, doing))  # "... and is easing the fourth peg up": the participle's verb
                continue
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


_MESSAGES = frozenset({"word", "message", "messages", "letter", "note", "runner", "messenger", "news"})
# verbs of a state of mind or of affairs: they put no one anywhere
_STATE_VERBS = frozenset(
    {"owe", "know", "remember", "believe", "need", "want", "deserve", "hope", "fear", "trust", "mean", "own"}
)

# verbs of keeping a house or a trade: with a place as their object they tell whose it is, not who is there
_KEEPS = frozenset({"keep", "run", "manage", "own"})


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
    if lemma in _KEEPS and any(
        s.kind(x) == "location" and (x.i == k + 1 or (x.i == k + 2 and nxt == "the")) for x in s.mentions
    ):
        return  # "Brann keeps the Gilded Anchor", "runs the ferry-house": a trade, no body in the place
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
        s.ex.placed.pop(eid, None)
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
        if arriving and kind in ("npc", "monster") and not _own_place_beside(s, eid):
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
            if fronted and not mod.hypothetical and not mod.memory and not mod.in_dialogue:
                s.ex.placed[eid] = loc.id
        elif (
            loc
            and loc.id
            and s.tokens[loc.i - 1].low in ("in", "inside", "within")
            and verb_class(lemma) == "act"
            and lemma not in _PUTS
        ):
            # "Garrick warms his hands at the brazier in the Cloister": what one does in a place is done
            # there (after "at" or "toward" the place may be what the verb aims at; a thing put, handed or
            # seen "in" a place is what is there, not the one who puts or sees it)
            s.claim("at", (eid, loc.id), m, mod, lemma)
        elif loc is None and _distant_front(s, m):
            pass  # "Far below, the Reeve trots along the lane", "In the distance, ...": seen from afar
        elif loc is None and eid in s.ex.placed:
            # "Up in the wheelhouse, Sol steers. ... Sol hums along": the scene cut away to a place stays
            # there for what its subject goes on doing, until they are told moving
            s.claim("at", (eid, s.ex.placed[eid]), m, mod, lemma)
        else:
            s.claim("present", (eid,), m, mod, lemma)
    if kind == "pc":
        words = " ".join(t.text for t in toks[k : min(c1, k + 12)] if not t.quoted)
        if lemma in CHOICE or lemma in SPEECH:
            s.claim("pc_choice", (eid,), m, mod, f"{lemma}:{words}")
        elif lemma not in IDLE and not (not moving and _progressive(s, m, k)):
            s.claim("pc_choice", (eid,), m, mod, f"do:{lemma}:{words}")


def _progressive(s: _Sentence, m: Mention, k: int) -> bool:
    """ "Across the salon, Ash is juggling oranges": the progressive finds someone in the middle of an
    activity, a backdrop to the scene, not a step the narrator took for them (leaving, taking, pushing past
    are told by verbs of motion or in the simple present, and still read)."""
    toks = s.tokens
    if not toks[k].low.endswith("ing"):
        return False
    aux = [t.low for t in toks[m.j : k]]
    if not aux or aux[0] not in ("is", "are", "was", "were") or len(aux) > 3:
        return False
    # an activity on someone else or their things ("is picking the lock of Tam's strongbox", "is
    # binding the prisoner") is a step taken for the player all the same
    _, c1 = s.clause_of(k)
    return not any(
        k < x.i < c1 and x.id != m.id and s.kind(x) in ("pc", "npc", "monster") for x in s.mentions
    )
