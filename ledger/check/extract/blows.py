"""The round's attacks told across the narration: which sentences tell which attack, and whether they tell
it landing or missing.

:mod:`.combat` reads a blow only where the attacker is named as the subject of a verb of striking in the
same clause as its outcome. A narration often tells an attack over a passage instead: "Dozer is already
moving. The torque wrench comes round in a long flat arc ... and meets nothing", "Hotaru, gasping, you slap
a paper ward flat against the spirit's brow". This pass follows the narration's *agent*: a sentence (or a
clause of one) whose subject is an attacker, a pronoun standing for one, the attacker addressed ("Sanemori,
your tachi ..."), the attacker's weapon ("Wren's ashtray") or an item the attacker holds ("the wrench")
opens that attacker's passage, which runs until another creature takes the stage. Within the passage the
attack's outcome is read from what the blow meets:

- contact: a preposition of contact (into, across, against; in, on, through after a verb of a blow) whose
  noun phrase is the target, the target's body ("the torpedo's chest", "its hide" when "its" fits the
  target, "that white face", "high in the shoulder");
- a miss: the blow passing by the target or its body (past, off after a verb of glancing, a distance
  "from" it), meeting nothing or air, or a word that says so ("harmlessly", "misses", "not a scratch").

A passage with evidence of one kind only gives a ``hit`` or ``missed`` claim; both or neither give none.
Attacks :mod:`.combat` already told are left to it. Quoted words, negated, hypothetical, remembered and
reported passages make no claim. Run once per narration by :mod:`.pipeline` after the sentence passes;
imports :mod:`.combat` and its word classes (:mod:`.combat_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from ledger.check.claims import Claim, ClaimKind
from ledger.check.extract.combat import _is_attack, _pronoun_fits, _weapon_follows
from ledger.check.extract.combat_words import _BODY_PARTS, _CONTACT, _HIT, _MISS, _MISS_PHRASES
from ledger.check.extract.lexicon import _BODY_NOUNS
from ledger.check.extract.names import Extraction, Mention
from ledger.check.extract.predicates import _GENDER_NOUNS
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as verb_lemma
from ledger.check.snapshot import ActionResult, WorldSnapshot

# the surfaces of a body a blow lands on, beyond the limbs and organs combat names
_BODY = _BODY_PARTS | {
    "hide",
    "skin",
    "flesh",
    "scales",
    "gills",
    "torso",
    "breast",
    "heart",
    "guts",
    "collarbone",
    "haunch",
    "haunches",
    "snout",
    "muzzle",
    "ear",
    "ears",
    "scalp",
    "groin",
    "armpit",
    "rib",
    "shoulder",
    "body",
}
# verbs of a blow landing on what they take as object, by lemma
_STRIKES = frozenset(
    {"hit", "strike", "slam", "bite", "cut", "slash", "pierce", "wound", "smash", "cleave", "stab", "gash"}
    | {"crunch", "slice", "punch", "rake", "skewer", "impale", "batter", "sear", "scorch", "hammer", "crush"}
    | {"maul", "gore", "smite", "claw", "clip", "graze", "nick", "thump", "whack", "bash", "club", "kick"}
    | {"gouge", "sting", "bludgeon", "backhand", "pummel", "pound", "wallop", "clout", "cuff", "ram", "lash"}
    | {"slap", "smack", "trample", "stomp", "scratch", "crack", "split", "spear", "shoot", "burn", "scald"}
)
# prepositions of a blow meeting what follows: with any verb before them
_INTO = frozenset({"into", "across", "against", "onto", "deep"})
# prepositions that tell contact only after a verb of a blow ("takes him high in the shoulder")
_IN = frozenset({"in", "on", "through"})
# a blow passing by what follows
_BY = frozenset({"past", "beside", "behind", "above", "wide"})
# words of a distance kept: "a foot from the beast's flank", "an inch from his boot"
_DISTANCE = frozenset(
    {"inch", "inches", "foot", "feet", "yard", "yards", "hair", "hair's", "handspan", "breadth", "width"}
)
_DODGES = frozenset({"dodge", "dodges", "dodged", "duck", "ducks", "sidestep", "sidesteps", "evades"})
_MISS_WORDS = _MISS | {"harmless", "unscathed", "unharmed", "untouched", "unhurt"}
_MISS_TOLD = re.compile(
    r"\b(?:not|without) (?:a|so much as a) (?:scratch|mark|nick|graze)\b|"
    r"\b(?:on|through|at|into|only|thin|empty) air\b|\b(?:inches|feet|foot|yards?|inch) wide\b"
)
_DETERMINERS = frozenset({"the", "a", "an", "that", "this", "its", "his", "her", "their", "one", "both"})
_CREATURES = frozenset({"pc", "npc", "monster"})
_POSSESSIVES = frozenset({"its", "his", "her", "their"})
_SUBJECT_PRONOUNS = frozenset({"he", "she", "it", "they"})
_MODAL = frozenset({"would", "could", "might", "should", "will", "if", "unless", "almost", "nearly"})
_NEGATION = frozenset({"not", "never", "no", "n't", "cannot", "without", "fails", "failed"})
# the clause words that end one clause for this pass
_CLAUSE_MARKS = frozenset({",", ";", ":", "—", "–"})


@dataclass(slots=True)
class _Told:
    """What the passages of one attack tell: how many marks of contact and of missing, and where."""

    hits: int = 0
    misses: int = 0
    at: tuple[_Sentence, Mention] | None = None


def _blows(ex: Extraction, snap: WorldSnapshot, text: str, sentences: list[tuple[int, int]]) -> None:
    """hit / missed claims for the round's attacks that :mod:`.combat` did not tell, read by passage."""
    attacks = [a for a in snap.round.actions if _is_attack(a)]
    if not attacks:
        return
    told = {c.args[0] for c in ex.claims if c.kind in ("hit", "missed")}
    by_actor: dict[str, list[ActionResult]] = {}
    for a in attacks:
        by_actor.setdefault(a.actor, []).append(a)
    if all(actor in told for actor in by_actor):
        return
    held = {item: actor for actor in by_actor for item in _held_by(snap, actor)}
    found: dict[str, _Told] = {}
    current: str | None = None
    addressed: str | None = None  # the player character the narration last spoke to by name
    for lo_s, hi_s in sentences:
        s = _Sentence(ex, snap, text, lo_s, hi_s)
        pieces = _pieces(s)
        for n, (lo, hi) in enumerate(pieces):
            agent = _agent(s, lo, hi, by_actor, held, first=n == 0)
            if n == 0:
                addressed = _vocative(s) or addressed
            if agent is None and n == 0:
                agent = _lone_monster(s, lo, hi, by_actor)  # "It answers by raking its nails across ..."
            if agent is None and n == 0 and addressed is not None and _opens_on_you(s, lo, hi):
                # "Hotaru, you stagger ... Your ward flutters past": "you" is the one last addressed
                agent = (addressed, Mention((addressed,), lo, lo + 1, False, False, "public"))
            if agent is not None:
                who, anchor = agent
                # a later clause whose subject is the blow's target tells it taking or dodging the blow
                # ("and the brute twists"), unless it tells that creature's own attack
                aimed = {x.target for x in by_actor.get(current or "", ())}
                if current is not None and who in aimed and _evades(s, anchor):
                    # "The hound flows aside", "and the brute twists away": the blow misses it
                    _read(s, lo, hi, by_actor[current], found, anchor, evaded=who)
                    continue
                weapon = anchor.poss or s.kind(anchor) == "item"  # "the ward sears": a blow of its own
                if n == 0 or weapon or who not in aimed or _aims_here(s, lo, hi, by_actor.get(who, [])):
                    current = who if who in by_actor else None
                    if current is not None:
                        _read(s, lo, hi, by_actor[current], found, anchor)
                    continue
            elif _new_subject(s, lo, hi, current, first=n == 0):
                current = None  # someone else, unnamed in the ledger, takes the stage
                continue
            if current is not None and not _someone_elses(s, lo, hi, current):
                _read(s, lo, hi, by_actor[current], found, None)
    for a in attacks:
        t = found.get(a.id)
        if a.actor in told or t is None or t.at is None or (t.hits > 0) == (t.misses > 0):
            continue
        if len(by_actor[a.actor]) > 1 and len({x.target for x in by_actor[a.actor]}) > 1:
            continue  # two targets: the body parts told cannot say whose
        s, anchor = t.at
        mod = s.modality(anchor)
        if mod.in_dialogue or mod.hypothetical or mod.memory or mod.rumour or mod.negated:
            continue
        kind: ClaimKind = "hit" if t.hits else "missed"
        ex.claims.append(
            Claim(kind, (a.actor, a.target or ""), s.raw.strip(), s.span, mod, "told over the passage")
        )


