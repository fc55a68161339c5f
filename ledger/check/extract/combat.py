"""Combat claims: hit, missed, damaged and dead from attack phrasing, guided by who acted this round.

Holds the helpers that find where one attacker's blow ends and another's begins; the hit, miss, damage,
defence, kill and weapon word lists are in :mod:`.combat_words`. Imports :mod:`.combat_words`,
:mod:`.lexicon`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

import re

from ledger.check.extract.combat_words import (
    _BODY_PARTS,
    _CONTACT,
    _DAMAGE,
    _DEFEND,
    _FLUNG,
    _HIT,
    _KILL_VERBS,
    _MISS,
    _MISS_PHRASES,
    _STRUCK_PRONOUNS,
    _TAKES_IN,
    _WEAPONS,
)
from ledger.check.extract.lexicon import _BODY_NOUNS, _OBJECT_LEAD, _PRONOUN_POSS, VERBS
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as verb_lemma
from ledger.check.snapshot import ActionResult, WorldSnapshot


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


# after a verb of striking, a word of release makes it the subject's own struggle: "tears free of its
# alcove", "wrenches loose", "rips clear of the net" tell a creature getting free, never a blow landing
_RELEASE = frozenset({"free", "loose", "clear"})
# after a verb of a blow, a word of closing makes it a mouth or a trap closing, not a blow landing ("the jaws
# slam shut", "the trap snaps closed"): what it closes on tells the outcome (see _SHUT_ON)
_CLOSING = frozenset({"shut", "closed", "tight"})
_REFLEXIVES = frozenset({"itself", "himself", "herself", "themselves"})
# before a struck object, a word that restricts it: "smashes only stone", "cuts nothing but air", "hits
# merely the shield": the blow met that and nothing else, so the target it was aimed at was missed
_ONLY = frozenset({"only", "merely", "just", "nothing"})
_NOUN_LEAD = frozenset({"the", "a", "an", "his", "her", "its", "their", "my", "your", "our", "this", "that"})


def _denies(word: str) -> bool:
    return word in ("not", "never", "cannot") or word.endswith("n't")


def _polarity(words: list[str]) -> tuple[bool, bool]:
    text = " ".join(words)
    ahead = [*words[1:], ""]
    beyond = [*words[2:], "", ""][: len(words)]
    # "buries itself in his shoulder" lands; "tears itself free" does not
    behind = ["", *words[:-1]]
    # "clawing at the paper it cannot tear away", "does not cut": a blow denied does not land
    denied = ["", "", *words[:-2]][: len(words)]
    # "its maul", "a cut", "the strike": a hit word after a determiner is the noun, not the blow landing
    struck = [
        (w, n)
        for w, n, n2, p, p2 in zip(words, ahead, beyond, behind, denied, strict=True)
        if w in _HIT
        and n not in _RELEASE
        and n not in _CLOSING
        and not (n in _REFLEXIVES and n2 in _RELEASE)
        and p not in _NOUN_LEAD
        and not (_denies(p) or _denies(p2))
    ]
    shut_on = _SHUT_ON.search(text)
    shut_hit = shut_on is not None and shut_on.group(1) not in ("nothing", "air", "empty")
    hit = bool(struck) or bool(_HIT_PHRASES.search(text)) or shut_hit or bool(_TAKES_IN.search(text))
    miss = (
        any(w in _MISS for w in words)
        or bool(_MISS_PHRASES.search(text))
        or (shut_on is not None and not shut_hit)
    )
    if struck and all(n in _ONLY for _, n in struck) and not _HIT_PHRASES.search(text):
        hit, miss = False, True
    return hit, miss


# "slam shut on his calf" closes on the body: a hit; "snap shut on nothing", "on empty air": a miss
_SHUT_ON = re.compile(r"\b(?:shut|closed|tight) (?:on|around|about|over|upon) (\w+)")

_HIT_PHRASES = re.compile(
    r"\b(?:down (?:on|upon|across)|crashes into|finds (?:its|his|her) mark|bites deep|sinks deep|"
    r"draws blood|connects with)\b"
)


_LIMBS = _WEAPONS | {"arm", "arms", "limb", "limbs", "paw", "paws", "tentacle", "tentacles"}


def _own_limb_opens(s: _Sentence, eid: str, c: int) -> bool:
    """True when the clause at ``c`` opens with the attacker's own limb or weapon as its subject: a
    determiner or a possessive pronoun that fits ``eid`` ("its clawed hand", "the brass arm", "his blade"),
    up to two modifiers, the noun; no one named before it."""
    toks = s.tokens
    for q in range(c, min(s.b, c + 4)):
        t = toks[q]
        if t.quoted or any(x.i == q and s.kind(x) != "item" for x in s.mentions):
            return False
        if t.low in _LIMBS:
            return q > c
        if t.low in _PRONOUN_POSS and not _pronoun_fits(s.snap, eid, t.low):
            return False
        if q == c and t.low not in ("the", *_PRONOUN_POSS):
            return False
    return False


def _contact(s: _Sentence, start: int, stop: int) -> bool:
    """True when a verb of a blow landing has a creature (or him/her/them/it) right after it as its object,
    or "sends" one "sprawling": "the ogre's fist clips Ana's temple", "knocks him flat"."""
    toks = s.tokens
    for q in range(start, min(stop, s.b - 1)):
        t = toks[q]
        if t.quoted or not t.text.islower() or (q > s.a and toks[q - 1].low in _NOUN_LEAD):
            continue
        base = verb_lemma(t.low)
        if base is None or t.low.endswith("ing"):
            continue
        nxt = toks[q + 1].low
        # the creature itself, or its body ("Ana's temple"); not something of its ("knocks Piet's cup aside")
        struck = nxt in _STRUCK_PRONOUNS or any(
            x.i in (q + 1, q + 2)
            and s.kind(x) in ("pc", "npc", "monster")
            and (not x.poss or (x.j < s.b and toks[x.j].low in _BODY_PARTS))
            for x in s.mentions
        )
        if base in _CONTACT and struck and (nxt != "the" or q + 2 < stop):
            return True
        if base == "send" and struck and any(w.low in _FLUNG for w in toks[q + 2 : min(stop, q + 6)]):
            return True
    return False


def _struck_by(s: _Sentence, m: Mention) -> bool:
    """The passive: "Ana is struck by the ogre's maul", "gored by the boar": a participle of a blow landing,
    then "by" and the attacker."""
    toks = s.tokens
    q = m.i - 1
    if q - 1 < s.a or toks[q].low != "by" or toks[q - 1].quoted:
        return False
    part = toks[q - 1].low
    base = verb_lemma(part)
    landed = part in _HIT or (base is not None and base in _CONTACT)
    passive = q - 2 >= s.a and toks[q - 2].low in ("is", "was", "are", "were", "gets", "got", "been", "be")
    return landed and passive


_NEAR = frozenset({"beside", "behind", "near", "past", "above", "alongside", "by"})


def _beside(s: _Sentence, target: Mention, start: int) -> bool:
    """True when the target is named after a preposition of nearness ("beside Ana", "next to her head",
    "an inch from Ana's ear") following something else the blow met, not as what it struck."""
    toks = s.tokens
    q = target.i - 1
    if q <= start:
        return False
    if toks[q].low in _NEAR:
        return toks[q].low != "by" or toks[q - 1].low not in ("struck", "hit", "caught", "felled", "wounded")
    return toks[q].low in ("to", "from") and toks[q - 1].low in ("next", "close", "inches", "inch")


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
    toks = s.tokens
    rel = x.j + 1 if x.j < s.b and toks[x.j].text == "," else x.j
    if rel < s.b and toks[rel].low in ("who", "whom", "whose", "which", "that"):
        return False  # "lunges for Pallo, who is nearest the edge, and ...": the verb is a relative clause's
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


def _takes_object(s: _Sentence, k: int) -> bool:
    """True when the verb at ``k`` is followed by an object: a determiner, a pronoun or a named creature."""
    if k + 1 >= s.b:
        return False
    nxt = s.tokens[k + 1].low
    return nxt in _OBJECT_LEAD or any(x.i == k + 1 for x in s.mentions)


_OBJECT_PRONOUN_OF = {"him": "his", "her": "her", "it": "its", "them": "their"}
_FINDS_MARK = re.compile(r"\bfinds (?:its|his|her|their) (?:mark|target|home)\b")


def _next_sentence_blow(s: _Sentence) -> None:
    """ "Yselde, you plant a boot and loose. The quarrel takes the brute in its left eye": a sentence whose
    subject is the last sentence's attacker's own missile or weapon, no one named before it, tells how that
    attack went. Counted only when the blow meets a creature named in the clause or a part of the attack's
    target's body ("its left eye"), so a bolt that "hits the wall" is no hit on anyone."""
    eid = s.ex.antecedent.get(s.a)
    if eid is None or not _own_limb_opens(s, eid, s.a):
        return
    attacks = [a for a in s.snap.round.actions_by(eid) if _is_attack(a)]
    if not attacks:
        return
    toks = s.tokens
    c1 = s.clause_of(s.a)[1]
    head = next((q for q in range(s.a, c1) if toks[q].low in _LIMBS), None)
    if head is None:
        return
    creatures = s.creatures()
    stop = next((x.i for x in creatures if x.i > head and x.i < c1 and _actor_like(s, x)), c1)
    words = [t.low for t in toks[head + 1 : stop] if not t.quoted]
    hit, miss = _polarity(words)
    if not hit and not miss:
        hit = _contact(s, head + 1, stop)
    if hit == miss:
        return
    aimed = {a.target for a in attacks}
    target = next((x for x in creatures if head < x.i < stop and x.id in aimed), None)
    tid = target.id if target is not None else None
    if tid is None:
        # no creature named: a possessive pronoun before a body part that fits the one attack's target
        whom = attacks[0].target if len(aimed) == 1 else None
        # or an object pronoun that fits it ("The bolt takes him in the shoulder"), or the blow told
        # finding its mark
        if whom is None or not (
            any(
                toks[q].low in _POSSESSIVE_OF
                and any(toks[r].low in _BODY_PARTS for r in (q + 1, q + 2) if r < stop)
                and _pronoun_fits(s.snap, whom, toks[q].low)
                for q in range(head + 1, stop - 1)
            )
            or any(
                toks[q].low in _OBJECT_PRONOUN_OF
                and toks[q - 1].low not in ("at", "toward", "towards", "past", "over", "beside", "behind")
                and _pronoun_fits(s.snap, whom, _OBJECT_PRONOUN_OF[toks[q].low])
                for q in range(head + 1, stop)
            )
            or _FINDS_MARK.search(" ".join(words)) is not None
        ):
            return
        tid = whom
    if hit and target is not None and _beside(s, target, head + 1):
        hit, miss = False, True
    # the missile's own words anchor the claim when no one is named ("The bolt takes the beast ...")
    anchor = target or Mention((eid,), head, head + 1, False, toks[head].quoted, "public")
    if anchor.quoted:
        return
    mod = s.modality(anchor)
    if mod.hypothetical or mod.memory or mod.rumour:
        return
    s.claim("hit" if hit else "missed", (eid, tid), anchor, mod, "next sentence")


