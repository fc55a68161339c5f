"""Who speaks a line, and who is only spoken to: turn-taking in dialogue and the narrator's address.

Two patterns of English decide it where the words alone do not:

- Turn-taking. A line of speech tagged by a pronoun ('"Two weeks," he says') goes to the last subject the
  pronoun fits, unless the beat before it was an exchange between two people the pronoun fits equally: then
  the one spoken to answers. The beat names who that is when one party listens ("Odo makes his case, and
  Master Hobb hears it out": Hobb replies), the beat asked a question (the one asked answers, unless the
  tag goes on with the same words: "he adds"), or the tag itself is a verb of replying ("he answers": not
  the one who spoke last). :func:`turn_taker` is asked by the pronoun pass (:mod:`.names`).
- The narrator's address. A name set off by a comma at the opening of a sentence whose clause has a subject
  of its own ("Orrin, on his third pass he stops in front of you", "Ash, the needle is yours if you want
  it", "Kaede, the ladies have stopped breathing") calls on that person: it is no subject, so nothing in the
  clause is their act or their choice. :func:`addressed` is asked by the presence pass (:mod:`.presence`).

Imports :mod:`.lexicon` and :mod:`.verbs` only (the pronoun pass imports this module).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ledger.check.extract.lexicon import SPEECH, VERBS
from ledger.check.extract.text import Token
from ledger.check.extract.verbs import is_finite
from ledger.check.extract.verbs import lemma as verb_lemma

# what one does while another speaks: "hears it out", "listens", "weighs the offer", "considers it"
LISTENING = frozenset({"listen", "heed", "consider", "weigh", "ponder", "mull", "hearken", "attend"})
# "hear" is a listener's verb when it takes the speech "out" ("hears him out") or "through"
_HEAR_OUT = frozenset({"out", "through"})
# a line tagged by one of these answers what the other party said
REPLYING = frozenset({"reply", "answer", "retort", "respond", "counter", "rejoin"})
# and one of these goes on with the same speaker's words ('"Well?" Bram asks the abbot. "Tonight," he adds')
CONTINUING = frozenset({"add", "continue", "insist", "press", "repeat", "persist", "finish"})
_SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "you", "we", "i", "it"})
_RELATIVES = frozenset({"who", "whose", "whom", "which", "that"})
_LEADS = frozenset({"and", "but", "so", "then", "now", "oh", "well"})
_BREAKS = frozenset({",", ";", ":", "—", "–", "(", ")"})


class _Named(Protocol):
    """The parts of a name mention these rules read (:class:`.names.Mention`)."""

    @property
    def id(self) -> str | None: ...

    @property
    def i(self) -> int: ...

    @property
    def j(self) -> int: ...

    @property
    def poss(self) -> bool: ...

    @property
    def quoted(self) -> bool: ...


def _lemma_at(tokens: Sequence[Token], k: int) -> str | None:
    t = tokens[k]
    if t.quoted or not t.text.islower():
        return None
    return VERBS.get(t.low) or verb_lemma(t.low)


def tag_verb(tokens: Sequence[Token], k: int, b: int) -> str | None:
    """The lemma of the verb of saying right after the pronoun at ``k`` ("he says", "she answers at last",
    "he quietly replies"), or None when the pronoun does not tag a line of speech."""
    q = k + 1
    if q < b and tokens[q].low.endswith("ly") and not tokens[q].quoted:
        q += 1
    if q >= b:
        return None
    lem = _lemma_at(tokens, q)
    return lem if lem is not None and (lem in SPEECH or lem in REPLYING) else None


def _listener(tokens: Sequence[Token], people: list[_Named], b: int) -> str | None:
    """The person of ``people`` (named in one sentence, in order) who listens to another named before them:
    the subject of a verb of listening right after the name ("Hobb hears it out", "Hobb listens")."""
    for n, m in enumerate(people):
        if n == 0 or m.id is None or all(p.id == m.id for p in people[:n]):
            continue
        q = m.j
        if q < b and tokens[q].low.endswith("ly") and not tokens[q].quoted:
            q += 1  # "Hobb patiently hears it out"
        if q >= b:
            continue
        lem = _lemma_at(tokens, q)
        if lem in LISTENING:
            return m.id
        if lem == "hear" and any(tokens[x].low in _HEAR_OUT for x in range(q + 1, min(b, q + 4))):
            return m.id
    return None


def turn_taker(
    tokens: Sequence[Token],
    mentions: Sequence[_Named],
    prev: tuple[int, int],
    k: int,
    b: int,
    fits: Callable[[str | None, str], bool],
    word: str,
    last: str | None,
) -> str | None:
    """Whose turn it is to speak when the pronoun ``word`` at token ``k`` (in a sentence ending before
    ``b``) tags a line of speech and two people of the previous sentence ``prev`` (token range) fit it
    (``fits(id, word)``): the one who listened there, or, after a question or for a verb of replying, the
    one who did not speak last (the one named saying something there, else ``last``); for a verb of going
    on ("he adds"), the one who spoke last. None when the pronoun tags no speech, or the beat names no such
    exchange (the caller keeps its own pick)."""
    verb = tag_verb(tokens, k, b)
    if verb is None:
        return None
    pa, pb = prev
    people = [
        m for m in mentions if pa <= m.i < pb and m.id and not m.quoted and not m.poss and fits(m.id, word)
    ]
    ids = {m.id for m in people}
    if len(ids) != 2:
        return None
    heard = _listener(tokens, people, pb)
    if heard is not None:
        return heard
    spoke = next((m.id for m in people if _said_by(tokens, m, pb)), None)
    last = spoke if spoke is not None else last
    if last not in ids:
        return None
    if verb in CONTINUING:
        return last  # '"Is there a bed?" Bram asks the abbot. "I'll pay," he adds': Bram goes on
    asked = any(tokens[q].quoted and tokens[q].text == "?" for q in range(pa, pb))
    if verb in REPLYING or asked:
        # '"Is there a bed?" Bram asks the abbot. "None," he says': a question is answered by the one asked
        return next(x for x in ids if x != last)
    return None


def _said_by(tokens: Sequence[Token], m: _Named, b: int) -> bool:
    """True when the name ``m`` is the subject of a verb of saying right after it ('Bram asks the abbot',
    '"...," Bram says')."""
    q = m.j
    if q < b and tokens[q].low.endswith("ly") and not tokens[q].quoted:
        q += 1
    return q < b and _lemma_at(tokens, q) in SPEECH


def addressed(tokens: Sequence[Token], m: _Named, a: int, b: int) -> bool:
    """True when the name ``m`` opens the sentence ``a``..``b`` as a call to that person ("Orrin, on his
    third pass he stops in front of you"): a comma after it, then a clause of its own whose subject stands
    before its verb with no comma between (an apposition or an aside, "Orrin, the miller's son, stops" or
    "Orrin, who is panting, stops", keeps the name the subject)."""
    lead = a
    while lead < m.i and tokens[lead].low in _LEADS:
        lead += 1
    if m.quoted or m.poss or m.i != lead or m.j >= b or tokens[m.j].text != ",":
        return False
    start = m.j + 1
    if start >= b or tokens[start].low in _RELATIVES or tokens[start].quoted:
        return False
    if any(tokens[q].text == "," and _finite(tokens, q + 1) for q in range(start, b - 1)):
        return False  # "Barnaby, squatting on an upturned crate, names a figure": an aside, then his verb
    for q in range(start, b):
        t = tokens[q]
        if t.quoted or t.text in _BREAKS:
            return False
        if t.low.replace("’", "'").split("'")[0] in _SUBJECT_PRONOUNS and "'" in t.low.replace("’", "'"):
            return True  # "you're at the other end", "he's", "they'll"
        if t.low in _SUBJECT_PRONOUNS and q + 1 < b and _finite(tokens, q + 1):
            return True  # "he stops", "they have"
        if q > start and _finite(tokens, q) and tokens[q - 1].low not in _SUBJECT_PRONOUNS | _DETERMINERS:
            # "the needle is yours", "on her third pass the abbot stops", "Sister Maren raises her cup": a
            # noun phrase or a name, then a verb ("Ione, still shivering, stops" has a comma between)
            return tokens[q - 1].text[:1].isupper() or any(
                tokens[x].low in _DETERMINERS for x in range(start, q)
            )
    return False


_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "your", "his", "her", "their"})
_FINITE = frozenset({"is", "are", "was", "were", "has", "have", "had", "does", "do", "did", "will", "can"})
_FINITE |= frozenset({"could", "would", "should", "must", "may", "might", "shall", "'re", "'s", "'ve"})


def _finite(tokens: Sequence[Token], q: int) -> bool:
    """True when token ``q`` is a finite verb: an auxiliary, or a verb form in -s or the past ("stops",
    "stood"; not "gone", "standing")."""
    t = tokens[q]
    if t.quoted or not t.text.islower():
        return False
    if t.low in _FINITE or t.low.startswith("'"):
        return True
    lem = VERBS.get(t.low) or verb_lemma(t.low)
    return lem is not None and is_finite(t.low, lem)


# Fronted material before a subject: sentence adverbs ("Instead", "Gently", "Then") and a prepositional phrase
# ("With his own hands", "Beside the brazier"). Subordinators that also open clauses ("after", "before",
# "as", "when") are left out: the subject after them is the clause's, not the sentence's.
_FRONT_ADVERBS = frozenset(
    {"instead", "then", "now", "still", "meanwhile", "again", "finally", "later", "soon"}
)
_FRONT_ADVERBS |= frozenset({"suddenly", "slowly", "once", "afterwards", "there", "here", "next", "even"})
_FRONT_PREPOSITIONS = frozenset(
    {"with", "in", "at", "on", "by", "from", "beside", "behind", "under", "over", "across", "within"}
    | {"without", "through", "into", "near", "among", "between", "beyond", "toward", "towards", "upon"}
    | {"against", "despite", "for", "inside", "outside", "below", "above", "around", "past", "along"}
)
_NOT_ADVERBS = frozenset(
    {"only", "family", "holy", "ally", "early", "belly", "jelly", "lily", "folly", "bully"}
)
_OPENERS = frozenset({"and", "but", "yet", "so"})
_NOMINATIVE = frozenset({"he", "she", "they"})
_FRONT_MAX = 7  # a prepositional phrase this long at most ("With the last of his strength")


def _adverb(t: Token) -> bool:
    low = t.low
    return not t.quoted and (
        low in _FRONT_ADVERBS or (low.endswith("ly") and len(low) > 4 and low not in _NOT_ADVERBS)
    )


def fronted_subject_at(tokens: Sequence[Token], a: int, b: int, named: frozenset[int]) -> int | None:
    """The token where the subject of sentence ``a``..``b`` stands behind fronted material: "Instead Master
    Hobb crouches", "Gently he eases", "With his own hands he eases", "Then, slowly, she turns". The subject
    is a nominative pronoun or a name starting at a token of ``named``, and a verb follows it. None when
    nothing is fronted or no such subject follows."""
    q = a
    if q < b and tokens[q].low in _OPENERS:
        q += 1
    start = q
    while q < b and (_adverb(tokens[q]) or (tokens[q].text == "," and q > start)):
        q += 1
    if q < b and tokens[q].low in _FRONT_PREPOSITIONS and not tokens[q].quoted:
        r = q + 1
        while r < min(b, q + _FRONT_MAX) and tokens[r].low not in _NOMINATIVE and r not in named:
            if tokens[r].quoted or tokens[r].text in (";", ":", "—", "–"):
                return None
            r += 1
        q = r
    while q < b and tokens[q].text == ",":
        q += 1
    if q == start or q >= b or q - a > _FRONT_MAX + 4:
        return None
    if tokens[q].low not in _NOMINATIVE and q not in named:
        return None
    v = q + 1
    while v < b and (v in named or tokens[v].text[:1].isupper()) and not tokens[v].quoted:
        v += 1  # the rest of a name: "Master Hobb"
    if v < b and _adverb(tokens[v]):
        v += 1
    return q if v < b and _finite(tokens, v) else None