def _held_by(snap: WorldSnapshot, actor: str) -> list[str]:
    """The items ``actor`` holds (their weapons among them)."""
    cached = snap.cache.get("blows-held")
    if not isinstance(cached, dict):
        cached = {}
        for item, holders in snap.holdings.items():
            for h in holders:
                cached.setdefault(h, []).append(item)
        snap.cache["blows-held"] = cached
    found: list[str] = cached.get(actor, [])
    return found


def _pieces(s: _Sentence) -> list[tuple[int, int]]:
    """The sentence cut at clause marks and at "and"/"so"/"but" after a comma: [lo, hi) token ranges."""
    toks = s.tokens
    cuts = [s.a]
    for k in range(s.a, s.b):
        t = toks[k]
        if t.quoted:
            continue
        if t.text in _CLAUSE_MARKS or (t.low in ("and", "so", "but", "then") and k > s.a):
            cuts.append(k + 1)
    cuts.append(s.b)
    return [(lo, hi) for lo, hi in pairwise(cuts) if hi > lo]


def _agent(
    s: _Sentence,
    lo: int,
    hi: int,
    by_actor: dict[str, list[ActionResult]],
    held: dict[str, str],
    *,
    first: bool,
) -> tuple[str, Mention] | None:
    """The creature this clause tells acting, and the mention that names it: a creature subject (named or
    a pronoun the linker resolved), the creature addressed ("Hotaru, gasping, you slap ..."), a creature's
    weapon ("Wren's ashtray sails"), or an item an attacker holds as the subject ("the wrench slams")."""
    toks = s.tokens
    for m in s.mentions:
        if not lo <= m.i < hi or m.quoted or m.id is None:
            continue
        kind = s.kind(m)
        if kind in ("pc", "npc", "monster"):
            if m.poss:
                if _weapon_follows(s, m) or _thing_acts(s, m):
                    return m.id, m  # "Fen's spear flies", "Wren's ashtray sails a foot wide"
                return None  # "the spirit's brow", "Hotaru's chest": where a blow lands
            if first and m.j < hi and toks[m.j].text == "," and _addressed(s, m.j + 1, hi):
                return m.id, m
            if m.j < s.b and toks[m.j].text == ",":
                if m.j + 1 < s.b and toks[m.j + 1].low in ("you", "your"):
                    return m.id, m  # "Sanemori, your tachi clears its scabbard"
                continue  # "Juno, ..." addressed, then someone else's clause
            if _verb_next(s, m, hi):
                return m.id, m
            return None
        if kind == "item" and not m.poss and m.id in held and _verb_next(s, m, hi):
            return held[m.id], m
    return None


