"""The GM builds the world live: NPCs, spawned monsters, moves to new places, items, threads and secrets.

Every command here is GM-only, turns what the GM typed (names, never ids) into ledger changes, and writes them
with :func:`ledger.service.apply_changes` as ONE transaction with cause ``gm-<user id>``: either everything
lands or nothing does (a refusal is one line, a :class:`~bot.errors.TableError`). Ids are made here from the
names (``npc-marta-vell``, ``-2`` on a clash). The answer is a :class:`~bot.views.WorldChangeView` listing
exactly the events written. Everything is reversible the ledger's way (``/gm retcon`` of an event).

Spawned monsters keep the bestiary name ("Bandit") and get ordinal aliases ("the second bandit") so prose can
tell them apart without "Bandit 2". What the GM adds to the scene during a round is what the next narration
mentions first (:func:`arrivals`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot import views as v
from bot.describe import describe_event, fact_keys, visibility_label
from bot.errors import InvalidAction, NotFound, TableError
from bot.table.context import GM_VIEW, MAX_NOTE_CHARS, seat, slug
from bot.table.newcomers import ordinal, readable_name
from ledger import service
from ledger.errors import LedgerError, UnknownRecord
from ledger.store import sessions as ledger_sessions

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.table.context import Lookups, TableContext
    from bot.table.reads import Reads
    from ledger.store.records import CampaignView

MAX_NAME_CHARS = 80
MAX_DESCRIPTION_CHARS = 1000
MAX_TEXT_CHARS = MAX_NOTE_CHARS  # thread terms, secrets
MAX_SPAWN = 12
MAX_QUANTITY = 10_000
THREAD_KINDS = ("favour", "debt", "oath", "feud", "bounty", "quest", "prophecy", "rumour")
FATES = ("sold", "lost", "destroyed", "used up", "confiscated")
ATTITUDE_EDGE = "regard"  # an NPC's attitude toward a PC, set by /gm npc attitude:


def _listed(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _text(value: str | None, what: str, limit: int, *, required: bool = False) -> str:
    """A user's text, trimmed; refused when it is too long (or missing when ``required``)."""
    text = " ".join((value or "").split())
    if required and not text:
        raise InvalidAction(f"Give the {what}.")
    if len(text) > limit:
        raise InvalidAction(f"The {what} is too long: {len(text)} characters, at most {limit}.")
    return text


def _creature(name: str) -> Any:
    """The SRD bestiary entry a GM typed (id or name, any case), or a refusal naming a few that exist."""
    from rules.srd import bestiary

    wanted = slug(name.strip())
    entries = bestiary()
    found = entries.get(wanted) or next((c for c in entries.values() if slug(c.name) == wanted), None)
    if found is None:
        some = ", ".join(sorted(entries)[:8])
        raise NotFound(f"No creature called '{name.strip()[:60]}' in the SRD bestiary (try: {some}, ...).")
    return found


