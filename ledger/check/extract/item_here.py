"""An item told lying about somewhere now, or working though destroyed: "The poisoned chalice sits on a
velvet cushion", "the almanac is hidden under the floor", "the old foghorn bellows across the bay".

:func:`_item_is_here` and :func:`_works_though_destroyed` are read by :mod:`.holdings` (which claims
``holds(*somewhere*, item, "exists")``); the word classes of lying about and of places that are none
(``_ITEM_HERE``, ``_PUT_AWAY``, ``_NOT_A_PLACE``) are shared with :mod:`.item_scene` and :mod:`.in_use`.
"""

from __future__ import annotations

from itertools import pairwise

from ledger.check.extract.handling import _CLAUSE_BREAKS, _LOCATIVE, _NOUN_MARKERS, _PREPOSITIONS
from ledger.check.extract.item_mentions import (
    _told_plural,
)
from ledger.check.extract.lexicon import (
    _NUMBERS,
    _PRONOUN_POSS,
    _SUBJECT_LEAD,
    VERBS,
    _is_past,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import is_finite
from ledger.check.extract.verbs import lemma as lexicon_lemma

_ITEM_HERE = frozenset(
    {"sit", "rest", "lie", "hang", "stand", "wait", "gleam", "glint", "glitter", "shine", "lean"}
    | {"ride", "float", "bob", "remain", "perch", "loom", "squat", "tower"}
)
# where a thing may be told to lie after "is": "is at the quay", "are in the cellar"
_HERE_PREPS = frozenset(
    {"at", "in", "on", "by", "beside", "under", "inside", "behind", "against", "near", "upon", "beneath"}
)
# verbs of putting a thing away somewhere, told as its state after "is": "is moored in", "are stowed under"
_PUT_AWAY = frozenset(
    {"moor", "anchor", "beach", "dock", "stow", "store", "hide", "keep", "tie", "lock", "stack", "hang"}
    | {"shelve", "pile", "lodge", "tuck", "bury", "leave", "berth", "tether", "prop", "lay", "set", "put"}
    | {"pin", "nail", "mount", "chain", "wedge", "wrap", "fold", "roll", "pack", "shut"}
)
# what a thing "is in" when it is broken, gone or someone else's: not a place it lies whole
_NOT_A_PLACE = frozenset(
    {"pieces", "ruins", "shards", "splinters", "ashes", "fragments", "bits", "tatters", "halves", "hands"}
    | {"keeping", "possession", "pawn", "hock", "debt", "bottom", "doubt", "question", "danger", "trouble"}
    | {"mind", "memory", "memories", "heart", "thoughts", "dreams", "check", "trust", "store", "vain"}
)


def _item_is_here(s: _Sentence, it: Mention) -> bool:
    """An item opening its clause, then a present-tense verb of lying about ("sits", "gleams", "is on")."""
    c0, _ = s.clause_of(it.i)
    lead = it.i - 1
    # "The battered radio crackles": up to two words describing the thing after its article; told so, it
    # is read only working, not lying about (a wreck described "shattered" may lie anywhere)
    described = 0
    while (
        described < 2
        and lead - 1 >= s.a
        and s.tokens[it.i].low not in _NOUN_MARKERS  # "the counter the brass bell": the name has its own
        and _describing(s.tokens[lead])
    ):
        lead, described = lead - 1, described + 1
    if described and s.tokens[lead].low not in ("the", "your", "my", "our"):
        lead, described = it.i - 1, 0
    if lead >= s.a and s.tokens[lead].low in ("a", "an", "another", "some"):
        return False  # "A horn sounds in the valley": a new thing, not the one recorded
    if lead >= s.a and s.tokens[lead].low in ("the", "a", "an", "your", "my", "our"):
        # "The rosewood lute hangs on the wall": a name recorded without its article; "Your sled stands
        # against the wall": the one addressed (or the party) told owning it still
        lead -= 1
    first = it.i == c0 or lead < c0 or (lead >= s.a and s.tokens[lead].low in _SUBJECT_LEAD)
    if not first and lead > s.a and s.tokens[s.a].low in _HERE_PREPS | {"over", "above", "below"}:
        # "Over the door the brass bell sways": a fronted place with no comma, no verb and no one in it
        words = s.tokens[s.a : lead + 1]
        first = (
            lead - s.a <= 5
            # a verb's word after an article is its noun: "Behind the counter the old radio coughs"
            and not any(
                (t.low in VERBS and p.low not in _NOUN_MARKERS) or t.text in (",", ";") or t.quoted
                for p, t in pairwise(words)
            )
            and not any(s.a <= c.i <= lead for c in s.creatures())
        )
    if not first or it.j >= s.b or it.poss:
        return False
    j = it.j
    while j + 1 < s.b and (s.tokens[j].low in _BEFORE_VERB or _manner_adverb(s.tokens[j].low)):
        j += 1  # "the lamp still hangs from her awning", "the bell quietly sways"
    if j > it.j and s.tokens[j].low in ("is", "are"):
        j = it.j  # "the lamp still is ..." reads as before, from the item
    form = s.tokens[j].low
    if described:
        here = lexicon_lemma(form) in _ITEM_HERE | _PUT_AWAY
        return not here and _works_though_destroyed(s, it, form, j)
    if form in ("is", "are") and it.j + 2 < s.b:
        # "the ferry is lying in the cove", "the almanac is on the lectern"
        nxt, far = s.tokens[it.j + 1].low, s.tokens[it.j + 2]
        if nxt.endswith("ing") and lexicon_lemma(nxt) in _ITEM_HERE:
            return True
        fate = s.snap.fates.get(it.id or "")
        if fate is not None and fate.fate == "sold":
            return False  # a thing sold is somewhere still: "the brooch is in a jeweller's window now"
        rest = {t.low for t in s.tokens[it.j + 2 : min(s.b, it.j + 10)]}
        if _NOT_A_PLACE & rest or any(c.i in range(it.j + 2, it.j + 6) for c in s.creatures()):
            return False  # "is in pieces", "is kept in mind", "is in the hands of a Dover man"
        if lexicon_lemma(nxt) in _PUT_AWAY and nxt != lexicon_lemma(nxt) and far.low in _HERE_PREPS:
            return True  # "the almanac is hidden under the floor", "the horn is hung on the wall"
        return nxt in _HERE_PREPS and not far.quoted and not far.poss
    after = s.tokens[j + 1 : min(s.b, j + 9)]
    if _NOT_A_PLACE & {t.low for t in after}:
        return False  # "the bell lies in pieces", "rests at the bottom of the canal", "rings in her memory"
    fate = s.snap.fates.get(it.id or "")
    if (
        fate is not None
        and fate.fate == "sold"
        and any(t.poss or t.low.endswith(("'s", "’s")) for t in [*after, *s.tokens[s.a : it.i]])
    ):
        return False  # "the kettle hangs in a tinker's stall": a thing sold is someone else's, there
    lemma = VERBS.get(form) or (form[:-1] if form.endswith("s") else "")
    if lemma in _ITEM_HERE and form.endswith("s") and not _is_past(form, lemma):
        return True
    if form in _ITEM_HERE and _told_plural(s, it) and j + 1 < s.b and s.tokens[j + 1].low in _HERE_PREPS:
        return True  # "the tide tables hang on the wall": a plural's present is the bare form
    return _works_though_destroyed(s, it, form, j)


def _describing(t: Token) -> bool:
    """A lower-case word that may describe a thing between its article and its name ("battered", "station"):
    no preposition, conjunction, determiner, pronoun, number or possessive."""
    return (
        t.text.isalpha()
        and t.text.islower()
        and not t.quoted
        and not t.poss
        and t.low not in _PREPOSITIONS | _CLAUSE_BREAKS | _NOUN_MARKERS | _LOCATIVE
        and t.low not in _NUMBERS
        and t.low not in ("this", "that", "these", "those", "some", "any", "no", "every", "each", "it")
    )


# adverbs that may stand between a thing and its verb: "the lamp still hangs", "the horn now sounds"
_BEFORE_VERB = frozenset({"still", "now", "yet", "even", "already", "always", "also", "just", "again", "too"})


def _manner_adverb(word: str) -> bool:
    """True for an -ly adverb of manner ("quietly", "gently"), not an -ly adjective ("holy", "early")."""
    return word.endswith("ly") and len(word) > 5 and lexicon_lemma(word) is None and word[-3] not in "aeiou"


# what a destroyed thing's remains may still do: "the horn rusts on the rocks", "the tables burn"
_ENDING = frozenset(
    {"rust", "rot", "crumble", "burn", "smoulder", "smolder", "fall", "break", "shatter", "sink", "melt"}
    | {"decay", "moulder", "char", "splinter", "crack", "collapse", "vanish", "disappear", "blacken", "curl"}
)


def _works_though_destroyed(s: _Sentence, it: Mention, form: str, j: int) -> bool:
    """A destroyed or used-up item opening its clause with a present-tense verb of its own ("the old
    foghorn bellows across the bay"): it is told working now. Verbs of decay stay clean ("the horn rusts
    on the rocks"), and a sold or lost thing may go on doing things elsewhere."""
    fate = s.snap.fates.get(it.id or "")
    if fate is None or fate.fate not in ("destroyed", "used up"):
        return False
    base = lexicon_lemma(form) if s.tokens[j].text.islower() else None
    if base is None or base == form or not form.endswith("s") or _is_past(form, base):
        return False
    return base not in _ENDING and base not in ("be", "have", "seem", "remain") and is_finite(form, base)


# words telling a thing gone where it lies: "lies lost beneath forty fathoms", "rests sunk in the silt"
_LOST_WORDS = frozenset(
    {"lost", "sunk", "sunken", "drowned", "buried", "gone", "submerged", "wrecked", "vanished", "missing"}
)


def _lies_lost(s: _Sentence, it: Mention) -> bool:
    """True when a thing named by its owner ("Hask's sextant", "her compass") opens a verb of lying or "is"
    and is told lost, sunk, buried or gone where it lies ("lies lost beneath forty fathoms", "is gone"):
    its old owner's name only names it, no one holds it."""
    toks = s.tokens
    j = it.j
    while j < s.b and (toks[j].low in _BEFORE_VERB or _manner_adverb(toks[j].low)):
        j += 1
    if j >= s.b or toks[j].quoted:
        return False
    form = toks[j].low
    base = lexicon_lemma(form)
    if form not in ("is", "are") and (
        base not in _ITEM_HERE | _PUT_AWAY or base == form or _is_past(form, base)
    ):
        return False
    after = {t.low for t in toks[j + 1 : min(s.b, j + 5)] if not t.quoted}
    return bool(after & _LOST_WORDS)


# words of time between a thing and a verb telling where it was: "where the compass once hung"
_ONCE = frozenset({"once", "long", "always", "formerly", "had", "still", "last"})


def _where_it_was(s: _Sentence, it: Mention) -> bool:
    """True when a thing is named in a "where" clause telling where it was, not where it is ("where the
    jade compass once hung", "where the sextant used to hang"): a past verb of lying or "used to"."""
    toks = s.tokens
    k = it.i - 1
    while k > s.a and (toks[k].low in ("the", "its", "my", "your", "our") or toks[k].low in _PRONOUN_POSS):
        k -= 1
    while k > s.a and _describing(toks[k]) and toks[k].low != "where":
        k -= 1
    if k < s.a or toks[k].low != "where" or toks[k].quoted:
        return False
    j = it.j
    while j < s.b and toks[j].low in _ONCE:
        j += 1
    if j + 1 < s.b and toks[j].low == "used" and toks[j + 1].low == "to":
        return True
    if j >= s.b:
        return False
    form = toks[j].low
    base = lexicon_lemma(form)
    return base is not None and base in _ITEM_HERE | _PUT_AWAY | {"be"} and _is_past(form, base)
