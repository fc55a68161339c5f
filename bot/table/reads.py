"""The ledger as each viewer may see it: inventories, relationships, threads, history, records, notes,
disputes, the graph, recaps, dice and autocomplete. Every read goes through the caller's viewer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import cause_label, describe_event, fact_keys, visibility_label
from bot.errors import InvalidAction, NotFound, TableError
from bot.table.context import GM_VIEW, MAX_NOTE_CHARS, SCENARIO_DIR
from ledger import service
from ledger.errors import LedgerError
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from rules.errors import RulesError

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.table.context import Lookups, TableContext
    from ledger.store.records import DisputeView as DisputeRecord
    from ledger.store.records import MemberView


class Reads:
    """Reads of the campaign ledger for players and the GM (and the dice, which read nothing)."""

    def __init__(self, ctx: TableContext, lookups: Lookups) -> None:
        self.ctx = ctx
        self.lookups = lookups

    # --- dice --------------------------------------------------------------------------------------------

    async def roll(self, caller: v.Caller, *, expression: str, seed: int | None = None) -> v.RollView:
        """Roll dice with a seed that is shown, so anyone can replay the roll."""
        import random

        from rules.dice import roll

        use = seed if seed is not None else self.ctx.seeds()
        try:
            result = roll(expression, random.Random(use))
        except RulesError as err:
            raise InvalidAction(str(err)) from None
        return v.RollView(
            expression=result.expression, total=result.total, breakdown=result.breakdown, seed=use
        )

    # --- the ledger, as each viewer may see it -----------------------------------------------------------

    async def inventory(
        self, where: v.Where, caller: v.Caller, *, player_user_id: str | None = None
    ) -> v.InventoryView:
        """A character's holdings: your own (private, with your secrets) or another player's (public part)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.viewer(s, campaign, caller)
            members = await service.list_members(s, campaign_id=campaign.id)
            member = await self._member_named(s, campaign.id, members, player_user_id or caller.user_id)
            if member is None or member.character_id is None:
                raise NotFound(
                    f"Nobody plays a character called '{player_user_id}' here."
                    if player_user_id
                    else "You have no character here. Use /join first."
                )
            target_user = member.user_id
            pc = await service.get_entity(
                s, campaign_id=campaign.id, entity_id=member.character_id, viewer=GM_VIEW
            )
            own = target_user == caller.user_id
            if not own and viewer.role != "gm":
                viewer = Viewer.party()
            rows = await service.inventory(s, campaign_id=campaign.id, holder_id=pc.id, viewer=viewer)
            return v.InventoryView(
                holder_id=pc.id,
                holder_name=pc.name,
                items=tuple(
                    v.HoldingView(
                        item_id=h.item_id, name=h.item_name, quantity=h.quantity, visibility=h.visibility
                    )
                    for h in rows
                    if h.quantity > 0
                ),
                private=own or viewer.role == "gm",
            )

    async def _member_named(
        self, s: AsyncSession, campaign_id: int, members: Sequence[MemberView], who: str
    ) -> MemberView | None:
        """The member ``who`` names: a user id, a mention (``<@id>``) or their character's name (any case,
        with or without a ``player:`` prefix), as a player types it in ``/ledger inventory``."""
        text = who.strip()
        user = text.removeprefix("<@").removeprefix("!").removesuffix(">")
        found = next((m for m in members if m.user_id == user and m.character_id), None)
        if found is not None:
            return found
        wanted = text.removeprefix("player:").strip().casefold()
        pcs = await service.get_entities(
            s,
            campaign_id=campaign_id,
            entity_ids=[m.character_id for m in members if m.character_id],
            viewer=GM_VIEW,
        )
        by_id = {m.character_id: m for m in members if m.character_id}
        exact = [by_id[pc.id] for pc in pcs if pc.name.casefold() == wanted or pc.id.casefold() == wanted]
        if exact:
            return exact[0]
        first = [by_id[pc.id] for pc in pcs if pc.name.casefold().split()[0] == wanted]
        return first[0] if len(first) == 1 else None

    async def require_gm(self, where: v.Where, caller: v.Caller) -> None:
        """Raise :class:`NotGM` unless ``caller`` is this campaign's GM.

        Front ends ask first so a refused GM command never shows the channel a "thinking..." placeholder.
        """
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            await self.lookups.require_gm(s, campaign, caller)

    async def relationships(
        self, where: v.Where, caller: v.Caller, *, npc: str | None = None, public: bool = False
    ) -> tuple[v.EdgeView, ...]:
        """Relationship edges (of one NPC, or all) with their reasons and source sessions.

        ``public`` reads as the channel does (public and party records only), whoever asks.
        """
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.reader(s, campaign, caller, public)
            if npc:
                entity = await self._find_entity(s, campaign.id, npc, viewer)
                edges = await service.relationships(
                    s, campaign_id=campaign.id, entity_id=entity.id, viewer=viewer, with_history=False
                )
            else:
                edges = await ledger_sessions.all_edges(s, campaign_id=campaign.id, viewer=viewer)
            names = await self.lookups.names(
                s, campaign.id, sorted({e.source for e in edges} | {e.target for e in edges})
            )
        return tuple(
            v.EdgeView(
                ref=f"{e.source}>{e.target}:{e.kind}",
                source=names.get(e.source, e.source),
                target=names.get(e.target, e.target),
                kind=e.kind,
                attitude=e.attitude,
                reason=e.reason,
                since_session=e.since_session,
            )
            for e in edges
        )

    async def _find_entity(self, s: AsyncSession, campaign_id: int, name: str, viewer: Viewer) -> Any:
        entity = await service.find_entity(s, campaign_id=campaign_id, name=name, viewer=viewer)
        if entity is None:
            try:
                entity = await service.get_entity(s, campaign_id=campaign_id, entity_id=name, viewer=viewer)
            except LedgerError:
                entity = None
        if entity is None:
            raise NotFound(f"Nobody called '{name}' in this campaign's ledger.")
        return entity

    async def threads(
        self, where: v.Where, caller: v.Caller, *, public: bool = False
    ) -> tuple[v.ThreadView, ...]:
        """Favours, debts, oaths, bounties, prophecies and quests, with their status and source session.

        ``public`` reads as the channel does, whoever asks.
        """
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.reader(s, campaign, caller, public)
            rows = await service.threads(s, campaign_id=campaign.id, viewer=viewer)
            names = await self.lookups.names(s, campaign.id, sorted({p for t in rows for p in t.parties}))
        order = {"open": 0, "settled": 1, "broken": 2, "expired": 3}
        return tuple(
            v.ThreadView(
                id=t.id,
                kind=t.kind,
                status=t.status,
                terms=t.terms,
                parties=tuple(names.get(p, p) for p in t.parties),
                source_session=t.opened_session,
            )
            for t in sorted(rows, key=lambda t: (order.get(t.status, 9), t.id))
        )

    async def history(
        self, where: v.Where, caller: v.Caller, *, count: int = 10, public: bool = False
    ) -> tuple[v.EventView, ...]:
        """The last events (newest first), corrections and retcons included, each with its cause.

        ``public`` reads as the channel does, whoever asks.
        """
        count = max(1, min(int(count), 50))
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.reader(s, campaign, caller, public)
            events = await service.history(s, campaign_id=campaign.id, viewer=viewer, limit=count)
            refs = sorted(
                {str(x) for e in events for x in e.payload.values() if isinstance(x, str) and "-" in x}
                | {k for e in events if e.kind == "set_fact" for k in fact_keys(str(e.payload.get("key")))}
            )
            names = await self.lookups.names(s, campaign.id, refs)
        return tuple(
            v.EventView(
                ref=e.ref,
                session=e.session_number,
                round=e.round_number,
                kind=e.kind,
                text=describe_event(e.kind, e.payload, lambda r: names.get(r or "", r or "nobody")),
                cause=e.cause or None,
            )
            for e in events
        )

    async def record(
        self, where: v.Where, caller: v.Caller, *, ref: str, public: bool = False
    ) -> v.RecordView:
        """Any record the caller may see, as a card: what, when, who saw it, why (its causes) and the replay.

        ``ref`` is a record id, or a round (``round-12.3``; ``round-3`` or ``round 3`` in the latest session):
        its story, the actions behind it and the NPC lines that woke in it, each with why (issue 13).
        ``public`` reads as the channel does: a record the channel may not see is :class:`NotFound`.
        """
        ref = ref.strip()
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.reader(s, campaign, caller, public)
            round_ref = _ROUND_REF.fullmatch(ref)
            if round_ref is not None:
                return await self._round_record(s, campaign.id, viewer, round_ref)
            try:
                rec = await service.record(s, campaign_id=campaign.id, ref=ref, viewer=viewer)
            except LedgerError:
                raise NotFound(f"No record '{ref}' that you may see.") from None
            payloads = [rec.data.get("payload", rec.data), *(e.payload for e in rec.cause_chain)]
            refs = [str(x) for p in payloads if isinstance(p, dict) for x in p.values() if isinstance(x, str)]
            refs += [k for p in payloads if isinstance(p, dict) for k in fact_keys(str(p.get("key", "")))]
            refs += [str(x) for val in rec.data.values() if isinstance(val, list) for x in val]
            names = await self.lookups.names(s, campaign.id, [r for r in refs if "-" in r])
            root = rec.root_cause or ""
            replay = await _replay(s, campaign.id, root)

        def name(r: str | None) -> str:
            return names.get(r or "", r or "nobody")

        if rec.record_kind == "event":
            kind = str(rec.data.get("kind", rec.record_kind))
            text = str(describe_event(kind, rec.data.get("payload", rec.data), name))
        else:
            text = str(rec.data.get("name") or rec.data.get("terms") or rec.ref)
        shown = {k: val for k, val in rec.data.items() if k not in _HIDDEN_FIELDS | _CARD_FIELDS}
        if rec.record_kind == "event":
            shown.pop("kind", None)  # the text says what happened
        if viewer.role != "gm":  # an NPC's sheet (persona, speech, hostility) is the GM's and the narrator's
            shown.pop("sheet", None)
        fields = {"When": _when(rec.session_number, rec.round_number)}
        witnesses = ", ".join(name(w) for w in rec.data.get("witnesses") or ())
        fields["Who saw it"] = visibility_label(rec.visibility) + (
            f"; witnesses: {witnesses}" if witnesses else ""
        )
        for key, val in shown.items():
            value = _sheet_text(val) if key == "sheet" else _field_text(val, name)
            if val in (None, "", [], {}) or value == text:
                continue  # no empty field, and nothing the card's title already says
            fields[key.replace("_", " ")] = value
        return v.RecordView(
            ref=rec.ref,
            kind=rec.record_kind,
            text=text,
            fields=fields,
            causes=tuple(f"{e.ref}: {describe_event(e.kind, e.payload, name)}" for e in rec.cause_chain)
            + ((cause_label(rec.root_cause),) if rec.root_cause else ()),
            replay=replay,
        )

    async def _round_record(
        self, s: AsyncSession, campaign_id: int, viewer: Viewer, found: re.Match[str]
    ) -> v.RecordView:
        """A told round as a card: its story, its actions (the why), the NPC lines that woke, the replay.

        An NPC line whose trigger is a record the viewer may not see is left out (the GM sees every one).
        """
        session_number = found.group("session")
        number = int(found.group("round"))
        if session_number is None:
            session_number = (await ledger_sessions.latest_session(s, campaign_id=campaign_id)).number
        label = f"round-{session_number}.{number}"
        rnd = await ledger_sessions.find_round(
            s, campaign_id=campaign_id, session_number=int(session_number), number=number
        )
        if rnd is None or rnd.state not in ("narrated", "posted"):
            raise NotFound(f"No told round '{label}'.")
        messages = await service.list_outbox(s, round_id=rnd.id)
        content = next((m.content for m in messages if m.kind == "public"), {})
        voices: list[dict[str, Any]] = []
        for voice in content.get("voices", ()):
            trigger = str(voice.get("trigger", ""))
            on, _, trigger_ref = trigger.partition(":")
            if on in ("person", "item", "place", "thread") and viewer.role != "gm":
                try:
                    await service.record(s, campaign_id=campaign_id, ref=trigger_ref, viewer=viewer)
                except LedgerError:
                    continue  # the trigger is a record this viewer may not see
            voices.append(voice)
        refs = [str(x.get("trigger", "")).partition(":")[2] for x in voices]
        names = await self.lookups.names(s, campaign_id, [r for r in refs if "-" in r])
        replay = await _replay(s, campaign_id, label)

        def named(text: str) -> str:
            return _ID_WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)

        fields = {
            "When": _when(rnd.session_number, rnd.number),
            "Who saw it": "everyone (told in the channel)",
            "Narration": _SOURCES.get(str(content.get("source", "")), str(content.get("source", "unknown"))),
        }
        lines = [
            f"{x.get('npc_name', '?')}: {_spoken(str(x.get('text', '')))} — woke on "
            f"{named(_trigger_words(str(x.get('trigger', ''))))} because {named(str(x.get('why', '')))}"
            for x in voices
        ]
        if lines:
            fields["NPC voices"] = "\n".join(lines)
        actions = [
            f"{a.get('actor', '?')}: {a.get('summary', '')} → {a.get('outcome', '')}"
            for a in content.get("actions", ())
            if isinstance(a, dict)
        ]
        return v.RecordView(
            ref=label,
            kind="round",
            text=str(content.get("text", "")) or f"Round {rnd.number}",
            fields=fields,
            causes=tuple(actions),
            replay=replay,
        )

    async def notes(self, where: v.Where, caller: v.Caller) -> tuple[v.NoteView, ...]:
        """Your private notes: every DM the table sent you (or kept because your DMs were closed)."""
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            rows = await ledger_sessions.notes_for(s, campaign_id=campaign.id, user_id=caller.user_id)
        return tuple(
            v.NoteView(
                round_number=r.content.get("round"),
                text=str(r.content.get("text", "")),
                delivered=r.status == "sent",
            )
            for r in rows
        )

    async def dispute(self, where: v.Where, caller: v.Caller, *, ref: str, reason: str) -> v.DisputeView:
        """Object to a record you can see; the GM rules on it and the ruling lands in history."""
        reason = (reason or "").strip()
        if not reason:
            raise InvalidAction("Say why the record is wrong.")
        if len(reason) > MAX_NOTE_CHARS:
            raise InvalidAction(f"Keep the reason under {MAX_NOTE_CHARS} characters.")
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.viewer(s, campaign, caller)
            try:
                await service.record(s, campaign_id=campaign.id, ref=ref.strip(), viewer=viewer)
            except LedgerError:
                raise NotFound(f"No record '{ref}' that you may see.") from None
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            try:
                d = await service.open_dispute(
                    s,
                    campaign_id=campaign.id,
                    record_ref=ref.strip(),
                    user_id=caller.user_id,
                    reason=reason,
                    session_number=latest.number,
                )
            except LedgerError as err:  # e.g. the same record already disputed by this player
                raise TableError(str(err)) from None
        return dispute_view(d)

    async def graph(self, where: v.Where, caller: v.Caller, *, public: bool = False) -> v.GraphView:
        """The relationship graph as the caller (or, with ``public``, the channel) may see it."""
        edges = await self.relationships(where, caller, public=public)
        nodes = sorted({e.source for e in edges} | {e.target for e in edges})
        return v.GraphView(nodes=tuple(nodes), edges=edges)

    # --- recaps and summaries ----------------------------------------------------------------------------

    async def recap(self, where: v.Where, caller: v.Caller, *, public: bool = False) -> v.RecapView:
        """The last session: its filed summary and the hard facts the ledger holds for it.

        ``public`` reads as the channel does, whoever asks.
        """
        async with self.ctx.session() as s:
            campaign = await self.lookups.campaign(s, where)
            viewer = await self.lookups.reader(s, campaign, caller, public)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            number = latest.number - 1 if latest.open and latest.number > 1 else latest.number
            summary = await ledger_sessions.session_summary(
                s, campaign_id=campaign.id, session_number=number, viewer=viewer
            )
            events = await service.history(
                s, campaign_id=campaign.id, viewer=viewer, limit=50, session_number=number
            )
            refs = sorted({str(x) for e in events for x in e.payload.values() if isinstance(x, str)})
            names = await self.lookups.names(s, campaign.id, refs)
        decisive = [
            e
            for e in events
            if e.permanent
            or e.kind in ("set_alive", "thread_transition", "transfer_item", "retcon", "correction")
        ]
        highlights = tuple(
            f"{e.ref}: {describe_event(e.kind, e.payload, lambda r: names.get(r or '', r or 'nobody'))}"
            for e in decisive[:10]
        )
        text = summary or "Nothing has been filed for that session yet."
        return v.RecapView(session_number=number or None, text=text, highlights=highlights)

    # --- autocomplete ------------------------------------------------------------------------------------

    async def autocomplete(
        self, where: v.Where, caller: v.Caller, *, kind: str, prefix: str
    ) -> tuple[v.Choice, ...]:
        """Up to 25 choices for a command option, only from what the caller may see."""
        from bot.scene import load_scene, parse_scene

        prefix = (prefix or "").strip().lower()[:50]
        try:
            async with self.ctx.session() as s:
                if kind == "scenario":
                    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))
                    return tuple(v.Choice(name=n, value=n) for n in names if prefix in n.lower())[:25]
                campaign = await self.lookups.campaign(s, where)
                viewer = await self.lookups.viewer(s, campaign, caller)
                choices: list[v.Choice] = []
                aliases: dict[str, str] = {}  # choice value -> its other names, matched as typed ("Wei")
                if kind in ("target", "item"):
                    member = await self.lookups.member(s, campaign, caller)
                    if member is None or member.character_id is None:
                        return ()
                    scene = await load_scene(
                        s, campaign_id=campaign.id, pc_ids=await self.lookups.pc_ids(s, campaign.id)
                    )
                    ps = parse_scene(scene, member.character_id)
                    pool = (  # the living only: a body is not someone to talk to, help or attack
                        [c for c in ps.creatures if c.id != ps.actor and c.alive]
                        if kind == "target"
                        else [*ps.items_held, *ps.items_here]
                    )
                    choices = [v.Choice(name=n.name, value=n.id) for n in pool]
                    aliases = {n.id: " ".join(n.aliases).lower() for n in pool}
                elif kind in ("npc", "record"):
                    kinds = ["entity"] if kind == "npc" else None
                    found = await service.find_records(
                        s,
                        campaign_id=campaign.id,
                        text=prefix,
                        viewer=viewer,
                        kinds=kinds,
                        prefix=True,
                        limit=25,
                    )
                    choices = [v.Choice(name=f"{f.name} ({f.ref})", value=f.ref) for f in found]
                    if kind == "record":
                        threads = await service.threads(s, campaign_id=campaign.id, viewer=viewer)
                        choices += [
                            v.Choice(name=f"{t.id} ({t.kind}, {t.status})", value=t.id) for t in threads
                        ]
                        events = await service.history(s, campaign_id=campaign.id, viewer=viewer, limit=10)
                        refs = [str(x) for e in events for x in e.payload.values() if isinstance(x, str)]
                        known = await self.lookups.names(s, campaign.id, [r for r in refs if "-" in r])

                        def named(r: str | None) -> str:
                            return known.get(r or "", r or "nobody")

                        choices += [
                            v.Choice(
                                name=f"{e.ref} {describe_event(e.kind, e.payload, named)}"[:100], value=e.ref
                            )
                            for e in events
                        ]
                elif kind == "player":
                    members = await service.list_members(s, campaign_id=campaign.id, active_only=True)
                    pcs = await service.get_entities(
                        s,
                        campaign_id=campaign.id,
                        entity_ids=[m.character_id for m in members if m.character_id],
                        viewer=GM_VIEW,
                    )
                    choices = [
                        v.Choice(name=pc.name, value=m.user_id)
                        for pc, m in ((pc, next(m for m in members if m.character_id == pc.id)) for pc in pcs)
                    ]
                elif kind == "claim":
                    found = await service.find_records(
                        s,
                        campaign_id=campaign.id,
                        text=prefix,
                        viewer=viewer,
                        kinds=["entity"],
                        prefix=True,
                        limit=25,
                    )
                    choices = [v.Choice(name=f.name, value=f.ref) for f in found if f.ref.startswith("pc-")]
                elif kind in ("dispute", "conflict"):
                    if not self.lookups.is_gm(
                        campaign, caller, await self.lookups.member(s, campaign, caller)
                    ):
                        return ()
                    if kind == "dispute":
                        choices = [
                            v.Choice(name=f"#{d.id} {d.record_ref}: {d.reason}"[:100], value=str(d.id))
                            for d in await service.list_disputes(s, campaign_id=campaign.id)
                        ]
                    else:
                        choices = [
                            v.Choice(name=f"#{c.id} {c.claim_text}"[:100], value=str(c.id))
                            for c in await service.list_conflicts(s, campaign_id=campaign.id)
                        ]
        except TableError:
            return ()
        matches = [
            c
            for c in choices
            if prefix in c.name.lower() or prefix in c.value.lower() or prefix in aliases.get(c.value, "")
        ]
        unique: dict[str, v.Choice] = {}
        for c in matches:
            unique.setdefault(c.value, c)
        return tuple(unique.values())[:25]


