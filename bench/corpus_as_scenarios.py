"""Do the corpus worlds check the same through a scenario file as through their JSON?

The hidden test set runs narrations through ``tablekeeper check --scenario FILE.toml`` (bot/cli/check.py:
scenario -> ``load_scenario`` -> ``final_world`` -> ``snapshot_from_world``, scene = the starting location
with every living creature there, no round facts). The corpus is measured on its JSON worlds
(``load_world``). This script:

1. converts each corpus world (``tests/corpus/worlds/*.json``, never the held-out ``fresh_f_*`` /
   ``fresh_g_*``) into a scenario TOML under ``/tmp/corpus_scenarios/``, as faithfully as the format allows,
   and lists what it could not say (format gaps);
2. for each narration whose round has no dice actions, checks it on both snapshots (audience ``gm`` on both,
   then the CLI's default ``party`` on both);
3. prints how many agree (verdict and refuted records), and each difference with its cause, found by
   swapping one aspect of the JSON snapshot for the scenario's (scene, round facts, max_hp, pronouns, ...)
   and seeing which swap alone reproduces the scenario path's answer.

Record ids are mapped before comparing: a JSON edge id becomes ``edge-<source>-<target>-<kind>`` (the
scenario path's form), a ``favour-NNNN-NN`` thread id ``favor-NNNN-NN``, and a secret alias written as the
gm fact ``<id>-identity[-n]`` is its ``<id>-identity`` leak.

Run: ``python3 bench/corpus_as_scenarios.py``. A script, not a test.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.check import _snapshot as cli_snapshot  # noqa: E402  (exactly what the check command builds)
from ledger.check.judge import check  # noqa: E402
from ledger.check.snapshot import (  # noqa: E402
    Entity,
    RoundFacts,
    WorldSnapshot,
    load_world,
)
from ledger.scenario.values import CONDITIONS, ITEM_FATES, THREAD_KINDS  # noqa: E402
from tests.corpus.loader import narrations, world_path  # noqa: E402

OUT = Path("/tmp/corpus_scenarios")
HELD_OUT = ("fresh_f_", "fresh_g_")
PRONOUNS = ("he", "she", "they", "it")
FATE_MAP = {"spent": "used_up", "used": "used_up", "consumed": "used_up", "eaten": "used_up", "gone": "lost"}


# --- TOML writing (the project has no TOML writer) -------------------------------------------------------
def _val(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_val(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as TOML")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def to_toml(doc: dict[str, Any]) -> str:
    lines: list[str] = []
    for section, body in doc.items():
        if isinstance(body, dict):
            lines.append(f"[{section}]")
            lines += [f"{_key(k)} = {_val(v)}" for k, v in body.items() if v is not None]
            lines.append("")
        else:
            for rec in body:
                lines.append(f"[[{section}]]")
                lines += [f"{_key(k)} = {_val(v)}" for k, v in rec.items() if v is not None]
                lines.append("")
    return "\n".join(lines)


# --- conversion ------------------------------------------------------------------------------------------
def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or "x"


THREAD_IDS: dict[tuple[str, str], str] = {}  # (world, corpus thread id) -> the scenario's


def thread_id(world: str, tid: str, taken: Iterable[str] = ()) -> str:
    """The scenario's spelling of a corpus thread id: the favour kind is ``favor`` in ids, and a thread
    opened in session 0 (``-0000-``, which the format cannot say) is moved to session 1."""
    if (world, tid) in THREAD_IDS:
        return THREAD_IDS[(world, tid)]
    new = re.sub(r"^favour-", "favor-", tid)
    if (m := re.match(r"^(\w+)-0000-(\d{2})$", new)) is not None:
        seq = int(m.group(2))
        while f"{m.group(1)}-0001-{seq:02d}" in set(taken):
            seq += 1
        new = f"{m.group(1)}-0001-{seq:02d}"
    THREAD_IDS[(world, tid)] = new
    return new


def convert(world: dict[str, Any], name: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Return (scenario document, [(gap, example)]) for a corpus world dict."""
    gaps: list[tuple[str, str]] = []
    ents = world["entities"]
    by_id = {e["id"]: e for e in ents}
    json_snap = load_world(world_path(name))
    doc: dict[str, Any] = {}
    sessions = [
        int(m.group(1)) for t in world["threads"] if (m := re.match(r"^\w+-(\d{4})-(\d{2})$", t["id"]))
    ]
    scene = world.get("scene", {})
    doc["campaign"] = {
        "id": _slug(name),
        "name": world.get("title") or name,
        "current_session": max([1, *sessions]),
        "starting_location": scene.get("location"),
    }
    history: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    world_keys = {f["key"] for f in world["facts"]}

    def aliases(e: dict[str, Any]) -> list[str]:
        out = []
        for a in e.get("aliases", ()):
            if isinstance(a, str):
                out.append(a)
            elif a.get("visibility", "public") == "public":
                out.append(a["name"])
            elif any(k.startswith(f"{e['id']}-identity") for k in world_keys):
                gaps.append(
                    ("secret alias (no alias visibility; the world's own gm fact <id>-identity)", a["name"])
                )
            else:
                n = sum(1 for f in facts if f["key"].startswith(f"{e['id']}-identity"))
                key = f"{e['id']}-identity" + (f"-{n + 1}" if n else "")
                facts.append({"key": key, "value": a["name"], "visibility": a["visibility"]})
                gaps.append(
                    ("secret alias (no alias visibility; written as a gm fact <id>-identity)", a["name"])
                )
        return out

    locs = [e for e in ents if e["kind"] == "location"]
    children: dict[str, list[str]] = defaultdict(list)
    for e in locs:
        if e.get("parent"):
            children[e["parent"]].append(e["id"])
            gaps.append(
                ("location parent (no nesting; written as exits both ways)", f"{e['id']} in {e['parent']}")
            )
    doc["locations"] = [
        {
            "id": e["id"],
            "name": e["name"],
            "aliases": aliases(e) or None,
            "exits": ([e["parent"]] if e.get("parent") else []) + children.get(e["id"], []) or None,
            "visibility": e.get("visibility"),
        }
        for e in locs
    ]
    doc["pcs"] = []
    doc["npcs"] = []
    for e in ents:
        if e["kind"] not in ("pc", "npc", "monster"):
            continue
        conds = [
            c if isinstance(c, str) else c.get("condition", c.get("name")) for c in e.get("conditions", ())
        ]
        srcs = {}
        clean = []
        for c in conds:
            n, _, src = str(c).partition(" by ")
            if n not in CONDITIONS:
                gaps.append(("condition outside the format's list", f"{e['id']}: {n}"))
                continue
            clean.append(n)
            if src:
                srcs[n] = src.strip()
        srcs |= {k: v for k, v in dict(e.get("condition_sources", {})).items() if k in clean}
        pronoun = e.get("pronoun") if e.get("pronoun") in PRONOUNS else None
        if e.get("pronoun") and pronoun is None:
            gaps.append(("pronoun outside he/she/they/it", f"{e['id']}: {e['pronoun']}"))
        rec: dict[str, Any] = {"id": e["id"], "name": e["name"], "aliases": aliases(e) or None}
        if e["kind"] == "pc":
            hp = e.get("hp", e.get("max_hp", 10))
            rec |= {"owner": str(e["owner"]) if e.get("owner") else None, "hp": hp}
            if e.get("max_hp") is not None:
                rec["max_hp"] = e["max_hp"]
            if not e.get("location"):
                gaps.append(("PC without a location stands at the starting location", e["id"]))
        else:
            rec["kind"] = e["kind"]
            if e.get("hp") is not None:
                rec["hp"] = e["hp"]
            if e.get("max_hp") is not None:
                rec["max_hp"] = e["max_hp"]
            if e["kind"] == "monster":
                top = e.get("max_hp", e.get("hp")) or 1
                rec["stats"] = {"ac": 12, "max_hp": top}
        rec |= {
            "location": e.get("location"),
            "alive": False if e.get("alive", True) is False else None,
            "conditions": clean or None,
            "condition_sources": srcs or None,
            "pronoun": pronoun,
            "visibility": e.get("visibility"),
        }
        doc["pcs" if e["kind"] == "pc" else "npcs"].append(rec)
    doc["items"] = []
    for e in ents:
        if e["kind"] != "item":
            continue
        q = int(e.get("quantity", 1))
        rec = {"id": e["id"], "name": e["name"], "aliases": aliases(e) or None}
        if q > 1:
            rec["properties"] = {"stackable": True}
        hv = e.get("holding_visibility")
        vis = e.get("visibility")
        if e.get("holder") and q > 0:
            if hv and hv != (vis or "public"):
                # the holding has its own visibility: the item enters unheld, a history entry gives it
                history.append(
                    {
                        "session": 1,
                        "summary": f"{e['holder']} comes to hold {e['name']}",
                        "visibility": hv,
                        "changes": [
                            {
                                "kind": "transfer_item",
                                "item": e["id"],
                                "to_holder": e["holder"],
                                "quantity": q,
                            }
                        ],
                    }
                )
            else:
                rec |= {"holder": e["holder"], "quantity": q if q != 1 else None}
            if e.get("fate"):
                gaps.append(("fate of a held item", e["id"]))
        elif e.get("fate"):
            fate = FATE_MAP.get(e["fate"], e["fate"].replace(" ", "_"))
            if fate in ITEM_FATES:
                rec["fate"] = fate
            else:
                gaps.append(("item fate outside the format's list", f"{e['id']}: {e['fate']}"))
        rec["visibility"] = vis
        doc["items"].append(rec)
    doc["relationships"] = []
    for ed in world["edges"]:
        if by_id.get(ed["source"], {}).get("kind") not in ("pc", "npc", "monster") or by_id.get(
            ed["target"], {}
        ).get("kind") not in ("pc", "npc", "monster"):
            gaps.append(("edge to a non-creature", ed["id"]))
            continue
        doc["relationships"].append(
            {
                "source": ed["source"],
                "target": ed["target"],
                "edge_kind": _slug(ed.get("kind", "tie")),
                "attitude": int(ed.get("attitude", 0)),
                "reason": ed.get("reason") or "unstated",
                "visibility": ed.get("visibility"),
            }
        )
    doc["threads"] = []
    for t in world["threads"]:
        kind = {"favor": "favour", "boon": "favour"}.get(t["kind"], t["kind"])
        if kind not in THREAD_KINDS:
            gaps.append(("thread kind outside the format's list", f"{t['id']}: {t['kind']}"))
            continue
        js = json_snap.threads[t["id"]]
        if "-0000-" in t["id"]:
            gaps.append(("thread opened in session 0 (renamed to session 1)", t["id"]))
        if t.get("aliases"):
            gaps.append(("thread aliases (only slug tags)", f"{t['id']}: {t['aliases'][0]!r}"))
        doc["threads"].append(
            {
                "id": thread_id(name, t["id"], (x["id"] for x in world["threads"])),
                "thread_kind": kind,
                "status": t.get("status", "open"),
                "terms": t.get("terms") or t["id"],
                "parties": list(t.get("parties", ())),
                "tags": [_slug(a) for a in t.get("aliases", ())] or None,
                # the roles the JSON path reads (the file's, else the terms'), said outright
                "roles": dict(js.roles) or None,
                "visibility": t.get("visibility"),
            }
        )
    for f in world["facts"]:
        rec = {"key": f["key"], "value": f.get("value", True), "visibility": f.get("visibility")}
        facts.append(rec)
        auto = (f["value"],) if isinstance(f.get("value"), str) and 3 < len(f["value"]) <= 40 else ()
        if tuple(f.get("tells", ())) and tuple(f.get("tells", ())) != auto:
            gaps.append(
                ("fact tells (the scenario path's only tell is a short value)", f"{f['key']}: {f['tells']}")
            )
        if f.get("known_by"):
            gaps.append(("fact known_by", f["key"]))
    doc["facts"] = facts
    for r in world.get("retcons", ()):
        before, after = [], []
        for rec_id in r.get("supersedes", ()):
            ch = _retcon_changes(rec_id, by_id, locs)
            if ch is None:
                gaps.append(("retcon of a record kind not rewritten", rec_id))
                continue
            before.append(ch[0])
            after.append(ch[1])
        if not before:
            continue
        history.append({"id": r["id"], "session": 1, "summary": "as first told", "changes": before})
        history.append(
            {
                "session": 1,
                "summary": r.get("reason") or "retcon",
                "changes": [{"kind": "retcon", "target": r["id"], "reason": r.get("reason") or "retcon",
                             "changes": after}],
            }
        )  # fmt: skip
    if history:
        doc["history"] = history
    present = set(scene.get("present", ()))
    derived = {
        e["id"]
        for e in ents
        if e["kind"] in ("pc", "npc", "monster")
        and e.get("location") == scene.get("location")
        and e.get("alive", True) is not False
    }
    for x in sorted(present - derived):
        gaps.append(
            ("scene presence (derived: living creatures at the start)", f"{x} listed present, not derived")
        )
    for x in sorted(derived - present):
        gaps.append(("scene presence (derived: living creatures at the start)", f"{x} derived, not listed"))
    return {k: v for k, v in doc.items() if v != []}, gaps


