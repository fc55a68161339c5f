"""Thread claims: a favour, debt, oath or bounty told settled, broken or still open.

A thread is found by one of its aliases, by its kind's word ("the favour you owe"), or by two of its parties
owing each other; the status comes from a closed set of patterns. Imports :mod:`.lexicon` and
:mod:`.sentence`.
"""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.sentence import _Sentence

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
}
_STATUS_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "open",
        re.compile(
            r"\b(?:not yet|never|yet to be|has yet to|have yet to|still not|isn't|is not|wasn't|was not)\b"
            r"(?:\s+\w+){0,2}?\s+(?:paid|repaid|settled|fulfilled|honou?red|called in|discharged|cleared|"
            r"kept)\b|\b(?:unpaid|outstanding|unfulfilled|unsettled)\b"
        ),
    ),
    (
        "settled",
        re.compile(
            r"\b(?:no longer owes?|owes? (?:\w+ ){0,2}nothing|nothing (?:more )?owed|paid in full|"
            r"(?:is|was|been|now|finally|are) (?:\w+ )?(?:paid|repaid|settled|fulfilled|"
            r"honou?red|discharged|cleared|square|even|quits|done|collected|claimed|spent|used up|"
            r"called in|redeemed)|"
            r"(?:repaid|settled|fulfilled|honou?red|discharged|squared|kept)\b)"
        ),
    ),
    ("broken", re.compile(r"\b(?:broken|broke|forsworn|betrayed)\b")),
    ("expired", re.compile(r"\b(?:expired|lapsed)\b")),
    (
        "open",
        re.compile(
            r"\b(?:still owes?|still owed|owes?|still stands|hangs over|still binds|remains open|due|"
            r"waiting to be|still open|unpaid|outstanding)\b"
        ),
    ),
)


def _threads(s: _Sentence) -> None:
    """thread_status(t, status) from "the favour you still owe Wei", "your debt is paid"."""
    words = s.narr.split()
    kinds = {_THREAD_WORDS[w] for w in words if w in _THREAD_WORDS}
    aliased = [tid for tid, st, _ in s.ex.thread_mentions if s.span[0] <= st < s.span[1]]
    snap = s.snap
    named = {m.id for m in s.mentions if m.id and not m.quoted}
    if not kinds and not aliased:
        # "Kestrel still owes Mother Hesk": owing between two named parties is their debt or favour
        owing = next((w for w in words if w in ("owe", "owes", "owed", "repaid", "repays", "repay")), None)
        if owing is None or len(named) < 2:
            return
        tied = [
            t.id
            for t in snap.threads.values()
            if t.kind in ("debt", "favour") and len(named & set(t.parties)) >= 2
        ]
        if len(tied) != 1:
            return
        # the thread's terms may say who owes whom ("Greyrock owes one favour"): the debtor must lead
        debtor = next((m.id for m in s.mentions if m.id in named and m.id), None)
        terms = snap.threads[tied[0]].terms.lower()
        at = terms.find(" owe")
        if debtor is not None and at >= 0:
            # the party named last before "owe" in the terms is the debtor
            def last_before(eid: str) -> int:
                e = snap.entities.get(eid)
                names = [n.name.lower().removeprefix("the ") for n in e.names()] if e else []
                return max((terms.rfind(n, 0, at) for n in names), default=-1)

            parties = snap.threads[tied[0]].parties
            if max(parties, key=last_before) != debtor:
                return
        aliased = tied
        words = [("debt" if w == owing else w) for w in words]
    candidates = list(dict.fromkeys(aliased)) or [t.id for t in snap.threads.values() if t.kind in kinds]
    if len(candidates) > 1:
        narrowed = [t for t in candidates if named & set(snap.threads[t].parties)]
        candidates = narrowed
    if len(candidates) != 1:
        return
    first = next((i for i, w in enumerate(words) if w in _THREAD_WORDS), len(words))
    lead = words[:first]
    if any(w in _HYPO or w in ("remember", "remembers", "recall", "recalls") for w in lead) or "if" in words:
        return
    status = None
    for st, pat in _STATUS_PATTERNS:
        if pat.search(s.narr):
            status = st
            break
    if status is None:
        return
    s.ex.claims.append(
        Claim("thread_status", (candidates[0], status), s.raw.strip(), s.span, Modality(), s.narr)
    )