def _evades(s: _Sentence, m: Mention) -> bool:
    """True when the creature's verb tells it getting out of a blow's way: a verb of defence ("ducks",
    "sidesteps") or any verb with "aside", "clear" or "away" after it ("flows aside", "leaps clear")."""
    if m.poss:
        return False
    v = s.verb_after(m)
    if v is None or _negated(s, m.j, v[0]):
        return False
    after = {s.tokens[q].low for q in range(v[0] + 1, min(s.b, v[0] + 3))}
    return v[2] in _DEFENCES or bool(after & {"aside", "clear", "away"})


def _negated(s: _Sentence, lo: int, hi: int) -> bool:
    return any(s.tokens[q].low in _NEGATION for q in range(lo, hi + 1))


_DEFENCES = frozenset({"dodge", "sidestep", "duck", "evade", "parry", "deflect", "block", "swerve"})


def _thing_acts(s: _Sentence, m: Mention) -> bool:
    """True when a possessive names a thing of the creature's, not its body, as the subject of a verb: an
    improvised weapon ("Wren's ashtray sails", "Odo's lantern smashes")."""
    toks = s.tokens
    if m.j >= s.b or not toks[m.j].text.isalpha() or not toks[m.j].text.islower():
        return False
    noun = toks[m.j].low
    if _body(noun) or noun in _BODY_NOUNS or verb_lemma(noun) == noun:
        return False  # "Pell's face goes white"; "Pell's cut" reads as a verb
    nxt = toks[m.j + 1].low if m.j + 1 < s.b else ""
    base = verb_lemma(nxt)
    return base is not None and nxt != base and not nxt.endswith("ing")  # "sails", "sailed"