# verbs that strike only as a missile or blade's ("the bolt takes him", "the blade finds his ribs"); with a
# creature as the subject they lay hold ("takes her arm", "catches his sleeve") unless a place of impact
# follows ("catches him across the jaw")
_GRASPING = frozenset({"takes", "took", "catches", "caught", "finds", "found", "opens", "lands"})
_IMPACT = frozenset({"in", "on", "across", "with", "full", "square", "under", "below", "between"})


def _grasps(words: list[str]) -> bool:
    """True when every word of a blow in a creature's predicate is a verb of laying hold with no place of
    impact after it, up to the next clause: "takes Pell's arm and hauls him back"."""
    struck = [n for n, w in enumerate(words) if w in _HIT]
    if not struck or any(words[n] not in _GRASPING for n in struck):
        return False
    if _HIT_PHRASES.search(" ".join(words)) or _TAKES_IN.search(" ".join(words)):
        return False
    for n in struck:
        for w in words[n + 1 : n + 7]:
            if w in ("and", ",", ";", "then"):
                break
            if w in _IMPACT:
                return False
    return True


def _combat(s: _Sentence) -> None:
    """hit / missed / damaged / dead from attack phrasing, guided by who acted this round."""
    rnd = s.snap.round
    toks = s.tokens
    _next_sentence_blow(s)
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
        if v is not None and v[1] not in VERBS and not _takes_object(s, v[0]):
            v = None  # "It burns like dry paper": an intransitive verb the hand table lacks attacks no one
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
        if hit and not m.poss and _grasps(words):
            hit = False  # "He takes Pell's arm and hauls him back": a hand laid on, not a blow
        if miss and m.poss and any(toks[q].low == "first" for q in range(m.j, start)):
            continue  # "Bram's first swing goes wide. His second doesn't": one try of several
        if not hit and not miss:
            hit = _contact(s, start, stop) or _struck_by(s, m)
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
        elif c1 < s.b and toks[c1 - 1].text == ";" and not hit and not miss and _own_limb_opens(s, eid, c1):
            # "swings at Rook; the brass arm whistles through empty air", "lunges at the Parson; its clawed
            # hand rakes across his face": a blow with no outcome, then a clause whose subject is the
            # attacker's own limb or weapon telling one
            nxt_end = s.clause_of(c1)[1]
            l_hit, l_miss = _polarity([t.low for t in toks[c1:nxt_end] if not t.quoted])
            if l_hit != l_miss:
                hit, miss = l_hit, l_miss
            else:
                nxt_end = c1
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
        if hit and target is not None and _beside(s, target, start):
            # "the maul buries itself in the mud beside Ana", "the bolt thuds into the post behind her
            # head": a blow that lands next to someone landed on something else
            hit, miss = False, True
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
