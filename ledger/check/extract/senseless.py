"""What a senseless body is told as: a state, not an act.

Two readings that made a sleeping or knocked-out creature look awake:

- :func:`participle_at`: in a present-tense narration a past form set off by a comma ("Pix is on the cot,
  wrapped in a foil blanket"; "sleeps on, curled under the blanket") is a participle describing the body,
  not a finite verb the creature does: the finite verbs of a present-tense sentence are present forms;
- :func:`tells_senseless`: a sentence that itself tells the creature sleeping or senseless now ("Robin
  stirs, sighs, and sleeps on"; "he only sighs, and smiles in his sleep") tells what the body does while
  senseless, when the verb is one of a sleeping body's own small motions (:data:`SLEEP_MOTIONS`: stirring,
  rolling over, sighing, muttering), not a deed ("grabs the knife", "says ..."). Words inside quotes, and a
  sleep told as past ("was asleep", "had been out cold") or denied ("not asleep") do not count.

Imports :mod:`.health` (the past-only test) and :mod:`.sentence`; used by :mod:`.conditions` and the judge.
"""

from __future__ import annotations

import re

from ledger.check.extract.health import _past_only
from ledger.check.extract.sentence import _Sentence

# what may follow a participle describing the body: a preposition, another comma, the sentence's end
_AFTER_PARTICIPLE = frozenset(
    {"in", "on", "under", "with", "by", "into", "against", "beneath", "inside", "around", "up", "tight"}
) | {",", ".", ";", "like", "to", "over", "across", "beside", "from", "and"}


def participle_at(s: _Sentence, k: int) -> bool:
    """True when token ``k`` is a past participle set off by a comma in a present-tense narration ("Pix is
    on the cot, wrapped in a foil blanket"): it describes the body, it tells no act."""
    toks = s.tokens
    if not s.ex.present_tense or k <= s.a or toks[k - 1].text != "," or not _past_only(toks[k].low):
        return False
    return k + 1 >= s.b or toks[k + 1].low in _AFTER_PARTICIPLE


# a sleep or a senselessness told in the sentence's own words
_SENSELESS_RE = re.compile(
    r"\b(asleep|sleeps|sleeping|(?:in|from) (?:his|her|their|its) sleep|unconscious|senseless|insensible|"
    r"out cold|comatose|dead to the world|does not wake|doesn't wake|do not wake|don't wake|never wakes|"
    r"dreaming|dreams on)\b"
)
# words before the sleep word that tell it as past or deny it
_NOT_NOW_RE = re.compile(
    r"(?:\b(?:was|were|had been|has been|not|no longer|never|nor|until|before|after|once)|n't)\s+(?:\w+\s+)?$"
)
_QUOTED_RE = re.compile(r"[\"“][^\"”]*[\"”]")
# the conditions a told sleep covers (not a paralysis or a stun: those take the body, not the senses)
SLEEPS = frozenset({"unconscious", "asleep"})


# what a sleeping body does of itself, without waking: its small motions and sounds ("stirs", "rolls over",
# "smiles in her sleep", "mutters"); never a deed with the world (grabbing, speaking words, walking)
SLEEP_MOTIONS = frozenset(
    {"stir", "sigh", "smile", "turn", "roll", "shift", "toss", "curl", "nestle", "nuzzle", "frown", "sniff"}
    | {"sniffle", "snuffle", "mumble", "murmur", "mutter", "drool", "fidget", "flinch", "jerk", "kick"}
    | {"grunt", "whimper", "sob", "settle", "burrow", "snuggle", "snore", "twitch", "breathe", "moan"}
)


def sleeper_does(cond: str, verb: str, text: str) -> bool:
    """True when ``verb`` (a lemma) is what a body under ``cond`` may be told doing in sentence ``text``:
    the sentence tells the sleep, and the verb is one of a sleeping body's own small motions."""
    return cond in SLEEPS and verb in SLEEP_MOTIONS and tells_senseless(text)


def tells_senseless(text: str) -> bool:
    """True when ``text`` (one sentence) tells, outside quotes, someone sleeping or senseless now."""
    low = _QUOTED_RE.sub(" ", text.lower())
    for m in _SENSELESS_RE.finditer(low):
        if m.group(1).startswith(("does", "doesn't", "do ", "don't", "never")):
            return True  # "does not wake": the denial is the sleep
        if not _NOT_NOW_RE.search(low[: m.start()]):
            return True
    return False
