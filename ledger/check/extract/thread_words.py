"""The words of thread claims: a thread's kind words, the closed patterns of a status told settled, broken
or open, and the lemmas and cue words around them. Data only; :mod:`.threads` reads it.
"""

from __future__ import annotations

import re

_THREAD_WORDS = {
    "favour": "favour",
    "favor": "favour",
    "favours": "favour",
    "favors": "favour",
    "debt": "debt",
    "debts": "debt",
    "oath": "oath",
    "vow": "oath",
    "bounty": "bounty",
    "prophecy": "prophecy",
    "quest": "quest",
    "promise": "oath",
    "boon": "favour",
    # a sworn pact between two sides is an oath
    "truce": "oath",
    "pact": "oath",
    "pledge": "oath",
    "compact": "oath",
    "covenant": "oath",
}
_DETERMINERS = ("a", "an", "the", "his", "her", "their", "its", "my", "your", "our")
_NO_DETERMINER = "".join(rf"(?<!\b{d} )" for d in _DETERMINERS)
_STATUS_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # never broken: an oath kept so far, true of one standing or fulfilled
    (
        "unbroken",
        re.compile(
            r"\b(?:never|not|n't|hasn't|hadn't|has not|had not)(?:\s+(?:once|yet|ever|been))?\s+"
            r"(?:broken|broke|forsworn|betrayed)\b|\bunbroken\b"
        ),
    ),
    (
        "open",
        re.compile(
            r"\b(?:not yet|never|yet to be|has yet to|have yet to|still not|isn't|is not|wasn't|was not)\b"
            r"(?:\s+\w+){0,2}?\s+(?:paid|repaid|settled|fulfilled|honou?red|called in|discharged|cleared|"
            r"kept|re?pay|settle|fulfill?|honou?r|discharge|clear)\b|\b(?:unpaid|outstanding|unfulfilled|unsettled)\b"
            # the payment denied by its object: "has repaid no debt", "paid nothing back"
            r"|\b(?:paid|repaid|settled|cleared)(?: back| off)? (?:nothing|none|no)\b"
        ),
    ),
    (
        "settled",
        re.compile(
            r"\b(?:no longer owes?|"
            r"(?:doesn't|does not|don't|do not|didn't) owe (?:\w+ ){0,3}(?:any ?more|now)|"
            r"owes? (?:\w+ ){0,2}nothing|nothing (?:more )?owed|paid in full|thing of the past|"
            r"owes? (?:nobody|no one|no-one) (?:\w+ )?anything|"
            r"(?:doesn't|does not|don't|do not) owe (?:\w+ ){0,2}(?:anything|a thing|a penny|a coin)|"
            r"(?:is|was|been|now|finally|are) (?:(?:\w+ly|long|since|now|already|all|quite|at|last|well) )"
            r"{0,2}?(?:paid|repaid|settled|fulfilled|"
            r"honou?red|discharged|cleared|square|even|quits|done|collected|claimed|spent|used up|"
            r"called in|redeemed)\b|"
            r"(?:repaid|settled|fulfilled|honou?red|discharged|squared|kept)\b)"
        ),
    ),
    # not a participle before its noun, after a determiner: "a broken table", "his broken leg"
    ("broken", re.compile(_NO_DETERMINER + r"\b(?:broken|broke|forsworn|betrayed)\b")),
    ("expired", re.compile(r"\b(?:expired|lapsed)\b")),
    (
        "open",
        re.compile(
            r"\b(?:still owes?|still owed|owes?|still stands|hangs over|still binds|remains open|due|"
            r"waiting to be|still open|unpaid|outstanding)\b"
        ),
    ),
)


_ANY_STATUS = re.compile("|".join(f"(?:{pat.pattern})" for _, pat in _STATUS_PATTERNS))

