"""Hand-overs the item pass reads apart: a thing given as "it", sent to someone, or told not let go.

:func:`_handed_it` gives "... and hands it to Pim" to the last item named before it, from the creature
holding it; :func:`_sent_to` finds who a thing goes to ("over to Bryony", "into her hands");
:func:`_kept_in_hand` reads letting go told not done ("doesn't lower the sextant") as still holding it. The
claims are ``holds`` with a ``give:<id>`` detail the judge replays in text order. Read by :mod:`.holdings`;
imports :mod:`.lexicon`, :mod:`.names` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Modality
from ledger.check.extract.lexicon import (
    _PRONOUN_POSS,
    VERBS,
)
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.verbs import lemma as lexicon_lemma

_GIVE_VERBS = frozenset(
    {"hand", "give", "pass", "toss", "offer", "slide", "throw", "press", "lend", "loan", "entrust", "deliver"}
)


_NOT_DONE = frozenset(
    {"doesn't", "don't", "didn't", "won't", "never", "cannot", "can't", "wouldn't", "not", "refuses"}
)
_NOT_DONE_PAIRS = frozenset(
    {(w, "not") for w in ("does", "do", "did", "will", "would", "can")}
    | {(w, "to") for w in ("refuses", "refused", "declines", "declined")}
)
# verbs of letting go: told not done, the thing stays in the subject's hands
_LET_GO = frozenset({"lower", "drop", "release", "relinquish", "surrender", "loose", "loosen", "sheathe"})
_LET_GO_PHRASES: tuple[tuple[str, ...], ...] = (
    ("put", "down"),
    ("set", "down"),
    ("lay", "down"),
    ("let", "go", "of"),
    ("give", "up"),
    ("hand", "over"),
    ("put", "away"),
    ("let", "go"),
)


def _kept_in_hand(s: _Sentence, items: list[Mention]) -> None:
    """ "The captain doesn't lower the sextant", "she will not let go of the rope": letting a thing go, told
    not done, tells that the subject still holds it."""
    toks = s.tokens
    creatures = s.creatures()
    for it in items:
        if it.id is None or it.poss:
            continue
        k = it.i - 1
        while k > s.a and (toks[k].low in ("the", "a", "an", "that", "this") or toks[k].low in _PRONOUN_POSS):
            k -= 1
        verb_end = k + 1
        start = next(
            (
                q
                for q, phrase in ((k - len(p) + 1, p) for p in _LET_GO_PHRASES)
                if q > s.a and tuple(lexicon_lemma(t.low) or t.low for t in toks[q:verb_end]) == phrase
            ),
            k if lexicon_lemma(toks[k].low) in _LET_GO else None,
        )
        if start is None:
            continue
        neg = start - 1
        while neg > s.a and toks[neg].low.endswith("ly"):
            neg -= 1
        pair = (toks[neg - 1].low, toks[neg].low)
        if pair[1] in ("not", "to") and pair in _NOT_DONE_PAIRS:
            neg -= 1  # "does not", "refuses to"
        elif toks[neg].low not in _NOT_DONE:
            continue
        subject = next((c for c in reversed(creatures) if c.j <= neg and not c.poss), None)
        if subject is None or subject.id is None:
            continue
        between = [t for t in toks[subject.j : neg] if not t.low.endswith("ly") and t.low not in ("still",)]
        if between:
            continue  # the subject's own verb, right after it: "the captain doesn't lower ..."
        m = s.modality(it)
        mod = Modality(m.in_dialogue, m.hypothetical, m.memory, m.rumour, False)
        s.claim("holds", (subject.id, it.id), subject, mod, "")


def _handed_it(s: _Sentence, items: list[Mention]) -> None:
    """ "... tugs one of her golden tickets from her sleeve and hands it to Pim": a hand-over whose object is
    "it", the last item named before it in the sentence, given by the creature that item's clause opens
    with, to the first creature named after it."""
    toks = s.tokens
    creatures = s.creatures()
    for q in range(s.a + 1, s.b - 1):
        if toks[q].low != "it" or toks[q].quoted:
            continue
        given = VERBS.get(toks[q - 1].low) in _GIVE_VERBS
        # "holds it out to Bryony", "slides it across to Tam": any verb, then "it" sent to someone
        receiver = _sent_to(s, q + 1, creatures)
        if not given and receiver is None:
            continue
        item = next((m for m in reversed(items) if m.j <= q - 1), None)
        if item is None or item.id is None:
            continue
        giver = next((c for c in reversed(creatures) if c.j <= item.i and not c.poss), None)
        to = receiver or next(
            (c for c in creatures if c.i > q and c.id != (giver.id if giver else None)), None
        )
        if receiver is not None and giver is not None and receiver.id == giver.id:
            continue
        if giver is None or giver.id is None or to is None or to.id is None:
            continue
        s.claim("holds", (giver.id, item.id), giver, s.modality(giver), f"give:{to.id}")


_SENT_PARTICLES = frozenset({"out", "over", "across", "back", "down", "up", "along", "forward"})
_RECEIVING = frozenset(
    {"hand", "hands", "palm", "palms", "lap", "keeping", "care", "grasp", "fingers", "fist"}
)


def _sent_to(s: _Sentence, k: int, creatures: list[Mention]) -> Mention | None:
    """The creature a thing is sent to from token ``k`` on: "[out|over|across] to Bryony", "into Pearl's
    palm", "into her hands"; None when the words there send it to no one."""
    toks = s.tokens
    while k < s.b and toks[k].low in _SENT_PARTICLES:
        k += 1
    if k + 1 >= s.b or toks[k].quoted:
        return None
    prep = toks[k].low
    if prep == "to":
        return next((c for c in creatures if c.i == k + 1 and not c.poss), None)
    if prep in ("into", "onto", "in"):
        owner = next((c for c in creatures if c.i == k + 1 and c.poss), None)
        if owner is not None and owner.j < s.b and toks[owner.j].low in _RECEIVING:
            return owner
    return None
