"""The table at a terminal: a :class:`TerminalCourier` that keeps what the table sends, and a :class:`Screen`.

Both ``tablekeeper demo`` and ``tablekeeper play`` use them. The courier implements
:class:`bot.table.Courier`: it records every public post and every DM (with deterministic message ids, so a
seeded run is byte-identical) and may echo them as they arrive. The screen renders the table's views
(:mod:`bot.views`) with rich panels and tables on a TTY, and as plain aligned text otherwise (pipes, pytest),
so the same session reads well in a terminal and diffs cleanly in a test.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot import views as v
from bot.text import clean_text

# --- the courier -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Posted:
    """One message the table sent: to the channel (``user_id`` None) or privately to a player."""

    message_id: str
    text: str
    channel: str | None = None  # "guild/channel" for a public post
    user_id: str | None = None  # the recipient of a DM


@dataclass
class TerminalCourier:
    """A :class:`bot.table.Courier` for the terminal: remembers every post and DM, in order.

    ``dm_closed`` holds user ids whose DMs are "closed" (the table keeps their notes for ``/ledger notes``).
    ``on_post`` is called with each message as it is sent (``play`` prints them live).
    """

    dm_closed: set[str] = field(default_factory=set)
    on_post: Callable[[Posted], None] | None = None
    public: list[Posted] = field(default_factory=list)
    dms: list[Posted] = field(default_factory=list)

    async def post_public(
        self, guild_id: str, channel_id: str, text: str, *, mention_user_ids: Sequence[str] = ()
    ) -> str:
        """Record ``text`` as posted in the channel; return a deterministic message id."""
        message = Posted(
            message_id=f"post-{len(self.public) + 1}", text=text, channel=f"{guild_id}/{channel_id}"
        )
        self.public.append(message)
        if self.on_post is not None:
            self.on_post(message)
        return message.message_id

    async def send_dm(self, user_id: str, text: str) -> str:
        """Record ``text`` as a DM to ``user_id``; raise DMClosed for a user listed in ``dm_closed``."""
        from bot.table import DMClosed

        if user_id in self.dm_closed:
            raise DMClosed(user_id)
        message = Posted(message_id=f"dm-{len(self.dms) + 1}", text=text, user_id=user_id)
        self.dms.append(message)
        if self.on_post is not None:
            self.on_post(message)
        return message.message_id

    def dms_for(self, user_id: str) -> list[Posted]:
        """Every DM sent to ``user_id``, oldest first."""
        return [m for m in self.dms if m.user_id == user_id]


# --- the screen ------------------------------------------------------------------------------------------

_BOLD = re.compile(r"\*\*(.+?)\*\*")


def plain(text: str) -> str:
    """Discord markdown to terminal text: ``**bold**`` loses its stars, ``-# small`` becomes ``note:``."""
    lines = []
    for line in _BOLD.sub(r"\1", text).splitlines():
        lines.append("note: " + line[3:] if line.startswith("-# ") else line)
    return "\n".join(lines)


