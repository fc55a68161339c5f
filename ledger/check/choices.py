"""Whose choice a narration tells: the words that make a decision, a commitment or speech a player's own.

A narration may not decide for a player (agree, refuse, pledge, confess, surrender, apologise) unless their
submission said so; :mod:`ledger.check.judge` asks these helpers whether a clause decides and whether the
player's own words already made that choice. Split from the judge so its word tables read on their own.
"""

from __future__ import annotations

# Choice words that mean the same decision; a narrated choice is the player's if they wrote one of these.
CLUSTERS: dict[str, frozenset[str]] = {
    "agree": frozenset(
        {"agree", "accept", "yes", "deal", "shake", "sign", "aye", "consent", "we'll", "i'll"}
    ),
    "refuse": frozenset({"refuse", "decline", "no", "won't", "never", "reject", "nope"}),
    "pledge": frozenset(["promise", "swear", "vow", "pledge", "oath", "word"]),
    "confess": frozenset(["confess", "admit", "tell", "truth", "reveal"]),
    "surrender": frozenset(["surrender", "yield", "drop", "give", "kneel"]),
    "apologize": frozenset(["apologize", "apologise", "sorry", "forgive"]),
}


LEMMA_CLUSTER = {
    "agree": "agree",
    "accept": "agree",
    "consent": "agree",
    "relent": "agree",
    "concede": "agree",
    "volunteer": "agree",
    "refuse": "refuse",
    "decline": "refuse",
    "promise": "pledge",
    "swear": "pledge",
    "vow": "pledge",
    "pledge": "pledge",
    "confess": "confess",
    "admit": "confess",
    "surrender": "surrender",
    "yield": "surrender",
    "apologize": "apologize",
    "apologise": "apologize",
    "forgive": "apologize",
}


def decides(clause: str) -> bool:
    """True when reported speech carries a decision ("tells Wei he'll do it", "promises to pay")."""
    words = set(clause.lower().replace(",", " ").split())
    return any(words & CLUSTERS[c] for c in ("agree", "pledge", "surrender")) or bool(
        words & {"refuse", "refuses", "declines", "decline", "accepts", "accept", "agrees", "promises"}
    )


# Spoken words that commit the speaker, by the cluster they belong to ("I will ..." is a promise).
_COMMIT_PHRASES: dict[str, str] = {
    "i will": "pledge",
    "i'll": "pledge",
    "i shall": "pledge",
    "we will": "pledge",
    "we'll": "pledge",
    "my word": "pledge",
    "whatever you": "pledge",
    "i swear": "pledge",
    "i promise": "pledge",
    "i agree": "agree",
    "i accept": "agree",
    "it's a deal": "agree",
    "i refuse": "refuse",
    "i won't": "refuse",
    "i confess": "confess",
    "i admit": "confess",
    "i surrender": "surrender",
    "i yield": "surrender",
}


def commitments(text: str) -> set[str]:
    """The commitments spoken or written in ``text``: clusters of :data:`CLUSTERS` (pledge, agree, ...)."""
    low = " " + " ".join(text.lower().replace("’", "'").replace(",", " ").split()) + " "
    found = {cl for phrase, cl in _COMMIT_PHRASES.items() if f" {phrase} " in low}
    for word in low.split():
        w = word.strip(".!?;:\"'")
        for suffix in ("es", "s", "ed", "d", ""):
            if w.endswith(suffix) and w[: len(w) - len(suffix)] in LEMMA_CLUSTER:
                found.add(LEMMA_CLUSTER[w[: len(w) - len(suffix)]])
                break
    return found


def speaks(submission: str) -> bool:
    """True when the player's text says something aloud (a quote or a speech verb)."""
    low = submission.lower()
    return any(q in submission for q in ('"', "“", "'")) or any(
        w in low.split()
        for w in ("say", "ask", "tell", "shout", "yell", "whisper", "call", "reply", "answer")
    )


# --- a PC's own business: going somewhere is a choice, handling one's things is not -----------------------

_JOINED = frozenset({"and", "then", ",", "to", ";"})
_OBJECT_LEAD = frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "your", "our", "one", "two"})
_OWN = frozenset({"his", "her", "their", "its"})
_PRODUCE = frozenset({"up", "out"})  # "comes up with his last two rounds": produces them
_SUBJECTS = frozenset({"he", "she", "they", "i", "we"})


def goes(verb: str, clause: str) -> bool:
    """True when a PC's clause (its first word the verb of lemma ``verb``) tells them going somewhere: the
    verb is one of motion and goes ("strides to the door"), not one that moves a thing ("runs a whetstone
    along the blade", "walks her fingers over the map") or brings it out ("comes up with his last two
    rounds"); or a verb of motion is joined to it ("shoulders his axe and stomps off", "rises to leave").
    A word of motion inside a noun phrase ("a slow marching song") is none."""
    from ledger.check.extract.lexicon import MOTION, VERBS

    words = clause.lower().replace(",", " , ").split()
    if not words:
        return verb in MOTION
    if verb in MOTION:
        nxt = words[1:4]
        handles = bool(nxt) and nxt[0] in _OBJECT_LEAD
        brings = len(nxt) >= 3 and nxt[0] in _PRODUCE and nxt[1] == "with" and nxt[2] in _OWN
        if not (handles or brings):
            return True
    return any(VERBS.get(w) in MOTION and words[n - 1] in _JOINED for n, w in enumerate(words) if n)


def told_now(clause: str) -> tuple[str, str | None]:
    """The part of a PC's clause that tells what they do now, without a relative clause in the past that
    only describes a thing ("runs a whetstone along the scimitar she took from Maro": Maro is no party to
    the whetting), and the subject pronoun of that relative clause ("she": the thing is one she got)."""
    from ledger.check.extract.verbs import is_finite
    from ledger.check.extract.verbs import lemma as verb_lemma

    words = clause.split()
    for n in range(1, len(words) - 1):
        low, nxt = words[n].lower(), words[n + 1].lower()
        if low not in _SUBJECTS or words[n - 1].lower() in _JOINED or not words[n - 1].isalpha():
            continue
        base = verb_lemma(nxt)
        if base is not None and is_finite(nxt, base) and not nxt.endswith("s"):
            return " ".join(words[:n]), low
    return clause, None