# Record fields a reader never needs: the cause is shown once, in "Caused by"; the rest are storage details
# or repeat the title (the ref, the session).
_HIDDEN_FIELDS = frozenset(
    {
        "payload",
        "cause",
        "campaign_id",
        "id",
        "ref",
        "seq",
        "created_at",
        "session_number",
        "round_number",
        "visibility",
        "supersedes",
    }
)


def _field_text(value: Any, name: Any = None) -> str:
    """A record field as a person reads it: lists joined (ids as names), mappings as ``key: value``."""
    if isinstance(value, list | tuple):
        text = ", ".join(name(x) if name and isinstance(x, str) else _field_text(x) for x in value)
    elif isinstance(value, dict):
        text = "; ".join(f"{k.replace('_', ' ')}: {_field_text(x)}" for k, x in value.items())
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    else:
        text = str(value)
    return text[:200]


def dispute_view(d: DisputeRecord) -> v.DisputeView:
    """A dispute as the front ends show it."""
    return v.DisputeView(
        id=d.id,
        record_ref=d.record_ref,
        raised_by=d.user_id,
        reason=d.reason,
        status=d.status,
        ruling_note=d.ruling_note or None,
    )


#: A round as ``/ledger record`` takes it: ``round-12.3``, or ``round-3`` / ``round 3`` in the latest session.
_ROUND_REF = re.compile(r"round[- ](?:(?P<session>\d+)\.)?(?P<round>\d+)", re.I)
#: Fields the card shows in its own words (When, Who saw it) or not at all (bookkeeping).
_CARD_FIELDS = frozenset(
    {"session", "opened_session", "source_session", "since_session", "witnesses", "involved", "importance",
     "permanent", "superseded_by", "name"}
)  # fmt: skip
_ID_WORD = re.compile(r"\b[a-z]+-[a-z0-9]+(?:-[a-z0-9]+)*\b")
_SOURCES = {
    "offline": "offline narrator",
    "fallback": "built from the results (the narrator's draft conflicted with the ledger)",
    "generated": "the narrator, checked against the ledger",
    "regenerated": "the narrator, rewritten once after a conflict",
}
_TRIGGERS = {
    "event:addressed": "being spoken to",
    "event:threatened": "being threatened",
    "event:helped": "being helped",
    "stock:addressed": "being spoken to (a stock line)",
    "stock:threatened": "being threatened (a stock line)",
    "stock:helped": "being helped (a stock line)",
}


