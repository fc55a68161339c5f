"""Measure scene retrieval on generated long campaigns: pass rate per probe kind, leaks, load and latency.

``python3 bench/bench_recall_probes.py [--seeds 101 202 303] [--sessions 50] [--summaries] [--cli-calls 1]``

For each seed, :mod:`bench.gen_campaign` writes a campaign and its 150 probes into a temporary folder. The
campaign is loaded into a fresh SQLite ledger through the real loader
(:func:`ledger.scenario.load.load_scenario_file`: validation and writing, timed together). When the
validator refuses the narrative keys of ``[[history]]`` entries (``event``, ``participants``, ``place``,
``thread``; the format does not know them yet), the file is written again without them (summaries and
witnesses kept) and that is loaded instead; the run prints ``narrative keys: accepted | stripped``.

Each probe's scene is then retrieved exactly as the live table retrieves a round's scene (the table's
``_narrate`` in ``bot/table``): :func:`ledger.recall.retrieval.scene_context` with the location, ``present``
sorted, the viewer, the campaign's current session and (with ``--summaries``) the summary index, top 10.
Twice: with the probe's NPCs only, and with the 4 PCs present too (the live table passes everyone in the
scene). A probe passes when one of its ``decisive`` records is among the 10 and none of its ``must_not``
records is (for a secret-scope probe, in each of its views). A history entry id in a probe is turned into
the event refs that entry wrote by reading the loaded ledger (the summary rows' causes and the campaign's
``history_events``), so the ranker sees nothing of the generator but the ledger; an entry the loader dropped
has no event and cannot be found ("absent" counts those probes).

Prints, per seed and over all seeds: pass rates per kind for both modes, how often a decisive record ranked
first, leaks, load time, retrieval p50/p95 in ms (with ``--summaries`` including the summary query) and the
wall time of ``python3 -m bot recall`` calls on the file (the whole process, in a fresh cache folder;
``--cli-calls 3``: the first, which loads the file into the kept ledger and answers from the summaries in
memory, the second, which builds the kept summary index, then a repeat that reopens both); each time also as
CPU time, which a busy machine disturbs less. ``--sessions 12`` makes a
quick run on shorter campaigns.
``--details FILE`` writes every probe's outcome and retrieved refs as JSON. Temporary files are removed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import gen_campaign as gen  # noqa: E402

MODES = ("npcs", "with_pcs")
NARRATIVE_PROBLEM = re.compile(r"^history\[\d+\]\.(event|participants|place|thread)$")
WARMUP_CALLS = 5


@dataclass
class Outcome:
    """One probe in one mode: whether it passed, leaked, and what came back."""

    probe: str
    kind: str
    mode: str
    passed: bool
    found: bool
    leaked: list[str]
    absent: bool  # no decisive record exists in the loaded ledger at all
    first: bool  # a decisive record ranked first (in the probe's own view)
    refs: list[str]


@dataclass
class SeedResult:
    seed: int
    entries: int
    narrative: str
    load_s: float
    load_cpu_s: float
    outcomes: list[Outcome] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    index_s: float | None = None
    kept: int = 0  # history entries that wrote at least one event
    cli_s: list[float] = field(default_factory=list)
    cli_cpu_s: list[float] = field(default_factory=list)


def _narrative_refusal(err: Exception) -> bool:
    """True when every problem the validator reported is an unknown narrative key on a history entry."""
    problems = getattr(err, "problems", ())
    return bool(problems) and all(
        NARRATIVE_PROBLEM.match(p.path) and "unknown" in p.message for p in problems
    )


def _scenario_file(campaign: gen.Campaign, folder: Path) -> tuple[Path, str]:
    """Write the campaign; return the file the loader accepts and ``accepted`` or ``stripped``."""
    from ledger.scenario.format import ScenarioError
    from ledger.scenario.reading import load_scenario

    path, _probes = gen.write(campaign, folder)
    try:
        load_scenario(path)
    except ScenarioError as err:
        if not _narrative_refusal(err):
            raise SystemExit(f"the generated campaign is invalid beyond the narrative keys:\n{err}") from None
        stripped, _probes = gen.write(campaign, folder, strip=True)
        return stripped, "stripped"
    return path, "accepted"


async def _history_refs(session: Any, cid: int) -> dict[str, list[str]]:
    """History entry id -> the event refs it wrote, read from the loaded ledger."""
    from sqlalchemy import select

    from ledger.store import models as m

    out: dict[str, list[str]] = {}
    summary = m.Summary.__table__.c  # type: ignore[attr-defined]
    rows = (
        await session.exec(select(summary.cause, summary.event_ids).where(summary.campaign_id == cid))
    ).all()
    for cause, event_ids in rows:
        hid = str(cause).rsplit("#", 1)[-1]
        out.setdefault(hid, [])
        out[hid] += [str(r) for r in event_ids or () if str(r) not in out[hid]]
    campaign = await session.get(m.Campaign, cid)
    for hid, ref in ((campaign.settings or {}).get("history_events") or {}).items():
        out.setdefault(hid, [])
        if ref not in out[hid]:
            out[hid].append(ref)
    return out


async def _summary_index(session: Any, cid: int, folder: Path) -> Any:
    """Every summary of the campaign in a local Chroma (offline embedding), as the table's index has them:
    indexed in one :meth:`~ledger.recall.summaries.SummaryIndex.sync_now` (batched, as ``tablekeeper
    recall`` builds its kept index), which also tells the index each summary's scope."""
    from sqlalchemy import select

    from ledger.recall.summaries import SummaryDoc, SummaryIndex
    from ledger.store import models as m

    summary = m.Summary.__table__.c  # type: ignore[attr-defined]
    ev, ee = m.Event.__table__.c, m.EventEntity.__table__.c  # type: ignore[attr-defined]
    involved: dict[str, list[str]] = {}
    for entity, ref in (
        await session.exec(
            select(ee.entity_id, ev.ref).join(m.Event, ev.id == ee.event_id).where(ev.campaign_id == cid)
        )
    ).all():
        involved.setdefault(ref, []).append(entity)
    index = SummaryIndex.local(folder)
    rows = (
        await session.exec(
            select(
                summary.id,
                summary.session_number,
                summary.scope,
                summary.text,
                summary.event_ids,
                summary.visibility,
            ).where(summary.campaign_id == cid)
        )
    ).all()
    docs = [
        SummaryDoc(
            id=f"summary-{sid}",
            session=session_number,
            scope=scope,
            text=text,
            event_ids=tuple(event_ids),
            visibility=visibility,
            entities=tuple(sorted({e for r in event_ids for e in involved.get(r, ())})),
        )
        for sid, session_number, scope, text, event_ids, visibility in rows
    ]
    index.sync_now(f"campaign-{cid}", docs)
    return index