class Screen:
    """Writes headings, panels, tables and lines: rich on a TTY (or when forced), plain text otherwise.

    Plain output depends only on what is printed (no terminal width, no colour codes), so it is stable.
    """

    def __init__(self, file: TextIO | None = None, *, rich: bool | None = None, width: int = 100) -> None:
        self.file = file if file is not None else sys.stdout
        use_rich = rich if rich is not None else bool(getattr(self.file, "isatty", lambda: False)())
        self.console: Any = None
        if use_rich:
            from rich.console import Console

            self.console = Console(file=self.file, highlight=False, soft_wrap=False)
        self.width = width

    @property
    def is_rich(self) -> bool:
        """True when output goes through rich (a terminal)."""
        return self.console is not None

    def _write(self, text: str = "") -> None:
        print(clean_text(text), file=self.file)  # nothing printed may drive the terminal (escapes)

    def rule(self, title: str) -> None:
        """A section heading."""
        if self.console is not None:
            self.console.rule(f"[bold]{_esc(title)}[/bold]")
        else:
            self._write()
            self._write(f"=== {title} " + "=" * max(3, self.width - len(title) - 5))

    def line(self, text: str = "", *, style: str | None = None) -> None:
        """One line of text (``style`` is a rich style, ignored in plain mode)."""
        if self.console is not None:
            self.console.print(_esc(text), style=style, overflow="fold")
        else:
            self._write(text)

    def panel(self, title: str, body: str | Sequence[str], *, style: str = "cyan") -> None:
        """A titled box of text (plain: a ``--- title ---`` header and indented lines)."""
        text = body if isinstance(body, str) else "\n".join(body)
        if self.console is not None:
            from rich.panel import Panel

            self.console.print(
                Panel(_esc(text) or " ", title=_esc(title), title_align="left", border_style=style)
            )
        else:
            self._write(f"--- {title} ---")
            for row in text.splitlines() or [""]:
                self._write(f"  {row}" if row else "")

    def table(self, title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """A table with a title and a header row (plain: aligned columns separated by two spaces)."""
        data = [[str(c) for c in row] for row in rows]
        if self.console is not None:
            from rich.table import Table as RichTable

            grid = RichTable(title=_esc(title), title_justify="left", show_lines=False)
            for col in columns:
                grid.add_column(_esc(col), overflow="fold")
            for row in data:
                grid.add_row(*(_esc(c) for c in row))
            if not data:
                grid.add_row(*(["(none)"] + [""] * (len(columns) - 1)))
            self.console.print(grid)
            return
        self._write(f"--- {title} ---")
        if not data:
            self._write("  (none)")
            return
        widths = [max(len(str(col)), *(len(r[i]) for r in data)) for i, col in enumerate(columns)]
        last = len(columns) - 1

        def fmt(cells: Sequence[str]) -> str:
            return (
                "  " + "  ".join(c if i == last else c.ljust(widths[i]) for i, c in enumerate(cells)).rstrip()
            )

        self._write(fmt(list(columns)))
        self._write(fmt(["-" * w for w in widths]))
        for row in data:
            self._write(fmt(row))

    def error(self, text: str) -> None:
        """A refusal or an error, on one line."""
        if self.console is not None:
            self.console.print(f"[bold red]refused:[/bold red] {_esc(text)}")
        else:
            self._write(f"refused: {text}")


def _esc(text: str) -> str:
    """Text for rich: terminal escapes and control characters removed, rich markup escaped."""
    from rich.markup import escape

    return escape(clean_text(text))


# --- views -> screen -------------------------------------------------------------------------------------


def show_campaign(screen: Screen, c: v.CampaignView) -> None:
    """A campaign's status."""
    rnd = f"round {c.round_number} ({c.round_state})" if c.round_number else "no round open"
    screen.panel(
        f"Campaign: {c.name}",
        [
            f"session {c.session_number or '-'} ({'open' if c.session_open else 'closed'}), {rnd}",
            f"where: {c.location or '-'}",
            f"players: {', '.join(c.players) or 'nobody yet'}",
        ],
    )


def show_character(screen: Screen, who: str, c: v.CharacterView) -> None:
    """A character sheet summary after /join."""
    abilities = " ".join(f"{k[:3].upper()} {val}" for k, val in c.abilities.items())
    conditions = f", {', '.join(c.conditions)}" if c.conditions else ""
    screen.line(
        f"{who} sits down as {c.name} (level {c.level}, HP {c.hp}/{c.max_hp}, AC {c.ac}{conditions}) "
        f"at {c.location or '-'}; {abilities}; skills: {', '.join(c.skills) or '-'}"
    )


def show_receipt(screen: Screen, who: str, text: str, r: v.SubmitReceipt) -> None:
    """What an /act did."""
    what = "changed" if r.edited else "declared"
    late = " (the round had closed: it waits for the next one)" if r.late else ""
    screen.line(
        f'{who} ({r.character_name}): "{text}" -> {what} for round {r.round_number}: {r.intent_summary}{late}'
    )


def show_status(screen: Screen, s: v.RoundStatusView) -> None:
    """Who acted and who is ready in the open round."""
    screen.panel(
        f"Round {s.round_number} ({s.state})",
        [
            f"acted:   {', '.join(s.acted) or '-'}",
            f"ready:   {', '.join(s.ready) or '-'}",
            f"waiting: {', '.join(s.waiting) or '-'}",
            f"deadline: {s.deadline_utc or '-'}",
            f"seed commitment: {s.seed_commitment[:24]}...",
        ],
    )


def show_report(
    screen: Screen, r: v.RoundReport, names: Mapping[str, str] | None = None, *, narration: bool = True
) -> None:
    """A resolved round: initiative, each action with its rolls, the narration, the seed.

    ``names`` maps ledger ids to display names: a report may carry raw ids (e.g. a creature that left the
    scene during the round), and they are shown by name. ``narration=False`` leaves the public text out (when
    the channel post is shown anyway).
    """
    named = names or {}
    initiative = [with_names(e, named) for e in r.initiative]
    screen.table(
        f"Round {r.round_number}: initiative", ["#", "creature", "total"], _initiative_rows(initiative)
    )
    rows = []
    for a in r.actions:
        rolls = "; ".join(a.rolls) or "-"
        rows.append([with_names(a.actor, named), a.outcome, with_names(a.summary, named), rolls])
    screen.table(
        f"Round {r.round_number}: actions in initiative order",
        ["actor", "outcome", "what happened", "rolls"],
        rows,
    )
    for notice in r.notices:
        screen.line(f"notice: {notice}")
    if narration:
        screen.panel(f"Round {r.round_number} narration ({r.source})", plain(r.public_text), style="green")
    undelivered = f", {len(r.dms_undelivered)} kept in /ledger notes" if r.dms_undelivered else ""
    conflicts = f", {r.conflicts_queued} conflict(s) queued for the GM" if r.conflicts_queued else ""
    screen.line(
        f"seed {r.seed} (commitment {r.seed_commitment[:16]}...), narration: {r.source}, "
        f"{r.dms_sent} private note(s) sent{undelivered}{conflicts}"
    )


IDS = re.compile(r"\b(?:pc|npc|monster|loc|item)-[a-z0-9]+(?:-[a-z0-9]+)*\b")


def report_ids(r: v.RoundReport) -> list[str]:
    """Ledger ids that appear raw in a report's initiative and action lines (to look their names up)."""
    texts = [*r.initiative, *(a.actor for a in r.actions), *(a.summary for a in r.actions)]
    return sorted({m.group(0) for text in texts for m in IDS.finditer(text)})


def with_names(text: str, names: Mapping[str, str]) -> str:
    """``text`` with every known ledger id replaced by its display name."""
    if not names:
        return text
    return IDS.sub(lambda m: names.get(m.group(0), m.group(0)), text)


async def display_names(engine: Any, campaign_id: int, refs: Sequence[str]) -> dict[str, str]:
    """Names of the creatures, places and items ``refs`` (ids a report showed raw), read from the ledger."""
    from ledger import service
    from ledger.errors import LedgerError
    from ledger.store import sessions as ledger_sessions
    from ledger.store.db import ledger_session
    from ledger.store.visibility import Viewer

    wanted = sorted(set(refs))
    if not wanted:
        return {}
    gm = Viewer.gm()
    async with ledger_session(engine) as s:
        out = {
            e.id: e.name
            for e in await service.get_entities(s, campaign_id=campaign_id, entity_ids=wanted, viewer=gm)
        }
        for place in await ledger_sessions.locations(s, campaign_id=campaign_id, viewer=gm):
            if place.id in wanted:
                out[place.id] = place.name
        for ref in wanted:
            if ref.startswith("item-") and ref not in out:
                with contextlib.suppress(LedgerError):
                    out[ref] = (
                        await service.get_item(s, campaign_id=campaign_id, item_id=ref, viewer=gm)
                    ).name
    return out


def _initiative_rows(entries: Sequence[str]) -> list[list[str]]:
    rows = []
    for i, entry in enumerate(entries, start=1):
        name, _, total = entry.rpartition(" ")
        rows.append([str(i), name or entry, total if name else ""])
    return rows


def show_inventory(screen: Screen, inv: v.InventoryView) -> None:
    """A character's holdings."""
    rows = [[h.name, h.quantity, h.item_id, h.visibility] for h in inv.items]
    screen.table(f"Inventory of {inv.holder_name}", ["item", "qty", "id", "visibility"], rows)


def show_threads(screen: Screen, threads: Sequence[v.ThreadView]) -> None:
    """The foreshadowing stack."""
    rows = [
        [t.id, t.kind, t.status, f"s{t.source_session or '-'}", ", ".join(t.parties), t.terms]
        for t in threads
    ]
    screen.table("Threads", ["id", "kind", "status", "since", "parties", "terms"], rows)


def show_history(
    screen: Screen, events: Sequence[v.EventView], title: str = "History (newest first)"
) -> None:
    """The last events with their causes."""
    rows = []
    for e in events:
        when = f"s{e.session}" + (f".r{e.round}" if e.round is not None else "")
        rows.append([e.ref, when, e.kind, e.text, e.cause or "-"])
    screen.table(title, ["ref", "when", "kind", "what", "cause"], rows)


def show_record(screen: Screen, r: v.RecordView) -> None:
    """One record with its fields, cause chain and replay check."""
    body = [f"{r.kind}: {r.text}"]
    body += [f"{k}: {val}" for k, val in sorted(r.fields.items())]
    body += [f"cause: {c}" for c in r.causes]
    if r.replay:
        body.append(f"replay: {r.replay}")
    screen.panel(f"Record {r.ref}", body)


def show_relationships(screen: Screen, edges: Sequence[v.EdgeView]) -> None:
    """Relationship edges with reasons."""
    rows = [
        [e.source, e.target, e.kind, f"{e.attitude:+d}", f"s{e.since_session or '-'}", e.reason]
        for e in edges
    ]
    screen.table("Relationships", ["from", "to", "kind", "attitude", "since", "reason"], rows)


def show_notes(screen: Screen, who: str, notes: Sequence[v.NoteView]) -> None:
    """A player's private notes."""
    rows = [[n.round_number or "-", "sent" if n.delivered else "kept", n.text] for n in notes]
    screen.table(f"Private notes of {who}", ["round", "by DM", "note"], rows)


def show_dispute(screen: Screen, d: v.DisputeView) -> None:
    """A dispute and (when ruled) its ruling."""
    ruling = f"; ruling: {d.ruling_note}" if d.ruling_note else ""
    screen.line(f"dispute #{d.id} on {d.record_ref} by {d.raised_by}: {d.reason} [{d.status}]{ruling}")


def show_recap(screen: Screen, r: v.RecapView) -> None:
    """The last session's summary and hard facts."""
    body = [r.text, *(f"- {h}" for h in r.highlights)]
    screen.panel(f"Recap of session {r.session_number or '-'}", body)


def show_roll(screen: Screen, r: v.RollView) -> None:
    """A dice roll with its seed."""
    screen.line(f"{r.expression} = {r.total}  ({r.breakdown}; seed {r.seed})")


def show_thread(screen: Screen, t: v.ThreadView) -> None:
    """One thread after a GM change."""
    screen.line(f"{t.id} ({t.kind}) is now {t.status}: {t.terms}")