def _vocative(s: _Sentence) -> str | None:
    """The player character a sentence opens by addressing: a name, then a comma ("Marisol, the troll
    looms over you")."""
    toks = s.tokens
    m = next((x for x in s.mentions if x.i == s.a and not x.quoted), None)
    if m is None or m.id is None or m.poss or s.kind(m) != "pc" or m.j >= s.b or toks[m.j].text != ",":
        return None
    return m.id


def _lone_monster(
    s: _Sentence, lo: int, hi: int, by_actor: dict[str, list[ActionResult]]
) -> tuple[str, Mention] | None:
    """The one monster attacking this round, for a clause that opens on "it" or "its" the linker left
    unresolved."""
    toks = s.tokens
    if lo >= hi or toks[lo].quoted or toks[lo].low not in ("it", "its") or any(m.i == lo for m in s.mentions):
        return None
    monsters = [x for x in by_actor if (e := s.snap.entities.get(x)) is not None and e.kind == "monster"]
    if len(monsters) != 1:
        return None
    return monsters[0], Mention((monsters[0],), lo, lo + 1, toks[lo].low == "its", False, "public")


def _opens_on_you(s: _Sentence, lo: int, hi: int) -> bool:
    """True when the clause's first word is "you" or "your" (narration)."""
    k = next((q for q in range(lo, hi) if not s.tokens[q].quoted and s.tokens[q].text.isalpha()), None)
    return k is not None and s.tokens[k].low in ("you", "your")


def _addressed(s: _Sentence, lo: int, hi: int) -> bool:
    """True when "you" or "your" opens the words after an address, past a participle ("gasping, you")."""
    toks = s.tokens
    for k in range(lo, min(s.b, lo + 5)):
        low = toks[k].low
        if low in ("you", "your"):
            return True
        if low in _SUBJECT_PRONOUNS or any(m.i == k for m in s.mentions):
            return False
    return False


def _verb_next(s: _Sentence, m: Mention, hi: int) -> bool:
    """True when a verb follows the mention within its clause: "The gunman swings", "Dozer is moving"."""
    v = s.verb_after(m)
    if v is not None and v[0] < max(hi, m.j + 4):
        return True
    # a verb the hand table lacks, in an inflected form right after the name ("the ward sears into")
    nxt = s.tokens[m.j] if m.j < hi else None
    if nxt is None or not nxt.text.islower() or nxt.quoted:
        return False
    base = verb_lemma(nxt.low)
    return base is not None and nxt.low != base and not nxt.low.endswith("ing")


def _new_subject(s: _Sentence, lo: int, hi: int, current: str | None, *, first: bool) -> bool:
    """True when the clause opens on someone the ledger does not name or a pronoun that cannot stand for
    the attacker of the passage ("Someone screams"; "He answers with a cudgel" after Mira's arrow)."""
    toks = s.tokens
    k = lo
    while k < hi and toks[k].quoted:
        k += 1
    if k + 1 >= hi:
        return False
    low = toks[k].low
    if first and low in ("someone", "somebody", "nobody", "everyone", "everybody"):
        return True
    # "he" or "she" that is not the attacker; "it" may be the weapon ("and it meets nothing")
    if low in ("he", "she") and not any(m.i == k for m in s.mentions):
        poss = "his" if low == "he" else "her"
        return current is None or not _pronoun_fits(s.snap, current, poss)
    return False


def _someone_elses(s: _Sentence, lo: int, hi: int, current: str) -> bool:
    """True when the clause opens on another creature's weapon or limb ("its own blade whistles past" in
    a passage about Oswin): a possessive pronoun that cannot stand for the attacker."""
    toks = s.tokens
    for k in range(lo, min(hi, lo + 2)):
        low = toks[k].low
        if low in _POSSESSIVES:
            return not _pronoun_fits(s.snap, current, low)
    return False


def _aims_here(s: _Sentence, lo: int, hi: int, actions: list[ActionResult]) -> bool:
    """True when the clause names one of the attacker's targets (or its body): it tells that attack."""
    for a in actions:
        if a.target and any(m.id == a.target and lo <= m.i < hi and not m.quoted for m in s.mentions):
            return True
    return False