def _retcon_changes(
    rec_id: str, by_id: dict[str, Any], locs: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(the change first told, the retcon's change back to today's value) for a superseded record id."""
    for suffix in ("-alive", "-location", "-holder"):
        if not rec_id.endswith(suffix):
            continue
        eid = rec_id.removesuffix(suffix)
        e = by_id.get(eid)
        if e is None:
            return None
        if suffix == "-alive":
            now = e.get("alive", True) is not False
            return (
                {"kind": "set_alive", "entity": eid, "alive": not now},
                {"kind": "set_alive", "entity": eid, "alive": now},
            )
        if suffix == "-location" and e.get("location"):
            other = next(loc["id"] for loc in locs if loc["id"] != e["location"])
            return (
                {"kind": "move_entity", "entity": eid, "location": other},
                {"kind": "move_entity", "entity": eid, "location": e["location"]},
            )
        if suffix == "-holder" and e.get("holder"):
            q = int(e.get("quantity", 1))
            return (
                {"kind": "transfer_item", "item": eid, "from_holder": e["holder"], "quantity": q},
                {"kind": "transfer_item", "item": eid, "to_holder": e["holder"], "quantity": q},
            )
    return None


# --- comparing -------------------------------------------------------------------------------------------
def canon_ids(snap: WorldSnapshot, world: str) -> dict[str, str]:
    """Map a JSON snapshot's record ids to the scenario path's form."""
    out = {ed.id: f"edge-{ed.source}-{ed.target}-{ed.kind}" for ed in snap.edges}
    out |= {t: thread_id(world, t) for t in snap.threads}
    return out


def outcome(report: Any, idmap: dict[str, str]) -> tuple[str, frozenset[str]]:
    recs = {v.refuted_by for v in report.claims if v.verdict == "contradicted" and v.refuted_by}
    recs |= {lk.record for lk in report.leaks}
    fixed = set()
    for r in recs:
        r = idmap.get(r, r)
        r = re.sub(r"-identity-\d+$", "-identity", r)
        fixed.add(r)
    return report.verdict, frozenset(fixed)


def _entities_with(
    js: WorldSnapshot, sc: WorldSnapshot, fields: tuple[str, ...], kinds: Iterable[str] = ()
) -> list[Entity]:
    out = []
    for e in js.entities.values():
        s = sc.entities.get(e.id)
        if s is None or (kinds and e.kind not in kinds):
            out.append(e)
            continue
        out.append(dataclasses.replace(e, **{f: getattr(s, f) for f in fields}))
    return out


def hybrids(js: WorldSnapshot, sc: WorldSnapshot) -> dict[str, Callable[[], WorldSnapshot]]:
    """Aspect -> the JSON snapshot with that aspect taken from the scenario snapshot."""

    def build(**over: Any) -> WorldSnapshot:
        parts: dict[str, Any] = {
            "entities": list(js.entities.values()),
            "holdings": [h for hs in js.holdings.values() for h in hs.values()],
            "fates": list(js.fates.values()),
            "edges": js.edges,
            "threads": list(js.threads.values()),
            "facts": list(js.facts.values()),
            "retcons": js.retcons,
            "scene": js.scene,
            "round": js.round,
        }
        parts |= over
        return WorldSnapshot.build(**parts)

    sc_hold = [h for hs in sc.holdings.values() for h in hs.values()]
    return {
        "scene presence": lambda: build(scene=sc.scene),
        "round facts: submissions/acted (the CLI has no round)": lambda: build(
            round=dataclasses.replace(js.round, submissions={}, acted=frozenset())
        ),
        "round facts: this round's changes (the CLI has no round)": lambda: build(
            round=dataclasses.replace(js.round, changes=())
        ),
        "round facts: all (the CLI has no round)": lambda: build(round=RoundFacts()),
        "max_hp/hp": lambda: build(entities=_entities_with(js, sc, ("hp", "max_hp"))),
        "pronouns": lambda: build(entities=_entities_with(js, sc, ("pronoun",))),
        "aliases (secret alias visibility)": lambda: build(
            entities=_entities_with(js, sc, ("aliases",)),
            facts=[*js.facts.values(), *(f for k, f in sc.facts.items() if "-identity" in k)],
        ),
        "location parents": lambda: build(entities=_entities_with(js, sc, ("location",), ("location",))),
        "creature state (alive, location, conditions, sources)": lambda: build(
            entities=_entities_with(
                js, sc, ("alive", "location", "conditions", "condition_sources"), ("pc", "npc", "monster")
            )
        ),
        "entity visibility/owner": lambda: build(entities=_entities_with(js, sc, ("visibility", "owner"))),
        "holdings/quantities": lambda: build(holdings=sc_hold),
        "item fates": lambda: build(fates=list(sc.fates.values())),
        "edges (ids, kinds)": lambda: build(edges=sc.edges),
        "threads (ids, aliases->tags, roles)": lambda: build(threads=list(sc.threads.values())),
        "facts (tells, exits, extra facts)": lambda: build(facts=list(sc.facts.values())),
        "retcons": lambda: build(retcons=sc.retcons),
        "entity order": lambda: build(
            entities=[js.entities[k] for k in sc.entities if k in js.entities]
            + [e for k, e in js.entities.items() if k not in sc.entities]
        ),
    }


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    worlds = sorted(
        p.stem for p in (ROOT / "tests/corpus/worlds").glob("*.json") if not p.stem.startswith(HELD_OUT)
    )
    gaps_by_world: dict[str, list[tuple[str, str]]] = {}
    bad: dict[str, str] = {}
    for w in worlds:
        raw = json.loads(world_path(w).read_text(encoding="utf-8"))
        doc, gaps = convert(raw, w)
        gaps_by_world[w] = gaps
        path = OUT / f"{w}.toml"
        path.write_text(to_toml(doc), encoding="utf-8")
        try:
            cli_snapshot(str(path))
        except Exception as exc:  # report any loader refusal
            bad[w] = str(exc)
    print(f"converted {len(worlds)} worlds to {OUT} ({len(bad)} refused by the loader)")
    for w, msg in bad.items():
        print(f"  REFUSED {w}: {msg[:300]}")

    cases = [
        n
        for n in narrations()
        if not n.id.startswith(("fresh_f", "fresh_g"))
        and not n.world.startswith(HELD_OUT)
        and n.world in worlds
        and n.world not in bad
    ]
    sc_snaps = {w: cli_snapshot(str(OUT / f"{w}.toml")) for w in worlds if w not in bad}
    causes: dict[str, dict[str, list[tuple[str, str]]]] = {
        "gm": defaultdict(list),
        "party": defaultdict(list),
    }
    agree = {"gm": Counter(), "party": Counter()}
    planted_cost: Counter[str] = Counter()
    recall = {"json": Counter(), "scenario": Counter()}
    skipped = 0
    for n in cases:
        js = load_world(world_path(n.world), n.round)
        if js.round.actions:
            skipped += 1
            continue
        sc = sc_snaps[n.world]
        idmap = canon_ids(js, n.world)
        want = {idmap.get(r, r) for r in n.refuted_by}
        for aud in ("gm", "party"):
            a = outcome(check(n.text, js, audience=aud), idmap)
            b = outcome(check(n.text, sc, audience=aud), idmap)
            agree[aud]["narrations"] += 1
            agree[aud]["same verdict"] += a[0] == b[0]
            agree[aud]["same verdict and records"] += a == b
            if aud == "party" and n.expect == "conflict":
                for tag, o in (("json", a), ("scenario", b)):
                    recall[tag]["planted"] += 1
                    recall[tag]["caught"] += o[0] == "conflict"
                    recall[tag]["right record"] += bool(want & o[1])
            if a == b:
                continue
            found = []
            for aspect, make in hybrids(js, sc).items():
                h = outcome(check(n.text, make(), audience=aud), idmap)
                if h != a:
                    found.append(aspect)
            if any(f.startswith("round facts: ") and "all" not in f for f in found):
                found = [f for f in found if f != "round facts: all (the CLI has no round)"]
            key = " + ".join(found) if found else "unattributed (several aspects together)"
            diff = f"json {a[0]} {sorted(a[1])} / scenario {b[0]} {sorted(b[1])}"
            causes[aud][key].append((n.id, diff))
            if aud == "party" and n.expect == "conflict" and bool(want & a[1]) and not bool(want & b[1]):
                for f in found or ["unattributed"]:
                    planted_cost[f] += 1
    print(f"\nnarrations compared: {agree['gm']['narrations']} ({skipped} skipped: round has dice actions)")
    for aud in ("gm", "party"):
        c = agree[aud]
        print(
            f"audience {aud}: same verdict {c['same verdict']}/{c['narrations']}, "
            f"same verdict and records {c['same verdict and records']}/{c['narrations']}"
        )
        for key, rows in sorted(causes[aud].items(), key=lambda kv: -len(kv[1])):
            print(f"  [{len(rows)}] {key}")
            for nid, diff in rows[:4]:
                print(f"      {nid}: {diff[:220]}")
    for tag in ("json", "scenario"):
        r = recall[tag]
        print(
            f"planted (party): {tag:8s} caught {r['caught']}/{r['planted']}, right record {r['right record']}"
        )
    print("planted narrations whose right record the scenario path loses, by cause:")
    for k, v in planted_cost.most_common():
        print(f"  {v:3d}  {k}")
    print("\nformat gaps met while converting (count, worlds, example):")
    agg: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for w, gaps in gaps_by_world.items():
        for g, ex in gaps:
            agg[g].append((w, ex))
    for g, rows in sorted(agg.items(), key=lambda kv: -len(kv[1])):
        ws = sorted({w for w, _ in rows})
        print(f"  {len(rows):3d} in {len(ws)} worlds  {g}: e.g. {rows[0][0]}: {rows[0][1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