def _when(session_number: int | None, round_number: int | None) -> str:
    """``session 12, round 3``, or ``session 12`` for a record no round made."""
    when = f"session {session_number}" if session_number is not None else "before play"
    return when + (f", round {round_number}" if round_number is not None else "")


def _spoken(text: str) -> str:
    """The words an NPC said, from the narrated sentence (“Line,” Old Wei replies.), or the sentence."""
    said = re.match(r"\s*“(.+?)”", text)
    if said is None:
        return text
    words = said.group(1)
    return f"“{words[:-1]}.”" if words.endswith(",") else f"“{words}”"


def _trigger_words(trigger: str) -> str:
    """``thread:favor-0003-01`` as ``the thread favor-0003-01`` (ids become names where the caller knows)."""
    if trigger in _TRIGGERS:
        return _TRIGGERS[trigger]
    on, _, ref = trigger.partition(":")
    return f"the {on} {ref}" if ref else trigger


def _sheet_text(sheet: Any) -> str:
    """An NPC's sheet for the GM: its plain settings, and a persona table summed up, never dumped."""
    if not isinstance(sheet, dict):
        return _field_text(sheet)
    parts = []
    for key, val in sheet.items():
        if key == "persona" and isinstance(val, dict):
            traits = len(val.get("traits") or ())
            voice = str(val.get("voice", ""))[:80]
            parts.append(f"persona: {voice} ({traits} trait{'s' if traits != 1 else ''})")
        elif isinstance(val, str | int | float | bool):
            parts.append(f"{key.replace('_', ' ')}: {_field_text(val)}")
    return "; ".join(parts)[:1000]


