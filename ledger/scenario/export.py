"""A campaign out of the ledger as a scenario file: the whole event log, so loading it gives the same ledger.

:func:`export_campaign` reads a campaign as the GM sees it (every event, oldest first, with its witnesses)
and writes scenario TOML that :func:`ledger.scenario.load.load_scenario_into` loads back to the same
projected state (records, facts, holdings, threads, edges) through the same changes in the same order.

How the ledger maps onto the format (the format has no place for some of it; stated once, here):

* Every event becomes one change of a ``[[history]]`` entry, written with its own ``visibility`` and
  ``witnesses``; an event's ``record_event`` stays a ``record_event`` change. Only the leading run of
  ``create_location`` events (the world's first places, which must include the starting location) goes
  into ``[[locations]]``, because a file needs at least one location there.
* Consecutive events of one source session, round, cause, visibility and group witnesses form one entry;
  an entry the loader wrote from a file (its history summary in SQL) stays one entry with that summary and
  its history id. Events of a live round get a plain summary naming the cause and what changed.
* Retcon and correction targets are event refs in the ledger and history ids in a file: every targeted event
  starts its own entry, whose id the target names (its old history id, else ``h-<event ref>``).
* What the format cannot carry: each event's cause (the loader gives every event ``scenario:<file>``; the
  old cause is kept in the entry's summary), importance beyond the file's 1..5 (halved, rounded up),
  session 0 (a blank campaign's first place; written as session 1), ``null`` inside a sheet or property
  (TOML has no null: such keys are left out), sessions of play, rounds, submissions, narration texts and the
  outbox, members and session summaries (a new campaign starts its own).

The TOML is written by a small writer for the subset the format uses (tables, arrays of tables, one-line
inline tables and arrays, strings, integers, floats, booleans), checked in tests by ``tomllib``.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ledger.errors import LedgerError
from ledger.store.vocabulary import parse_mutation

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from ledger.store.records import EventView

__all__ = ["ExportError", "ScenarioExport", "export_campaign", "toml_value", "write_scenario"]

MAX_SUMMARY_CHARS = 4000  # the format's limit on a history summary
MAX_SUMMARY_PARTS = 12  # changes named in a made-up summary; the changes themselves are all in the entry
_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_BARE_KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")
_EVENT_REF_RE = re.compile(r"^ev-\d+$")


class ExportError(LedgerError):
    """The campaign cannot be written as a scenario (nothing to start from)."""


@dataclass(frozen=True)
class ScenarioExport:
    """A campaign as scenario TOML: the ``text``, a ``filename`` for it, and what it holds.

    ``problems`` lists (at most 20) lines of what the scenario reader would refuse in ``text``, empty when it
    loads back (checked by :func:`export_campaign` unless told not to).
    """

    text: str
    filename: str
    events: int
    entries: int
    problems: tuple[str, ...] = ()


# --- reading the ledger ----------------------------------------------------------------------------------


@dataclass
class _Entry:
    """One ``[[history]]`` entry being built from consecutive events."""

    key: tuple[Any, ...]
    session: int
    round: int | None
    cause: str
    visibility: str
    witnesses: tuple[str, ...]
    importance: int
    permanent: bool
    history_id: str | None = None
    summary: str | None = None
    covered: frozenset[str] = frozenset()
    events: list[EventView] = field(default_factory=list)


async def export_campaign(
    session: AsyncSession, *, campaign_id: int, validate: bool = True, now: datetime | None = None
) -> ScenarioExport:
    """The whole campaign ``campaign_id`` as scenario TOML (see the module docstring for the mapping).

    Reads through the store as the GM viewer. With ``validate`` the text is parsed back with the scenario
    reader and any problem is reported in :attr:`ScenarioExport.problems` (the text is returned anyway, so
    the GM still gets their campaign). Raises :class:`ExportError` when the campaign has no location.
    """
    from sqlmodel import select

    from ledger.store import models as m
    from ledger.store import reads, sessions
    from ledger.store.campaigns import get_campaign
    from ledger.store.visibility import Viewer

    campaign = await get_campaign(session, campaign_id=campaign_id)
    gm = Viewer.gm()
    # Read session by session: each read binds its events' ids, and databases cap bound parameters (~32k).
    numbers = (
        await session.exec(
            select(m.Event.session_number).where(m.Event.campaign_id == campaign_id).distinct()
        )
    ).all()
    events: list[EventView] = []
    for number in sorted(numbers):
        newest_first = await reads.history(
            session, campaign_id=campaign_id, viewer=gm, limit=2**31 - 1, session_number=number
        )
        events += reversed(newest_first)
    events.sort(key=lambda e: e.seq)
    latest = await sessions.latest_session(session, campaign_id=campaign_id)
    summaries = [
        s for s in await sessions.summaries(session, campaign_id=campaign_id) if s.scope == "history"
    ]
    settings = dict(campaign.settings or {})
    # Writing a long campaign's TOML takes a second of CPU: off the event loop, like the check below.
    text, entries = await asyncio.to_thread(
        write_scenario,
        name=campaign.name,
        settings=settings,
        events=events,
        history_summaries=[(list(s.event_ids or ()), s.text, s.visibility) for s in summaries],
        latest_session=latest.number,
        latest_open=latest.open,
        exported_at=now or datetime.now(UTC),
    )
    filename = f"{_slug(campaign.name) or 'campaign'}.toml"
    problems: tuple[str, ...] = ()
    if validate:  # a big file takes a moment to check: off the event loop
        problems = await asyncio.to_thread(_problems, text, filename)
    return ScenarioExport(
        text=text, filename=filename, events=len(events), entries=entries, problems=problems
    )


def _problems(text: str, source: str) -> tuple[str, ...]:
    from ledger.scenario.format import MAX_PROBLEMS_SHOWN, ScenarioError
    from ledger.scenario.reading import parse_scenario

    try:
        parse_scenario(text, source=source)
    except ScenarioError as err:
        return tuple(str(err).splitlines()[: MAX_PROBLEMS_SHOWN + 1])
    return ()


# --- building the file -----------------------------------------------------------------------------------


def write_scenario(
    *,
    name: str,
    settings: Mapping[str, Any],
    events: Sequence[EventView],
    history_summaries: Sequence[tuple[Sequence[str], str, str]] = (),
    latest_session: int = 0,
    latest_open: bool = False,
    exported_at: datetime | None = None,
) -> tuple[str, int]:
    """Scenario TOML for a campaign ``name`` with ``settings`` and its ``events`` (oldest first).

    ``history_summaries`` are the loader's history summaries (event refs, text, visibility): their events stay
    one entry with that text. Returns the text and the number of ``[[history]]`` entries.
    """
    if not any(e.kind == "create_location" for e in events):
        raise ExportError("the campaign has no location to start from")
    to_history = {ref: hid for hid, ref in dict(settings.get("history_events") or {}).items()}
    targets = _targets(events)
    located, rest = _leading_locations(events, targets)
    starting = str(settings.get("starting_location") or "")
    location_ids = [str(e.payload["id"]) for e in located]
    if starting not in location_ids:
        pulled = next(
            (e for e in rest if e.kind == "create_location" and e.payload.get("id") == starting), None
        )
        if pulled is not None and not pulled.witnesses and pulled.ref not in targets:
            located.append(pulled)
            rest = [e for e in rest if e is not pulled]
        else:
            starting = location_ids[0]
    entries = _entries(rest, history_summaries, to_history, targets)
    ids = {ref: entry.history_id for entry in entries for ref in [entry.events[0].ref] if entry.history_id}
    current = _current_session(events, latest_session, latest_open)

    out: list[str] = []
    stamp = (exported_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    out.append(f"# {_comment(name)}: exported from Tablekeeper on {stamp}, history included.")
    out.append("# Load it with /campaign start world:<this file> or tablekeeper play --scenario <this file>.")
    out.append("")
    out.append("[campaign]")
    campaign: dict[str, Any] = {"name": (name.strip() or "Exported campaign")[:120]}
    scenario_id = settings.get("scenario_id")
    if isinstance(scenario_id, str) and _SLUG_RE.match(scenario_id) and len(scenario_id) <= 80:
        campaign["id"] = scenario_id
    description = settings.get("description")
    if isinstance(description, str) and description:
        campaign["description"] = description[:4000]
    campaign["current_session"] = current
    campaign["starting_location"] = starting
    default_action = settings.get("default_action")
    if isinstance(default_action, str) and 0 < len(default_action) <= 200:
        campaign["default_action"] = default_action
    out += _pairs(campaign)
    for ev in located:
        p = ev.payload
        out += ["", "[[locations]]"]
        loc: dict[str, Any] = {"id": p["id"], "name": p["name"]}
        if p.get("aliases"):
            loc["aliases"] = list(p["aliases"])
        if p.get("description"):
            loc["description"] = p["description"]
        loc["session"] = _session(ev.session_number)
        if ev.visibility != "public":
            loc["visibility"] = ev.visibility
        out += _pairs(loc)
    for entry in entries:
        out += ["", "[[history]]"]
        out += _pairs(_entry_table(entry, ids))
    return "\n".join(out) + "\n", len(entries)


def _targets(events: Iterable[EventView]) -> set[str]:
    """Event refs that a retcon or correction names (each must start its own entry to get a history id)."""
    return {
        str(e.payload.get("target"))
        for e in events
        if e.kind in ("retcon", "correction") and _EVENT_REF_RE.match(str(e.payload.get("target", "")))
    }


def _leading_locations(
    events: Sequence[EventView], targets: set[str]
) -> tuple[list[EventView], list[EventView]]:
    """The first events while they plainly create a location (no witnesses, no retcon): ``[[locations]]``."""
    first_session = _session(events[0].session_number) if events else 1
    located: list[EventView] = []
    for ev in events:
        p = ev.payload
        plain = (
            ev.kind == "create_location"
            and not ev.witnesses
            and not p.get("witnesses")
            and ev.ref not in targets
            and _session(ev.session_number) == first_session
        )
        if not plain:
            break
        located.append(ev)
    return located, list(events[len(located) :])


def _session(number: int) -> int:
    """A file's session: at least 1 (a blank campaign writes its first place in session 0)."""
    return max(1, number)


