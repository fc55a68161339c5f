"""Meaning-level condition claims: the pass over one sentence, and an incapacitated creature told acting.

:func:`_conditions` works out a sentence's subjects only when it has a health phrase, a cure word, or a
creature whose condition could take a sense away, then asks :mod:`.senses` (``senses``), :mod:`.health`
(``health``, ``condition_gone``) and :func:`_helpless_acts` (``acts`` for each verb an unconscious,
paralysed or stunned creature's predicate gives it, for the judge to weigh) for their claims. Each family is
read from what the words imply rather than from a list of sentences. A condition the narration itself lifts
(:mod:`.lifts`: a bandage unwound, a creature coming to) makes a ``condition_gone`` claim the judge takes as
the change told, and no ``senses`` or helpless ``acts`` claim follows for what it took. Imports
:mod:`.predicates`, :mod:`.senses`, :mod:`.lifts` and :mod:`.health`; run by :mod:`.meaning`.
"""

from __future__ import annotations

from dataclasses import replace

from ledger.check.claims import Claim, Modality
from ledger.check.extract.eyes import eyes_at_work
from ledger.check.extract.health import _CURE_WORDS, AILMENT_NOUNS, _cured, _health, _health_trigger, purged
from ledger.check.extract.heard_now import heard_now
from ledger.check.extract.lexicon import _BODY_NOUNS, _NEGATION
from ledger.check.extract.lifts import LIFTED, lifted, note_lifts
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import (
    _AUX_LEMMAS,
    SPOKEN,
    _negated_at,
    _predicate,
    _subjects,
    verb_lemma,
)
from ledger.check.extract.senseless import participle_at
from ledger.check.extract.senses import _bare_quote_speaker, _faculties, _sense_blocked, says_heard
from ledger.check.extract.sentence import _Sentence
from ledger.check.snapshot import WorldSnapshot


def _conditions(s: _Sentence) -> None:
    """health, senses and condition_gone claims for the creatures of one sentence.

    The clause subjects are worked out only when the sentence has a health phrase, a cure word, or names
    (or continues with) a creature whose condition could take a sense away: most sentences have none."""
    snap = s.snap
    blocked = _sense_blocked(snap)
    if blocked:
        # "unwinds the bandage", "her sight returns", "comes to": what follows is told after the change; the
        # judge is told first (before this sentence's other claims) so it weighs their acts without it
        here = note_lifts(s)
        at = next((n for n, c in enumerate(s.ex.claims) if c.span == s.span), len(s.ex.claims))
        for eid, conds in sorted(here.items()):
            for cond in sorted(conds):
                lift = Claim("condition_gone", (eid, cond), s.raw.strip(), s.span, Modality(), LIFTED)
                s.ex.claims.insert(at, lift)
    ante = s.ex.antecedent.get(s.a)
    senses = ante in blocked or any(m.id in blocked for m in s.mentions)
    health = any(_health_trigger(t.low) for t in s.tokens[s.a : s.b] if not t.quoted)
    cured = any(w in AILMENT_NOUNS or w in _CURE_WORDS for w in s.narr.split())
    purging = " out of " in s.narr  # "the fumes burned clean out of him": rare, and read cheaply
    if not (senses or health or cured or purging):
        return
    # "chalks on the flagstone: HE WOKE ONCE": words set in capitals are a message shown (chalked, painted,
    # printed), not the narrator telling what the one they name does
    subjects = [x for x in _subjects(s) if not _capitals(s.tokens[x[1].i].text)]
    seen: set[tuple[str, str, str]] = set()

    def claim(kind: str, args: tuple[str, str], mod: Modality, detail: str) -> None:
        if (kind, *args) in seen or (kind == "senses" and lifted(s, args[0], args[1])):
            return
        seen.add((kind, *args))
        s.ex.claims.append(Claim(kind, args, s.raw.strip(), s.span, mod, detail))  # type: ignore[arg-type]

    for eid, m, mod, _ in subjects if senses else ():
        if eid in blocked:
            for faculty, verb in _faculties(s, eid, m):
                claim("senses", (eid, faculty), _past_without(s, m, mod), verb)
            if _helpless(s.snap, eid) and not lifted(s, eid, "acts"):
                _helpless_acts(s, eid, m, mod)
    for eid, verb, mod in eyes_at_work(s, blocked) if senses else ():
        claim("senses", (eid, "sight"), mod, verb)  # "her eyes move along the marks"
    for eid, verb in heard_now(s, blocked) if senses else ():
        claim("senses", (eid, "hearing"), Modality(), verb)  # "He heard every word" after the question
    if senses and any(t.quoted for t in s.tokens[s.a : s.b]):
        # quoted words the speech pass gave a speaker ('"Wait," says Pim'): speaking, whatever the word order
        for c in list(s.ex.claims):
            if c.kind == "acts" and c.span == s.span and c.args[0] in blocked and c.detail in SPOKEN:
                claim("senses", (c.args[0], "speech"), c.modality, c.detail)
                # '"I heard every word," she says': the speaker says they heard what was just said
                heard = says_heard([t for t in s.tokens[s.a : s.b] if t.quoted])
                if heard is not None:
                    claim("senses", (c.args[0], "hearing"), c.modality, f"says {heard}")
        for eid, m, mod, _ in subjects:
            said = _attribution(s, m) if eid in blocked else None
            if said is not None:
                claim("senses", (eid, "speech"), mod, said)  # '"Not here," she breathes.'
        speaker = _bare_quote_speaker(s, ante)
        if speaker is not None and speaker in blocked:
            claim("senses", (speaker, "speech"), Modality(), "a line of speech after their action")
    if health:
        _health(s, subjects, claim)
    if cured:
        _cured(s, subjects, claim)
    if purging:
        purged(s, claim)  # "the coolant fumes burned clean out of him overnight"