def parse_viewer(text: str) -> Any:
    """``gm``, ``party``, ``public`` or ``player:<handle>`` as a ledger Viewer (as ``tablekeeper recall``)."""
    from ledger.store.visibility import Viewer

    if text.startswith("player:"):
        return Viewer.player(text.removeprefix("player:"))
    return {"gm": Viewer.gm, "party": Viewer.party, "public": Viewer.public}[text]()


def _resolve(ids: Sequence[str], history: dict[str, list[str]]) -> list[str]:
    """Probe ids -> ledger refs: a history entry id becomes its events' refs, anything else stays."""
    out: list[str] = []
    for ref in ids:
        out += history.get(ref, []) if re.fullmatch(r"h-\d+", ref) else [ref]
    return out


async def _run_seed(seed: int, sessions: int, folder: Path, *, summaries: bool, cli_calls: int) -> SeedResult:
    from ledger.recall.retrieval import scene_context
    from ledger.scenario.load import load_scenario_file
    from ledger.store.db import create_engine, init_db, ledger_session

    campaign = gen.generate(seed, sessions)
    path, narrative = _scenario_file(campaign, folder)
    engine = create_engine(f"sqlite+aiosqlite:///{folder / f'ledger-{seed}.db'}")
    await init_db(engine)
    started, cpu = time.perf_counter(), time.process_time()
    async with ledger_session(engine) as s:
        cid = await load_scenario_file(s, path)
    result = SeedResult(
        seed,
        len(campaign.scenario["history"]),
        narrative,
        time.perf_counter() - started,
        time.process_time() - cpu,
    )
    pcs = [p["id"] for p in campaign.scenario["pcs"]]
    current = campaign.scenario["campaign"]["current_session"]
    try:
        async with ledger_session(engine) as s:
            history = await _history_refs(s, cid)
            result.kept = sum(1 for e in campaign.scenario["history"] if history.get(e["id"]))
            index = None
            if summaries:
                t0 = time.perf_counter()
                index = await _summary_index(s, cid, folder / "chroma")
                result.index_s = time.perf_counter() - t0
            await s.rollback()
            calls = 0
            for probe in campaign.probes:
                views = [probe, *probe.get("other_views", ())]
                for mode in MODES:
                    present = sorted(probe["present"] + (pcs if mode == "with_pcs" else []))
                    passed, found, absent, leaked, seen = True, True, False, [], []
                    first = False
                    for view in views:
                        t0, c0 = time.perf_counter(), time.process_time()
                        ctx = await scene_context(
                            s,
                            campaign_id=cid,
                            location=probe["location"],
                            present=present,
                            viewer=parse_viewer(view["viewer"]),
                            current_session=current,
                            summaries=index,
                            summary_campaign=f"campaign-{cid}",
                        )
                        elapsed = (time.perf_counter() - t0) * 1000
                        used = (time.process_time() - c0) * 1000
                        await s.rollback()  # end the read transaction between scenes, as the table does
                        calls += 1
                        if calls > WARMUP_CALLS:
                            result.times_ms.append(elapsed)
                            result.cpu_ms.append(used)
                        refs = list(ctx.refs())
                        seen.append(refs)
                        decisive = _resolve(view["decisive"], history)
                        bad = set(_resolve(view["must_not"], history))
                        hit = not view["decisive"] or any(r in refs for r in decisive)
                        if view is probe:
                            first = bool(refs) and refs[0] in decisive
                        absent = absent or (bool(view["decisive"]) and not decisive)
                        leak = [r for r in refs if r in bad]
                        found = found and hit
                        leaked += leak
                        passed = passed and hit and not leak
                    result.outcomes.append(
                        Outcome(
                            probe["id"], probe["kind"], mode, passed, found, leaked, absent, first, seen[0]
                        )
                    )
    finally:
        await engine.dispose()
    probe = next(p for p in campaign.probes if p["kind"] == "old_open")
    for _ in range(cli_calls):
        cmd = [
            sys.executable,
            "-m",
            "bot",
            "recall",
            "--scenario",
            str(path),
            "--at",
            probe["location"],
            "--present",
            ",".join(probe["present"]),
            "--viewer",
            probe["viewer"],
            "--json",
            "--cache",
            str(folder / "cli-cache"),  # this run's own cache: the first call builds it, as a user's does
        ]
        t0, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        result.cli_s.append(time.perf_counter() - t0)
        result.cli_cpu_s.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode != 0:
            print(f"  recall CLI exited {done.returncode}: {done.stderr.strip()[-300:]}", file=sys.stderr)
    return result


