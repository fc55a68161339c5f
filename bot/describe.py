"""Plain-English lines for ledger events, used by `/ledger history`, recaps and NPC memory.

Rendering only: the event's kind and payload are the record; this module never decides anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Namer = Callable[[str | None], str]
_ORDINAL_ALIAS = re.compile(
    r"^the (?:first|second|third|fifth|eighth|ninth|twelfth|twentieth|[a-z]+teenth|fourth|sixth|seventh|"
    r"tenth|eleventh|\d+(?:st|nd|rd|th)) ",
    re.I,
)


def _plain(value: str | None) -> str:
    if not value:
        return "nobody"
    return value.split("-", 1)[-1].replace("-", " ").title() if "-" in value else value


def fact_keys(key: str) -> list[str]:
    """The ids a fact's key may start with, longest first: ``npc-old-wei-fear`` -> ``npc-old-wei``, ..."""
    parts = key.split("-")
    return ["-".join(parts[:i]) for i in range(len(parts) - 1, 1, -1)]


def fact_subject(key: str, name: Namer) -> tuple[str | None, str]:
    """Split a fact's key into its subject's name and the aspect: ``("Old Wei", "fear")``.

    ``(None, key)`` when no prefix of the key is a known id (``name`` echoes unknown ids back).
    """
    for prefix in fact_keys(key):
        shown = name(prefix)
        if shown and shown != prefix:
            return shown, key[len(prefix) + 1 :]
    return None, key


def cause_label(cause: str) -> str:
    """Where a record came from, as a player reads it.

    Record refs a player may type (``ev-000123``, ``favor-0003-01``) stay as they are; the ledger's own
    bookkeeping becomes words: ``round-12.5#3`` -> ``round 12.5``, ``scenario:harbor.toml`` -> ``the
    scenario``, ``gm-<user id>`` -> ``the GM``.
    """
    round_ref = re.fullmatch(r"round-(\d+)\.(\d+)(?:#\d+)?", cause)
    if round_ref:
        return f"round {round_ref.group(1)}.{round_ref.group(2)}"
    if cause.startswith("scenario:"):
        return "the scenario"
    if re.fullmatch(r"gm-\d+", cause):
        return "the GM"
    return cause


VISIBILITY_LABELS = {"public": "everyone", "party": "the party", "gm": "the GM only"}


def visibility_label(visibility: str) -> str:
    """Who may see a record, in words: ``player:bob`` -> ``one player only``."""
    return VISIBILITY_LABELS.get(
        visibility, "one player only" if visibility.startswith("player:") else visibility
    )


def _spoken(subject: str | None, aspect: str, value: object) -> str | None:
    """A round's speech record ("Greyrock to Old Wei: ask Old Wei what ...") told as the act, never quoted."""
    if subject is None or not re.fullmatch(r"said-\d+-\d+", aspect) or not isinstance(value, str):
        return None
    from bot.narrator.speech import reported_speech

    head, _, words = value.partition(": ")
    speaker, _, listener = head.partition(" to ")
    if not words or speaker.strip() != subject:
        return f"{subject} spoke up"
    return f"{subject} {reported_speech(words, listener.strip() or None, speaker=subject)}"


def describe_event(kind: str, payload: Mapping[str, Any], name: Namer | None = None) -> str:
    """One line saying what an event changed, e.g. ``Harlan Voss died``."""
    n: Namer = name or _plain
    p = payload
    if kind == "set_alive":
        return f"{n(p.get('entity'))} {'died' if not p.get('alive') else 'returned to life'}"
    if kind == "move_entity":
        return f"{n(p.get('entity'))} went to {n(p.get('location'))}"
    if kind == "set_hp":
        return f"{n(p.get('entity'))} now has {p.get('hp')} HP"
    if kind == "add_condition":
        return f"{n(p.get('entity'))} is {p.get('condition')}"
    if kind == "remove_condition":
        return f"{n(p.get('entity'))} is no longer {p.get('condition')}"
    if kind == "transfer_item":
        qty = p.get("quantity", 1)
        item = n(p.get("item"))
        what = f"{qty} x {item}" if qty != 1 else item
        src, dst = p.get("from_holder"), p.get("to_holder")
        if src is None:
            return f"{n(dst)} gained {what}"
        if dst is None and str(p.get("cause") or "").startswith("round-"):
            return f"{n(src)} used up {what}"  # a round gives an item to nobody only when it is used
        if dst is None:  # the GM's removal: the item's fate follows as its own line
            return f"{n(src)} no longer has {what}"
        return f"{what} passed from {n(src)} to {n(dst)}"
    if kind == "set_edge":
        return (
            f"{n(p.get('source'))} -> {n(p.get('target'))}: {p.get('edge_kind')} "
            f"({int(p.get('attitude', 0)):+d}), {p.get('reason', '')}".rstrip(", ")
        )
    if kind == "open_thread":
        return f"{p.get('thread_kind', 'thread')} {p.get('id')} opened: {p.get('terms', '')}".rstrip(": ")
    if kind == "thread_transition":
        reason = f" ({p['reason']})" if p.get("reason") else ""
        return f"{p.get('thread')} is now {p.get('status')}{reason}"
    if kind == "set_fact":
        key = str(p.get("key") or "")
        subject, aspect = fact_subject(key, name) if name is not None else (None, key)
        spoken = _spoken(subject, aspect, p.get("value"))
        if spoken is not None:
            return spoken
        if subject is not None and re.fullmatch(r"learned-.+", aspect):
            return f"{subject} learned something: {p.get('value')}"
        if subject is not None:
            return f"{subject}'s {aspect.replace('-', ' ')}: {p.get('value')}"
        return f"{key.replace('-', ' ')}: {p.get('value')}"
    if kind == "create_entity":
        # One of several same-named creatures by its ordinal alias ("the second bandit"), never "Bandit 2".
        ordinal = next((a for a in p.get("aliases") or () if _ORDINAL_ALIAS.match(str(a))), None)
        shown = f"{ordinal[:1].upper()}{ordinal[1:]}" if ordinal else p.get("name")
        return f"{shown} enters the story"
    if kind == "create_item":
        return f"{p.get('name')} appears"
    if kind == "create_location":
        return f"{p.get('name')} is discovered"
    if kind == "retcon":
        return f"retcon of {p.get('target')}: {p.get('reason', '')}"
    if kind == "correction":
        return f"correction of {p.get('target')}: {p.get('reason', '')}"
    return kind.replace("_", " ")