class WorldBuilder:
    """The GM's world-building commands (``/gm npc``, ``spawn``, ``move``, ``item``, ``item-remove``,
    ``thread-open``, ``secret``) and their autocomplete."""

    def __init__(self, ctx: TableContext, lookups: Lookups, reads: Reads) -> None:
        self.ctx = ctx
        self.lookups = lookups
        self.reads = reads

    # --- the commands ----------------------------------------------------------------------------------

    async def gm_npc(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        name: str,
        description: str | None = None,
        location: str | None = None,
        stats: str | None = None,
        attitude: int | None = None,
        pronouns: str | None = None,
    ) -> v.WorldChangeView:
        """Create an NPC, or update the NPC of that name (description, place, attitude toward the party)."""
        name = _text(name, "NPC's name", MAX_NAME_CHARS, required=True)
        text = _text(description, "description", MAX_DESCRIPTION_CHARS)
        pronouns = _text(pronouns, "pronouns", 20) or None
        if attitude is not None and not -100 <= attitude <= 100:
            raise InvalidAction("The attitude runs from -100 (hostile) to 100 (devoted).")
        block = _creature(stats) if stats and stats.strip() else None
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            place = await self._location(s, campaign.id, location) if location else None
            existing = await self._one_entity(s, campaign.id, name)
            if existing is not None and existing.kind != "npc":
                raise InvalidAction(
                    f"'{name}' is already a {'player character' if existing.kind == 'pc' else existing.kind}"
                    " in this campaign: give the NPC another name."
                )
            await self._name_free(s, campaign.id, name, kinds=["location", "item"])
            changes: list[dict[str, Any]] = []
            if existing is None:
                npc_id = await self._new_id(s, campaign.id, "npc", name)
                sheet: dict[str, Any] = {"bestiary": block.id if block else "commoner"}
                if pronouns:
                    sheet["pronouns"] = pronouns
                hp = block.hp if block else None
                if place is None:
                    place = await self._scene_location(s, campaign)
                changes.append(
                    {
                        "kind": "create_entity",
                        "id": npc_id,
                        "entity_kind": "npc",
                        "name": name,
                        "description": text,
                        "sheet": sheet,
                        "location": place,
                        **({"hp": hp} if hp is not None else {}),
                    }
                )
                summary = f"{name} joins the world"
            else:
                npc_id = existing.id
                if block is not None or pronouns:
                    raise InvalidAction(
                        f"{existing.name} already exists: stats and pronouns are set when an NPC is created."
                    )
                if text and text != existing.description:
                    changes.append({"kind": "set_fact", "key": f"{npc_id}-description", "value": text})
                if place is not None and place != existing.location:
                    changes.append({"kind": "move_entity", "entity": npc_id, "location": place})
                summary = f"{existing.name} is updated"
            if attitude is not None:
                for pc in await self.lookups.pc_ids(s, campaign.id):
                    changes.append(
                        {
                            "kind": "set_edge",
                            "source": npc_id,
                            "target": pc,
                            "edge_kind": ATTITUDE_EDGE,
                            "attitude": attitude,
                            "reason": "set by the GM",
                        }
                    )
            if not changes:
                raise InvalidAction(f"Nothing to change: {name} is already like that.")
            return await self._write(s, campaign, caller, "npc", summary, changes, [npc_id])

    async def gm_spawn(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        creature: str,
        count: int = 1,
        name: str | None = None,
        location: str | None = None,
    ) -> v.WorldChangeView:
        """Put ``count`` monsters of an SRD creature in a scene, numbered the way prose reads them."""
        block = _creature(creature)
        if not 1 <= count <= MAX_SPAWN:
            raise InvalidAction(f"Spawn 1 to {MAX_SPAWN} creatures at a time.")
        base = _text(name, "name", MAX_NAME_CHARS) or block.name
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            place = (
                await self._location(s, campaign.id, location)
                if location
                else await self._scene_location(s, campaign)
            )
            same = await service.find_records(
                s, campaign_id=campaign.id, text=base, viewer=GM_VIEW, kinds=["entity"]
            )
            kept = await service.get_entities(
                s, campaign_id=campaign.id, entity_ids=[m.ref for m in same], viewer=GM_VIEW
            )
            if any(e.kind != "monster" for e in kept) or (name and kept):
                raise InvalidAction(f"'{base}' is already someone in this campaign: choose another name.")
            await self._name_free(s, campaign.id, base, kinds=["location", "item"])
            already = len(kept)  # more bandits continue the count: the fourth bandit
            noun = base if base[:1].islower() or name else base.lower()
            changes: list[dict[str, Any]] = []
            ids: list[str] = []
            taken: set[str] = set()
            for n in range(already + 1, already + count + 1):
                mid = await self._new_id(s, campaign.id, "monster", f"{base}-{n}", taken=taken)
                taken.add(mid)
                many = count > 1 or already > 0
                aliases = [f"the {ordinal(n)} {noun}"] if many else [f"the {noun}"]
                changes.append(
                    {
                        "kind": "create_entity",
                        "id": mid,
                        "entity_kind": "monster",
                        "name": base,
                        "aliases": aliases,
                        "description": f"{block.name} ({block.size} {block.type}, CR {block.cr:g})",
                        "sheet": {"bestiary": block.id},
                        "location": place,
                        "hp": block.hp,
                    }
                )
                ids.append(mid)
            names = [readable_name(base, c["aliases"]) for c in changes]
            summary = f"{_listed(names)} {'appears' if count == 1 else 'appear'}"
            return await self._write(s, campaign, caller, "spawn", summary, changes, ids)

    async def gm_move(
        self, where: v.Where, caller: v.Caller, *, who: str, to: str, description: str | None = None
    ) -> v.WorldChangeView:
        """Move an NPC (or ``party``: every PC) to a place; a place not in the ledger yet is created."""
        who = _text(who, "who", MAX_NAME_CHARS, required=True)
        to = _text(to, "place", MAX_NAME_CHARS, required=True)
        text = _text(description, "description", MAX_DESCRIPTION_CHARS)
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            changes: list[dict[str, Any]] = []
            notices: list[str] = []
            if who.casefold() in ("party", "the party"):
                movers = await self.lookups.pc_ids(s, campaign.id)
                if not movers:
                    raise InvalidAction("Nobody sits at the table yet: there is no party to move.")
            else:
                movers = [(await self._entity(s, campaign.id, who)).id]
            place = await self._find_location(s, campaign.id, to)
            if place is None:
                await self._name_free(s, campaign.id, to, kinds=["entity", "item"])
                place = await self._new_id(s, campaign.id, "loc", to)
                changes.append({"kind": "create_location", "id": place, "name": to, "description": text})
            elif text:
                notices.append("The place already exists: its description is unchanged.")
            for mover in movers:
                changes.append({"kind": "move_entity", "entity": mover, "location": place})
            summary = (
                f"{'The party' if len(movers) > 1 or who.casefold().endswith('party') else who} moves to {to}"
            )
            view = await self._write(s, campaign, caller, "move", summary, changes, [*movers, place])
        return view.model_copy(update={"notices": (*view.notices, *notices)})

    async def gm_item(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        name: str,
        to: str | None = None,
        quantity: int = 1,
        description: str | None = None,
    ) -> v.WorldChangeView:
        """Give an item to someone or put it at a place (the party's, by default); more of a known item."""
        name = _text(name, "item's name", MAX_NAME_CHARS, required=True)
        text = _text(description, "description", MAX_DESCRIPTION_CHARS)
        if not 1 <= quantity <= MAX_QUANTITY:
            raise InvalidAction(f"The quantity is 1 to {MAX_QUANTITY}.")
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            holder = await self._holder(s, campaign.id, to) if to else await self._scene_location(s, campaign)
            known = await self._find_item(s, campaign.id, name)
            if known is None:
                await self._name_free(s, campaign.id, name, kinds=["entity", "location"])
                item_id = await self._new_id(s, campaign.id, "item", name)
                change: dict[str, Any] = {
                    "kind": "create_item",
                    "id": item_id,
                    "name": name,
                    "description": text,
                    "holder": holder,
                    "quantity": quantity,
                }
            else:
                item_id = known
                change = {"kind": "transfer_item", "item": item_id, "to_holder": holder, "quantity": quantity}
            names = await self.lookups.names(s, campaign.id, [holder])
            summary = f"{quantity} x {name}" if quantity != 1 else name
            summary = (
                f"{summary} {'goes to' if holder.startswith(('pc-', 'npc-', 'monster-')) else 'lies at'}"
            )
            summary += f" {names.get(holder, holder)}"
            return await self._write(s, campaign, caller, "item", summary, [change], [item_id, holder])

    async def gm_item_remove(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        name: str,
        fate: str,
        holder: str | None = None,
        quantity: int | None = None,
    ) -> v.WorldChangeView:
        """An item leaves the world (sold, lost, destroyed, used up, confiscated): a transfer to nobody."""
        name = _text(name, "item's name", MAX_NAME_CHARS, required=True)
        fate = " ".join((fate or "").lower().replace("-", " ").replace("_", " ").split())
        if fate not in FATES:
            raise InvalidAction(f"The fate is one of: {', '.join(FATES)}.")
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            item_id = await self._find_item(s, campaign.id, name)
            if item_id is None:
                raise NotFound(f"No item called '{name}' in this campaign.")
            holdings = await service.holders_of(s, campaign_id=campaign.id, item_id=item_id, viewer=GM_VIEW)
            if holder:
                source = await self._holder(s, campaign.id, holder)
                holdings = [h for h in holdings if h.holder_id == source]
            if not holdings:
                raise InvalidAction(
                    f"Nobody holds {name}{' there' if holder else ''}: there is nothing to remove."
                )
            if len(holdings) > 1 and not holder:
                names = await self.lookups.names(s, campaign.id, [h.holder_id for h in holdings])
                raise InvalidAction(
                    f"{name} is held by {_listed([names.get(h.holder_id, h.holder_id) for h in holdings])}:"
                    " say whose with from:."
                )
            held = holdings[0]
            qty = held.quantity if quantity is None else quantity
            if not 1 <= qty <= held.quantity:
                raise InvalidAction(f"There are {held.quantity} of {name} there, not {qty}.")
            changes: list[dict[str, Any]] = [
                {"kind": "transfer_item", "item": item_id, "from_holder": held.holder_id, "quantity": qty},
                {"kind": "set_fact", "key": f"{item_id}-fate", "value": fate},
            ]
            names = await self.lookups.names(s, campaign.id, [held.holder_id])
            what = f"{qty} x {name}" if qty != 1 else name
            summary = f"{what} of {names.get(held.holder_id, held.holder_id)}: {fate}"
            return await self._write(
                s, campaign, caller, "item-remove", summary, changes, [item_id, held.holder_id]
            )

    async def gm_thread_open(
        self,
        where: v.Where,
        caller: v.Caller,
        *,
        kind: str,
        from_: str,
        to: str,
        terms: str,
        visibility: str | None = None,
    ) -> v.WorldChangeView:
        """Open a favour, debt, oath, feud, bounty, quest, prophecy or rumour between two parties."""
        kind = kind.strip().lower().replace("favor", "favour").replace("rumor", "rumour")
        if kind not in THREAD_KINDS:
            raise InvalidAction(f"A thread is one of: {', '.join(THREAD_KINDS)}.")
        terms = _text(terms, "terms", MAX_TEXT_CHARS, required=True)
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            parties = [await self._party_ref(s, campaign.id, x) for x in (from_, to)]
            if parties[0] == parties[1]:
                raise InvalidAction("A thread is between two different parties.")
            shown, audience = await self._visibility(s, campaign, visibility)
            latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
            thread_id = await service.next_thread_id(
                s, campaign_id=campaign.id, thread_kind=kind, session_number=latest.number
            )
            change = {
                "kind": "open_thread",
                "id": thread_id,
                "thread_kind": kind,
                "terms": terms,
                "parties": parties,
                "visibility": audience,
            }
            names = await self.lookups.names(s, campaign.id, parties)
            summary = (
                f"{kind} {thread_id} opened: {names.get(parties[0], parties[0])} -> "
                f"{names.get(parties[1], parties[1])}, seen by {shown}"
            )
            return await self._write(s, campaign, caller, "thread-open", summary, [change], [thread_id])

    async def gm_secret(
        self, where: v.Where, caller: v.Caller, *, about: str, text: str, for_: str | None = None
    ) -> v.WorldChangeView:
        """A GM secret about someone, a place or an item: hidden (a successful check may reveal it later), or
        told privately to one player now (a DM, and a fact only that player sees)."""
        text = _text(text, "secret", MAX_TEXT_CHARS, required=True)
        async with self.ctx.session() as s:
            campaign = await self._gm(s, where, caller)
            subject = await self._any_ref(s, campaign.id, about)
            player: tuple[str, str, str] | None = None
            if for_:
                player = await self._player(s, campaign, for_)
            taken = {
                f.key
                for f in await service.facts(s, campaign_id=campaign.id, viewer=GM_VIEW, subject=subject)
            }
            n = 1
            while f"{subject}-secret-{n}" in taken:
                n += 1
            key = f"{subject}-secret-{n}"
            audience = f"player:{player[1]}" if player else "gm"
            change = {"kind": "set_fact", "key": key, "value": text, "visibility": audience}
            names = await self.lookups.names(s, campaign.id, [subject])
            subject_name = names.get(subject, subject)
            summary = (
                f"a secret about {subject_name}, told to {player[2]}"
                if player
                else f"a GM secret about {subject_name} (a successful check may reveal it)"
            )
            view = await self._write(s, campaign, caller, "secret", summary, [change], [key])
        if player is None:
            return view
        notice = await self._tell(campaign, player[0], f"{subject_name}: {text}")
        return view.model_copy(update={"notices": (*view.notices, notice)})

    # --- autocomplete ------------------------------------------------------------------------------------

    async def autocomplete(
        self, where: v.Where, caller: v.Caller, *, kind: str, prefix: str
    ) -> tuple[v.Choice, ...]:
        """Choices for the GM's world commands: ``creature`` (SRD), ``location``, ``entity``, ``npc-name``,
        ``holder`` (creatures and places), ``mover`` (``party`` and creatures), ``world-item``, ``subject``
        (anything a secret may be about), ``visibility`` (everyone, gm, a player) and ``player``."""
        typed = (prefix or "").strip()[:50]
        folded = typed.casefold()
        if kind == "creature":
            from rules.srd import bestiary

            found = [
                v.Choice(name=f"{c.name} (CR {c.cr:g})", value=c.id)
                for c in sorted(bestiary().values(), key=lambda c: (c.cr, c.name))
                if folded in c.name.casefold() or folded in c.id
            ]
            return tuple(found[:25])
        if kind == "player":
            return await self.reads.autocomplete(where, caller, kind="player", prefix=typed)
        try:
            async with self.ctx.session() as s:
                campaign = await self.lookups.campaign(s, where)
                if not self.lookups.is_gm(campaign, caller, await self.lookups.member(s, campaign, caller)):
                    return ()
                choices: list[v.Choice] = []
                if kind in ("mover",) and "party".startswith(folded):
                    choices.append(v.Choice(name="the party (every PC)", value="party"))
                if kind == "visibility":
                    choices += [
                        v.Choice(name="everyone", value="everyone"),
                        v.Choice(name="the GM only", value="gm"),
                    ]
                    players = await self.reads.autocomplete(where, caller, kind="player", prefix="")
                    choices += [v.Choice(name=f"only {c.name}", value=f"player:{c.value}") for c in players]
                    return tuple(c for c in choices if folded in c.name.casefold())[:25]
                kinds = {
                    "location": ["location"],
                    "entity": ["entity"],
                    "npc-name": ["entity"],
                    "mover": ["entity"],
                    "holder": ["entity", "location"],
                    "world-item": ["item"],
                    "subject": ["entity", "location", "item"],
                }.get(kind)
                if kinds is None:
                    return ()
                if "location" in kinds and not folded:
                    places = await ledger_sessions.locations(s, campaign_id=campaign.id, viewer=GM_VIEW)
                    choices += [v.Choice(name=p.name, value=p.name) for p in places]
                if folded:
                    matches = await service.find_records(
                        s,
                        campaign_id=campaign.id,
                        text=folded,
                        viewer=GM_VIEW,
                        kinds=kinds,
                        prefix=True,
                        limit=25,
                    )
                    # The value is the name the GM would type: the commands take names, never ids.
                    choices += [v.Choice(name=f.name, value=f.name) for f in matches]
        except TableError:
            return ()
        unique: dict[str, v.Choice] = {}
        for c in choices:
            unique.setdefault(c.value.casefold(), c)
        return tuple(unique.values())[:25]

    # --- helpers -----------------------------------------------------------------------------------------

    async def _gm(self, s: AsyncSession, where: v.Where, caller: v.Caller) -> CampaignView:
        campaign = await self.lookups.campaign(s, where)
        await self.lookups.require_gm(s, campaign, caller)
        return campaign

    async def _write(
        self,
        s: AsyncSession,
        campaign: CampaignView,
        caller: v.Caller,
        command: str,
        summary: str,
        changes: list[dict[str, Any]],
        records: Sequence[str],
    ) -> v.WorldChangeView:
        """Write ``changes`` as one transaction with the GM as cause; the confirmation lists each event."""
        latest = await ledger_sessions.latest_session(s, campaign_id=campaign.id)
        rnd = await service.last_round(s, campaign_id=campaign.id)
        try:
            refs = await service.apply_changes(
                s,
                campaign_id=campaign.id,
                session_number=latest.number,
                round_number=rnd.number if rnd and rnd.session_number == latest.number else None,
                cause=f"gm-{caller.user_id}",
                mutations=changes,
            )
        except LedgerError as err:
            raise InvalidAction(str(err)) from None
        refs_in = [str(x) for c in changes for x in c.values() if isinstance(x, str) and "-" in x]
        for c in changes:
            refs_in += [str(x) for x in c.get("parties", ())]
            refs_in += fact_keys(str(c["key"])) if c["kind"] == "set_fact" else []
        names = await self.lookups.names(s, campaign.id, refs_in)
        for e in await service.get_entities(s, campaign_id=campaign.id, entity_ids=refs_in, viewer=GM_VIEW):
            names[e.id] = readable_name(e.name, e.aliases)  # "the second bandit", never "Bandit"
        created = {c["id"]: c for c in changes if c["kind"] == "create_entity"}

        def named(ref: str | None) -> str:
            if ref in created:
                return readable_name(created[ref]["name"], created[ref].get("aliases", ()))
            return names.get(ref or "", ref or "nobody")

        lines = []
        for ref, change in zip(refs, changes, strict=True):
            line = describe_event(change["kind"], change, named)
            if change["kind"] == "create_entity":
                line = f"{named(change['id'])} enters the story"
                if change.get("location"):
                    line += f" at {named(change['location'])}"
            elif change["kind"] == "create_item" and change.get("holder"):
                line += f" with {named(change['holder'])} (x{change.get('quantity', 1)})"
            if change.get("visibility", "public") != "public":
                line += f" (seen by {visibility_label(str(change['visibility']))})"
            lines.append(f"{ref}: {line[:1].upper()}{line[1:]}")
        return v.WorldChangeView(
            command=command,
            summary=f"{summary[:1].upper()}{summary[1:]}.",
            changes=tuple(lines),
            records=tuple(dict.fromkeys(records)),
        )

    async def _new_id(
        self, s: AsyncSession, campaign_id: int, prefix: str, name: str, *, taken: set[str] | None = None
    ) -> str:
        """A fresh id ``<prefix>-<slug of name>``, with ``-2``, ``-3`` ... when that one is taken."""
        base = f"{prefix}-{slug(name)}"[:70].rstrip("-")
        candidate, n = base, 1
        while (taken and candidate in taken) or await self._exists(s, campaign_id, candidate):
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    async def _exists(self, s: AsyncSession, campaign_id: int, ref: str) -> bool:
        try:
            await service.record(s, campaign_id=campaign_id, ref=ref, viewer=GM_VIEW)
        except UnknownRecord:
            return False
        except LedgerError:
            return True
        return True

    async def _name_free(self, s: AsyncSession, campaign_id: int, name: str, *, kinds: list[str]) -> None:
        """Refuse a name already used by a record of another kind (an NPC named like a place reads badly)."""
        found = await service.find_records(s, campaign_id=campaign_id, text=name, viewer=GM_VIEW, kinds=kinds)
        if found:
            what = {"entity": "someone", "location": "a place", "item": "an item"}[found[0].record_kind]
            raise InvalidAction(f"'{name}' is already {what} in this campaign: choose another name.")

    async def _scene_location(self, s: AsyncSession, campaign: CampaignView) -> str:
        """Where the party is (the first PC with a place), else the campaign's starting place."""
        pcs = await service.get_entities(
            s, campaign_id=campaign.id, entity_ids=await self.lookups.pc_ids(s, campaign.id), viewer=GM_VIEW
        )
        here = sorted({pc.location for pc in pcs if pc.location})
        if here:
            return here[0]
        start = campaign.settings.get("starting_location")
        places = await ledger_sessions.locations(s, campaign_id=campaign.id, viewer=GM_VIEW)
        if isinstance(start, str) and any(p.id == start for p in places):
            return start
        if not places:
            raise InvalidAction(
                "This campaign has no place yet: create one with /gm move who:party to:<place>."
            )
        return places[0].id

    async def _find_location(self, s: AsyncSession, campaign_id: int, name: str) -> str | None:
        found = await service.find_records(
            s, campaign_id=campaign_id, text=name, viewer=GM_VIEW, kinds=["location"]
        )
        if found:
            return found[0].ref
        places = await ledger_sessions.locations(s, campaign_id=campaign_id, viewer=GM_VIEW)
        return next((p.id for p in places if p.id == name.strip()), None)

    async def _location(self, s: AsyncSession, campaign_id: int, name: str) -> str:
        place = await self._find_location(s, campaign_id, name)
        if place is None:
            raise NotFound(
                f"No place called '{name.strip()[:60]}' in this campaign "
                "(/gm move who:party to:<place> creates one)."
            )
        return place

    async def _one_entity(self, s: AsyncSession, campaign_id: int, name: str) -> Any:
        """The creature ``name`` names (name, alias or id), None when none; refused when it names several."""
        same = await service.find_records(
            s, campaign_id=campaign_id, text=name, viewer=GM_VIEW, kinds=["entity"]
        )
        if len({m.ref for m in same}) > 1:
            raise InvalidAction(
                f"'{name.strip()[:60]}' names {len(same)} creatures here: "
                "say which, e.g. 'the second bandit', or choose another name."
            )
        return await service.find_entity(s, campaign_id=campaign_id, name=name, viewer=GM_VIEW)

    async def _entity(self, s: AsyncSession, campaign_id: int, name: str) -> Any:
        entity = await self._one_entity(s, campaign_id, name)
        if entity is None:
            raise NotFound(f"Nobody called '{name.strip()[:60]}' in this campaign.")
        return entity

    async def _find_item(self, s: AsyncSession, campaign_id: int, name: str) -> str | None:
        found = await service.find_records(
            s, campaign_id=campaign_id, text=name, viewer=GM_VIEW, kinds=["item"]
        )
        if found:
            return found[0].ref
        try:
            return (
                await service.get_item(s, campaign_id=campaign_id, item_id=name.strip(), viewer=GM_VIEW)
            ).id
        except LedgerError:
            return None

    async def _holder(self, s: AsyncSession, campaign_id: int, name: str) -> str:
        """A creature or a place, by name: who (or where) an item goes to or comes from."""
        entity = await self._one_entity(s, campaign_id, name)
        if entity is not None:
            return str(entity.id)
        place = await self._find_location(s, campaign_id, name)
        if place is None:
            raise NotFound(f"Nobody and no place called '{name.strip()[:60]}' in this campaign.")
        return place

    async def _party_ref(self, s: AsyncSession, campaign_id: int, name: str) -> str:
        """A thread's party: a creature or a place, by name."""
        if not (name or "").strip():
            raise InvalidAction("A thread needs a from: and a to:.")
        return await self._holder(s, campaign_id, name)

    async def _any_ref(self, s: AsyncSession, campaign_id: int, name: str) -> str:
        """What a secret may be about: a creature, a place or an item."""
        if not (name or "").strip():
            raise InvalidAction("Say who or what the secret is about.")
        entity = await self._one_entity(s, campaign_id, name)
        if entity is not None:
            return str(entity.id)
        place = await self._find_location(s, campaign_id, name)
        if place is not None:
            return place
        item = await self._find_item(s, campaign_id, name)
        if item is None:
            raise NotFound(f"Nobody, no place and no item called '{name.strip()[:60]}' in this campaign.")
        return item

    async def _player(self, s: AsyncSession, campaign: CampaignView, who: str) -> tuple[str, str, str]:
        """(user id, visibility seat, character name) of the player ``who`` names (id, mention or PC name)."""
        text = who.strip().removeprefix("player:").removeprefix("<@").removeprefix("!").removesuffix(">")
        members = [
            m
            for m in await service.list_members(s, campaign_id=campaign.id, active_only=True)
            if m.character_id
        ]
        pcs = {
            pc.id: pc
            for pc in await service.get_entities(
                s, campaign_id=campaign.id, entity_ids=[m.character_id or "" for m in members], viewer=GM_VIEW
            )
        }
        for m in members:
            pc = pcs.get(m.character_id or "")
            if pc is None:
                continue
            if text in (m.user_id, pc.id) or text.casefold() in (
                pc.name.casefold(),
                *(a.casefold() for a in pc.aliases),
            ):
                return m.user_id, seat(pc.owner_user_id, m.user_id), pc.name
        raise NotFound(f"No player at this table called '{who.strip()[:60]}'.")

    async def _visibility(
        self, s: AsyncSession, campaign: CampaignView, visibility: str | None
    ) -> tuple[str, str]:
        """(who sees it in words, the ledger visibility) for ``everyone`` / ``gm`` / a player."""
        wanted = (visibility or "everyone").strip()
        folded = wanted.casefold()
        if folded in ("everyone", "public", "all"):
            return "everyone", "public"
        if folded in ("party", "the party"):
            return "the party", "party"
        if folded in ("gm", "the gm", "gm only"):
            return "the GM only", "gm"
        _user, player_seat, name = await self._player(s, campaign, wanted)
        return f"{name}'s player only", f"player:{player_seat}"

    async def _tell(self, campaign: CampaignView, user_id: str, text: str) -> str:
        """Send one player a private note now (kept in their /ledger notes either way); say what happened."""
        from bot.table.delivery import DMClosed

        note = f"A secret from the GM: {text}"
        async with self.ctx.session() as s:
            row = await service.add_outbox(
                s,
                campaign_id=campaign.id,
                round_id=None,
                kind="dm",
                content={"text": note, "round": None},
                recipient_user_id=user_id,
            )
        status, external, notice = "sent", None, "Sent to the player by DM."
        try:
            external = await self.ctx.courier.send_dm(user_id, f"**Private note ({campaign.name})**\n{note}")
        except DMClosed:
            status, notice = (
                "dm_closed",
                "The player's DMs are closed: the note waits in their /ledger notes.",
            )
        except Exception as err:  # the fact is written; the note waits in /ledger notes
            status = "failed"
            notice = f"The DM could not be sent ({type(err).__name__}); it waits in their /ledger notes."
        async with self.ctx.session() as s:
            await service.mark_outbox(s, outbox_id=row.id, status=status, external_id=external)
        return notice