def _read(
    s: _Sentence,
    lo: int,
    hi: int,
    actions: list[ActionResult],
    found: dict[str, _Told],
    anchor: Mention | None,
    evaded: str | None = None,
) -> None:
    """Count the marks of contact and of missing in the clause [lo, hi) for each of the attacker's
    actions."""
    toks = s.tokens
    words = [t.low for t in toks[lo:hi] if not t.quoted]
    if not words or _MODAL & set(words):
        return
    phrase = _plain(words)
    for a in actions:
        if a.target is None:
            continue
        hits = misses = 0
        for k in range(lo, hi):
            t = toks[k]
            if t.quoted:
                continue
            low = t.low
            if _striking(s, k) and _target_np(s, k + 1, hi, a) and not _given(s, k + 1, hi):
                hits += 1  # "the wrench cracks the hound's skull", "claws Pell's back"
            elif low in _INTO or (low in _IN and _blow_before(s, lo, k)):
                q = k + 1 if low != "deep" else k + 2  # "bites deep into the thing's shoulder"
                if low == "deep" and not (k + 1 < hi and toks[k + 1].low in ("into", "in")):
                    continue
                if _target_np(s, q, hi, a):
                    hits += 1
            elif _passing(s, lo, k) and _target_np(s, k + 1, hi, a) and not _creature_goes(s, lo, k):
                misses += 1
        # a word of missing with no target of its own: this attack's, unless the clause names someone else
        # ("whistles past Durgan's ear" is a blow at Durgan)
        others = any(
            lo <= m.i < hi and not m.quoted and m.id not in (a.actor, a.target) and s.kind(m) in _CREATURES
            for m in s.mentions
        )
        # "Hale ducks past the troll": the attacker's own dodging is no word of its blow missing
        own = _creature_goes(s, lo, hi)
        told_miss = (
            any(w in _MISS_WORDS and not (own and w in _DODGES) for w in words)
            or _MISS_PHRASES.search(phrase)
            or _MISS_TOLD.search(phrase)
        )
        # "the arrow doesn't miss", "never misses": a word of missing denied tells nothing here
        denied = any(w in ("not", "never", "cannot") or w.endswith("n't") for w in words)
        if (told_miss and not others and not denied) or evaded == a.target:
            misses += 1
        if hits and (_NEGATION & set(words) or denied):
            hits = 0  # "does not sink into its hide"
        if not hits and not misses:
            continue
        t2 = found.setdefault(a.id, _Told())
        t2.hits += hits
        t2.misses += misses
        if t2.at is None:
            where = anchor or _anchor(s, lo, hi)
            if where is not None:
                t2.at = (s, where)


def _anchor(s: _Sentence, lo: int, hi: int) -> Mention | None:
    """A mention of the clause to anchor the claim's modality on, or a stand-in over its first word."""
    toks = s.tokens
    k = next((q for q in range(lo, hi) if not toks[q].quoted and toks[q].text.isalnum()), None)
    if k is None:
        return None
    return Mention(("",), k, k + 1, False, False, "public")


def _striking(s: _Sentence, k: int) -> bool:
    """True when the word at ``k`` is a verb of a blow landing, as a verb (not after a determiner): only the
    blows themselves, not the verbs that also take, hold or find ("takes Pell's hand")."""
    t = s.tokens[k]
    if not t.text.islower() or (k > s.a and s.tokens[k - 1].low in _DETERMINERS) or t.low.endswith("ing"):
        return False
    base = verb_lemma(t.low)
    return base is not None and base in _STRIKES


def _given(s: _Sentence, q: int, hi: int) -> bool:
    """True when the creature after the verb is the receiver of a thing named next ("shoots the sergeant a
    look", "cracks him a grin"): the verb gives, it does not strike."""
    m = next((x for x in s.mentions if x.i in (q, q + 1) and not x.poss), None)
    return m is not None and m.j < hi and s.tokens[m.j].low in ("a", "an", "one", "that", "this")


def _blow_before(s: _Sentence, lo: int, k: int) -> bool:
    """True when a verb of a blow comes before ``k`` in the clause ("takes the doorman high in the
    shoulder", "catches him on the jaw"): only then do "in", "on" and "through" tell contact."""
    for q in range(k - 1, lo - 1, -1):
        low = s.tokens[q].low
        base = verb_lemma(low)
        if low in _HIT or (base is not None and (base in _CONTACT or base in ("take", "catch", "put"))):
            return True
    return False


