"""Thread claims from a payment told by what the debt or favour is for ("the wagon axle is paid for at last").
Split out of :mod:`.threads`."""

from __future__ import annotations

import re

from ledger.check.claims import Claim, Modality
from ledger.check.extract.lexicon import _HYPO
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_words import _FOR_STOP, _RUMOURED, _STATUS_PATTERNS
from ledger.check.snapshot import WorldSnapshot

_PAYING = re.compile(r"\b(?:paid|repaid|settled|cleared|squared|unpaid|owes?|owed|owing)\b")


def _what_for(snap: WorldSnapshot) -> dict[str, tuple[frozenset[str], str]]:
    """Thread -> (content words of what it is owed for, head noun), from "... owes Rask twenty crowns for the
    wagon axle": the words after " for " in its terms, up to the next clause. Built once per snapshot."""
    cached = snap.cache.get("threads-what-for")
    if isinstance(cached, dict):
        return cached
    out: dict[str, tuple[frozenset[str], str]] = {}
    for t in snap.threads.values():
        if t.kind not in ("debt", "favour"):
            continue
        terms = t.terms.lower()
        at = terms.find(" for ")
        if at < 0:
            continue
        # up to a clause of its own: "for the mooring fee he paid for her" is the fee, not "for"
        phrase = re.split(
            r"[;,(]| from | by | when | until | (?:he|she|they|who|which|that|we|i|you) ",
            terms[at + 5 :] + " ",
        )[0]
        words = [w.strip(".'’").removesuffix("'s") for w in phrase.split()]
        content = [w for w in words if w.replace("-", "").isalpha() and w not in _FOR_STOP and len(w) > 2]
        if content:
            out[t.id] = (frozenset(content), content[-1])
    snap.cache["threads-what-for"] = out
    return out


def _by_what_for(s: _Sentence, words: list[str]) -> bool:
    """thread_status from a payment told by what the debt or favour is for: "the wagon axle is paid for at
    last", "Rask still owes for the axle". The thing's head noun (and every other word of it the sentence
    has) binds the one thread; only words of paying or owing tell the status. True when it made the claim."""
    hit = _PAYING.search(s.narr)
    if hit is None:
        return False
    table = _what_for(s.snap)
    if not table:
        return False
    present = set(words) | {w.removesuffix("'s") for w in words}
    present |= {part for w in present if "-" in w for part in w.split("-")}  # "the pump-parts money"
    found = [
        tid
        for tid, (content, head) in table.items()
        if head in present and len(content & present) >= min(2, len(content))
    ]
    if len(found) != 1:
        return False
    lead = set(s.narr[: hit.start()].split()[-4:])
    if lead & (_HYPO | _RUMOURED | {"remember", "remembers", "if", "will", "to", "would", "must", "can"}):
        return False  # "Rask will pay for the axle", "means to pay": a plan
    status = None
    for st, pat in _STATUS_PATTERNS:
        if st in ("open", "settled") and pat.search(s.narr):
            status = st
            break
    if status is None and hit.group(0) in ("paid", "repaid", "settled", "cleared", "squared"):
        status = "settled"
    if status is None:
        return False
    framing = s.modality(Mention(("",), s.a, s.a + 1, False, False, "public"))
    if framing.rumour or framing.hypothetical or framing.memory:
        return False
    s.ex.claims.append(
        Claim("thread_status", (found[0], status), s.raw.strip(), s.span, Modality(), "for;" + s.narr)
    )
    return True
