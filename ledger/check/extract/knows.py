"""Knowledge claims: "Wei knows about the tunnel" names a fact (by one of its tells) that an NPC knows.

Imports :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.extract.sentence import _Sentence

_KNOW_VERBS = frozenset(
    {
        "know",
        "knows",
        "knew",
        "realise",
        "realises",
        "realize",
        "realizes",
        "suspect",
        "suspects",
        "learned",
        "learnt",
        "learns",
        "remembers",
        "heard",
        "hears",
        "saw",
    }
)


def _knows(s: _Sentence) -> None:
    """knows(npc, fact): "Wei knows about the tunnel" names a fact (by one of its tells) an NPC knows."""
    tells = [(key, a) for key, a, _ in s.ex.tells if s.span[0] <= a < s.span[1]]
    if not tells:
        return
    for m in s.creatures():
        v = s.verb_after(m)
        if m.id is None or v is None or s.tokens[v[0]].low not in _KNOW_VERBS:
            continue
        for key, a in tells:
            if a > s.tokens[v[0]].start:
                s.claim("knows", (m.id, key), m, s.modality(m, v[0]), s.tokens[v[0]].low)
        return
