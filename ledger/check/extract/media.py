"""People told through a medium: seen or heard on a call, a screen, a recording, a letter, a portrait.

A living person on a LIVE medium ("Vikram, on the video call, ...", "Ibarra's voice over the intercom")
is not in the scene: the sentence makes no ``present``/``at`` claim for them, though they still act and
speak. Anyone inside a RECORDED medium (footage, a replay, a photograph, a portrait, a letter, a diary)
makes no ``acts``/``present``/``at`` claim at all: a dead woman smiling in a photograph does not act, but a
dead woman reporting live over comms does (that stays a claim, and a contradiction).

The medium is a closed class of nouns; it counts when it is attached to the mention: a prepositional
phrase in the mention's clause ("on the screen", "over the intercom", "in the footage"), the mention's
own voice or face ("Reyes's voice crackles from the speakers"), a medium that shows or carries them
("footage of Reyes", "a call from Vikram"), or a medium opened in the last few sentences for someone the
narration has not placed before it ("Mori keys the intercom. ... The doctor sounds exhausted.").
Reads only tokens and mentions; imported by :mod:`.sentence`.
"""

from __future__ import annotations

from ledger.check.extract.names import Extraction, Mention

# the medium carries the person now: they act, but elsewhere
LIVE = frozenset(
    {"call", "phone", "radio", "comms", "comm", "intercom", "loudspeaker", "screen", "monitor", "hologram"}
    | {"feed", "speaker", "line", "viewscreen", "videocall", "transmission", "channel"}
)
# the medium keeps the person as they were: they do not act at all
RECORDED = frozenset(
    {"recording", "footage", "replay", "tape", "photograph", "photo", "portrait", "painting", "letter"}
    | {"note", "telegram", "message", "diary", "journal", "picture", "likeness"}
)
_PREPOSITIONS = frozenset({"on", "over", "through", "from", "in", "via", "across", "inside", "into", "onto"})
_DETERMINERS = frozenset(
    {"the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "this", "that"}
)
# what may follow a medium noun that ends its phrase ("on the screen, cold"); another word makes it a
# modifier ("the radio room") and no medium
_AFTER = frozenset(
    {"and", "but", "as", "with", "from", "to", "of", "that", "which", "while", "when", "where", "then", "or"}
    | {"is", "was", "are", "were", "shows", "showed", "show", "plays", "played", "crackles", "crackled"}
    | {"for", "by", "at", "behind", "again", "now", "still", "itself"}
)
_CARRIES = frozenset(
    {"of", "from", "by", "shows", "showed", "show", "showing", "features", "plays", "captures"}
)
# media that play a voice or a picture into the scene and so carry the next newcomer; a portrait on the
# wall or a letter being read brings no one in by itself
_STILL = frozenset({"photograph", "photo", "portrait", "painting", "picture", "likeness", "letter", "note"})
_WRITTEN = frozenset({"telegram", "message", "diary", "journal"})
# prepositions that put someone physically somewhere ("In the corner, Ilyin ...", "beside his widow"):
# a sentence that places them in the room is not a voice on a line
_PLACING = frozenset({"in", "at", "beside", "behind", "by", "near", "under", "across", "inside", "among"})
_NOT_PLACES = frozenset(
    {"you", "him", "her", "them", "me", "us", "it", "once", "last", "first", "least", "all"}
)
_BOUNDARY = frozenset({".", ";", "!", "?", ":", "\n"})
_WINDOW = 9
_CARRY_SENTENCES = 3  # a medium opened this many sentences back still carries newcomers


def _kind(ex: Extraction, k: int) -> str | None:
    """``"live"``/``"recorded"`` when token ``k`` is a medium noun (singular or plural), else None."""
    t = ex.tokens[k]
    if t.quoted:
        return None
    low = t.low
    stem = low[:-1] if low.endswith("s") and low not in {"comms"} else low
    if low in RECORDED or stem in RECORDED:
        return "recorded"
    if low in LIVE or stem in LIVE:
        return "live"
    return None


def _phrase(ex: Extraction, k: int, a: int) -> bool:
    """Is the medium at ``k`` in a prepositional phrase ("over the intercom", "on comms")?"""
    j = k - 1
    dets = 0
    while j >= a and j >= k - 4:
        low = ex.tokens[j].low
        if low in _PREPOSITIONS:
            return dets > 0 or ex.tokens[k].low not in {"line", "call", "note", "message", "tape"}
        if low in _DETERMINERS or ex.tokens[j].poss:
            dets += 1
        elif not low.isalpha() or low == "and":
            return False
        j -= 1
    return False


def _ends(ex: Extraction, k: int, b: int) -> bool:
    """Does the medium noun at ``k`` end its phrase (not a modifier of a following noun)?"""
    if k + 1 >= b:
        return True
    nxt = ex.tokens[k + 1]
    return not nxt.low.isalpha() or nxt.low in _AFTER or nxt.quoted


def _clear(ex: Extraction, lo: int, hi: int, eid: str) -> bool:
    """No clause boundary and no other creature named between tokens ``lo`` and ``hi``."""
    if any(ex.tokens[k].low in _BOUNDARY for k in range(lo, hi)):
        return False
    return not any(m.id is not None and m.id != eid and not m.quoted for m in ex.between(lo, hi))


def attached(ex: Extraction, a: int, b: int, m: Mention, eid: str) -> str | None:
    """The kind of medium attached to mention ``m`` in the sentence of tokens ``[a, b)``, if any."""
    found: set[str] = set()
    for k in range(max(a, m.i - _WINDOW), min(b, m.j + _WINDOW)):
        kind = _kind(ex, k)
        if kind is None or not _ends(ex, k, b):
            continue
        if k >= m.j:  # after: "Vikram's face fills the screen", "Reyes, on the radio"
            if _clear(ex, m.j, k, eid) and (m.poss or _phrase(ex, k, m.j)):
                found.add(kind)
        elif _clear(ex, k + 1, m.i, eid) and (
            _phrase(ex, k, a) or (k + 1 < b and ex.tokens[k + 1].low in _CARRIES)
        ):  # before: "On the screen, Vikram ...", "footage of Reyes"
            found.add(kind)
    return "recorded" if "recorded" in found else next(iter(found), None)


def _places(ex: Extraction, a: int, b: int) -> bool:
    """Does the sentence put someone somewhere physical: a place preposition before a non-medium noun?"""
    for k in range(a, b - 1):
        t = ex.tokens[k]
        if t.quoted or t.low not in _PLACING:
            continue
        j = k + 1
        while j < b and j < k + 4 and (ex.tokens[j].low in _DETERMINERS or ex.tokens[j].poss):
            j += 1
        if (
            j < b
            and ex.tokens[j].low.isalpha()
            and ex.tokens[j].low not in _NOT_PLACES
            and _kind(ex, j) is None
        ):
            return True
    return False


def _carried(ex: Extraction, a: int, b: int, anchor: int, eid: str) -> str | None:
    """A medium opened shortly before ``anchor`` that brings ``eid`` in: they are named only after it."""
    starts = [s for s, _ in ex.sentences]
    lo_char = ex.tokens[a].start
    back = [s for s in starts if s < lo_char][-_CARRY_SENTENCES:]
    first = back[0] if back else lo_char
    lo = a
    while lo > 0 and ex.tokens[lo - 1].start >= first:
        lo -= 1
    found: list[tuple[int, str]] = []
    for k in range(lo, anchor):
        kind = _kind(ex, k)
        if kind is not None and ex.tokens[k].low.removesuffix("s") not in _STILL | _WRITTEN:
            found.append((k, kind))
    if not found:
        return None
    if _places(ex, a, b):
        return None
    k0 = found[0][0]
    if any(m.id == eid and not m.quoted and m.i < k0 for m in ex.mentions):
        return None  # placed in the narration before the medium: they are not its voice
    kinds = {kind for _, kind in found}
    return "recorded" if "recorded" in kinds else "live"


def drops(ex: Extraction, a: int, b: int, kind: str, eid: str, m: Mention | None) -> bool:
    """Does a medium take back this ``kind`` claim (acts/present/at) about ``eid`` in tokens ``[a, b)``?"""
    if kind not in {"acts", "present", "at"}:
        return False
    own = m is not None and m.i >= a
    # any naming of them in the sentence that a medium holds holds the whole sentence's claims about them
    named = [n for n in ex.between(a, b) if n.id == eid and not n.quoted]
    found = {attached(ex, a, b, n, eid) for n in ([m] if m is not None and own else []) + named}
    found.add(_carried(ex, a, b, m.i if m is not None and own else a, eid))
    if "recorded" in found:
        return True  # played back through a live speaker is still a recording
    return "live" in found and kind != "acts"
