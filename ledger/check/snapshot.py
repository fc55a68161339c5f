"""An in-memory, read-only picture of one campaign's world, for the assertion check.

The checker must not need a database: the SQL ledger, a scenario file and the test corpus all produce a
:class:`WorldSnapshot`, and :func:`ledger.check.judge.check` reads only that. The snapshot already reflects
the
changes this round applied; :class:`RoundFacts` says what the round's dice decided and what each player
submitted, so a narration can be held to both. Indexes (names, holdings by item, edges by pair) are built
once when the snapshot is made; the compiled name matcher is cached per snapshot by ``ledger.check.extract``.

Record ids used as ``refuted_by`` follow the ledger's fact keys: ``npc-harlan-voss-alive``,
``npc-old-wei-location``, ``pc-mira-condition-unconscious``, ``item-silver-dagger-holder``, an edge id, a
thread id, or ``round:<action id>`` / ``round:submission-<pc id>`` for this round's results.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

EntityKind = Literal["pc", "npc", "monster", "location", "item"]
Outcome = Literal["hit", "miss", "critical", "success", "failure", "refused"]


class SnapshotError(ValueError):
    """A world description that cannot become a snapshot (unknown ids, bad fields)."""


@dataclass(frozen=True, slots=True)
class Alias:
    """One name an entity answers to; a ``gm`` alias is a hidden identity the channel must not learn."""

    name: str
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class Entity:
    """A creature, place or item as the ledger currently records it."""

    id: str
    kind: EntityKind
    name: str
    aliases: tuple[Alias, ...] = ()
    alive: bool = True
    location: str | None = None  # where a creature is; a location's parent place
    hp: int | None = None
    max_hp: int | None = None
    conditions: frozenset[str] = frozenset()
    owner: str | None = None  # the player's user id for a PC
    pronoun: str | None = None  # "he" | "she" | "they" | "it"; None: any (pronouns then resolve by position)
    unit: str | None = None  # what an item's quantity counts, when the record says ("litre", "mithqal")
    visibility: str = "public"
    # who caused a condition, when the record says: (("charmed", "npc-lady-vey"),) for "charmed by Lady Vey"
    condition_sources: tuple[tuple[str, str], ...] = ()
    description: str = ""  # an item's recorded description ("A tamarisk staff carved ..."), for linking

    def names(self) -> tuple[Alias, ...]:
        """The main name (with the entity's visibility) followed by every alias."""
        return (Alias(self.name, self.visibility), *self.aliases)

    def source_of(self, condition: str) -> str | None:
        """The entity that caused ``condition`` (a charmer, a poisoner), if recorded."""
        return next((src for cond, src in self.condition_sources if cond == condition), None)


@dataclass(frozen=True, slots=True)
class Holding:
    """``quantity`` of ``item`` held by ``holder`` (an entity or a location)."""

    item: str
    holder: str
    quantity: int = 1
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class ItemFate:
    """Why an item has no holder any more: sold, destroyed, used up, lost."""

    item: str
    fate: str
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class Edge:
    """A directed relationship; ``attitude`` runs from -100 (blood feud) to 100 (devotion)."""

    id: str
    source: str
    target: str
    kind: str
    attitude: int = 0
    reason: str = ""
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class Thread:
    """A favour, debt, oath, bounty, prophecy or quest with its current status."""

    id: str
    kind: str
    status: str
    parties: tuple[str, ...] = ()
    terms: str = ""
    aliases: tuple[str, ...] = ()
    visibility: str = "public"
    # who stands where on it: (party, role) with role one of THREAD_ROLES ("owes"/"owed" on a debt or favour,
    # "sworn"/"sworn_to" on an oath, "offers"/"hunts" on a bounty); from the record, else read off the terms
    roles: tuple[tuple[str, str], ...] = ()

    def role_of(self, party: str) -> str | None:
        """``party``'s role on this thread, if known."""
        return next((r for p, r in self.roles if p == party), None)


@dataclass(frozen=True, slots=True)
class Fact:
    """A ``domain-object-field`` fact; ``tells`` are phrases whose appearance in text reveals it."""

    key: str
    value: str | int | bool
    visibility: str = "public"
    tells: tuple[str, ...] = ()
    known_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Retcon:
    """A logged setting change. The snapshot already holds the new values of the records it ``supersedes``,
    so a narration telling the retconned state is supported; one telling the old state is a conflict whose
    reason names the retcon."""

    id: str
    reason: str
    supersedes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Scene:
    """Where the narration happens and who is there."""

    location: str | None = None
    present: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ActionResult:
    """One resolved action of this round, as the rules engine decided it."""

    id: str
    actor: str
    kind: str
    target: str | None = None
    outcome: Outcome = "success"
    damage: int = 0
    target_down: bool = False
    target_died: bool = False

    @property
    def landed(self) -> bool:
        """True when the action connected: a hit, a critical, or a spell or trick that took effect."""
        return self.outcome in ("hit", "critical", "success")


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """This round: resolved actions, who acted and what each player wrote, and the changes applied."""

    number: int = 0
    actions: tuple[ActionResult, ...] = ()
    submissions: Mapping[str, str] = field(default_factory=dict)  # pc id -> submitted text
    acted: frozenset[str] = frozenset()  # PCs who acted (submitted or defaulted)
    changes: tuple[Mapping[str, Any], ...] = ()  # ledger change dicts, already applied

    def actions_by(self, actor: str) -> tuple[ActionResult, ...]:
        """The actions ``actor`` took this round, in resolution order."""
        return tuple(a for a in self.actions if a.actor == actor)

    def actions_on(self, target: str) -> tuple[ActionResult, ...]:
        """The actions aimed at ``target`` this round."""
        return tuple(a for a in self.actions if a.target == target)

    def died(self) -> frozenset[str]:
        """Entities that died during this round (by an action or a change)."""
        out = {a.target for a in self.actions if a.target_died and a.target}
        out |= {str(c["entity"]) for c in self.changes if c.get("kind") == "set_alive" and not c.get("alive")}
        return frozenset(out)

    def moved(self) -> frozenset[str]:
        """Entities a change moved this round."""
        return frozenset(str(c["entity"]) for c in self.changes if c.get("kind") == "move_entity")

    def given_up(self, item: str) -> frozenset[str]:
        """Holders that held ``item`` before a transfer this round (so narrating them with it is fine)."""
        return frozenset(
            str(c["from_holder"])
            for c in self.changes
            if c.get("kind") == "transfer_item" and c.get("item") == item and c.get("from_holder")
        )

    def touched_edges(self) -> frozenset[frozenset[str]]:
        """Unordered pairs whose relationship a change set this round."""
        return frozenset(
            frozenset((str(c["source"]), str(c["target"])))
            for c in self.changes
            if c.get("kind") == "set_edge"
        )

    def thread_moves(self) -> Mapping[str, str]:
        """Thread id -> the status a transition gave it this round."""
        return {
            str(c["thread"]): str(c["status"]) for c in self.changes if c.get("kind") == "thread_transition"
        }


@dataclass(frozen=True, slots=True)
class WorldSnapshot:
    """The world as the ledger records it now, with indexes built once (use :meth:`build`)."""

    entities: Mapping[str, Entity]
    holdings: Mapping[str, Mapping[str, Holding]]  # item -> holder -> holding
    fates: Mapping[str, ItemFate]
    edges: tuple[Edge, ...]
    threads: Mapping[str, Thread]
    facts: Mapping[str, Fact]
    retcons: tuple[Retcon, ...]
    scene: Scene
    round: RoundFacts
    edges_by_pair: Mapping[frozenset[str], tuple[Edge, ...]]
    superseded: frozenset[str]
    cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def build(
        cls,
        *,
        entities: Iterable[Entity],
        holdings: Iterable[Holding] = (),
        fates: Iterable[ItemFate] = (),
        edges: Iterable[Edge] = (),
        threads: Iterable[Thread] = (),
        facts: Iterable[Fact] = (),
        retcons: Iterable[Retcon] = (),
        scene: Scene | None = None,
        round: RoundFacts | None = None,
    ) -> WorldSnapshot:
        """Return a snapshot with its indexes; raise :class:`SnapshotError` on duplicate entity ids."""
        ents: dict[str, Entity] = {}
        for e in entities:
            if e.id in ents:
                raise SnapshotError(f"duplicate entity id {e.id!r}")
            ents[e.id] = e
        held: dict[str, dict[str, Holding]] = {}
        for h in holdings:
            if h.quantity > 0:
                held.setdefault(h.item, {})[h.holder] = h
        edge_t = tuple(edges)
        pairs: dict[frozenset[str], list[Edge]] = {}
        for ed in edge_t:
            pairs.setdefault(frozenset((ed.source, ed.target)), []).append(ed)
        retcon_t = tuple(retcons)
        return cls(
            entities=ents,
            holdings=held,
            fates={f.item: f for f in fates},
            edges=edge_t,
            threads={t.id: t for t in threads},
            facts={f.key: f for f in facts},
            retcons=retcon_t,
            scene=scene or Scene(),
            round=round or RoundFacts(),
            edges_by_pair={k: tuple(v) for k, v in pairs.items()},
            superseded=frozenset(r for rc in retcon_t for r in rc.supersedes),
        )

    def with_round(self, round: RoundFacts, scene: Scene | None = None) -> WorldSnapshot:
        """The same world with another round's facts (and optionally scene); the name index is shared."""
        return WorldSnapshot(
            entities=self.entities,
            holdings=self.holdings,
            fates=self.fates,
            edges=self.edges,
            threads=self.threads,
            facts=self.facts,
            retcons=self.retcons,
            scene=scene or self.scene,
            round=round,
            edges_by_pair=self.edges_by_pair,
            superseded=self.superseded,
            cache=self.cache,
        )

    def holders_of(self, item: str) -> Mapping[str, Holding]:
        """Holder id -> holding of ``item`` (empty when nobody holds it)."""
        return self.holdings.get(item, {})

    def within(self, place: str | None, area: str) -> bool:
        """True when ``place`` is ``area`` or lies inside it (following location parents)."""
        seen: set[str] = set()
        while place is not None and place not in seen:
            if place == area:
                return True
            seen.add(place)
            parent = self.entities.get(place)
            place = parent.location if parent is not None and parent.kind == "location" else None
        return False


# --- thread roles and condition sources ------------------------------------------------------------------

#: The closed vocabulary of thread roles (a party's side of a thread).
# the scenario format's roles (ledger.scenario.values.THREAD_ROLE_NAMES; kept equal by a test, not imported:
# the check must not pull pydantic in at import)
THREAD_ROLES = ("owes", "owed", "sworn", "sworn_to", "offers", "hunts")
# (thread kinds, verbs in the terms, (the subject's role, the other parties' role))
_ROLE_VERBS = (
    (("debt", "favour", "favor", "boon"), ("owes", "owed", "owe"), ("owes", "owed")),
    (
        ("oath", "vow", "quest", "promise"),
        ("swore", "swears", "sworn", "vowed", "promised"),
        ("sworn", "sworn_to"),
    ),
)


def _name_at(terms: str, names: Mapping[str, tuple[str, ...]], start: int, end: int) -> str | None:
    """The party whose name (or a word of it) occurs in ``terms[start:end]`` closest to ``end``."""
    best: tuple[int, str] | None = None
    for party, words in names.items():
        for w in words:
            at = terms.rfind(w, start, end)
            if at >= 0 and (best is None or at > best[0]):
                best = (at, party)
    return best[1] if best else None


def thread_roles(
    parties: Iterable[str], terms: str, entities: Mapping[str, Entity], kind: str = ""
) -> tuple[tuple[str, str], ...]:
    """(party, role) read off a thread's terms: "Tamar owes Selim Bakr forty silver" -> Tamar owes, Selim is
    owed; "Gorm swore to defend ... her captain" -> Gorm sworn. Empty when the terms do not say."""
    low = " " + terms.lower() + " "
    party_t = tuple(dict.fromkeys(parties))
    names: dict[str, tuple[str, ...]] = {}
    for p in party_t:
        e = entities.get(p)
        if e is None:
            continue
        words = {
            w for a in e.names() for w in a.name.lower().split() if len(w) > 2 and w not in ("the", "of")
        }
        names[p] = tuple(sorted(words, key=len, reverse=True))
    for kinds, verbs, (giver, taker) in _ROLE_VERBS:
        if kind and kind not in kinds:
            continue
        for v in verbs:
            at = low.find(f" {v} ")
            if at < 0:
                continue
            subject = _name_at(low, names, 0, at)
            if subject is None:
                continue
            rest = [p for p in party_t if p != subject]
            roles = [(subject, giver)] + [(p, taker) for p in rest]
            return tuple(roles)
    if kind == "bounty" and len(party_t) == 2:
        return ((party_t[0], "offers"), (party_t[1], "hunts"))
    return ()


def _conditions_of(raw: Iterable[Any]) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """A world's conditions: plain names ("blinded"), "charmed by npc-vey", or {"condition": "charmed",
    "source": "npc-vey"} (also "by")."""
    names: set[str] = set()
    sources: list[tuple[str, str]] = []
    for c in raw:
        if isinstance(c, str):
            name, _, src = c.partition(" by ")  # "charmed by npc-lady-vey"
            names.add(name.strip())
            if src.strip():
                sources.append((name.strip(), src.strip()))
        else:
            name = str(c.get("condition", c.get("name", "")))
            if not name:
                continue
            names.add(name)
            src = c.get("source", c.get("by"))
            if src:
                sources.append((name, str(src)))
    return frozenset(names), tuple(sources)


# --- loading corpus worlds (JSON or TOML) -----------------------------------------------------------------


def _aliases(raw: Iterable[Any]) -> tuple[Alias, ...]:
    out: list[Alias] = []
    for a in raw:
        if isinstance(a, str):
            out.append(Alias(a))
        else:
            out.append(Alias(str(a["name"]), str(a.get("visibility", "public"))))
    return tuple(out)


def round_from_dict(raw: Mapping[str, Any]) -> RoundFacts:
    """Build :class:`RoundFacts` from a plain dict (``actions``, ``submissions``, ``acted``, ``changes``)."""
    actions = tuple(
        ActionResult(
            id=str(a.get("id", f"action-{i + 1}")),
            actor=str(a["actor"]),
            kind=str(a.get("kind", "attack")),
            target=a.get("target"),
            outcome=a.get("outcome", "success"),
            damage=int(a.get("damage", 0)),
            target_down=bool(a.get("target_down", False)),
            target_died=bool(a.get("target_died", False)),
        )
        for i, a in enumerate(raw.get("actions", ()))
    )
    submissions = {str(k): str(v) for k, v in dict(raw.get("submissions", {})).items()}
    acted = frozenset(raw.get("acted", ())) | frozenset(submissions) | {a.actor for a in actions}
    return RoundFacts(
        number=int(raw.get("number", 0)),
        actions=actions,
        submissions=submissions,
        acted=acted,
        changes=tuple(dict(c) for c in raw.get("changes", ())),
    )


def snapshot_from_dict(raw: Mapping[str, Any], round_name: str | None = None) -> WorldSnapshot:
    """Build a snapshot from a corpus world dict; ``round_name`` picks one of ``rounds`` (default first).

    Raises :class:`SnapshotError` when a required field is missing.
    """
    try:
        entities: list[Entity] = []
        holdings: list[Holding] = list(
            Holding(
                str(h["item"]), str(h["holder"]), int(h.get("quantity", 1)), h.get("visibility", "public")
            )
            for h in raw.get("holdings", ())
        )
        fates: list[ItemFate] = []
        for e in raw.get("entities", ()):
            kind = e["kind"]
            conditions, sources = _conditions_of(e.get("conditions", ()))
            sources += tuple((str(k), str(v)) for k, v in dict(e.get("condition_sources", {})).items())
            entities.append(
                Entity(
                    id=str(e["id"]),
                    kind=kind,
                    name=str(e["name"]),
                    aliases=_aliases(e.get("aliases", ())),
                    alive=bool(e.get("alive", True)),
                    location=e.get("location", e.get("parent")),
                    hp=e.get("hp"),
                    max_hp=e.get("max_hp", e.get("hp")),
                    conditions=conditions,
                    owner=e.get("owner"),
                    pronoun=e.get("pronoun"),
                    unit=e.get("unit"),
                    visibility=str(e.get("visibility", "public")),
                    condition_sources=sources,
                    description=str(e.get("description", "")),
                )
            )
            if kind == "item":
                if e.get("holder"):
                    holdings.append(
                        Holding(
                            str(e["id"]),
                            str(e["holder"]),
                            int(e.get("quantity", 1)),
                            str(e.get("holding_visibility", e.get("visibility", "public"))),
                        )
                    )
                elif e.get("fate"):
                    fates.append(ItemFate(str(e["id"]), str(e["fate"]), str(e.get("visibility", "public"))))
        edges = [
            Edge(
                id=str(ed.get("id", f"edge-{ed['source']}-{ed['target']}-{ed.get('kind', 'tie')}")),
                source=str(ed["source"]),
                target=str(ed["target"]),
                kind=str(ed.get("kind", "tie")),
                attitude=int(ed.get("attitude", 0)),
                reason=str(ed.get("reason", "")),
                visibility=str(ed.get("visibility", "public")),
            )
            for ed in raw.get("edges", ())
        ]
        by_id = {e.id: e for e in entities}
        threads = [
            Thread(
                id=str(t["id"]),
                kind=str(t["kind"]),
                status=str(t.get("status", "open")),
                parties=tuple(t.get("parties", ())),
                terms=str(t.get("terms", "")),
                aliases=tuple(t.get("aliases", ())),
                visibility=str(t.get("visibility", "public")),
                # "roles": {"pc-tamar": "owes", "npc-selim": "owed"} in the file, else read off the terms
                roles=tuple((str(p), str(r)) for p, r in dict(t.get("roles", {})).items())
                or thread_roles(t.get("parties", ()), str(t.get("terms", "")), by_id, str(t["kind"])),
            )
            for t in raw.get("threads", ())
        ]
        facts = [
            Fact(
                key=str(f["key"]),
                value=f.get("value", True),
                visibility=str(f.get("visibility", "public")),
                tells=tuple(f.get("tells", ())),
                known_by=tuple(f.get("known_by", ())),
            )
            for f in raw.get("facts", ())
        ]
        retcons = [
            Retcon(str(r["id"]), str(r.get("reason", "")), tuple(r.get("supersedes", ())))
            for r in raw.get("retcons", ())
        ]
        sc = raw.get("scene", {})
        scene = Scene(location=sc.get("location"), present=frozenset(sc.get("present", ())))
        rounds = raw.get("rounds", {})
        round_raw: Mapping[str, Any]
        if round_name is None:
            round_raw = next(iter(rounds.values()), {})
        elif round_name in rounds:
            round_raw = rounds[round_name]
        else:
            raise SnapshotError(f"unknown round {round_name!r}")
    except (KeyError, TypeError) as exc:
        raise SnapshotError(f"bad world description: {exc!r}") from exc
    return WorldSnapshot.build(
        entities=entities,
        holdings=holdings,
        fates=fates,
        edges=edges,
        threads=threads,
        facts=facts,
        retcons=retcons,
        scene=scene,
        round=round_from_dict(round_raw),
    )


def load_world(path: str | Path, round_name: str | None = None) -> WorldSnapshot:
    """Load a corpus world from a ``.json`` or ``.toml`` file; raise :class:`SnapshotError` if unreadable."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        raw = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as exc:
        raise SnapshotError(f"cannot read world {p}: {exc}") from exc
    return snapshot_from_dict(raw, round_name)


# --- from a scenario's replayed world (ledger.scenario.replay.final_world)
# -------------------------------------

GONE_FATE = "sold, used up or destroyed"
_ROLE_KEY = re.compile(r"^([a-z]+-\d{4}-\d{2})-role-([a-z]+-[a-z0-9-]+)$")


@dataclass(frozen=True, slots=True)
class RecordFacts:
    """What the ledger's facts say about other records (the scenario's ``fate``, ``roles`` and
    ``condition_sources`` are kept as facts): why an item is gone, who stands where on a thread, and who
    caused a condition. Both snapshot builders read them the same way, so they agree."""

    fates: Mapping[str, str]  # item id -> sold | lost | destroyed | used_up | ...
    roles: Mapping[str, tuple[tuple[str, str], ...]]  # thread id -> (party, role), in file order
    sources: Mapping[str, tuple[tuple[str, str], ...]]  # entity id -> (condition, source id)
    keys: frozenset[str]  # the facts read here (not plain facts of the world)


def record_facts(
    facts: Iterable[tuple[str, Any]], items: Iterable[str], entities: Iterable[str]
) -> RecordFacts:
    """Sort ``(key, value)`` facts into item fates (``<item>-fate``), thread roles (``<thread>-role-<party>``)
    and condition sources (``<entity>-condition-<c>`` whose value names a record)."""
    item_ids, entity_ids = set(items), set(entities)
    fates: dict[str, str] = {}
    roles: dict[str, list[tuple[str, str]]] = {}
    sources: dict[str, list[tuple[str, str]]] = {}
    keys: set[str] = set()
    for key, value in facts:
        if not isinstance(value, str) or not value:
            continue
        if key.endswith("-fate") and key.removesuffix("-fate") in item_ids:
            fates[key.removesuffix("-fate")] = value.replace("_", " ")
            keys.add(key)
        elif (m := _ROLE_KEY.match(key)) is not None and value in THREAD_ROLES:
            roles.setdefault(m.group(1), []).append((m.group(2), value))
            keys.add(key)
        elif "-condition-" in key:
            entity, _, cond = key.partition("-condition-")
            if entity in entity_ids and cond:
                sources.setdefault(entity, []).append((cond, value))
                keys.add(key)
    return RecordFacts(
        fates,
        {k: tuple(v) for k, v in roles.items()},
        {k: tuple(v) for k, v in sources.items()},
        frozenset(keys),
    )


def _superseded_by(change: Any) -> tuple[str, ...]:
    """The checker record ids a retcon's change rewrites (so the old value is no conflict)."""
    kind = getattr(change, "kind", "")
    if kind == "set_alive":
        return (f"{change.entity}-alive",)
    if kind == "move_entity":
        return (f"{change.entity}-location",)
    if kind in ("add_condition", "remove_condition"):
        return (f"{change.entity}-condition-{change.condition}",)
    if kind == "transfer_item":
        return (f"{change.item}-holder", f"{change.item}-quantity")
    if kind == "set_edge":
        return (f"edge-{change.source}-{change.target}-{change.edge_kind}",)
    if kind == "thread_transition":
        return (str(change.thread),)
    if kind == "set_fact":
        return (str(change.key),)
    return ()


