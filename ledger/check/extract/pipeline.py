""":func:`extract`: a narration split into claims, running the passes of the package in order.

Tokens and names first (:mod:`.text`, :mod:`.names`), then each sentence through the claim passes: speech
and acting (:mod:`.presence`), combat, holdings, relations, threads, knowledge and new names; then the
round's attacks told over whole passages (:mod:`.blows`). The passes only append to the one
:class:`~ledger.check.extract.names.Extraction`; their order is part of the result.
Imports every other module of the package; none imports it.
"""

from __future__ import annotations

from ledger.check.extract.addressee import _addressed_claims, _kin_of_you, addressees
from ledger.check.extract.blows import _blows
from ledger.check.extract.combat import _combat
from ledger.check.extract.holdings import _holdings
from ledger.check.extract.item_scene import _item_scene
from ledger.check.extract.knows import _knows
from ledger.check.extract.meaning import _meaning
from ledger.check.extract.names import Extraction, _pronouns, find_mentions, name_index
from ledger.check.extract.new_names import _new_names
from ledger.check.extract.places import _party_moves
from ledger.check.extract.presence import _remains, _speech, _subjects
from ledger.check.extract.relations import _relation_by_pronoun, _relations
from ledger.check.extract.self_named import self_named
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.text import _present_tense, _quote_ranges, _sentences, tokenize
from ledger.check.extract.threads import _threads
from ledger.check.snapshot import WorldSnapshot


def extract(text: str, snapshot: WorldSnapshot) -> Extraction:
    """Find every claim in ``text`` (known names only; unknown names go to ``new_entities``).

    The snapshot keeps the last text's extraction: a draft is read by :func:`ledger.check.judge.check` and
    then again by the model's claims and declarations, and both must see the same reading (read it, never
    change it).
    """
    last: tuple[str, Extraction] | None = snapshot.cache.get("last-extraction")
    if last is not None and last[0] == text:
        return last[1]
    ex = _extract(text, snapshot)
    snapshot.cache["last-extraction"] = (text, ex)
    return ex


def _extract(text: str, snapshot: WorldSnapshot) -> Extraction:
    index = name_index(snapshot)
    tokens = tokenize(text)
    mentions, tells, threads = find_mentions(tokens, index, snapshot)
    ex = Extraction(tokens=tokens, mentions=mentions, tells=tells, thread_mentions=threads)
    covered = {k for m in mentions for k in range(m.i, m.j)}
    quotes = _quote_ranges(tokens)
    attributed: set[tuple[str, int]] = set()
    sentences = _sentences(text, tokens)
    _pronouns(ex, snapshot, sentences)
    you = addressees(ex, snapshot, text, sentences)  # which PC each narrative "you"/"your" means
    _kin_of_you(ex, snapshot, you)
    ex.present_tense = _present_tense(tokens, sentences)
    ex.sentences = [(tokens[a].start, tokens[b - 1].end) for a, b in sentences]
    for a, b in sentences:
        s = _Sentence(ex, snapshot, text, a, b)
        _speech(s, quotes, attributed)
        self_named(s)
        _subjects(s, attributed)
        _party_moves(s)
        _combat(s)
        _holdings(s)
        _item_scene(s)
        _relations(s)
        if not any(c.kind == "relation" and c.span == s.span for c in ex.claims):
            _relation_by_pronoun(s)
        _threads(s)
        _remains(s)
        _knows(s)
        _meaning(s)
        _addressed_claims(s, you)
        _new_names(s, covered)
    _blows(ex, snapshot, text, sentences)
    return ex
