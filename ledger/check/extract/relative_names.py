"""A person named inside a reduced relative clause is not who the next sentence's "he" goes on with.

"Not the chair Needle died in.", "the knife Tam dropped": the name stands between a noun (after its
determiner) and that clause's verb, so the sentence's own subject is the noun ("the chair"); a "he" in the
next sentence does not continue with the one named there. Imports :mod:`.text` and :mod:`.verbs` only.
"""

from __future__ import annotations

from ledger.check.extract.text import Token
from ledger.check.extract.verbs import can_be_past
from ledger.check.extract.verbs import lemma as verb_lemma

_DETERMINERS = frozenset({"the", "a", "an", "that", "this", "those", "these", "every", "each"})
_PREPOSITIONS = frozenset(
    {"at", "in", "on", "of", "by", "under", "over", "behind", "beside", "across", "near", "from", "into"}
    | {"through", "past", "along", "inside", "outside", "beyond", "against", "toward", "towards", "onto"}
)
_AUXILIARIES = frozenset({"is", "was", "has", "does", "were", "had", "did", "are", "be", "been"})


def in_reduced_relative(toks: list[Token], i: int, j: int, a: int) -> bool:
    """True when the name at tokens [i, j) is the subject of a reduced relative clause on a noun before it
    ("the chair Needle died in"): a determiner, a lowercase word that is no verb form, the name, a verb."""
    if i - 2 < a or j >= len(toks):
        return False
    if i - 3 >= a and toks[i - 3].low in _PREPOSITIONS:
        return False  # "Down at the end of the counter Vernon is hunched": a fronted phrase, then the subject
    det, noun, verb = toks[i - 2], toks[i - 1], toks[j]
    if det.low not in _DETERMINERS or not noun.text.isalpha() or not noun.text.islower():
        return False
    if verb_lemma(noun.low) is not None and verb_lemma(noun.low) != noun.low:
        return False  # "the door opened Needle ...": an inflected verb, not a noun
    if verb.low in _AUXILIARIES or not (verb.text.isalpha() and verb.text.islower()):
        return False
    return can_be_past(verb.low) or verb.low.endswith("s")
