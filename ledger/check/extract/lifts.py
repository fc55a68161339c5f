"""A condition the narration itself lifts: after it, the faculty it took is no claim against the record.

The narration may tell a change the ledger has not caught up with: a bandage unwound from the eyes, a gag
pulled out, wax dug from the ears, sight or a voice coming back, the blindness lifting, a healer curing
someone, the senseless waking. What the creature then sees, hears, says or does is told after the change,
so :mod:`.conditions` makes no ``senses`` claim for that faculty (and no ``acts`` claim for a woken body)
from the sentence of the lift on. Read from word classes, not sentences:

- a verb of taking off (unwind, untie, pull ... off) with a covering of an organ in its object (bandage,
  blindfold, gag, wax), or the covering as subject of "comes off" / "falls away";
- the faculty's noun (sight, hearing, voice) as subject of a verb of return (returns, comes back, clears),
  or object of a verb of getting back (regains, recovers, restores);
- the condition's noun (blindness, deafness, the spell, the curse) as subject of a verb of passing (lifts,
  breaks, fades, wears off), or object of a verb of ending (breaks, dispels, lifts, cures);
- a verb of curing with the creature itself as object ("heals Marit", "cures her"), or one of waking with
  it as subject ("Bram wakes", "comes to");
- a verb of the faculty with "again" ("can see again"); a verb of freeing with the creature as object, or
  "free" / "loose" after a verb ("frees Moss", "cuts him free").

An unsure lift is still taken (it only withholds claims), but not one tried, hoped for or still to come.
Which creature: one named (or owning a noun) in the sentence that has a condition the lift ends, else the
sentence's antecedent, else the one such creature in the scene (for a covering or a faculty: a cure, a
waking or a freeing names whom it is for). Imports :mod:`.predicates`; kept for the last extraction only.
"""

from __future__ import annotations

from ledger.check.extract.predicates import _NEG_BEFORE, any_lemma, verb_lemma
from ledger.check.extract.sentence import _Sentence

# the faculty each condition takes (as ledger.check.judge_meaning.FACULTY_LOST, plus acting for a helpless
# body)
_TAKES: dict[str, frozenset[str]] = {
    "blinded": frozenset({"sight"}),
    "blind": frozenset({"sight"}),
    "deafened": frozenset({"hearing"}),
    "deaf": frozenset({"hearing"}),
    "silenced": frozenset({"speech"}),
    "gagged": frozenset({"speech"}),
    "mute": frozenset({"speech"}),
    "muted": frozenset({"speech"}),
    "restrained": frozenset({"movement"}),
    "grappled": frozenset({"movement"}),
}
_ALL = frozenset({"sight", "hearing", "speech", "movement", "acts"})
for _c in ("unconscious", "asleep", "petrified", "paralyzed", "paralysed", "stunned", "incapacitated"):
    _TAKES[_c] = _ALL

# coverings of an organ, by the faculty they take
_COVERS: dict[str, str] = {
    **dict.fromkeys(("bandage", "blindfold", "hood", "dressing", "wrapping", "patch", "veil"), "sight"),
    **dict.fromkeys(("wax", "plug", "earplug", "earmuff", "muff", "cotton"), "hearing"),
    **dict.fromkeys(("gag", "muzzle", "rag"), "speech"),
    **dict.fromkeys(("rope", "chain", "shackle", "manacle", "cord", "strap", "bond", "fetter"), "movement"),
}
# verbs that take a covering off by themselves ("unwinds the bandage"); others need "off" ("pulls ... off")
_UNDO = frozenset(
    {"unwind", "unwrap", "untie", "unbind", "unknot", "remove", "peel", "strip", "undo", "lift"}
)
_UNDO |= {"unpin", "unbuckle", "unlace", "unfasten", "unlock", "unchain", "unshackle", "loosen"}
_TAKE_OFF = frozenset({"pull", "take", "tear", "rip", "slip", "ease", "draw", "tug", "yank", "dig", "cut"})
_FREE = frozenset({"free", "release", "unbind", "untie", "unchain", "unshackle", "unfetter", "loose"})
_OFF = frozenset({"off", "away", "from", "out", "free", "loose"})
_FALL_OFF = frozenset({"come", "fall", "slip", "drop", "slide", "unravel"})
# the faculty's own nouns, and what they do when it comes back
_FACULTY_NOUNS: dict[str, str] = {
    **dict.fromkeys(("sight", "eyesight", "vision", "eyes"), "sight"),
    **dict.fromkeys(("hearing", "ears"), "hearing"),
    **dict.fromkeys(("voice", "speech", "tongue"), "speech"),
    **dict.fromkeys(("consciousness", "senses"), "wake"),
}
_RETURN = frozenset({"return", "clear", "sharpen", "recover", "improve", "steady", "focus", "pop", "unblock"})
_COME_BACK = frozenset({"come", "flood", "creep", "seep", "trickle", "swim"})  # "comes back", "floods back"
_REGAIN = frozenset({"regain", "recover", "restore", "return", "retrieve"})
# the conditions' nouns, and the verbs of their passing or ending
_STATE_NOUNS: dict[str, str] = {
    **dict.fromkeys(("blindness",), "sight"),
    **dict.fromkeys(("deafness",), "hearing"),
    **dict.fromkeys(("muteness", "dumbness"), "speech"),
    **dict.fromkeys(("paralysis", "stupor", "swoon", "faint", "trance", "sleep"), "all"),
    **dict.fromkeys(("spell", "curse", "enchantment", "hex", "charm", "magic", "glamour"), "all"),
}
_PASS = frozenset({"lift", "break", "fade", "pass", "end", "wear", "dissolve", "vanish", "ebb", "leave"}) | {
    "shatter",
    "release",
    "loosen",
    "clear",
}
_END = frozenset({"break", "dispel", "lift", "cure", "heal", "end", "undo", "remove", "banish", "dismiss"})
_CURE = frozenset({"heal", "cure", "restore", "revive", "rouse", "wake", "awaken", "waken", "unpetrify"})
_WAKE = frozenset({"wake", "awake", "awaken", "waken", "revive", "stir"})
_FACULTY_VERBS: dict[str, str] = {"see": "sight", "hear": "hearing", "speak": "speech", "talk": "speech"}

