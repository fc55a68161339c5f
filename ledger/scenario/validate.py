"""What is wrong with a scenario, in words: pydantic's errors as key paths, and the checks of a whole file.

:func:`pydantic_problems` turns a model validation error into one :class:`ScenarioProblem` per key path, with
a pattern named in words (``expected a prefixed id like 'npc-old-wei'``). :func:`static_problems` checks what
needs the whole file but no replay: unique ids, the starting location, sessions in order and not in the
future, thread ids against their session, bestiary entries and weapons against the rules data, and that a
``player:<handle>`` visibility names a PC's owner. The replay's checks are :func:`.replay.replay_problems`.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import ValidationError

from ledger.scenario.changes import CHANGE_KINDS, CreateEntity
from ledger.scenario.format import Scenario, ScenarioProblem, shown_value
from ledger.scenario.values import FACT_KEY_RE, SLUG, THREAD_ID_RE, VISIBILITY_RE

__all__ = ["pydantic_problems", "static_problems"]


def static_problems(s: Scenario) -> list[ScenarioProblem]:
    """Return what is wrong with ``s`` as a whole file: ids, sessions, the rules data, owners."""
    problems: list[ScenarioProblem] = []
    add = problems.append
    current = s.campaign.current_session
    seen: dict[str, str] = {}
    for section in ("locations", "pcs", "npcs", "items", "threads"):
        for i, rec in enumerate(getattr(s, section)):
            path = f"{section}[{i}].id"
            if rec.id in seen:
                add(ScenarioProblem(path=path, message=f"duplicate id {rec.id!r} (first at {seen[rec.id]})"))
            else:
                seen[rec.id] = path
    for i, faction in enumerate(s.factions):
        path = f"factions[{i}].id"
        if faction.id in seen:
            add(
                ScenarioProblem(
                    path=path, message=f"duplicate id {faction.id!r} (first at {seen[faction.id]})"
                )
            )
        else:
            seen[faction.id] = path
    people = {p.id for p in s.pcs} | {n.id for n in s.npcs}
    locations_known = {loc.id for loc in s.locations}
    for i, faction in enumerate(s.factions):
        if faction.leader not in people:
            add(
                ScenarioProblem(path=f"factions[{i}].leader", message=f"unknown pc or npc {faction.leader!r}")
            )
        for j, member in enumerate(faction.members):
            if member not in people:
                add(
                    ScenarioProblem(
                        path=f"factions[{i}].members[{j}]", message=f"unknown pc or npc {member!r}"
                    )
                )
    for i, npc in enumerate(s.npcs):
        if npc.home is not None and npc.home not in locations_known:
            add(ScenarioProblem(path=f"npcs[{i}].home", message=f"unknown location {npc.home!r}"))
    for i, fact in enumerate(s.facts):
        if fact.key in seen:
            add(ScenarioProblem(path=f"facts[{i}].key", message=f"duplicate fact key {fact.key!r}"))
        seen.setdefault(fact.key, f"facts[{i}].key")
    locations = {loc.id for loc in s.locations}
    if s.campaign.starting_location not in locations:
        add(
            ScenarioProblem(
                path="campaign.starting_location",
                message=f"unknown location {s.campaign.starting_location!r}",
            )
        )
    for i, th in enumerate(s.threads):
        match = THREAD_ID_RE.match(th.id)
        if th.session is not None and match and int(match.group(2)) != th.session:
            add(
                ScenarioProblem(
                    path=f"threads[{i}].session",
                    message=f"session {th.session} does not match the session number in id {th.id!r}",
                )
            )
    # Every source session is a session already played (or being played).
    sessioned: list[tuple[str, int]] = []
    for section in ("locations", "pcs", "npcs", "items", "facts", "factions"):
        sessioned += [(f"{section}[{i}].session", r.session) for i, r in enumerate(getattr(s, section))]
    sessioned += [
        (f"relationships[{i}].since_session", r.since_session) for i, r in enumerate(s.relationships)
    ]
    sessioned += [(f"threads[{i}].session", t.source_session) for i, t in enumerate(s.threads)]
    for path, session in sessioned:
        if session > current:
            add(
                ScenarioProblem(
                    path=path, message=f"session {session} is after the current session {current}"
                )
            )
    last = 0
    history_ids: set[str] = set()
    for i, entry in enumerate(s.history):
        if entry.session > current:
            add(
                ScenarioProblem(
                    path=f"history[{i}].session",
                    message=f"session {entry.session} is after the current session {current}",
                )
            )
        if entry.session < last:
            add(
                ScenarioProblem(
                    path=f"history[{i}].session",
                    message=f"session {entry.session} comes after "
                    f"session {last}: history must be in session order",
                )
            )
        last = max(last, entry.session)
        if entry.id is not None:
            if entry.id in history_ids or entry.id in seen:
                add(ScenarioProblem(path=f"history[{i}].id", message=f"duplicate id {entry.id!r}"))
            history_ids.add(entry.id)
    problems += _rules_problems(s)
    # A player:<handle> scope must name a player who owns a PC here (catches typos that would hide a record).
    owners = {str(pc.owner) for pc in s.pcs if pc.owner is not None}
    # A PC created by a history change (an exported campaign's players) owns its player's scope too.
    owners |= {
        str(c.owner).removeprefix("player:")
        for entry in s.history
        for c in entry.changes
        if isinstance(c, CreateEntity) and c.entity_kind == "pc" and c.owner
    }
    for path, vis in _visibilities(s):
        if vis.startswith("player:") and vis.removeprefix("player:") not in owners:
            add(
                ScenarioProblem(
                    path=path,
                    message=f"visibility {vis!r} names no PC owner "
                    f"(owners: {', '.join(sorted(owners)) or 'none'})",
                )
            )
    return problems


def _rules_problems(s: Scenario) -> list[ScenarioProblem]:
    """Check bestiary entries and weapon ids against the rules engine's SRD data (when it is installed)."""
    # The rules data ships with the package: when it is broken, say so with its file, never skip the check.
    from rules.srd import bestiary, weapons

    creatures, arms = bestiary(), weapons()
    problems: list[ScenarioProblem] = []
    known = ", ".join(sorted(creatures))
    for i, npc in enumerate(s.npcs):
        if npc.bestiary is not None and npc.bestiary not in creatures:
            problems.append(
                ScenarioProblem(
                    path=f"npcs[{i}].bestiary",
                    message=f"unknown bestiary entry {npc.bestiary!r} (known: {known})",
                )
            )
    for i, pc in enumerate(s.pcs):
        for j, weapon in enumerate(pc.weapons):
            if weapon not in arms:
                problems.append(
                    ScenarioProblem(path=f"pcs[{i}].weapons[{j}]", message=f"unknown weapon {weapon!r}")
                )
    return problems