async def _replay(s: AsyncSession, campaign_id: int, root: str) -> str | None:
    """How a round-made record replays: the seed against its commitment, re-resolving, and the roll itself."""
    from bot.scene import roll_lines
    from rules.fairness import replay_round, verify_seed
    from rules.intents import Intent as _Intent
    from rules.round import RoundResolution
    from rules.state import RoundState

    found = re.match(r"round-(\d+)\.(\d+)(?:#(\d+))?", root)
    if not found:
        return None
    sess_n, round_n = int(found.group(1)), int(found.group(2))
    rnd = await ledger_sessions.find_round(s, campaign_id=campaign_id, session_number=sess_n, number=round_n)
    if rnd is None or rnd.state not in ("narrated", "posted") or not rnd.resolution:
        return None
    data = rnd.resolution
    seed = int(data["seed"])
    recorded = RoundResolution.model_validate(data["resolution"])
    same = replay_round(
        seed=seed,
        intents=[_Intent.model_validate(i) for i in data["intents"]],
        state=RoundState.model_validate(data["state"]),
        recorded=recorded,
    )
    fair = verify_seed(seed, rnd.seed_commitment)
    text = (
        f"round {sess_n}.{round_n}: seed {seed}, commitment {rnd.seed_commitment[:16]}... "
        f"{'matches' if fair else 'DOES NOT match'}; re-resolving "
        f"{'gives identical results' if same else 'DIFFERS'}"
    )
    index = int(found.group(3)) if found.group(3) else None
    if index is not None and 0 <= index < len(recorded.results):
        names: dict[str, str] = data.get("names", {})
        rolls = [
            _ID_WORD.sub(lambda m: names.get(m.group(0), m.group(0)), r)
            for r in roll_lines(recorded.results[index])
        ]
        if rolls:
            text += "\nthe roll: " + "; ".join(rolls)
    return text