def _pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(title: str, results: Sequence[SeedResult]) -> None:
    outcomes = [o for r in results for o in r.outcomes]
    print(title)
    print(f"  {'probe kind':<12} {'NPCs only':>14} {'with PCs':>14}   decisive not in ledger")
    for kind in (*gen.PROBE_KINDS, "all"):
        cells = []
        for mode in MODES:
            mine = [o for o in outcomes if o.mode == mode and (kind == "all" or o.kind == kind)]
            ok = sum(o.passed for o in mine)
            cells.append(f"{ok:>4}/{len(mine):<4}{100 * ok / max(1, len(mine)):>4.0f}%")
        absent = sum(o.absent for o in outcomes if o.mode == MODES[0] and (kind == "all" or o.kind == kind))
        print(f"  {kind:<12} {cells[0]:>14} {cells[1]:>14}   {absent}")
    firsts = [sum(o.first for o in outcomes if o.mode == m) for m in MODES]
    total = max(1, len(outcomes) // len(MODES))
    print(f"  {'first rank':<12} " + " ".join(f"{n:>4}/{total:<4}{100 * n / total:>4.0f}%" for n in firsts))
    for mode in MODES:
        leaks = [o for o in outcomes if o.mode == mode and o.leaked]
        print(
            f"  leaks ({mode}): {len(leaks)} probes"
            + (f" e.g. {leaks[0].probe}: {leaks[0].leaked[:3]}" if leaks else "")
        )
    times = [t for r in results for t in r.times_ms]
    cpu = [t for r in results for t in r.cpu_ms]
    loads = ", ".join(f"{r.load_s:.1f} s (CPU {r.load_cpu_s:.1f} s)" for r in results)
    print(f"  narrative keys: {', '.join(sorted({r.narrative for r in results}))}")
    kept = ", ".join(f"{r.kept} of {r.entries}" for r in results)
    print(f"  history entries the loader kept as events: {kept}")
    print(f"  load (validate + write, {', '.join(str(r.entries) for r in results)} history entries): {loads}")
    if any(r.index_s is not None for r in results):
        print(
            "  summary index build: "
            + ", ".join(f"{r.index_s:.1f} s" for r in results if r.index_s is not None)
        )
    print(
        f"  retrieval: p50 {_pct(times, 0.5):.2f} ms  p95 {_pct(times, 0.95):.2f} ms  | CPU p50 "
        f"{_pct(cpu, 0.5):.2f} ms  p95 {_pct(cpu, 0.95):.2f} ms  ({len(times)} calls)"
    )
    cli = [(t, c) for r in results for t, c in zip(r.cli_s, r.cli_cpu_s, strict=True)]
    if cli:
        print(
            "  `python3 -m bot recall` (whole process): "
            + ", ".join(f"{t:.1f} s (CPU {c:.1f} s)" for t, c in cli)
        )


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[101, 202, 303])
    parser.add_argument("--sessions", type=int, default=50, help="sessions per campaign (fewer: a quick run)")
    parser.add_argument("--summaries", action="store_true", help="retrieve with a Chroma summary index too")
    parser.add_argument(
        "--cli-calls", type=int, default=1, help="timed `bot recall` calls per seed (0: none)"
    )
    parser.add_argument("--details", type=Path, default=None, help="write every probe's outcome as JSON")
    args = parser.parse_args(argv)
    results: list[SeedResult] = []
    for seed in args.seeds:
        with tempfile.TemporaryDirectory(prefix=f"tk-probes-{seed}-") as tmp:
            result = await _run_seed(
                seed, args.sessions, Path(tmp), summaries=args.summaries, cli_calls=args.cli_calls
            )
        results.append(result)
        _report(f"seed {seed} ({args.sessions} sessions)", [result])
        print(flush=True)
    if len(results) > 1:
        _report(f"all seeds {' '.join(map(str, args.seeds))} ({args.sessions} sessions)", results)
    if args.details is not None:
        args.details.write_text(
            json.dumps(
                [{"seed": r.seed, "outcomes": [o.__dict__ for o in r.outcomes]} for r in results], indent=1
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
