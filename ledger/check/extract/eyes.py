"""Eyes at work as the subject of their own clause: "her pale gaze settles on you", "Grima's eyes move along
the marks, one by one".

A creature's eyes (their "eyes", "eye" or "gaze", past a word or two of description) that settle, rest or
fall on someone, follow or meet them, or travel along, down or across writing, see: ``senses(owner,
sight)``. The owner is a name with "'s" or a possessive pronoun that fits one creature (the previous
subject first). Eyes that only move, turn or lift, eyes told blind or sightless, a sentence that makes the
writing a thing to feel, and negated verbs claim nothing. Read by :mod:`.conditions` for creatures whose
condition could take their sight.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import antecedent_or_one_named, pronoun_fits, verb_lemma
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.sight_cues import _EYES_LIGHT, _PRINT, _tactile

_EYE_NOUNS = frozenset({"eyes", "eye", "gaze", "stare"})
_POSSESSIVE = {"his": "he", "her": "she", "their": "they"}
# what seeing eyes do to someone or something: "her eyes follow him", "his gaze rests on the map"
_SEEING = frozenset({"follow", "track", "scan", "find", "meet", "search", "study", "read", "take"})
_ON = _EYES_LIGHT | {"settle", "rest", "fix", "fasten", "lock", "dwell", "hold"}
# eyes travelling over writing: "move along the marks", "run down the page", "travel across the lines"
_TRAVEL = frozenset(
    {"move", "run", "travel", "slide", "go", "pass", "drift", "skim", "crawl", "rove", "flick"}
)
_ALONG = frozenset({"along", "down", "across", "over", "through", "up"})
_WRITING = _PRINT | {
    "marks",
    "runes",
    "rune",
    "letters",
    "letter",
    "lines",
    "line",
    "words",
    "script",
    "writing",
}
_WRITING |= {"inscription", "glyphs", "symbols", "signs", "characters", "verses", "scroll", "notes", "names"}
_BLIND = frozenset({"blind", "sightless", "unseeing", "milky", "clouded", "empty", "dead", "white", "blank"})
_BLIND |= {"sightlessly", "blindly", "blankly", "unseeingly", "vacantly", "bandaged"}
_NOT = frozenset({"not", "never", "no", "cannot", "can't", "don't", "doesn't", "didn't", "won't"})


def _owner(s: _Sentence, p: int) -> str | None:
    """The creature the possessor at token ``p`` names: a name with "'s", or a fitting pronoun's one."""
    for m in s.mentions:
        if m.j == p + 1 and m.poss and m.id and not m.quoted:
            return m.id
    want = _POSSESSIVE.get(s.tokens[p].low)
    if want is None:
        return None
    return antecedent_or_one_named(s, pronoun_fits(s, want), p)


def eyes_at_work(s: _Sentence, blocked: frozenset[str]) -> list[tuple[str, str, Modality]]:
    """(owner, detail, modality) for each clause whose subject is a blocked creature's seeing eyes."""
    toks = s.tokens
    out: list[tuple[str, str, Modality]] = []
    if any(not t.quoted and t.low in _BLIND for t in toks[s.a : s.b]):
        return out
    for k in range(s.a + 1, s.b - 1):
        if toks[k].quoted or toks[k].low not in _EYE_NOUNS:
            continue
        # the possessor, past one or two words of description ("her pale gaze", "his sharp grey eyes")
        p = next(
            (q for q in range(k - 1, max(s.a, k - 4) - 1, -1) if toks[q].poss or toks[q].low in _POSSESSIVE),
            None,
        )
        if p is None or any(not toks[q].text.isalpha() for q in range(p + 1, k)):
            continue
        v = k + 1
        if toks[v].low.endswith("ly") and verb_lemma(toks[v].low) is None and v + 1 < s.b:
            v += 1  # "her eyes slowly move"
        lemma = verb_lemma(toks[v].low) if toks[v].text.islower() else None
        if lemma is None or {t.low for t in toks[max(s.a, k - 1) : v]} & _NOT:
            continue
        nxt = [t.low for t in toks[v + 1 : min(s.b, v + 8)] if not t.quoted]
        seeing = (lemma in _SEEING and lemma != "take") or (lemma == "take" and nxt[:1] == ["in"])
        seeing = seeing or (lemma in _ON and nxt[:1] in (["on"], ["upon"]))
        reading = lemma in _TRAVEL and nxt[:1] and nxt[0] in _ALONG and bool(_WRITING & set(nxt[1:6]))
        if not (seeing or reading) or (reading and _tactile(s)):
            continue
        owner = _owner(s, p)
        if owner is None or owner not in blocked:
            continue
        mod = s.modality(Mention(("",), k, k + 1, False, False, "public"))
        out.append((owner, f"eyes {toks[v].low} {' '.join(nxt[:2])}", mod))
    return out
