"""Private discoveries told as prose: what a Perception, Insight or Investigation check turned up, for one DM.

The table finds the discovery (a GM-only fact about the target or the place, or, failing that, the target's
stance towards someone, or nothing new at all) and this module tells it the way a GM leans over and
whispers it: "Old Wei's eyes flick to Greyrock. He has not forgotten the favour Greyrock owes." Never the
record itself: no ids, arrows, attitude numbers, sessions or brackets. A check that finds nothing new says
what the character notices instead (how hurt the target is, how closely it watches), never "nothing".

Call :func:`discovery_text` with the record's rendered text exactly as retrieval gives it; the result is the
``text`` of a :class:`~bot.narrator.base.Reveal` (one or two sentences, second person, no colon, so it reads
well after the narrator's "Lin, you alone learn this: ...").
"""

from __future__ import annotations

import random
import re
from typing import Literal

from bot.narrator.base import MAX_PRIVATE_CHARS
from bot.narrator.prose import ID_PATTERN

Shape = Literal["unhurt", "hurt", "badly hurt"]

#: "Old Wei: fear = Old Wei fears the harbourmaster ... (session 11)"
_FACT = re.compile(r"^(?:(?P<subject>[^:=]{1,80}):\s*)?(?P<field>[^=]{1,60}?)\s*=\s*(?P<value>.+)$")
#: "Greyrock -> Old Wei: owes-favour (attitude +40, since session 3): Wei hid the shipment ..."
_EDGE = re.compile(
    r"^(?P<source>.+?) -> (?P<target>.+?): (?P<kind>[\w-]+) \(attitude (?P<attitude>[+-]?\d+)[^)]*\)"
    r"(?::\s*(?P<reason>.*))?$"
)
_SESSION = re.compile(r"\s*\((?:since )?session \d+\)\s*$")
_SECRET_OPENERS = {
    "fear": (
        "Something in {target}'s eyes gives it away. {value}.",
        "You catch the fear before {target} can hide it. {value}.",
    ),
    "default": (
        "You put it together from what {target} lets slip. {value}.",
        "A detail does not sit right, and then it does. {value}.",
    ),
    "place": (
        "Something here does not add up, and then it does. {value}.",
        "You look where nobody else looks. {value}.",
    ),
}
_OWED = (
    "{target}'s eyes flick to {debtor}. {target} has not forgotten the favour {debtor_verb}.",
    "{target} glances at {debtor} and you see it plainly. The favour {debtor_verb} is still on the books.",
)
_STANCE = {
    "warm": ("{target} softens whenever {other} speaks. There is real regard there.",),
    "cold": ("{target} watches {other} the way one watches a loose dog. There is no love there.",),
    "wary": ("{target} keeps half an eye on {other} at all times, weighing every word.",),
}
_NOTHING = {
    "badly hurt": (
        "{target} gives nothing away, but you see how badly {target} is hurt, and how closely {target} "
        "watches {actor}.",
    ),
    "hurt": ("{target} gives nothing away. You notice only a wince and a wary glance at {actor}.",),
    "unhurt": (
        "{target} gives nothing away. You notice only how closely {target} watches {actor}.",
        "Whatever {target} is thinking stays hidden. {target} is steady, unhurt, and watching {actor}.",
    ),
    "none": ("You look carefully, but nothing here is hidden from you that you can find.",),
}
_KIND_WORDS = {
    "kin": "kin",
    "enemy": "cold",
    "rival": "cold",
    "ally": "warm",
    "friend": "warm",
    "employer": "wary",
}


def discovery_text(
    *,
    actor: str,
    target: str | None,
    secret: str | None = None,
    stance: str | None = None,
    shape: Shape | None = None,
    seed: int = 0,
) -> str:
    """The private note for a discovery by ``actor`` (the character's name) about ``target`` (a name or None).

    ``secret``: the GM-only record's text as retrieval renders it (a fact "Subject: field = value (session
    N)" or plain words); ``stance``: a relationship record ("A -> B: kind (attitude +40, since session 3):
    reason") when there is no secret; neither: nothing new, and ``shape`` says how hurt the target looks.
    Deterministic for ``seed``; at most :data:`MAX_PRIVATE_CHARS` characters; no ids, brackets or records.
    """
    rng = random.Random(seed)
    who = target or "someone here"
    text = None
    if secret:
        text = _secret(secret, target, rng)
    if text is None and stance:
        text = _stance(stance, target, actor, rng)
    if text is None:
        key = shape if (shape and target) else "none"
        text = rng.choice(_NOTHING[key]).format(target=who, actor=_you(actor, actor))
    return _clean(text)