LIFTED = "lifted in the narration"  # the detail of the condition_gone claim a lift makes
_SENSELESS = frozenset({"unconscious", "asleep", "stunned", "incapacitated"})  # what waking ends
# words before a verb that leave its change untold: an attempt, a wish, a condition, a time still to come
_HEDGES = frozenset({"try", "tries", "tried", "trying", "attempt", "attempts", "attempted", "fail", "fails"})
_HEDGES |= {"failed", "struggles", "struggled", "wants", "hopes", "wishes", "until", "before", "if", "unless"}
_HEDGES |= {"could", "would", "might", "will", "may", "should", "must", "can", "shall", "cannot", "soon"}
_ARTICLES = frozenset({"a", "an", "the", "this", "that"})  # "a fresh strip of bandage": a noun, no verb
_LAST: list[tuple[object, dict[str, set[str]]]] = []  # (extraction, creature -> conditions lifted so far)


def lifted(s: _Sentence, eid: str, faculty: str) -> bool:
    """True when the narration has lifted, by the end of sentence ``s``, every condition that took
    ``faculty`` (sight, hearing, speech, movement, acts) from ``eid`` (:func:`note_lifts` first)."""
    e = s.snap.entities.get(eid)
    if e is None or not _LAST or _LAST[0][0] is not s.ex:
        return False
    gone = _LAST[0][1].get(eid, set())
    taking = [c for c in e.conditions if faculty in _TAKES.get(c, frozenset())]
    return bool(taking) and all(c in gone for c in taking)


def lifted_conditions(s: _Sentence) -> dict[str, set[str]]:
    """Creature -> the conditions the narration has lifted so far (by the end of sentence ``s``)."""
    return _LAST[0][1] if _LAST and _LAST[0][0] is s.ex else {}


def note_lifts(s: _Sentence) -> dict[str, set[str]]:
    """Record the lifts told in sentence ``s`` (sentences come in order; a new extraction starts afresh);
    returns this sentence's: creature -> conditions lifted."""
    if not _LAST or _LAST[0][0] is not s.ex:
        _LAST[:] = [(s.ex, {})]
    here: dict[str, set[str]] = {}
    for faculty in _lifts(s):
        for eid in _whose(s, faculty):
            e = s.snap.entities.get(eid)
            conds = {c for c in (e.conditions if e else ()) if c in _TAKES and _ends(faculty, c)}
            here.setdefault(eid, set()).update(conds)
    table = _LAST[0][1]
    for eid, conds in here.items():
        table.setdefault(eid, set()).update(conds)
    return here


def _ends(what: str, cond: str) -> bool:
    """Whether a lift of ``what`` (a faculty, "wake" or "all") ends condition ``cond``: a bandage off ends
    blindness, not a swoon; waking ends a swoon, not blindness; a cure ends any."""
    if what == "all":
        return True
    if what == "wake":
        return cond in _SENSELESS
    return _TAKES[cond] == frozenset({what})