# verbs that can follow a line without the voice: written, signed, mouthed, gestured ('"No," she mouths')
_WORDLESS = frozenset(
    {"mouth", "write", "sign", "scrawl", "scribble", "chalk", "gesture", "mime", "spell", "type", "tap"}
    | {"nod", "shrug", "smile", "grin", "point", "wave", "shake", "motion", "indicate", "frown", "wink"}
)


def _attribution(s: _Sentence, m: Mention) -> str | None:
    """The verb attributing a quotation to ``m``: the quotation closes on a comma right before the subject
    ('"Not here," she breathes'), so the words are theirs, spoken, unless the verb gives them without the
    voice ("mouths", "writes", "nods")."""
    toks = s.tokens
    if m.poss or m.i <= s.a or not toks[m.i - 1].quoted:
        return None
    q = m.i - 1
    while q > s.a and toks[q].quoted and not toks[q].text.isalnum():
        if toks[q].text == ",":
            break
        q -= 1
    if toks[q].text != "," or not toks[q].quoted:
        return None
    v = s.verb_after(m)
    if v is None or v[0] != m.j or _negated_at(s, v[0]):
        return None
    lemma = verb_lemma(v[1]) or v[2]
    if lemma in _WORDLESS or lemma in _AUX_LEMMAS:
        return None
    return v[1]


def _past_without(s: _Sentence, m: Mention, mod: Modality) -> Modality:
    """``mod`` without the negation a "without" right after the subject gave it: "answers without turning",
    "Dov, without a word, turns" deny their own phrase, not the verb (which :func:`._faculties` checks for
    its own negation); "without Dov" before the subject still denies him."""
    if not mod.negated:
        return mod
    toks = s.tokens
    after = [toks[q].low for q in range(m.j, min(s.b, m.j + 3)) if not toks[q].quoted]
    if "without" not in after or any((w in _NEGATION and w != "without") or w.endswith("n't") for w in after):
        return mod
    before = [t.low for t in toks[s.clause_of(m.i)[0] : m.i] if not t.quoted]
    if " ".join(before[-3:]).endswith(("no sign of", "without", "nor", "no")):
        return mod
    return replace(mod, negated=False)


def _capitals(word: str) -> bool:
    """True for a word of two or more letters set all in capitals ("HE", "BEWARE")."""
    return len(word) > 1 and word.isalpha() and word.isupper()


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
        if s.tokens[k].low in _BODY_NOUNS or _capitals(s.tokens[k].text) or participle_at(s, k):
            continue  # "eyes wide", "hands shaking": the body part; ", wrapped in foil": a participle
        if lemma in _AUX_LEMMAS or lemma in ("get", "become", "seem", "look", "appear", "feel", "try"):
            continue
        have.add((eid, lemma))
        s.ex.claims.append(Claim("acts", (eid,), s.raw.strip(), s.span, mod, lemma))
