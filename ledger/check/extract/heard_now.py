"""A past "heard" that tells the scene: "He heard every word; you can see it land."

In a narration told in the present, a past verb is usually a memory; but "heard" with the words just spoken
as its object ("every word", "all of it", "the question"), right after a line of speech by someone else,
tells the hearing that has just happened. It makes ``senses(subject, hearing)`` for a creature whose
condition could take their hearing. Not negated ("never heard a word"), not with a word placing it back
then ("yesterday", "ago", "once"), not when no one spoke in this sentence or the two before. Read by
:mod:`.conditions`.
"""

from __future__ import annotations

from ledger.check.extract.predicates import antecedent_or_one_named, pronoun_fits
from ledger.check.extract.sentence import _Sentence

_JUST_SAID = (
    ("every", "word"),
    ("each", "word"),
    ("all", "of", "it"),
    ("it", "all"),
    ("the", "question"),
    ("every", "syllable"),
    ("the", "whole", "thing"),
)
_CLOSE = frozenset({",", ".", ";", ":", "!", "—", "–", "and", "but"})
_BACK_THEN = frozenset(
    {"ago", "yesterday", "once", "before", "earlier", "last", "used", "remembers", "recalls"}
)
_NOT = frozenset({"not", "never", "n't", "didn't", "hardly", "barely", "scarcely", "nobody", "no"})
_SUBJECTS = {"he": "he", "she": "she", "they": "they"}


def _spoken_before(s: _Sentence, k: int) -> bool:
    """True when someone gave a line of speech in this sentence before ``k`` or in the four before it (the
    question, then a beat or two of how it was asked, then the hearer's answer)."""
    from ledger.check.extract.predicates import _previous_sentence

    return any(t.quoted and t.text.isalpha() for t in s.tokens[_previous_sentence(s, 4) : k])


def heard_now(s: _Sentence, blocked: frozenset[str]) -> list[tuple[str, str]]:
    """(hearer, detail) for each "X heard every word" told of the scene just past."""
    toks = s.tokens
    out: list[tuple[str, str]] = []
    if any(not t.quoted and t.low in _BACK_THEN for t in toks[s.a : s.b]):
        return out
    for k in range(s.a + 1, s.b - 2):
        if toks[k].quoted or toks[k].low != "heard":
            continue
        if {t.low for t in toks[max(s.a, k - 3) : k]} & _NOT:
            continue
        rest = tuple(t.low for t in toks[k + 1 : k + 5])
        said = next((p for p in _JUST_SAID if rest[: len(p)] == p), None)
        if said is None or (rest[len(said)] if len(rest) > len(said) else ".") not in _CLOSE:
            continue
        prev = toks[k - 1]
        hearer = next((m.id for m in s.mentions if m.j == k and m.id and not m.quoted), None)
        if hearer is None and prev.low in _SUBJECTS:
            hearer = antecedent_or_one_named(s, pronoun_fits(s, _SUBJECTS[prev.low]), k)
        if hearer is None or hearer not in blocked or not _spoken_before(s, k):
            continue
        out.append((hearer, "heard " + " ".join(said)))
    return out
