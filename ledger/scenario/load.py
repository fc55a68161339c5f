"""Load a scenario file into the SQL ledger, so a loaded campaign is the same ledger as a played one.

The scenario room already turns a file into its timeline (:func:`ledger.scenario.timeline.timeline`): per
source session, the setup records (locations, PCs, NPCs, items, relationships, threads, facts, factions),
then each ``[[history]]`` entry, every one a group of changes in the ledger's own change vocabulary (an
entry's narrative event is its ``record_event``). This module creates the campaign row and stages every
group through the store's bulk step (:func:`ledger.store.writes.stage_groups`): the same validation as a
round's changes, group after group, then one bulk write, so every row gets its events, witnesses, involved
records, source session, visibility and a cause ``scenario:<source>``, and 2,000 entries load in about a
second. The whole load is one transaction: a scenario that fails half way leaves nothing.

Scale conversions (stated once, here):

* importance: a scenario entry says 1..5 (default 2); the ledger keeps 0..10 (live default 5): it is doubled.
* PC owners: ``player:alice`` in a file is a placeholder for a Discord user who has not claimed the PC yet;
  it is stored as the entity's ``owner_user_id`` in that ``player:alice`` form (a real owner is digits), and
  the campaign's ``settings["placeholder_owners"]`` maps each placeholder to its PC ids, so ``/join claim:``
  can rebind it (see :data:`PLACEHOLDER_PREFIX`).
* retcon/correction targets name history ``id`` s in a file; the ledger wants event refs, so each history id
  is mapped to the first event its entry wrote (kept in ``settings["history_events"]``).
* setup groups are written with ``permanent = false`` (a record is permanent for what it is, e.g. an open
  favour or a death, not because it was in the file); history entries keep their own flag.
* each history entry's ``summary`` becomes a :class:`ledger.store.models.Summary` row (scope ``history``)
  pointing at the events the entry wrote: the text a Chroma index may later embed, never the authority.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert

from ledger.store import models as m
from ledger.store.transaction import WriteTransaction
from ledger.store.vocabulary import Mutation, parse_mutation
from ledger.store.world import event_ref
from ledger.store.writes import ChangeGroup, stage_groups

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from ledger.scenario.format import Scenario
    from ledger.scenario.timeline import ScenarioEvent

#: A scenario owner that is not a Discord user id yet is stored as ``player:<handle>``.
PLACEHOLDER_PREFIX = "player:"
#: Scenario importance runs 1..5; the ledger's runs 0..10.
IMPORTANCE_SCALE = 2
SETUP_PATH = "setup"


def scenario_cause(source: str) -> str:
    """The cause every event of a loaded scenario carries: ``scenario:<source>`` (at most 120 characters)."""
    return f"scenario:{source}"[:120]


def owner_for_ledger(owner: str | None) -> str | None:
    """A scenario PC owner as stored: a Discord id stays, a handle becomes ``player:<handle>``."""
    if owner is None or owner == "":
        return None
    if owner.isdigit() or owner.startswith(PLACEHOLDER_PREFIX):
        return owner
    return f"{PLACEHOLDER_PREFIX}{owner}"


def is_placeholder_owner(owner: str | None) -> bool:
    """True when ``owner`` is a scenario placeholder (``player:alice``) rather than a real Discord user id."""
    return bool(owner) and str(owner).startswith(PLACEHOLDER_PREFIX)


def _to_mutation(change: Any, history_refs: dict[str, str]) -> Mutation:
    """Convert a scenario change into a ledger change (owners, retcon targets mapped to event refs)."""
    data = change.model_dump(mode="json")
    _fix(data, history_refs)
    return parse_mutation(data)


def _fix(data: dict[str, Any], history_refs: dict[str, str]) -> None:
    kind = data.get("kind")
    if kind == "create_entity":
        data["owner"] = owner_for_ledger(data.get("owner"))
    if kind in ("retcon", "correction"):
        target = str(data.get("target", ""))
        data["target"] = history_refs.get(target, target)
        for inner in data.get("changes", ()):
            _fix(inner, history_refs)


def _settings(scenario: Scenario, source: str) -> dict[str, Any]:
    c = scenario.campaign
    placeholders: dict[str, list[str]] = {}
    for pc in scenario.pcs:
        owner = owner_for_ledger(None if pc.owner is None else str(pc.owner))
        if owner is not None and is_placeholder_owner(owner):
            placeholders.setdefault(owner, []).append(pc.id)
    return {
        "current_session": c.current_session,
        "starting_location": c.starting_location,
        "default_action": c.default_action,
        "description": c.description,
        "scenario": source,
        "scenario_id": c.id,
        "placeholder_owners": placeholders,
    }


def _source_name(scenario: Scenario, source: str | Path | None) -> str:
    if source is None:
        return scenario.campaign.id or scenario.campaign.name
    return Path(source).name if isinstance(source, Path) or "/" in str(source) else str(source)


#: One planned timeline group: the scenario event, its changes as the store's group, the refs it will get.
_Planned = tuple["ScenarioEvent", ChangeGroup, list[str]]
#: Scenarios whose plans are kept (least recently used dropped first); a plan holds its scenario alive.
PLAN_CACHE_SIZE = 8
_plans: OrderedDict[tuple[int, int], tuple[Scenario, list[_Planned], dict[str, str]]] = OrderedDict()
_plans_lock = threading.Lock()


def _plan(scenario: Scenario, start_seq: int) -> tuple[list[_Planned], dict[str, str]]:
    """The scenario's timeline as the store's change groups, with the event refs each will get, and the map of
    history ids to the first ref their entry writes.

    A new campaign numbers its events from ``start_seq + 1``, so each group's refs are known before it is
    staged: retcon and correction targets (history ids in the file) become the refs they will have. The plan
    depends on nothing but the (frozen) scenario and ``start_seq``, so it is made once per scenario and kept,
    like the validated scenario itself (:func:`ledger.scenario.reading.load_scenario`): starting a bundled
    world again skips it.
    """
    from ledger.scenario.timeline import timeline

    key = (id(scenario), start_seq)
    with _plans_lock:
        kept = _plans.get(key)
        if kept is not None and kept[0] is scenario:
            _plans.move_to_end(key)
            return kept[1], kept[2]
    history_refs: dict[str, str] = {}
    groups: list[_Planned] = []
    seq = start_seq
    for event in timeline(scenario):
        mutations = [_to_mutation(c, history_refs) for c in event.changes]
        if not mutations:
            continue
        refs = [event_ref(seq + k) for k in range(1, len(mutations) + 1)]
        seq += len(mutations)
        if event.history_id:
            history_refs[event.history_id] = refs[0]
        setup = event.path == SETUP_PATH
        group = ChangeGroup(
            session_number=event.session,
            round_number=event.round,
            mutations=tuple(mutations),
            importance=max(0, min(10, event.importance * IMPORTANCE_SCALE)),
            # Setup rows are the world's baseline, not moments of play: a record is permanent for what it is
            # (a favour, a death), so setup events are not flagged permanent.
            permanent=event.permanent and not setup,
            witnesses=tuple(event.witnesses),
            involved=tuple(event.involved),
            label=f"scenario {event.path}",
        )
        groups.append((event, group, refs))
    with _plans_lock:
        _plans[key] = (scenario, groups, history_refs)
        _plans.move_to_end(key)
        while len(_plans) > PLAN_CACHE_SIZE:
            _plans.popitem(last=False)
    return groups, history_refs


async def load_scenario_into(
    session: AsyncSession,
    *,
    scenario: Scenario,
    guild_id: str = "",
    channel_id: str = "",
    owner_user_id: str = "",
    source: str | Path | None = None,
) -> int:
    """Create a campaign from ``scenario`` (its world, then its history in order) and return its id.

    ``source`` (the file, e.g. ``harbor.toml``; default the campaign's id or name) names the cause
    ``scenario:<source>`` of every event. Everything is written and committed as one transaction; each
    timeline group goes through the ledger service exactly as a played round would (events, witnesses,
    projections). Loading the same scenario twice makes two independent campaigns.

    Raises a :class:`ledger.errors.LedgerError` (nothing written) if the ledger refuses a change, naming the
    scenario path of the group that failed (a database refusal is ``the ledger refused the scenario: ...``).
    """
    name = _source_name(scenario, source)
    cause = scenario_cause(name)
    async with WriteTransaction(session, "scenario"):
        campaign = m.Campaign(
            guild_id=guild_id,
            channel_id=channel_id,
            name=scenario.campaign.name,
            owner_user_id=owner_user_id,
            settings=_settings(scenario, name),
        )
        session.add(campaign)
        await session.flush()
        assert campaign.id is not None
        campaign_id = campaign.id
        groups, history_refs = _plan(scenario, campaign.event_seq)
        staged = await stage_groups(
            session, campaign_id=campaign_id, cause=cause, groups=[g for _, g, _ in groups], fresh=True
        )
        assert staged == [refs for _, _, refs in groups], "event refs numbered differently than planned"
        summaries = [
            {
                "campaign_id": campaign_id,
                "session_number": event.session,
                "round_number": event.round,
                "scope": "history",
                "text": event.summary,
                "event_ids": list(refs),
                "cause": f"{cause}#{event.history_id or event.path}"[:120],
                "visibility": event.visibility,
                "created_at": m.utcnow(),
            }
            for event, _, refs in groups
            if event.path != SETUP_PATH
        ]
        if summaries:
            await (await session.connection()).execute(insert(m.Summary), summaries)
        # History ids -> the first event each entry wrote (retcons and corrections in files name history ids).
        campaign.settings = {**campaign.settings, "history_events": dict(history_refs)}
        session.add(campaign)
    return campaign_id


async def load_scenario_file(
    session: AsyncSession,
    path: str | Path,
    *,
    guild_id: str = "",
    channel_id: str = "",
    owner_user_id: str = "",
) -> int:
    """Read, validate and load the scenario at ``path``; return the new campaign id.

    Raises :class:`ledger.scenario.format.ScenarioError` for a bad file, a LedgerError if the ledger refuses
    it.
    """
    from ledger.scenario.reading import load_scenario

    scenario = load_scenario(path)
    return await load_scenario_into(
        session,
        scenario=scenario,
        guild_id=guild_id,
        channel_id=channel_id,
        owner_user_id=owner_user_id,
        source=Path(path).name,
    )


__all__ = [
    "IMPORTANCE_SCALE",
    "PLACEHOLDER_PREFIX",
    "is_placeholder_owner",
    "load_scenario_file",
    "load_scenario_into",
    "owner_for_ledger",
    "scenario_cause",
]