def _creature_goes(s: _Sentence, lo: int, k: int) -> bool:
    """True when the clause before ``k`` opens on a creature or a personal pronoun: "Ilse darts past the
    ghoul", "you duck past it" tell a body moving, not a blow passing its target."""
    toks = s.tokens
    q = next((x for x in range(lo, k) if toks[x].text.isalpha()), None)
    if q is None:
        return False
    if toks[q].low in ("he", "she", "you", "they", "i", "we"):
        return True
    return any(m.i == q and not m.poss and s.kind(m) in _CREATURES for m in s.mentions)


def _passing(s: _Sentence, lo: int, k: int) -> bool:
    """True when the word at ``k`` tells a blow going by what follows: "past", "beside", "wide"; "off"
    after a glancing verb; "from" after a distance ("an inch from his boot")."""
    low = s.tokens[k].low
    if low in _BY:
        return True
    if low == "off":
        return _glancing(s, lo, k)
    return low == "from" and any(s.tokens[q].low in _DISTANCE for q in range(max(lo, k - 3), k))


def _glancing(s: _Sentence, lo: int, k: int) -> bool:
    """True when "off" follows a verb of a blow turned aside ("skates harmlessly off its hide")."""
    text = _plain(t.low for t in s.tokens[max(lo, k - 3) : k + 1])
    return _MISS_PHRASES.search(text) is not None


def _plain(words: Iterable[str]) -> str:
    """The words joined without their adverbs of manner ("skids uselessly off" -> "skids off"), so the
    phrases of missing match whatever adverb the narrator puts in."""
    return " ".join(w for w in words if not (w.endswith("ly") and len(w) > 4 and verb_lemma(w) is None))


def _target_np(s: _Sentence, q: int, hi: int, a: ActionResult) -> bool:
    """True when the noun phrase opening at ``q`` is the attack's target or a part of its body: a mention
    of the target ("Pike", "the torpedo's chest"), a possessive pronoun that fits it before a body part
    ("its hide"), or a determiner, up to two modifiers and a body part ("that white face", "the
    shoulder") or an unnamed creature's body part ("the thing's shoulder")."""
    toks = s.tokens
    target = a.target
    if target is None or q >= hi:
        return False
    for m in s.mentions:
        if m.i == q or (m.i == q + 1 and toks[q].low in ("the", "a", "an")):
            if m.id != target:
                return False
            return not m.poss or (m.j < hi and _body(toks[m.j].low)) or _body_within(s, m.j, hi)
    first = toks[q].low
    if first in _POSSESSIVES:
        return _pronoun_fits(s.snap, target, first) and _body_within(s, q + 1, hi)
    if first in _DETERMINERS or first in ("high", "low", "deep", "square", "full"):
        return _body_within(s, q + 1, hi) or (first in _DETERMINERS and _epithet(s, q + 1, hi, target))
    return False


# what a narrator calls a creature it does not name: "the beast", "the thing"; "the man", "the woman"
_BEAST_WORDS = frozenset({"beast", "brute", "creature", "thing", "monster", "horror", "abomination", "fiend"})


def _epithet(s: _Sentence, q: int, hi: int, target: str) -> bool:
    """True when the noun phrase at ``q`` (up to two modifiers) is headed by a word for an unnamed creature
    that fits the target: a beast word for a monster, a word for a man or a woman that fits its pronoun
    ("crunches into the old man")."""
    e = s.snap.entities.get(target)
    if e is None:
        return False
    toks = s.tokens
    for k in range(q, min(hi, q + 3)):
        t = toks[k]
        if t.poss or not t.text.isalpha() or any(m.i == k for m in s.mentions):
            return False
        if e.kind == "monster" and t.low in _BEAST_WORDS:
            return True
        want = _GENDER_NOUNS.get(t.low)
        if want is not None and e.kind != "monster":
            return e.pronoun in (None, want)
    return False


def _body_within(s: _Sentence, q: int, hi: int) -> bool:
    """True when a body part heads the noun phrase at ``q``: up to two modifiers (or an unnamed owner's
    "thing's"), then the part."""
    toks = s.tokens
    for k in range(q, min(hi, q + 4)):
        t = toks[k]
        if any(m.i == k for m in s.mentions):
            return False
        if _body(t.low):
            return True
        if t.low in ("the", "a", "an", "in", "on") and k == q:
            continue  # "high in the shoulder"
        if not t.text.isalpha() and not t.poss:
            return False
    return False


def _body(word: str) -> bool:
    return word in _BODY