def _you(name: str, actor: str) -> str:
    """The DM speaks to the discoverer: their own name is "you"."""
    return "you" if name == actor else name


def _fact_value(record: str) -> tuple[str, str] | None:
    """(field, value) of a secret record's text: no session note, no "Subject: field =" prefix, no ids."""
    text = _SESSION.sub("", " ".join(record.split())).strip()
    fact = _FACT.match(text)
    field = ""
    if fact is not None:
        field = fact.group("field").strip().lower()
        text = fact.group("value").strip()
    text = text.rstrip(".")
    if not text or ID_PATTERN.search(text) or re.search(r"[\[\](){}<>]", text):
        return None
    return field, text[0].upper() + text[1:]


def learned_fact(record: str) -> str | None:
    """What a character learned, as the ledger files it: the secret's own words as one plain sentence.

    The DM tells the discovery as prose (:func:`discovery_text`), but the filed fact keeps only what was
    learned, so the leak check reads it by its own subject and words, not by the discoverer's name and the
    DM's scene-setting ("You scan the room...") that any later narration of that character would share.
    """
    found = _fact_value(record)
    return f"{found[1]}." if found is not None else None


def _secret(record: str, target: str | None, rng: random.Random) -> str | None:
    found = _fact_value(record)
    if found is None:
        return None
    field, value = found
    text = value
    if target is None:
        family = "place"
    else:
        family = "fear" if "fear" in field or re.search(r"\bfears?\b", text) else "default"
    return rng.choice(_SECRET_OPENERS[family]).format(target=target or "it", value=value)


def _stance(record: str, target: str | None, actor: str, rng: random.Random) -> str | None:
    edge = _EDGE.match(" ".join(record.split()))
    if edge is None:
        return None
    source, other_side = edge.group("source").strip(), edge.group("target").strip()
    kind, attitude = edge.group("kind"), int(edge.group("attitude"))
    read = target or other_side
    if kind in ("owes-favour", "owes-favor", "owes", "debtor", "owes-debt") and read == other_side:
        debtor = _you(source, actor)
        verb = "you owe" if debtor == "you" else f"{debtor} owes"
        return rng.choice(_OWED).format(target=read, debtor=debtor, debtor_verb=verb)
    other = other_side if read == source else source
    mood = _KIND_WORDS.get(kind) or ("warm" if attitude >= 40 else "cold" if attitude <= -40 else "wary")
    if mood == "kin":
        return f"{read} looks at {_you(other, actor)} the way family does, fond and exasperated at once."
    return rng.choice(_STANCE[mood]).format(target=read, other=_you(other, actor))


def _clean(text: str) -> str:
    """One or two plain sentences: capitalised after "you", no doubled stops, within the DM limit."""
    text = " ".join(text.split()).replace("..", ".")
    text = re.sub(r"(^|[.!?] )you\b", lambda m: m.group(1) + "You", text)
    if len(text) > MAX_PRIVATE_CHARS:
        text = text[: MAX_PRIVATE_CHARS - 1].rstrip() + "…"
    return text


_READ_WELL = re.compile(r"^You read (?P<target>.+?) well: (?P<record>.+ -> .+)$")


def tell_reveal(text: str, character: str) -> str:
    """A discovery's text as the table files it today, told as prose: a raw stance becomes a look.

    "You read Old Wei well: Greyrock -> Old Wei: owes-favour (attitude +40, ...)" becomes "Old Wei's eyes
    flick to Greyrock. ..."; any other text (already words) is kept as it is. Once the table builds its
    discoveries with :func:`discovery_text`, this only ever sees prose.
    """
    text = " ".join(text.split())
    read = _READ_WELL.match(text)
    if read is not None:
        return discovery_text(actor=character, target=read.group("target"), stance=read.group("record"))
    return text
