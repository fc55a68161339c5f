"""Split a narration into atomic claims, deterministically: no model, no parser library.

The modules, each importing only those before it: :mod:`.lexicon` (the verb lexicon and the grammar and
modality words several passes share), :mod:`.verbs` (any verb's lemma, tense and claim class, from
lemminflect's lexicon behind the hand table), :mod:`.text` (tokens, quotes, sentences, quantities, tense),
:mod:`.names` (the cached name index of a snapshot, mentions, the ``Extraction`` and pronoun resolution),
:mod:`.sentence` (one sentence's clauses, the modality of a mention — quoted, hypothetical, memory, rumour,
negated — and the verb a subject governs), then one pass per claim family with its own word lists:
:mod:`.presence` (speech, acting, presence, alive, dead, conditions; with :mod:`.places` for where a creature
is and goes and the party's moves, and :mod:`.arrivals` for someone brought, met, or coming from where the
record has them), :mod:`.combat` (hit, missed, damaged, killed), :mod:`.holdings` (who holds which item and
how many; with :mod:`.item_mentions` for what an item's name counts, :mod:`.owners` for whose it is and
:mod:`.handovers` for "hands it to" and letting go), :mod:`.relations` (kin and attitudes), :mod:`.threads` (a
thread's status, with its words and patterns in :mod:`.thread_words`), :mod:`.knows` (what an NPC knows)
and :mod:`.new_names` (unrecorded names for the GM), the
meaning-level passes run by :mod:`.meaning` on the shared subject and predicate reading of :mod:`.predicates`
(:mod:`.conditions`: the pass and an incapacitated creature acting, with :mod:`.health` for health words and a
cure and :mod:`.senses` for senses used; :mod:`.relations`: kinship terms; :mod:`.valence`: attitude shown by
behaviour, from VADER's lexicon; :mod:`.counts`: ordinals and count words), and last :mod:`.pipeline`
(:func:`extract`, the passes in order). The extractor only reads; what a claim means against the ledger is
:mod:`ledger.check.judge`'s job, and changes the narration itself makes (a dagger handed over, an NPC walking
off) are claims with a ``detail`` the judge replays in text order.
"""

from __future__ import annotations

from ledger.check.extract.lexicon import CHOICE, IDLE, MOTION, SPEECH, STATIC, VERBS
from ledger.check.extract.names import Extraction, Mention, NameIndex, find_mentions, name_index
from ledger.check.extract.pipeline import extract
from ledger.check.extract.presence import INCAPACITATING
from ledger.check.extract.text import Token, content_words, tokenize

__all__ = [
    "CHOICE",
    "IDLE",
    "INCAPACITATING",
    "MOTION",
    "SPEECH",
    "STATIC",
    "VERBS",
    "Extraction",
    "Mention",
    "NameIndex",
    "Token",
    "content_words",
    "extract",
    "find_mentions",
    "name_index",
    "tokenize",
]