# Status told in indirect words, by lemma (lemminflect) so any tense counts: (status, verb lemma, a phrase
# that must follow within four tokens, or ""). "made good", "paid off", "cleared his account", "turned her
# back on", "counts whatever lay between them as closed".
_STATUS_LEMMAS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("settled", "make", ("good",)),
    ("settled", "pay", ("off", "back", "up", "out", "in full")),
    # not "cleared her name": a name cleared is a reputation, not an account
    ("settled", "clear", ("account", "debt", "debts", "slate", "books", "score", "it", "tab")),
    ("settled", "settle", ("account", "accounts", "debt", "score", "up")),
    ("settled", "square", ("account", "accounts", "away", "up", "now")),
    ("settled", "keep", ("faith", "word", "promise", "oath", "vow")),
    ("settled", "forgive", ("debt", "debts", "loan", "money", "sum", "owed", "owes", "owing")),
    ("settled", "wipe", ("slate", "debt", "debts", "account", "tab", "books")),
    ("settled", "cross", ("debt", "debts", "tab", "account", "loan", "marker")),
    ("settled", "strike", ("debt", "debts", "tab", "account", "loan", "marker")),
    ("settled", "write", ("off",)),
    ("settled", "call", ("it even", "it square", "it quits", "us even", "us square")),
    ("broken", "break", ("faith", "word", "oath", "vow", "promise")),
    ("broken", "turn", ("back on",)),
    ("broken", "go", ("back on",)),
    ("broken", "renege", ("",)),
    ("broken", "betray", ("",)),
    ("broken", "forswear", ("",)),
)
# Only when the sentence names the thread (by an alias or its kind's word): a party let off or released from
# it ("the Dean let Sefa off her vow", "absolves him of the debt") settles it; the matter told still there
# with a verb of persisting ("the crucible money is still hanging between them", "the oath still weighs on
# her") keeps it open. Verb classes by lemma, so any tense or form counts.
_RELEASE_LEMMAS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("settled", "let", ("off",)),
    ("settled", "release", ("from", "of")),
    ("settled", "free", ("from", "of")),
    ("settled", "absolve", ("of", "from")),
    ("settled", "relieve", ("of",)),
    ("settled", "excuse", ("from",)),
)
# verbs of destroying the paper that records a debt or bond, when the thread is named by an alias right after
# them ("tore up the marker", "burned Odo's bond"): the obligation is cancelled
_DESTROY_LEMMAS = frozenset({"tear", "rip", "burn", "shred", "destroy", "cancel", "void"})
_PERSIST_LEMMAS = frozenset(
    {
        "hang",
        "stand",
        "remain",
        "linger",
        "loom",
        "sit",
        "lie",
        "wait",
        "weigh",
        "bind",
        "fester",
        "rankle",
        "burn",
        "stick",
        "endure",
        "press",
        "gnaw",
        "nag",
        "dangle",
        "hover",
        "rest",
    }
)
_CUE_WORDS = frozenset(w for _, _, after in _STATUS_LEMMAS for a in after for w in a.split()) | {
    "closed",
    "settled",
    "square",
    "even",
    "quits",
}
# words before a status verb that make it something wished, planned or possible, not told
_UNREAL = frozenset(
    {"can", "could", "will", "would", "shall", "might", "may", "must", "to", "until", "unless", "if", "once"}
    | {"before", "when", "whether", "cannot", "should"}
)
_STATUS_VERBS = frozenset(want for _, want, _ in _STATUS_LEMMAS)
# "counts it as closed", "all square"; "his slate with her is clean", "the slate was long since clean"
_SETTLED_AS = re.compile(
    r"\b(?:as|now|all) (?:closed|settled|square|even|quits)\b"
    r"|\bslate (?:\w+ ){0,3}?(?:is|was) (?:(?!not |never )\w+ ){0,2}clean\b"
)
# idioms, matched on tokens (a possessive "'s" is part of its token: "each other's" reads "each other")
_OPEN_IDIOMS = ("at each other throats", "at one another throats", "still feuding", "sits heavy")
_OBJECT_PRONOUNS = {"him": "he", "her": "she", "them": "they", "he": "he", "she": "she", "they": "they"}

_RUMOURED = frozenset(
    {"rumoured", "rumored", "reportedly", "supposedly", "allegedly", "rumour", "rumor", "whispered", "gossip"}
)

_FOR_STOP = frozenset(
    {"the", "a", "an", "his", "her", "their", "its", "my", "our", "your", "of", "new", "old", "from", "in"}
    | {"at", "on", "to", "and", "with", "by", "that", "this", "he", "she", "they", "it", "one", "two", "some"}
    | {"over", "back", "out", "up", "down", "off", "into", "onto", "across", "through", "after", "before"}
    | {"during", "last", "next", "each", "every", "all", "both", "him", "them", "about", "nothing", "for"}
)