def _visibilities(s: Scenario) -> Iterable[tuple[str, str]]:
    for section in ("locations", "pcs", "npcs", "items", "relationships", "threads", "facts", "factions"):
        for i, rec in enumerate(getattr(s, section)):
            yield f"{section}[{i}].visibility", rec.visibility
    for i, entry in enumerate(s.history):
        yield f"history[{i}].visibility", entry.visibility
        for j, change in enumerate(entry.changes):
            if "visibility" in change.model_fields_set:
                yield f"history[{i}].changes[{j}].visibility", change.visibility


def _loc_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for k, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        # Discriminated unions put the tag into the location (changes.0.set_alive.alive); drop it.
        if part in CHANGE_KINDS and k > 0 and isinstance(loc[k - 1], int):
            continue
        if part.startswith(("function-", "constrained-")) or (part in {"str", "int", "bool", "float"} and k):
            continue
        out += f".{part}" if out else part
    return out


_PATTERN_HINTS = {
    VISIBILITY_RE.pattern: "expected public, party, gm or player:<id>",
    rf"^{SLUG}$": "expected lowercase words joined by '-' (e.g. 'owes-favour')",
    rf"^[a-z]+-{SLUG}$": "expected a prefixed id like 'npc-old-wei' or 'loc-harbor'",
    THREAD_ID_RE.pattern: "expected a thread id kind-session-seq like 'favor-0003-01'",
    FACT_KEY_RE.pattern: "expected a key domain-object-field like 'door-cellar-lock'",
    r"^[a-z_]+$": "expected a skill name like 'sleight_of_hand'",
}


def pydantic_problems(exc: ValidationError) -> list[ScenarioProblem]:
    """Return one problem per key path of a model validation error, each message in the file's words."""
    problems: list[ScenarioProblem] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        path = _loc_path(tuple(err["loc"]))
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        elif err["type"] == "missing":
            message = "required key is missing"
        elif err["type"] == "string_pattern_mismatch":
            pattern = str(err.get("ctx", {}).get("pattern", ""))
            message = _PATTERN_HINTS.get(pattern, f"does not match {pattern}")
            message = f"{message} (got {shown_value(err.get('input'))})"
        elif err["type"] == "union_tag_not_found":
            message = "missing key 'kind' (the change kind, e.g. 'set_alive')"
        elif err["type"] == "union_tag_invalid":
            tag = err.get("ctx", {}).get("tag", "?")
            message = f"unknown change kind {tag!r} (expected one of {', '.join(CHANGE_KINDS)})"
        else:
            message = err["msg"].removeprefix("Value error, ")
            if "input" in err and not isinstance(err["input"], dict | list):
                message = f"{message} (got {shown_value(err['input'])})"
        if (path, message) not in seen:
            seen.add((path, message))
            problems.append(ScenarioProblem(path=path, message=message))
    return problems