def _importance(value: int) -> int:
    """The ledger's 0..10 as the file's 1..5 (the loader doubles it back)."""
    return max(1, min(5, (value + 1) // 2))


def _own_witnesses(payload: Mapping[str, Any]) -> set[str]:
    own = {str(w) for w in payload.get("witnesses") or ()}
    for inner in payload.get("changes") or ():
        own.update(str(w) for w in inner.get("witnesses") or ())
    return own


def _entries(
    events: Sequence[EventView],
    history_summaries: Sequence[tuple[Sequence[str], str, str]],
    to_history: Mapping[str, str],
    targets: set[str],
) -> list[_Entry]:
    by_first = {refs[0]: (frozenset(refs), text, vis) for refs, text, vis in history_summaries if refs}
    entries: list[_Entry] = []
    last_session = 1
    for ev in events:
        session = max(last_session, _session(ev.session_number))  # history never goes back in a file
        last_session = session
        group_witnesses = tuple(sorted(set(ev.witnesses) - _own_witnesses(ev.payload)))
        importance = _importance(ev.importance)
        base = (session, ev.round_number, ev.cause, group_witnesses, importance, ev.permanent)
        key = (*base, ev.visibility)
        current = entries[-1] if entries else None
        starts = ev.ref in by_first or ev.ref in targets or ev.ref in to_history
        if current is not None and not starts:
            if current.covered and ev.ref in current.covered and current.key[:-1] == base:
                current.events.append(ev)
                continue
            if not current.covered and current.key == key:
                current.events.append(ev)
                continue
        covered, text, visibility = by_first.get(ev.ref, (frozenset(), None, ev.visibility))
        history_id = to_history.get(ev.ref)
        if history_id is None and ev.ref in targets:
            history_id = f"h-{ev.ref}"
        entries.append(
            _Entry(
                key=(*base, visibility if covered else ev.visibility),
                session=session,
                round=ev.round_number,
                cause=ev.cause,
                visibility=visibility if covered else ev.visibility,
                witnesses=group_witnesses,
                importance=importance,
                permanent=ev.permanent,
                history_id=history_id,
                summary=text,
                covered=covered,
                events=[ev],
            )
        )
    return entries


def _current_session(events: Sequence[EventView], latest: int, latest_open: bool) -> int:
    """The session the loaded campaign plays next: after the last one played, or the open one if untouched.

    ``latest`` is the store's latest session (a loaded scenario's ``current_session - 1`` before any is
    played), so an export of an unplayed load keeps its ``current_session``.
    """
    played = max((_session(e.session_number) for e in events), default=1)
    untouched = latest_open and not any(e.session_number == latest for e in events)
    return max(latest if untouched else latest + 1, played, 1)


def _entry_table(entry: _Entry, ids: Mapping[str, str]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    if entry.history_id:
        table["id"] = entry.history_id
    table["session"] = entry.session
    if entry.round is not None:
        table["round"] = entry.round
    table["summary"] = entry.summary or _summary(entry)
    if entry.importance != 2:
        table["importance"] = entry.importance
    if entry.permanent:
        table["permanent"] = True
    if entry.witnesses:
        table["witnesses"] = list(entry.witnesses)
    if entry.visibility != "public":
        table["visibility"] = entry.visibility
    # A file's entry may name the place its changes happened; every event it wrote involves that place. A
    # place every event here involves is written back (naming one they involve anyway changes nothing).
    places = set.intersection(*(_places(ev) for ev in entry.events))
    if places:
        table["place"] = sorted(places)[0]
    table["changes"] = [
        _change(ev.payload, ids, entry.visibility, entry.witnesses, explicit=bool(entry.witnesses))
        for ev in entry.events
    ]
    return table


def _places(ev: EventView) -> set[str]:
    return {x for x in ev.involved if x.startswith("loc-")}


def _change(
    payload: Mapping[str, Any],
    ids: Mapping[str, str],
    parent_visibility: str,
    parent_witnesses: Sequence[str],
    *,
    explicit: bool,
) -> dict[str, Any]:
    """One event's change as a file writes it: no cause, no nulls, no defaults, targets as history ids.

    ``visibility`` and ``witnesses`` are written unless they equal what the change would inherit from its
    entry (or retcon); ``explicit`` writes ``witnesses`` even when empty (the entry has witnesses to give).
    """
    model = parse_mutation(dict(payload))
    fields = type(model).model_fields
    out: dict[str, Any] = {"kind": payload["kind"]}
    for name, value in payload.items():
        if name in ("kind", "cause", "visibility", "witnesses", "changes") or value is None:
            continue
        info = fields.get(name)
        if info is not None and not info.is_required():
            default = info.get_default(call_default_factory=True)
            if _same(value, default):
                continue
        if name == "target" and isinstance(value, str):
            value = ids.get(value, value)
        out[name] = _without_nulls(value)
    visibility = str(payload.get("visibility", "public"))
    witnesses = [str(w) for w in payload.get("witnesses") or ()]
    if visibility != parent_visibility:
        out["visibility"] = visibility
    if explicit or (witnesses and sorted(witnesses) != sorted(parent_witnesses)):
        out["witnesses"] = witnesses
    if "changes" in payload:
        inner_explicit = bool(witnesses)
        out["changes"] = [
            _change(c, ids, visibility, witnesses, explicit=inner_explicit) for c in payload["changes"]
        ]
    return out


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, tuple):
        default = list(default)
    if isinstance(value, bool) != isinstance(default, bool):
        return False
    return bool(value == default)


def _without_nulls(value: Any) -> Any:
    """``value`` with ``None`` left out of tables and arrays (TOML has no null)."""
    if isinstance(value, Mapping):
        return {str(k): _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_nulls(v) for v in value if v is not None]
    return value


_SUBJECT_KEYS = ("id", "entity", "item", "thread", "key", "target")


def _summary(entry: _Entry) -> str:
    """A plain line for an entry the ledger kept no summary of: when, by what cause, and what changed."""
    when = f"Session {entry.session}" + (f", round {entry.round}" if entry.round is not None else "")
    parts: list[str] = []
    for ev in entry.events:
        p = ev.payload
        if ev.kind == "record_event":
            parts.append(f"{p.get('event_kind')}: {p.get('summary')}")
            continue
        if ev.kind == "set_edge":
            parts.append(f"set_edge {p.get('source')} -> {p.get('target')} ({p.get('edge_kind')})")
            continue
        subject = next((str(p[k]) for k in _SUBJECT_KEYS if p.get(k) is not None), "")
        parts.append(f"{ev.kind} {subject}".strip())
    if len(parts) > MAX_SUMMARY_PARTS:
        parts = [*parts[:MAX_SUMMARY_PARTS], f"and {len(parts) - MAX_SUMMARY_PARTS} more changes"]
    text = f"{when} ({entry.cause or 'no cause'}): " + "; ".join(parts) + "."
    if len(text) > MAX_SUMMARY_CHARS:
        text = text[: MAX_SUMMARY_CHARS - 3] + "..."
    return text


# --- the TOML writer -------------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _comment(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()


def _pairs(table: Mapping[str, Any]) -> list[str]:
    """``key = value`` lines; a list of tables (a history entry's changes) one inline table per line."""
    lines: list[str] = []
    for key, value in table.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            lines.append(f"{_key(key)} = [")
            lines += [f"  {toml_value(v)}," for v in value]
            lines.append("]")
        else:
            lines.append(f"{_key(key)} = {toml_value(value)}")
    return lines


def _key(key: str) -> str:
    return key if _BARE_KEY_RE.match(key) else _string(key)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped; lone surrogates replaced."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_value(value: Any) -> str:
    """``value`` as a one-line TOML value (string, integer, float, boolean, array, inline table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise ExportError(f"the number {value} is too large for a scenario file")
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        return text if any(c in text for c in ".en") else f"{text}.0"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(str(k))} = {toml_value(v)}" for k, v in value.items() if v is not None)
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    raise ExportError(f"a {type(value).__name__} value cannot be written to a scenario file")
