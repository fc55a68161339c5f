"""Informing on someone to their enemy: "Tomas ... tells her [the sheriff] where Jonah Pike hides his
strongbox", "shows the soldiers which road Pike takes".

A creature with a strong recorded regard for another who tells (shows, reveals, whispers) that other's
whereabouts or doings to a creature the record makes the other's enemy is selling them out, whatever the
valence of the words. :func:`_informing` reads, for a clause subject with a recorded attitude of
:data:`LOYAL_AT` or more toward someone:

    <subject> <tell|show|reveal|...> <listener> <where|when|which|how|what|that> ... <other> ...

where the listener is named right after the verb, or is him/her/them standing for the one creature of that
pronoun named in this sentence or the one before (not the subject or the other), and the record gives the
listener an attitude of :data:`ENEMY_AT` or less toward the other. The claim is ``attitude(subject, other,
hostile)``, judged like any attitude by behaviour (:mod:`ledger.check.judge_meaning`).

Nothing is claimed when the telling is denied ("refuses to tell", "never tells", "does not tell") or the
listener is no enemy (a friend told where the other hides is no betrayal); quoted words are the speaker's.
Imports :mod:`.predicates` and :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.claims import Claim, Modality
from ledger.check.extract.names import Mention
from ledger.check.extract.predicates import _OBJECT_PRONOUNS_ALL, _predicate, _previous_sentence
from ledger.check.extract.sentence import _Sentence

LOYAL_AT = 60
ENEMY_AT = -40
TELLING = frozenset({"tell", "show", "reveal", "whisper", "disclose", "betray", "confide", "point"})
_TOLD_FORMS = frozenset(
    f
    for w in TELLING
    for f in (w, w + "s", w + "ed", w + "d", w + "ing", w[:-1] + "ing", "told", "shown", "showed")
)
_CONTENT = frozenset({"where", "when", "which", "how", "what", "that", "who", "whom", "whose"})
_DENIED = frozenset({"not", "never", "refuses", "refused", "won't", "doesn't", "didn't", "cannot", "can't"})


def _attitude(s: _Sentence, a: str, b: str) -> int | None:
    """The recorded attitude of ``a`` toward ``b`` the party may see, or None."""
    for e in s.snap.edges_by_pair.get(frozenset((a, b)), ()):
        if e.source == a and e.visibility in ("public", "party"):
            return e.attitude
    return None


def _listener(s: _Sentence, q: int, actor: str) -> str | None:
    """The creature told at token ``q``: named there, or the one the object pronoun there stands for."""
    named = next((m for m in s.mentions if m.i == q and m.id and not m.poss), None)
    if named is not None:
        return named.id if s.kind(named) in ("pc", "npc", "monster") else None
    want = _OBJECT_PRONOUNS_ALL.get(s.tokens[q].low)
    if want is None or s.tokens[q].low in ("his", "their"):
        return None
    lo = _previous_sentence(s)
    fits = {
        m.id
        for m in s.ex.between(lo, q)
        if m.id
        and m.id != actor
        and not m.quoted
        and (e := s.snap.entities.get(m.id)) is not None
        and e.kind in ("pc", "npc", "monster")
        and e.pronoun == want
    }
    return next(iter(fits)) if len(fits) == 1 else None


def _informing(
    s: _Sentence, actors: list[tuple[str, Mention, Modality]], loyal: dict[str, tuple[str, ...]]
) -> None:
    """attitude(actor, other, hostile) for telling a loyal tie's secrets to the other's enemy."""
    toks = s.tokens
    if not _TOLD_FORMS & {t.low for t in toks[s.a : s.b]}:
        return  # most sentences tell nobody anything
    for eid, m, mod in actors:
        targets = [t for t in loyal.get(eid, ()) if (_attitude(s, eid, t) or 0) >= LOYAL_AT]
        if not targets:
            continue
        for k, lemma in _predicate(s, m):
            if lemma not in TELLING or toks[k].quoted or k + 2 >= s.b:
                continue
            if any(toks[q].low in _DENIED or toks[q].low.endswith("n't") for q in range(max(s.a, k - 3), k)):
                continue
            listener = _listener(s, k + 1, eid)
            if listener is None:
                continue
            after = next((q for q in range(k + 2, min(s.b, k + 5)) if toks[q].low in _CONTENT), None)
            if after is None:
                continue
            end = next((q for q in range(after + 1, s.b) if toks[q].text in (";", ".", "!", "?")), s.b)
            told = {x.id for x in s.mentions if x.id and after < x.i < end and not x.quoted}
            for other in targets:
                if other == listener or other not in told:
                    continue
                hostility = _attitude(s, listener, other)
                if hostility is None or hostility > ENEMY_AT:
                    continue
                s.ex.claims.append(
                    Claim("attitude", (eid, other, "hostile"), s.raw.strip(), s.span, mod, f"informs:{lemma}")
                )
                return
