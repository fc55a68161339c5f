"""A disposition told with "would": "He would sell Vell for a loaf of bread", "he'd see her hang, and
gladly", "she would die for him".

A bare "would" (or a subject's contracted "'d") before a plain verb usually frames what did not happen,
and the sentence's modality marks it hypothetical. Told of one person toward another, though, it tells how
the one stands toward the other now: a man who "would sell Vell for a loaf of bread" bears Vell no loyalty,
whether or not he has sold him yet. :func:`disposed` finds such a "would" before the first verb of a
predicate and gives the main verb in its place, so :mod:`.valence` scores it and asserts the attitude.

Not a disposition, and left hypothetical, when the sentence supposes or asks ("if", "unless", "as if",
"perhaps", "whether", "wish", a question mark), looks at the past ("would have"), or the plain verb is "be"
or "have" (no behaviour toward anyone), or is done for the other's sake ("would die for him": its
valence is the doer's, not aimed at the other). Imports :mod:`.predicates` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.extract.predicates import verb_lemma
from ledger.check.extract.sentence import _Sentence

# words that make the sentence a supposition, a wish or a question: a "would" there is no disposition
_SUPPOSING = frozenset(
    {"if", "unless", "perhaps", "maybe", "whether", "wish", "wishes", "wished", "suppose", "imagine"}
    | {"pretend", "pretends", "pretended", "as-if", "lest", "rather", "otherwise"}
)
_BETWEEN = frozenset({"gladly", "happily", "gleefully", "willingly", "readily", "cheerfully", "never", "not"})


def _would_at(s: _Sentence, k: int) -> bool:
    """True when token ``k`` is "would" or a subject pronoun contracted with it ("he'd")."""
    low = s.tokens[k].low
    text = s.tokens[k].text.lower().replace("’", "'")
    return low == "would" or (text.endswith("'d") and text[:-2] in ("he", "she", "they", "i", "we"))


def disposed(s: _Sentence, verbs: list[tuple[int, str]], subject_end: int) -> list[tuple[int, str]] | None:
    """The predicate with a dispositional "would" replaced by its main verb ("would sell Vell": sell), or
    None when the predicate does not open with one (or the sentence supposes, asks or looks back)."""
    toks = s.tokens
    # right after the subject ("He would sell"), or the subject itself ("he'd see")
    would = next((q for q in (subject_end - 1, subject_end) if s.a <= q < s.b and _would_at(s, q)), None)
    if would is None or (verbs and verbs[0][0] < would):
        return None
    words = {t.low for t in toks[s.a : s.b]}
    if words & _SUPPOSING or "?" in words or any(t.text == "?" for t in toks[s.a : s.b]):
        return None
    q = would + 1
    while q < s.b and (toks[q].low in _BETWEEN or toks[q].low.endswith("ly")):
        q += 1
    if q >= s.b or not toks[q].text.islower():
        return None
    main = verb_lemma(toks[q].low)
    if main is None or main != toks[q].low or main in ("have", "be", "will", "do"):
        return None  # "would have", "would be", or no plain verb
    if q + 1 < s.b and toks[q + 1].low in ("for", "to"):
        return None  # "would die for Vell", "would go to him": done for the other's sake, or no act on them
    return [(q, main), *[(x, lemma) for x, lemma in verbs if x > q]]
