"""Whose an item is: the creature a possessive pronoun or a place on the body names as its holder.

:func:`_pronoun_owner` reads "his"/"her"/"their"/"its" as the nearest fitting creature that opens a clause
(or the antecedent of ", who ..."); :func:`_carried_by` reads "the dagger at his hip", "the circlet on her
brow" (a thing worn or held at a place, :func:`_worn_at`); :func:`_holder_also_fits` keeps a pronoun carried
over from an earlier sentence from contradicting a holder that fits it as well. Read by :mod:`.holdings`;
imports :mod:`.lexicon`, :mod:`.linker`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.extract.combat_words import _BODY_PARTS
from ledger.check.extract.lexicon import (
    _BODY_NOUNS,
    _PRONOUN_POSS,
)
from ledger.check.extract.linker import fits_gender
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as lexicon_lemma

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
        "around",
        "round",
        "about",
        "through",
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


def _holder_also_fits(s: _Sentence, holder: Mention, iid: str) -> bool:
    """True when the holder is a pronoun's referent carried over from an earlier sentence ("She taps her
    staff") and the item's recorded holder, named earlier in the narration, fits that pronoun as well: the
    pronoun may be theirs, so the text does not say the item changed hands."""
    if holder.i != holder.j and s.tokens[holder.i].low not in ("he", "she", "they", "it"):
        return False  # a name, or a possessive resolved to someone named in this very sentence
    me = s.snap.entities.get(holder.id or "")
    held = s.snap.holders_of(iid)
    if me is None or not held or holder.id in held:
        return False
    fits = {h for h in held if (e := s.snap.entities.get(h)) is not None and fits_gender(e, me.pronoun)}
    return bool(fits) and any(m.id in fits for m in s.ex.between(0, holder.i))


_POSS_GENDER = {"his": "he", "her": "she", "their": "they", "its": "it"}


def _fits(s: _Sentence, eid: str | None, word: str) -> bool:
    """ "his" is a man (or a creature of unknown pronoun that is no monster), "her" a woman, "their" one
    recorded as they, "its" a creature recorded as it or a monster of unknown pronoun."""
    e = s.snap.entities.get(eid or "")
    if e is None:
        return False
    want = _POSS_GENDER[word]
    if e.pronoun is not None:
        return e.pronoun == want
    return (e.kind == "monster") == (want == "it") and want != "they"


_CLAUSE_OPENERS = frozenset(
    {",", ";", "and", "but", "as", "while", "when", "then", "—", "–", "because", "though", "until", "where"}
)


def _pronoun_owner(s: _Sentence, word: str, k: int, creatures: list[Mention]) -> Mention | None:
    """Who "his"/"her"/"their"/"its" at token ``k`` is: among the creatures named before it in the sentence
    that fit the pronoun, the nearest one that opens a clause (a subject: "as Ser Gault raises his shield"),
    else the sentence's first creature if it fits, else the nearest fitting one; with none, the previous
    sentence's subject when it fits. None when nobody fits."""
    toks = s.tokens
    opener = toks[s.a].low
    if (
        opener in ("he", "she")
        and _POSS_GENDER.get(word) == opener
        and not any(c.i == s.a for c in creatures)
    ):
        # "She sits through Marta's application, turning the signet on her finger": the sentence's own
        # subject, a pronoun the linker could not resolve, owns it, not someone named after it
        ante = s.ex.antecedent.get(s.a)
        return Mention((ante,), k, k, False, False, "public") if ante and _fits(s, ante, word) else None
    fitting = [c for c in creatures if c.i < k and _fits(s, c.id, word)]
    relative = _relative_antecedent(s, k, fitting)
    if relative is not None:
        return relative
    if fitting:
        subjects = [c for c in fitting if c.i == s.a or toks[c.i - 1].low in _CLAUSE_OPENERS]
        if subjects:
            return subjects[-1]
        first = creatures[0] if creatures else None
        if first is not None and first in fitting:
            return first
        return fitting[-1]
    ante = s.ex.antecedent.get(s.a)
    if ante is not None and _fits(s, ante, word) and not any(c.i < k for c in creatures if not c.poss):
        return Mention((ante,), k, k, False, False, "public")
    return None


def _relative_antecedent(s: _Sentence, k: int, fitting: list[Mention]) -> Mention | None:
    """ "... to Ume, who is sitting by the stove with her snowshoes": a possessive pronoun inside a relative
    clause is the clause's antecedent's, the name right before ", who", when it fits the pronoun."""
    toks = s.tokens
    for q in range(k - 1, s.a + 1, -1):
        low = toks[q].low
        if toks[q].quoted or low in (";", ".", ":", "—") or toks[q].text in (";", ":", "—"):
            return None
        if low in ("who", "whom") and toks[q - 1].text == ",":
            return next((c for c in fitting if c.j == q - 1 and not c.poss), None)
    return None