def scene_at(world: Any, location: str) -> Scene:
    """The scene at ``location`` of a replayed scenario world: every living creature standing there."""
    return Scene(
        location=location,
        present=frozenset(e.id for e in world.entities.values() if e.location == location and e.alive),
    )


def party_location(world: Any) -> str:
    """Where the party stands now: the place most living PCs are (the first PC's on a tie), else the
    campaign's starting location.

    A scenario's history moves the party (down the crypt stair, aboard the barge); a check of "the scene"
    means the scene they are in, not the one the campaign opened in, or every NPC beside them reads as absent.
    """
    counts: dict[str, int] = {}
    for e in world.entities.values():
        if e.kind == "pc" and e.alive and e.location:
            counts[e.location] = counts.get(e.location, 0) + 1
    if not counts:
        return str(world.starting_location)
    return max(counts, key=lambda loc: counts[loc])  # dicts keep order: the first PC's place wins a tie


def snapshot_from_world(
    world: Any,
    *,
    scenario: Any = None,
    round: RoundFacts | None = None,
    scene: Scene | None = None,
) -> WorldSnapshot:
    """Build a snapshot from a :class:`ledger.scenario.replay.WorldView` (use the ``gm`` view to detect
    leaks).

    ``scenario`` (the loaded :class:`ledger.scenario.format.Scenario`) adds its logged retcons; ``scene``
    defaults to where the party stands now (:func:`party_location`) with every living creature there;
    ``round`` defaults to no round facts.
    Item fates come from the replay: an item nobody holds any more was sold, used up or destroyed.
    """
    told = record_facts(((f.key, f.value) for f in world.facts.values()), world.items, world.entities)
    entities: list[Entity] = []
    for e in world.entities.values():
        max_hp = None
        sheet = e.sheet or {}
        if isinstance(sheet.get("max_hp"), int):
            max_hp = int(sheet["max_hp"])
        entities.append(
            Entity(
                id=e.id,
                kind=e.kind,
                name=e.name,
                aliases=tuple(Alias(a) for a in e.aliases),
                alive=e.alive,
                location=e.location,
                hp=e.hp,
                max_hp=max_hp if max_hp is not None else e.hp,
                conditions=frozenset(e.conditions),
                owner=e.owner,
                visibility=e.visibility,
                condition_sources=told.sources.get(e.id, ()),
                # the pronoun the file gave or its description told (ledger.scenario.pronouns)
                pronoun=sheet.get("pronoun") if isinstance(sheet.get("pronoun"), str) else None,
            )
        )
    for loc in world.locations.values():
        entities.append(
            Entity(
                loc.id, "location", loc.name, tuple(Alias(a) for a in loc.aliases), visibility=loc.visibility
            )
        )
    held_items = {h.item for h in world.holdings if h.quantity > 0}
    fates: list[ItemFate] = []
    for it in world.items.values():
        entities.append(
            Entity(
                it.id,
                "item",
                it.name,
                tuple(Alias(a) for a in it.aliases),
                visibility=it.visibility,
                description=it.description,
                unit=str(it.properties["unit"]) if it.properties.get("unit") else None,
            )
        )
        if it.id not in held_items:
            # why it is gone (sold, lost, destroyed, used up, confiscated) when the scenario says so
            fates.append(ItemFate(it.id, told.fates.get(it.id, GONE_FATE), it.visibility))
    holdings = [Holding(h.item, h.holder, h.quantity, h.visibility) for h in world.holdings]
    edges = [
        Edge(
            id=f"edge-{e.source}-{e.target}-{e.edge_kind}",
            source=e.source,
            target=e.target,
            kind=e.edge_kind,
            attitude=e.attitude,
            reason=e.reason,
            visibility=e.visibility,
        )
        for e in world.edges
    ]
    by_id = {e.id: e for e in entities}
    threads = [
        Thread(
            t.id,
            t.thread_kind,
            t.status,
            tuple(t.parties),
            t.terms,
            tuple(t.tags),
            t.visibility,
            # the scenario's own roles (kept as facts) when it gives them, else read off the terms
            roles=told.roles.get(t.id) or thread_roles(t.parties, t.terms, by_id, t.thread_kind),
        )
        for t in world.threads.values()
    ]
    facts = [
        Fact(
            f.key,
            f.value,
            f.visibility,
            # a short secret value ("Lady Serafine") gives the secret away when it appears in the text
            tells=(f.value,) if isinstance(f.value, str) and 3 < len(f.value) <= 40 else (),
        )
        for f in world.facts.values()
        if f.key not in told.keys
    ]
    retcons: list[Retcon] = []
    if scenario is not None:
        for h in scenario.history:
            for ch in h.changes:
                if getattr(ch, "kind", "") == "retcon":
                    ids = tuple(r for sub in ch.changes for r in _superseded_by(sub))
                    retcons.append(Retcon(str(ch.target), ch.reason, ids))
    if scene is None:
        scene = scene_at(world, party_location(world))
    return WorldSnapshot.build(
        entities=entities,
        holdings=holdings,
        fates=fates,
        edges=edges,
        threads=threads,
        facts=facts,
        retcons=retcons,
        scene=scene,
        round=round,
    )