def _lifts(s: _Sentence) -> set[str]:
    """The faculties (or "all") sentence ``s`` tells given back, by whomever."""
    toks = s.tokens
    words = [(k, toks[k].low) for k in range(s.a, s.b) if not toks[k].quoted and toks[k].text.isalpha()]
    out: set[str] = set()
    for n, (k, w) in enumerate(words):
        if any(x in _NEG_BEFORE or x.endswith("n't") or x in _HEDGES for _, x in words[max(0, n - 3) : n]):
            continue  # "cannot undo the gag", "never regains her sight", "tries to wake him"
        verb = verb_lemma(w) if not _ARTICLES & {x for _, x in words[max(0, n - 2) : n]} else None
        after = [x for _, x in words[n + 1 : n + 8]]
        before = [x for _, x in words[max(0, n - 4) : n]]
        noun = any_lemma(w)
        if verb in _UNDO or (verb in _TAKE_OFF and _OFF & set(after)):
            out |= {_COVERS[any_lemma(x)] for x in after[:6] if any_lemma(x) in _COVERS}
        if noun in _COVERS and after[:1] and verb_lemma(after[0]) in _FALL_OFF and _OFF & set(after[1:3]):
            out.add(_COVERS[noun])  # "the bandage comes away", "the gag falls out"
        if w in _FACULTY_NOUNS and after[:1]:
            nxt = verb_lemma(after[0])
            if nxt in _RETURN or (nxt in _COME_BACK and "back" in after[1:3]):
                out.add(_FACULTY_NOUNS[w])  # "her sight returns", "his hearing comes back"
        if verb in _REGAIN:
            out |= {_FACULTY_NOUNS[x] for x in after[:3] if x in _FACULTY_NOUNS}  # "regains her voice"
        if w in _STATE_NOUNS and after[:1] and verb_lemma(after[0]) in _PASS:
            out.add(_STATE_NOUNS[w])  # "the blindness lifts", "the spell breaks"
        if verb in _END:
            out |= {_STATE_NOUNS[x] for x in after[:3] if x in _STATE_NOUNS}  # "breaks the curse"
        if verb in _CURE and after[:1] and _creature_at(s, k + 1):
            out.add("all")  # "heals Marit", "revives Bram"
        if verb in _CURE and after[:1] and after[0] in ("him", "her", "them"):
            out.add("all")
        if verb in _WAKE and verb != "stir" and before[-1:] != ["to"]:
            out.add("wake")  # "Bram wakes", "stirs awake" below
        if verb == "stir" and "awake" in after[:1]:
            out.add("wake")
        if verb == "come" and after[:1] in (["to"], ["round"], ["around"]) and _clause_ends(s, k + 2):
            out.add("wake")  # "comes to.", "comes round, groaning"; not "comes round with the tray"
        if verb in _FREE and (after[:1] in (["him"], ["her"], ["them"]) or _creature_at(s, k + 1)):
            out.add("movement")  # "frees Moss", "unties him"
        if verb in _TAKE_OFF | _FREE | {"set", "let", "break", "wrench", "twist"} and {"free", "loose"} & set(
            after[:3]
        ):
            out.add("movement")  # "cuts Moss free", "wrenches himself loose"
        if verb in _FACULTY_VERBS and "again" in after[:4]:
            out.add(_FACULTY_VERBS[verb])  # "can see again"
    return out


_CREATURES = ("pc", "npc", "monster")


def _creature_at(s: _Sentence, k: int) -> bool:
    """True when a creature's name (not its possessive) starts at token ``k``."""
    return any(x.i == k and not x.poss and s.kind(x) in _CREATURES for x in s.mentions)


def _clause_ends(s: _Sentence, k: int) -> bool:
    """True when token ``k`` closes the clause (the sentence's end, a punctuation mark, "and"), or opens
    the manner of a waking ("with a groan", "with a start")."""
    toks = s.tokens
    if k >= s.b or not toks[k].text.isalpha() or toks[k].low == "and":
        return True
    return toks[k].low == "with" and k + 2 < s.b and toks[k + 1].low == "a" and toks[k + 2].low in _JOLTS


# how one comes to: "comes to with a groan", "with a start"
_JOLTS = frozenset({"groan", "start", "gasp", "moan", "jolt", "cough", "shudder", "jerk", "splutter", "cry"})
_JOLTS |= {"sputter", "wince", "curse", "sob", "shiver", "twitch", "snort", "lurch"}


def _whose(s: _Sentence, faculty: str) -> list[str]:
    """The creatures a lift of ``faculty`` in sentence ``s`` belongs to."""
    snap = s.snap

    def takes(eid: str | None) -> bool:
        e = snap.entities.get(eid) if eid else None
        if e is None:
            return False
        return any(cond in _TAKES and _ends(faculty, cond) for cond in e.conditions)

    named = [m.id for m in s.mentions if m.id and takes(m.id)]
    if named:
        return list(dict.fromkeys(named))
    ante = s.ex.antecedent.get(s.a)
    if ante is not None and takes(ante):
        return [ante]
    if faculty in ("all", "wake", "movement") and any(m.id and s.kind(m) in _CREATURES for m in s.mentions):
        return []  # "Fenna sets the gull free": the one freed, cured or woken would be named
    cast = [eid for eid in snap.scene.present if takes(eid)]
    return cast if len(cast) == 1 else []  # "The bandage comes away": the one blindfolded creature here
