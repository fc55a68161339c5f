"""The meaning-level passes over one sentence, in order: conditions and health (:mod:`.conditions`),
kinship terms (:mod:`.relations`), attitude shown by behaviour (:mod:`.valence`),
ordinals and count words against quantities (:mod:`.counts`).

:func:`_meaning` is the one call :mod:`.pipeline` makes per sentence for them; each pass only appends claims
of the meaning-level kinds (judged by :mod:`ledger.check.judge_meaning`). Imports :mod:`.conditions`.
"""

from __future__ import annotations

from ledger.check.extract.conditions import _conditions
from ledger.check.extract.counts import _counts
from ledger.check.extract.kin_naming import _kin_naming
from ledger.check.extract.kin_pronouns import _kin_by_pronoun
from ledger.check.extract.relations import _kinship
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.valence import _attitudes


def _meaning(s: _Sentence) -> None:
    """Run the meaning-level passes over sentence ``s``."""
    _conditions(s)
    _kinship(s)
    _kin_by_pronoun(s)
    _kin_naming(s)
    _attitudes(s)
    _counts(s)
