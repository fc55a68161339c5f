"""Retrieval's candidates: every ledger row a scene's queries return, as a record that can be ranked and told.

Each candidate knows who it involves and witnessed, its session, importance and moment (the batch it was
applied in), what kind of record it is (a thread with its kind and status, an edge with its kind, a death, a
narrative event with its kind and participants, a settlement), and how to render itself in one line once the
names are known. Events already told by a retrieved projection (the thread, edge or fact they set) and
superseded events are not candidates; a closed thread whose settlement event was read is told by that event
(:func:`merge_settlements`), which then carries the thread's terms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ledger.recall.queries import NARRATIVE_EVENT, fetch_rows, names_stmt, query_params
from ledger.store.visibility import Viewer

RecordKind = Literal["thread", "edge", "fact", "event", "holding"]

SKIPPED_EVENT_KINDS = frozenset({"create_entity", "create_location", "create_item"})


@dataclass
class Candidate:
    """One ledger row that may be shown for a scene: what ranking needs to score it, and how to tell it."""

    ref: str
    kind: RecordKind
    session: int
    visibility: str
    involved: set[str]
    witnessed: set[str] = field(default_factory=set)
    importance: int = 5
    permanent: bool = False  # flagged permanent by whoever wrote it (the table, a file)
    label: str = ""  # "favour", "death", "bargain", "sister" ...
    asked: bool = False  # a thread the caller asked for
    render: Any = None  # (names) -> text
    subject: tuple[str, ...] = ()  # projection identity an event would duplicate
    moment: tuple[Any, ...] = ()
    # threads (and a settlement event, which carries its thread's)
    thread_kind: str = ""
    status: str = ""
    opened: int = 0
    parties: tuple[str, ...] = ()
    # edges
    source: str = ""
    target: str = ""
    # facts and events
    fact_field: str = ""
    death: bool = False
    condition: bool = False
    at_location: bool = False  # a death found by where the body lies
    # events
    change: str = ""  # the change kind (set_alive, record_event, thread_transition ...)
    narrative: str = ""  # a narrative event's kind (bargain, insult, ...)
    participants: tuple[str, ...] = ()
    bears_on: str = ""  # the thread a narrative event or a transition is about
    settles: str = ""  # set when this event is the settlement a closed thread is told by


def _edge_ref(source: str, target: str, kind: str) -> str:
    return f"{source}>{target}:{kind}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cause_fields(row: Any) -> dict[str, Any]:
    """Importance, permanence and moment of a projection row, from its joined cause event (defaults when it
    has none)."""
    if row.c_session is None:
        return {}
    return {
        "importance": int(row.c_importance),
        "permanent": bool(row.c_permanent),
        "moment": _moment(row.c_session, row.c_round, row.c_cause, row.c_importance, row.c_permanent),
    }


def _thread_head(t: Any) -> str:
    return f"{t.id} ({t.kind}, {t.status}, since session {t.opened_session}): {t.terms}"


def add_thread(add: Any, t: Any, *, asked: bool, location: str | None = None) -> None:
    """A thread row (with its cause event) as a candidate; ``asked``: the scene is about it; a thread whose
    place is the scene's ``location`` (the row's ``at_place``) involves that place too."""
    place = {location} if location and getattr(t, "at_place", False) else set()

    def render(names: Mapping[str, str], t: Any = t) -> str:
        text = _thread_head(t)
        if t.status != "open":
            text += f" [{t.status} in session {t.session_number}]"
        return text

    add(
        Candidate(
            ref=t.id,
            kind="thread",
            session=t.opened_session if t.status == "open" else t.session_number,
            visibility=t.visibility,
            involved=set(t.parties) | place,
            label=t.kind,
            asked=asked,
            render=render,
            subject=(t.id,),
            thread_kind=t.kind,
            status=t.status,
            opened=int(t.opened_session),
            parties=tuple(t.parties),
            **_cause_fields(t),
        )
    )


def add_edge(add: Any, e: Any) -> None:
    """An edge row (with its cause event) as a candidate."""

    def render(names: Mapping[str, str], e: Any = e) -> str:
        src, tgt = names.get(e.source_id, e.source_id), names.get(e.target_id, e.target_id)
        reason = f": {e.reason}" if e.reason else ""
        since = f"since session {e.since_session}"
        return f"{src} -> {tgt}: {e.kind} (attitude {_signed(e.attitude)}, {since}){reason}"

    add(
        Candidate(
            ref=_edge_ref(e.source_id, e.target_id, e.kind),
            kind="edge",
            session=int(e.since_session) or int(e.session_number),
            visibility=e.visibility,
            involved={e.source_id, e.target_id},
            label=e.kind,
            render=render,
            subject=("edge", e.source_id, e.target_id, e.kind),
            source=e.source_id,
            target=e.target_id,
            **_cause_fields(e),
        )
    )


def add_fact(
    add: Any, f: Any, present: set[str], dead: Mapping[str, Any], *, at_location: str | None = None
) -> None:
    """A fact row as a candidate, unless the scene already implies it or it is scenery; ``at_location``: a
    death found by where the body lies."""
    subject = f.subject
    field_name = f.field
    if subject in dead and field_name != "alive":
        return  # a dead entity named present: only the death matters
    implied = field_name in ("alive", "location", "hp") and not (field_name == "alive" and f.value is False)
    if implied:
        return  # implied by the scene itself (they are here, alive); the checker has hp
    if field_name == "exits":
        return  # scenery the narrator gets from the location itself
    death = field_name == "alive" and f.value is False
    # a condition fact is true, or names what caused it (charmed by npc-vesna: a scenario's condition_sources)
    caused = isinstance(f.value, str) and bool(f.value)
    condition = field_name.startswith("condition-") and (f.value is True or caused)

    def render(names: Mapping[str, str], f: Any = f) -> str:
        who = names.get(subject, subject) if subject else None
        if death:
            where = f" at {names.get(at_location, at_location)}" if at_location else ""
            return f"{who} is dead (since session {f.session_number}){where}"
        if condition:
            cause = f" by {names.get(f.value, f.value)}" if caused else ""
            state = field_name.removeprefix("condition-")
            return f"{who} is {state}{cause} (since session {f.session_number})"
        if who is not None:
            return (
                f"{who}: {field_name.replace('-', ' ')} = {_fact_value(f.value)} (session {f.session_number})"
            )
        return f"{f.key} = {_fact_value(f.value)} (session {f.session_number})"

    add(
        Candidate(
            ref=f.key,
            kind="fact",
            session=f.session_number,
            visibility=f.visibility,
            involved={x for x in (subject, at_location) if x},
            label="death" if death else "condition" if condition else "fact",
            render=render,
            subject=("fact", f.key),
            fact_field=field_name,
            death=death,
            condition=condition,
            at_location=at_location is not None,
            **_cause_fields(f),
        )
    )


def _fact_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def add_holding(add: Any, h: Any) -> None:
    """A holding row (with its cause event) as a candidate."""
    add(
        Candidate(
            ref=f"{h.item_id}@{h.holder_id}",
            kind="holding",
            session=h.session_number,
            visibility=h.visibility,
            involved={h.holder_id, h.item_id},
            label="holding",
            render=_holding_renderer(h.item_id, h.holder_id, h.quantity),
            **_cause_fields(h),
        )
    )


def _holding_renderer(item: str, holder: str, quantity: int) -> Any:
    def render(names: Mapping[str, str]) -> str:
        count = f"{quantity} x " if quantity != 1 else ""
        return f"{names.get(holder, holder)} holds {count}{names.get(item, item)}"

    return render


def add_events(
    add: Any, cands: Mapping[str, Candidate], rows: Iterable[Any], links: Iterable[tuple[int, str, str]]
) -> None:
    """The events a scene may recall (``rows``, as :func:`ledger.recall.queries.events_stmt` reads them:
    each anchor's newest few, the notable ones each NPC present shares with the scene's people or had
    lately, the newest of each closed matter) as candidates, with their ``links`` (event id, entity, ``i``
    involved or ``w`` witnessed; or superseded ref, ``s``). Links of events not in ``rows`` are ignored.
    """
    events = {r.id: r for r in rows if r.kind not in SKIPPED_EVENT_KINDS}
    if not events:
        return
    ids = sorted(events)
    involved: dict[int, set[str]] = {i: set() for i in ids}
    witnessed: dict[int, set[str]] = {i: set() for i in ids}
    superseded: set[str] = set()
    for eid, ent, link in links:
        if link == "s":
            superseded.add(ent)
        elif eid in involved:
            (involved if link == "i" else witnessed)[eid].add(ent)
    projected = {c.subject for c in cands.values() if c.subject}
    closed = {c.ref for c in cands.values() if c.kind == "thread" and c.status != "open"}
    for eid in ids:
        row = events[eid]
        if row.ref in superseded:
            continue
        payload = dict(row.payload or {})
        change = str(payload.get("kind") or row.kind)
        subject = _event_subject(payload)
        settlement = change == "thread_transition" and str(payload.get("thread")) in closed
        if subject is not None and subject in projected and not settlement:
            continue  # the thread/edge/fact it set is retrieved and says the same, better
        death = change == "set_alive" and payload.get("alive") is False
        # Hit points are a passing state even inside a permanent moment: the death says what lasted.
        transient = change == "set_hp"
        narrative = str(payload.get("event_kind") or "") if change == NARRATIVE_EVENT else ""
        participants = tuple(str(p) for p in payload.get("participants") or ()) if narrative else ()
        bears_on = (
            str(payload.get("thread") or "") if change in (NARRATIVE_EVENT, "thread_transition") else ""
        )
        add(
            Candidate(
                ref=row.ref,
                kind="event",
                session=int(row.session_number),
                visibility=row.visibility,
                involved=involved[eid],
                witnessed=witnessed[eid] - involved[eid],
                importance=max(0, int(row.importance) - (3 if transient else 0)),
                permanent=bool(row.permanent) and not transient,
                label="death" if death else narrative or change.replace("_", " "),
                render=_event_renderer(row.ref, int(row.session_number), payload),
                moment=_moment(
                    row.session_number, row.round_number, row.cause, row.importance, row.permanent
                ),
                death=death,
                change=change,
                narrative=narrative,
                participants=participants,
                bears_on=bears_on,
                status=str(payload.get("status") or "") if change == "thread_transition" else "",
            )
        )


def merge_settlements(cands: dict[str, Candidate]) -> None:
    """Tell each closed thread by the event that closed it, when that event was read.

    The event takes the thread's kind, parties, opening session and terms (its text names them), and the
    thread record itself is dropped: the settlement is what matters now, not the old demand.
    """
    threads = {c.ref: c for c in cands.values() if c.kind == "thread" and c.status != "open"}
    best: dict[str, Candidate] = {}
    for c in cands.values():
        if c.change != "thread_transition" or c.bears_on not in threads:
            continue
        if c.status == threads[c.bears_on].status and c.ref >= best.get(c.bears_on, c).ref:
            best[c.bears_on] = c  # the last transition to the thread's status
    for tid, ev in best.items():
        t = cands.pop(tid)
        ev.settles = tid
        ev.label = t.label
        ev.thread_kind, ev.opened, ev.parties, ev.asked = t.thread_kind, t.opened, t.parties, t.asked
        ev.involved |= set(t.parties)
        ev.render = _settlement_renderer(ev.ref, ev.session, t, ev.render)


def _settlement_renderer(ref: str, session_number: int, thread: Candidate, told: Any) -> Any:
    def render(names: Mapping[str, str]) -> str:
        # "ev-000123 (session 20): favor-0003-01 became settled: favour repaid" and the thread's own line
        return f"{told(names)} | {thread.render(names)}"

    return render


def _moment(
    session_number: int, round_number: int | None, cause: str, importance: int, permanent: bool
) -> tuple[Any, ...]:
    """The batch an event was applied in (one action, one history entry): the same session, round, cause,
    importance and permanence. Its records repeat each other, so only a few of them are kept."""
    return (int(session_number), round_number, cause, int(importance), bool(permanent))


def _event_subject(payload: Mapping[str, Any] | None) -> tuple[str, ...] | None:
    if not payload:
        return None
    kind = payload.get("kind")
    if kind == "open_thread":
        return (str(payload.get("id")),)
    if kind == "thread_transition":
        return (str(payload.get("thread")),)
    if kind == "set_edge":
        return ("edge", str(payload.get("source")), str(payload.get("target")), str(payload.get("edge_kind")))
    if kind == "set_fact":
        return ("fact", str(payload.get("key")))
    entity = payload.get("entity")
    if kind == "set_alive":
        return ("fact", f"{entity}-alive")
    if kind == "set_hp":
        return ("fact", f"{entity}-hp")
    if kind in ("add_condition", "remove_condition"):
        return ("fact", f"{entity}-condition-{payload.get('condition')}")
    return None


def _event_renderer(ref: str, session_number: int, payload: Mapping[str, Any]) -> Any:
    def render(names: Mapping[str, str]) -> str:
        return f"{ref} (session {session_number}): {_describe(payload, names)}"

    return render


def _describe(p: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One line for one change, in words."""

    def n(ref: Any) -> str:
        return names.get(str(ref), str(ref))

    kind = p.get("kind")
    if kind == "set_alive":
        return (
            f"{n(p.get('entity'))} died"
            if p.get("alive") is False
            else f"{n(p.get('entity'))} came back to life"
        )
    if kind == "move_entity":
        return f"{n(p.get('entity'))} went to {n(p.get('location'))}"
    if kind == "set_hp":
        return f"{n(p.get('entity'))} was at {p.get('hp')} HP"
    if kind == "add_condition":
        return f"{n(p.get('entity'))} became {p.get('condition')}"
    if kind == "remove_condition":
        return f"{n(p.get('entity'))} was no longer {p.get('condition')}"
    if kind == "transfer_item":
        qty = int(p.get("quantity") or 1)
        what = f"{qty} x {n(p.get('item'))}" if qty != 1 else n(p.get("item"))
        src, dst = p.get("from_holder"), p.get("to_holder")
        if src and dst:
            return f"{n(src)} gave {what} to {n(dst)}"
        if dst:
            return f"{n(dst)} gained {what}"
        if str(p.get("cause") or "").startswith("round-"):
            return f"{n(src)} used up {what}"  # a round gives an item to nobody only when it is used
        return f"{n(src)} no longer has {what}"  # the GM's removal: its fate is a fact of its own
    if kind == "set_edge":
        reason = f": {p.get('reason')}" if p.get("reason") else ""
        return (
            f"{n(p.get('source'))} -> {n(p.get('target'))} became {p.get('edge_kind')} "
            f"(attitude {_signed(int(p.get('attitude') or 0))}){reason}"
        )
    if kind == "open_thread":
        return f"{p.get('thread_kind')} {p.get('id')} opened: {p.get('terms')}"
    if kind == "thread_transition":
        reason = f": {p.get('reason')}" if p.get("reason") else ""
        return f"{p.get('thread')} became {p.get('status')}{reason}"
    if kind == "set_fact":
        return f"{p.get('key')} = {_fact_value(p.get('value'))}"
    if kind == NARRATIVE_EVENT:
        who = ", ".join(n(x) for x in p.get("participants") or ())
        where = f" at {n(p.get('place'))}" if p.get("place") else ""
        between = f" ({who}{where})" if who or where else ""
        return f"{p.get('event_kind')}{between}: {p.get('summary')}"
    if kind in ("retcon", "correction"):
        inner = "; ".join(_describe(c, names) for c in p.get("changes") or ())
        return f"{kind} of {p.get('target')} ({p.get('reason')}): {inner}"
    return str(kind)


def name_refs(cands: Iterable[Candidate], extra: Sequence[str]) -> set[str]:
    """Every id the candidates mention (who they involve and witnessed, a holding's item and holder) and
    ``extra``: the ids whose display names the records are told with."""
    refs: set[str] = set(extra)
    for c in cands:
        refs |= c.involved | c.witnessed
        if c.kind == "holding":
            refs |= set(c.ref.split("@", 1))
    refs.discard("")
    return refs


async def display_names(
    session: Any, cid: int, cands: Iterable[Candidate], extra: Sequence[str], viewer: Viewer
) -> dict[str, str]:
    """Display names of every id the candidates mention (:func:`name_refs`), in one statement.

    A record the viewer may not see gives :data:`~ledger.recall.queries.UNKNOWN_NAME` instead (decided in
    SQL, so the name never leaves the database): a telling name must not leak through a visible edge or
    event.
    """
    refs = name_refs(cands, extra)
    if not refs:
        return {}
    rows = await fetch_rows(
        session, names_stmt(viewer.visible() is None), query_params(cid, viewer, wanted=sorted(refs))
    )
    return {ref: name for ref, name in rows}