_WORN_ON = frozenset(
    {
        "thumb",
        "finger",
        "wrist",
        "neck",
        "brow",
        "head",
        "doublet",
        "vest",
        "jerkin",
        "apron",
        "robe",
        "robes",
        "shirt",
        "tunic",
        "collar",
        "chest",
        "breast",
        "hair",
        "lapel",
        "hat",
        "cap",
        "belt",
        "fingers",
        "wrists",
    }
    # clothes a thing is carried in or on: "inside your jacket", "in its garter holster"
    | {"jacket", "waistcoat", "coat", "overcoat", "greatcoat", "trousers", "breeches", "skirt", "dress"}
    | {"gown", "kimono", "garter", "holster", "sheath", "stocking", "glove", "gloves", "boots", "bodice"}
    | {"corset", "uniform", "overalls", "parka", "cuff", "sleeves", "shawl", "scarf", "hood", "bra"}
    | {"thigh", "thighs", "forearm", "calf", "waistband", "shin"}
)


# places a thing is worn "at", "around" or "on", but lodged "in" as a wound ("an arrow in its throat")
_WORN_AT = frozenset({"throat", "ear", "ears", "ankle", "ankles", "waist", "bosom", "temple"})
_LODGED = frozenset({"in", "into", "inside", "within", "through"})
_THRUST_THROUGH = frozenset({"belt", "sash", "girdle", "baldric", "buttonhole"})


def _worn_at(s: _Sentence, prep: int, place: int) -> bool:
    """True when the place at token ``place`` carries a thing after the preposition at ``prep``."""
    low = s.tokens[place].low
    if s.tokens[prep].low == "through":
        return low in _THRUST_THROUGH  # "thrust through his sash", not "an arrow through his shoulder"
    if low in _WORN_AT:
        return s.tokens[prep].low not in _LODGED
    return low in _CARRIED_IN or low in _BODY_NOUNS or low in _WORN_ON


def _verb_or_particle(word: str) -> bool:
    """A verb form or a particle after one ("weighs", "down"): what an item subject does to a pocket."""
    return word in ("down", "up", "in", "out") or (
        word not in _PRONOUN_POSS and word not in _CONJUNCTIONS and lexicon_lemma(word) is not None
    )


# words that open a clause, never the item's own verb ("past the lanterns while her fingers find ...")
_CONJUNCTIONS = frozenset({"while", "as", "when", "whenever", "since", "though", "until", "before", "after"})


def _carried_by(s: _Sentence, it: Mention, creatures: list[Mention]) -> Mention | None:
    """ "the dagger at his hip", "turns the astrolabe in her hennaed hands", "settles the circlet on her
    brow": a preposition, a possessive pronoun, at most two words, then a place on the body or the clothes;
    the pronoun's referent carries the item."""
    toks = s.tokens
    end = min(s.b, it.j + 8)
    for q in range(it.j, end - 2):
        if toks[q + 1].low not in _PRONOUN_POSS:
            continue
        # "at his hip", or the item's own verb right before ("the compass weighs down her coat pocket")
        led = toks[q].low in _TRAILING_PREPS or (
            q <= it.j + 1
            and it.j < s.b
            and _verb_or_particle(toks[it.j].low)
            and _verb_or_particle(toks[q].low)
        )
        if not led:
            continue
        for r in range(q + 2, min(end, q + 5)):
            if _worn_at(s, q, r):
                if any(t.low == "by" for t in toks[r + 1 : min(s.b, r + 3)]):
                    return None  # "pulled from his coat pocket by the clerk": out of it, by another's hand
                return _pronoun_owner(s, toks[q + 1].low, q + 1, creatures)
            if not toks[r].text.isalpha():
                break
        return None
    return None


def named_owner(s: _Sentence, iid: str, eid: str | None) -> bool:
    """True when the item's recorded name, an alias or its description names ``eid`` as its owner with a
    possessive ("Earl Pruitt's badge", "Cartivel's twisted gold neck-ring", "a deputy's star" of one called
    "the deputy"): then "Earl's badge" or "his badge" names whose it is, which stays true after it changes
    hands, and says nothing of who holds it now."""
    item, me = s.snap.entities.get(iid), s.snap.entities.get(eid or "")
    if item is None or me is None:
        return False
    mine = {a.name.split()[-1].lower() for a in me.names() if a.name.split()}
    mine |= {w.lower() for a in me.names() for w in a.name.split() if w[:1].isupper()}
    texts = [a.name for a in item.names()] + [item.description]
    for text in texts:
        for word in text.split():
            w = word.strip('.,;:!?"()')
            if w.lower().endswith(("'s", "’s")) and w[:-2].lower() in mine:
                return True
    return False


def body_part_of(s: _Sentence, k: int, i: int, j: int) -> bool:
    """True when an owner at token ``k`` stands right before a one-word item mention ``i``..``j`` that is a
    part of the body ("His chest lifts and falls" of a chest recorded as "the pay chest"): the owner's own
    body, not the item."""
    return j - i == 1 and i - 1 == k and s.tokens[i].low in _BODY_PARTS | _BODY_NOUNS
