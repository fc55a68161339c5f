"""Looking threads up: by kind and by party (indexes built once per snapshot), the party a thread binds,
and whether a status is only a party's own say-so. Split out of :mod:`.threads`."""

from __future__ import annotations

from ledger.check.extract.sentence import _Sentence
from ledger.check.extract.thread_grammar import owes_nothing_subject, reporter
from ledger.check.snapshot import WorldSnapshot


def _threads_by_kind(snap: WorldSnapshot) -> dict[str, tuple[str, ...]]:
    """Thread kind -> its threads in record order, built once per snapshot (a long campaign has thousands)."""
    cached = snap.cache.get("threads-by-kind")
    if isinstance(cached, dict):
        return cached
    out: dict[str, list[str]] = {}
    for t in snap.threads.values():
        out.setdefault(t.kind, []).append(t.id)
    table = {k: tuple(v) for k, v in out.items()}
    snap.cache["threads-by-kind"] = table
    return table


def _threads_of(snap: WorldSnapshot, parties: set[str]) -> list[str]:
    """The threads any of ``parties`` is party to, in record order (from a per-snapshot index)."""
    cached = snap.cache.get("threads-by-party")
    if not isinstance(cached, dict):
        index: dict[str, list[str]] = {}
        for t in snap.threads.values():
            for p in dict.fromkeys(t.parties):
                index.setdefault(p, []).append(t.id)
        cached = {k: tuple(v) for k, v in index.items()}
        snap.cache["threads-by-party"] = cached
    found = {tid for p in parties for tid in cached.get(p, ())}
    if len(found) < 2:
        return list(found)
    order = snap.cache.get("threads-order")
    if not isinstance(order, dict):
        order = {tid: n for n, tid in enumerate(snap.threads)}
        snap.cache["threads-order"] = order
    return sorted(found, key=order.__getitem__)


def _creditor_owes_nothing(s: _Sentence, tid: str) -> bool:
    """True when the sentence says a party owes nothing who is not the one the thread binds: "Caul owes Ines
    nothing" of Ines's debt to Caul is true whatever its status, and tells none."""
    who = owes_nothing_subject(s)
    if who is None or who not in s.snap.threads[tid].parties:
        return False
    role = s.snap.threads[tid].role_of(who)
    return role not in ("owes", "sworn") if role is not None else who != _bound(s.snap, tid)


def _in_a_party_report(s: _Sentence, k: int, tid: str, told: str) -> bool:
    """True when the status is only someone's words that tell nothing: a PC's (what a player had their
    character say is the player's claim, not the ledger's: "Greyrock tells Old Wei that the favour is paid"
    was flagged in play), or the one the thread binds saying it is paid or kept (as in a line of speech, they
    may be lying in their own defence). The creditor saying it is paid still tells a settlement."""
    who = reporter(s, k)
    if who is None:
        return False
    e = s.snap.entities.get(who)
    if e is not None and e.kind == "pc":
        return True
    role = s.snap.threads[tid].role_of(who)
    bound = role in ("owes", "sworn") if role is not None else who == _bound(s.snap, tid)
    return told in ("settled", "unbroken") and bound


def _bound(snap: WorldSnapshot, tid: str) -> str | None:
    """The party a thread binds (the one who swore, or owes): the party its terms name first."""
    t = snap.threads[tid]
    terms = t.terms.lower()
    found: list[tuple[int, str]] = []
    for p in dict.fromkeys(t.parties):
        e = snap.entities.get(p)
        words = {w for n in (e.names() if e else ()) for w in n.name.lower().split() if len(w) > 2}
        at = min((terms.find(w) for w in words if terms.find(w) >= 0), default=-1)
        if at >= 0:
            found.append((at, p))
    return min(found)[1] if found else (t.parties[0] if t.parties else None)
