"""The ledger as each viewer may see it: inventories, relationships, threads, history, records, notes,
disputes, the graph, recaps and autocomplete. Every read goes through the caller's viewer."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import cause_label, describe_event, fact_keys, visibility_label
from bot.errors import InvalidAction, NotFound, TableError
from bot.table.context import (
    GM_VIEW,
    MAX_NOTE_CHARS,
    SCENARIO_DIR,
    SUMMARY_REST_MINUTES,
    TableBase,
)
from ledger import service
from ledger.errors import LedgerError
from ledger.store import sessions as ledger_sessions
from ledger.store.visibility import Viewer
from rules.errors import RulesError

if TYPE_CHECKING:
    from ledger.store.records import RoundView


_log = logging.getLogger(__name__)


class LedgerViews(TableBase):
    """Reads of the campaign ledger for players and the GM."""

    # --- dice --------------------------------------------------------------------------------------------

    async def roll(self, caller: v.Caller, *, expression: str, seed: int | None = None) -> v.RollView:
        """Roll dice with a seed that is shown, so anyone can replay the roll."""
        import random

        from rules.dice import roll

        use = seed if seed is not None else self.seeds()
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._viewer(s, campaign, caller)
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

    async def _member_named(self, s: Any, campaign_id: int, members: Sequence[Any], who: str) -> Any:
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

    async def _party_location(self, s: Any, campaign_id: int) -> str | None:
        """Where most player characters in the ledger stand (a scenario's party, before anyone joins).

        The campaign-start embed named the scenario's ``starting_location`` although its history had
        already moved the party elsewhere (issue 9).
        """
        from collections import Counter

        events = await service.history(s, campaign_id=campaign_id, viewer=GM_VIEW, limit=500)
        ids = sorted({str(e.payload.get("entity") or e.payload.get("id") or "") for e in events} - {""})
        pcs = await service.get_entities(s, campaign_id=campaign_id, entity_ids=ids, viewer=GM_VIEW)
        places = Counter(
            pc.location for pc in pcs if pc.kind == "pc" and pc.location and pc.alive is not False
        )
        return places.most_common(1)[0][0] if places else None

    async def require_gm(self, where: v.Where, caller: v.Caller) -> None:
        """Raise :class:`NotGM` unless ``caller`` is this campaign's GM.

        Front ends ask first so a refused GM command never shows the channel a "thinking..." placeholder.
        """
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            await self._require_gm(s, campaign, caller)

    async def relationships(
        self, where: v.Where, caller: v.Caller, *, npc: str | None = None, public: bool = False
    ) -> tuple[v.EdgeView, ...]:
        """Relationship edges (of one NPC, or all) with their reasons and source sessions.

        ``public`` reads as the channel does (public and party records only), whoever asks.
        """
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._reader(s, campaign, caller, public)
            if npc:
                entity = await self._find_entity(s, campaign.id, npc, viewer)
                edges = await service.relationships(
                    s, campaign_id=campaign.id, entity_id=entity.id, viewer=viewer, with_history=False
                )
            else:
                edges = await ledger_sessions.all_edges(s, campaign_id=campaign.id, viewer=viewer)
            names = await self._names(
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

    async def _reader(self, s: Any, campaign: Any, caller: v.Caller, public: bool) -> Viewer:
        """The viewer a read goes through: the channel's (party) view for ``public``, else the caller's."""
        return Viewer.party() if public else await self._viewer(s, campaign, caller)

    async def _find_entity(self, s: Any, campaign_id: int, name: str, viewer: Viewer) -> Any:
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._reader(s, campaign, caller, public)
            rows = await service.threads(s, campaign_id=campaign.id, viewer=viewer)
            names = await self._names(s, campaign.id, sorted({p for t in rows for p in t.parties}))
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._reader(s, campaign, caller, public)
            events = await service.history(s, campaign_id=campaign.id, viewer=viewer, limit=count)
            refs = sorted(
                {str(x) for e in events for x in e.payload.values() if isinstance(x, str) and "-" in x}
                | {k for e in events if e.kind == "set_fact" for k in fact_keys(str(e.payload.get("key")))}
            )
            names = await self._names(s, campaign.id, refs)
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
        """Any record the caller may see, with its cause chain and, for a roll, a replay check.

        ``public`` reads as the channel does: a record the channel may not see is :class:`NotFound`.
        """
        from rules.fairness import replay_round, verify_seed
        from rules.intents import Intent as _Intent
        from rules.round import RoundResolution
        from rules.state import RoundState

        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._reader(s, campaign, caller, public)
            try:
                rec = await service.record(s, campaign_id=campaign.id, ref=ref.strip(), viewer=viewer)
            except LedgerError:
                raise NotFound(f"No record '{ref}' that you may see.") from None
            payloads = [rec.data.get("payload", rec.data), *(e.payload for e in rec.cause_chain)]
            refs = [str(x) for p in payloads if isinstance(p, dict) for x in p.values() if isinstance(x, str)]
            refs += [k for p in payloads if isinstance(p, dict) for k in fact_keys(str(p.get("key", "")))]
            refs += [str(x) for val in rec.data.values() if isinstance(val, list) for x in val]
            names = await self._names(s, campaign.id, [r for r in refs if "-" in r])
            replay = None
            root = rec.root_cause or ""
            found = re.match(r"round-(\d+)\.(\d+)", root) or re.match(r"round-(\d+)\.(\d+)", ref)
            if found:
                sess_n, round_n = int(found.group(1)), int(found.group(2))
                rnd = await _find_round(s, campaign.id, sess_n, round_n)
                if rnd is not None and rnd.state in ("narrated", "posted") and rnd.resolution:
                    data = rnd.resolution
                    seed = int(data["seed"])
                    same = replay_round(
                        seed=seed,
                        intents=[_Intent.model_validate(i) for i in data["intents"]],
                        state=RoundState.model_validate(data["state"]),
                        recorded=RoundResolution.model_validate(data["resolution"]),
                    )
                    fair = verify_seed(seed, rnd.seed_commitment)
                    replay = (
                        f"round {sess_n}.{round_n}: seed {seed}, commitment {rnd.seed_commitment[:16]}... "
                        f"{'matches' if fair else 'DOES NOT match'}; re-resolving "
                        f"{'gives identical results' if same else 'DIFFERS'}"
                    )

        def name(r: str | None) -> str:
            return names.get(r or "", r or "nobody")

        shown = {k: val for k, val in rec.data.items() if k not in _HIDDEN_FIELDS}
        if viewer.role != "gm":  # an NPC's sheet (persona, speech, hostility) is the GM's and the narrator's
            shown.pop("sheet", None)
        fields = {k: _field_text(val, name) for k, val in shown.items() if val not in (None, "", [], {})}
        text = (
            describe_event(
                str(rec.data.get("kind", rec.record_kind)), rec.data.get("payload", rec.data), name
            )
            if rec.record_kind == "event"
            else rec.data.get("name", rec.ref)
        )
        if rec.session_number is not None:
            fields["session"] = str(rec.session_number)
        fields["seen by"] = visibility_label(rec.visibility)
        return v.RecordView(
            ref=rec.ref,
            kind=rec.record_kind,
            text=str(text),
            fields=fields,
            causes=tuple(f"{e.ref}: {describe_event(e.kind, e.payload, name)}" for e in rec.cause_chain)
            + ((cause_label(rec.root_cause),) if rec.root_cause else ()),
            replay=replay,
        )

    async def notes(self, where: v.Where, caller: v.Caller) -> tuple[v.NoteView, ...]:
        """Your private notes: every DM the table sent you (or kept because your DMs were closed)."""
        async with self._session() as s:
            campaign = await self._campaign(s, where)
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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._viewer(s, campaign, caller)
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
        return _dispute_view(d)

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
        async with self._session() as s:
            campaign = await self._campaign(s, where)
            viewer = await self._reader(s, campaign, caller, public)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            number = latest.number - 1 if latest.open and latest.number > 1 else latest.number
            summary = await ledger_sessions.session_summary(
                s, campaign_id=campaign.id, session_number=number, viewer=viewer
            )
            events = await service.history(
                s, campaign_id=campaign.id, viewer=viewer, limit=50, session_number=number
            )
            refs = sorted({str(x) for e in events for x in e.payload.values() if isinstance(x, str)})
            names = await self._names(s, campaign.id, refs)
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

    async def _file_session_summary(self, campaign_id: int, number: int) -> None:
        """File a session summary: the round narrations in order, indexed in Chroma after its hard facts
        (deaths, hand-overs, thread changes) are confirmed in the ledger."""
        async with self._session() as s:
            texts = await ledger_sessions.session_narrations(
                s, campaign_id=campaign_id, session_number=number
            )
            events = await service.history(
                s, campaign_id=campaign_id, viewer=Viewer.party(), limit=200, session_number=number
            )
        if not texts:
            return
        text = " ".join(texts)
        words = text.split()
        if len(words) > 300:
            text = " ".join(words[:300]) + " ..."
        async with self._session() as s:
            await ledger_sessions.add_summary(
                s,
                campaign_id=campaign_id,
                session_number=number,
                text=text,
                event_ids=[e.ref for e in events],
                visibility="party",
            )
        # Filed in SQL (the authority) as ``pending``; indexed now, or queued while the index is down.
        await self._index_pending(campaign_id)

    # --- the summary index (an index: the ledger is the authority) ---------------------------------------

    def _summaries_for_round(self) -> Any:
        """The summary index for a round's retrieval, or None while it rests after a failure.

        A down index is asked again only after a rest (1 minute, doubling up to 15), so a timing-out endpoint
        does not slow every round; the ledger's records are complete without it.
        """
        if self.summaries is None or self._summary_resting():
            return None
        return self.summaries

    def _summary_resting(self) -> bool:
        return self._summary_retry_at is not None and self.clock() < self._summary_retry_at

    async def _summary_upkeep(self, campaign_id: int, unavailable: str | None) -> None:
        """After a round's retrieval: tell the GM once when the index failed, else index what is queued.

        Queued summaries are indexed after an outage (the first successful query) and once per campaign per
        process (a restart finds what an earlier process left pending).
        """
        if self.summaries is None:
            return
        if unavailable is not None:
            await self._index_down(campaign_id, unavailable)
        elif self._summary_resting():
            return  # not asked this round
        elif campaign_id in self._summary_outage or campaign_id not in self._summary_checked:
            await self._index_pending(campaign_id)

    async def _index_pending(self, campaign_id: int) -> int:
        """Index the campaign's queued (``pending``) summaries, oldest first; return how many were indexed.

        A summary stating a hard fact the ledger lacks is marked ``refused`` and never retried. At the first
        :class:`~ledger.recall.summaries.IndexUnavailable` the rest stay queued and the GM is told (once per
        outage).
        While the index rests after a failure nothing is tried: the summaries wait in the ledger.
        """
        if self.summaries is None or self._summary_resting():
            return 0
        from ledger.recall.summaries import IndexUnavailable

        indexed = 0
        while True:
            async with self._session() as s:
                rows = await ledger_sessions.pending_summaries(s, campaign_id=campaign_id, limit=20)
            for row in rows:
                assert row.id is not None
                try:
                    state = await self._index_summary(campaign_id, row)
                except IndexUnavailable as err:
                    await self._index_down(campaign_id, str(err))
                    return indexed
                async with self._session() as s:
                    await ledger_sessions.mark_summary_index_state(s, summary_id=row.id, state=state)
                indexed += state == "indexed"
            if len(rows) < 20:
                break
        self._summary_checked.add(campaign_id)
        self._summary_retry_at, self._summary_rest_minutes = None, SUMMARY_REST_MINUTES[0]
        if campaign_id in self._summary_outage:
            self._summary_outage.discard(campaign_id)
            _log.warning(
                "summary index is back for campaign %s: %s queued summaries indexed", campaign_id, indexed
            )
            await self._tell_gm(
                campaign_id,
                f"The summary index is back: {indexed} queued session summaries were indexed.",
            )
        return indexed

    async def _index_down(self, campaign_id: int, reason: str) -> None:
        """The summary index failed: play goes on with ledger records only; the GM is told once per outage."""
        self._summary_retry_at = self.clock() + timedelta(minutes=self._summary_rest_minutes)
        self._summary_rest_minutes = min(self._summary_rest_minutes * 2, SUMMARY_REST_MINUTES[1])
        if campaign_id in self._summary_outage:
            _log.debug("summary index still unavailable for campaign %s: %s", campaign_id, reason)
            return
        self._summary_outage.add(campaign_id)
        _log.warning("summary index unavailable for campaign %s: %s", campaign_id, reason)
        await self._tell_gm(
            campaign_id,
            f"The summary index is unavailable ({reason}). Play goes on with the ledger's records only; "
            "session summaries are kept in the ledger and will be indexed when the index is back.",
        )

    async def _tell_gm(self, campaign_id: int, text: str) -> None:
        """DM the campaign's GM; when the DM cannot be sent, keep the note in the GM's conflict queue."""
        async with self._session() as s:
            campaign = await service.get_campaign(s, campaign_id=campaign_id)
        try:
            await self.courier.send_dm(campaign.owner_user_id, f"**{campaign.name}**: {text}")
            return
        except Exception:  # DMClosed, or Discord failing: the note must still reach the GM
            _log.warning("could not DM the GM of campaign %s", campaign_id, exc_info=True)
        async with self._session() as s:
            await service.add_conflict(s, campaign_id=campaign_id, round_id=None, claim_text=text[:500])

    async def _summary_events(self, campaign_id: int, row: Any) -> list[Any]:
        """The events a summary covers, for the hard facts it states: a session's from its history (one
        read), a loaded scenario's history summary by ref."""
        wanted = set(row.event_ids)
        async with self._session() as s:
            if row.scope == "session":
                events = await service.history(
                    s, campaign_id=campaign_id, viewer=GM_VIEW, limit=500, session_number=row.session_number
                )
                return [e for e in events if e.ref in wanted]
            return [
                (await service.record(s, campaign_id=campaign_id, ref=ref, viewer=GM_VIEW)).data
                for ref in row.event_ids
            ]

    async def _index_summary(self, campaign_id: int, row: Any) -> str:
        """Index one summary row; return its new state (``indexed`` or ``refused``).

        Raises :class:`~ledger.recall.summaries.IndexUnavailable` when Chroma or the embeddings endpoint
        fails.
        """
        assert self.summaries is not None
        from ledger.recall.summaries import IndexUnavailable, SummaryError, hard_facts_from_changes

        changes = []
        for e in await self._summary_events(campaign_id, row):
            payload = e.payload if hasattr(e, "payload") else e.get("payload", e)
            if isinstance(payload, dict) and "kind" in payload:
                changes.append(payload)
        facts = hard_facts_from_changes(changes)

        async def verify(declared: Sequence[Any]) -> list[Any]:
            async with self._session() as s:
                return await ledger_sessions.missing_hard_facts(s, campaign_id=campaign_id, facts=declared)

        try:
            await self.summaries.add(
                summary_id=f"summary-{row.id}",
                campaign=f"campaign-{campaign_id}",
                session=row.session_number,
                scope="session",
                text=row.text,
                verify=verify,
                event_ids=list(row.event_ids),
                visibility=row.visibility,
                hard_facts=facts,
            )
        except IndexUnavailable:
            raise
        except SummaryError:
            _log.warning("summary %s was not indexed", row.id, exc_info=True)
            return "refused"
        return "indexed"

    # --- autocomplete ------------------------------------------------------------------------------------

    async def autocomplete(
        self, where: v.Where, caller: v.Caller, *, kind: str, prefix: str
    ) -> tuple[v.Choice, ...]:
        """Up to 25 choices for a command option, only from what the caller may see."""
        from bot.scene import load_scene, parse_scene

        prefix = (prefix or "").strip().lower()[:50]
        try:
            async with self._session() as s:
                if kind == "scenario":
                    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))
                    return tuple(v.Choice(name=n, value=n) for n in names if prefix in n.lower())[:25]
                campaign = await self._campaign(s, where)
                viewer = await self._viewer(s, campaign, caller)
                choices: list[v.Choice] = []
                aliases: dict[str, str] = {}  # choice value -> its other names, matched as typed ("Wei")
                if kind in ("target", "item"):
                    member = await self._member(s, campaign, caller)
                    if member is None or member.character_id is None:
                        return ()
                    scene = await load_scene(
                        s, campaign_id=campaign.id, pc_ids=await self._pc_ids(s, campaign.id)
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
                        known = await self._names(s, campaign.id, [r for r in refs if "-" in r])

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
                    if not self._is_gm(campaign, caller, await self._member(s, campaign, caller)):
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


def _dispute_view(d: Any) -> v.DisputeView:
    return v.DisputeView(
        id=d.id,
        record_ref=d.record_ref,
        raised_by=d.user_id,
        reason=d.reason,
        status=d.status,
        ruling_note=d.ruling_note or None,
    )


async def _find_round(s: Any, campaign_id: int, session_number: int, number: int) -> RoundView | None:
    return await ledger_sessions.find_round(
        s, campaign_id=campaign_id, session_number=session_number, number=number
    )
