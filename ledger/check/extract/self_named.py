"""A speaker who names themself: "Lieutenant Reyes here," says a crisp, familiar voice.

On a radio, a phone or an intercom a speaker says who they are, and the narration tags the line only with
"a voice": the protocol of the medium names the one who acts. A line that opens a clause with the speaker's
own name and "here" ("Reyes here"), "speaking", "reporting" or "calling", that says "this is <name>" on a
medium, or that signs off with "<name> out", makes ``acts(name)`` for the speaker. Only when no one else is
named as the line's speaker (Kurogane saying "this is Reyes" introduces her), and for "this is" and the
sign-off only with a medium or an unnamed voice in this sentence or the two before; a question ("Reyes
here?") names no one. Reads tokens and mentions; the pipeline calls :func:`self_named` after speech.
"""

from __future__ import annotations

from ledger.check.claims import Claim, Modality
from ledger.check.extract.media import LIVE
from ledger.check.extract.names import Mention
from ledger.check.extract.sentence import _Sentence

_OPENING = frozenset({'"', "“", ".", ",", "!", ";", ":", "—", "–"})
_CLOSING = frozenset({",", ".", "!", ";", ":", "—", "–", '"', "”"})
_SELF = frozenset({"here", "speaking", "reporting", "calling"})
_UNNAMED = frozenset({"voice", "someone", "somebody", "caller", "speaker", "radio", "receiver", "handset"})
_MEDIUM = LIVE | _UNNAMED | {"comms", "radio", "intercom", "headset", "earpiece", "walkie", "receiver"}


def _named_speaker(s: _Sentence, q0: int, q1: int, eid: str) -> bool:
    """True when the line's tag names a creature other than ``eid`` right before or after the quote."""
    for m in s.mentions:
        if m.quoted or not m.id or m.id == eid or s.kind(m) not in ("pc", "npc", "monster"):
            continue
        if q1 < m.i <= q1 + 3 or (m.j <= q0 and q0 - m.j <= 4):
            return True
    # a pronoun tag ('"Reyes here," she says') not known to stand for the one named
    from ledger.check.extract.predicates import _resolve_pronoun

    for k in range(q1 + 1, min(s.b, q1 + 4)):
        if s.tokens[k].low in ("he", "she", "they") and _resolve_pronoun(s, s.tokens[k].low) != eid:
            return True
    return False


def _medium_near(s: _Sentence) -> bool:
    """True when a live medium or an unnamed voice is told in this sentence or the two before it."""
    lo = s.a
    for _ in range(2):
        k = lo - 1
        while k > 0 and s.tokens[k - 1].text not in (".", "!", "?"):
            k -= 1
        lo = max(0, k)
    return any(not t.quoted and t.low in _MEDIUM for t in s.tokens[lo : s.b])


def _quotes(s: _Sentence) -> list[tuple[int, int]]:
    """(first, last) quoted word token of each line of speech in the sentence."""
    out: list[tuple[int, int]] = []
    k = s.a
    while k < s.b:
        if s.tokens[k].quoted:
            j = k
            while j + 1 < s.b and s.tokens[j + 1].quoted and s.tokens[j + 1].text not in ('"', "”"):
                j += 1
            out.append((k, j))
            k = j + 2
        else:
            k += 1
    return out


def _names_self(s: _Sentence, m: Mention, q0: int, q1: int) -> str | None:
    """How the line at ``q0``..``q1`` names ``m`` as its speaker: "here", "this is", "out"; None if not."""
    toks = s.tokens
    prev = toks[m.i - 1].text if m.i - 1 >= q0 else '"'
    nxt = toks[m.j].low if m.j <= q1 else '"'
    after = toks[m.j + 1].text if m.j + 1 <= q1 + 1 and m.j + 1 < len(toks) else '"'
    if prev in _OPENING and nxt in _SELF and after in _CLOSING:
        return "here"
    if prev in _OPENING and nxt == "out" and after in (".", "!", '"', "”") and m.j + 1 >= q1:
        return "out"
    two = [t.low for t in toks[max(q0, m.i - 2) : m.i]]
    first = toks[m.i - 3].text if m.i - 3 >= q0 else '"'
    if two == ["this", "is"] and first in _OPENING and (nxt in _CLOSING or nxt in _SELF):
        return "this is"
    return None


def self_named(s: _Sentence) -> None:
    """acts(speaker) for each line of speech in the sentence whose speaker names themself."""
    for q0, q1 in _quotes(s):
        if s.tokens[q1].text == "?" or (q1 + 1 < s.b and s.tokens[q1 + 1].text == "?"):
            continue
        for m in s.mentions:
            if not (m.quoted and m.id and q0 <= m.i <= q1) or s.kind(m) not in ("pc", "npc"):
                continue
            how = _names_self(s, m, q0, q1)
            if how is None or _named_speaker(s, q0, q1, m.id):
                continue
            if how != "here" and not _medium_near(s):
                continue
            frame = s.modality(Mention(("",), q0, q0 + 1, False, False, "public"))
            if frame.memory or frame.rumour or frame.hypothetical:
                continue
            claim = Claim("acts", (m.id,), s.raw.strip(), s.span, Modality(), "say")
            s.ex.claims.append(claim)
            break
