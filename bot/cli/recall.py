"""``tablekeeper recall``: what the narrator would be reminded of in a scene of a scenario, and why.

``tablekeeper recall --scenario FILE --at LOCATION --present NAME,NAME [--viewer WHO] [--json]`` loads the
scenario into a throwaway SQLite ledger (in a temporary folder, never the working tree), resolves the
location and the names present (case-insensitive names, aliases or ids), and prints the ranked records of
:func:`ledger.recall.retrieval.scene_context`, each with why it ranked there, then the closest history
summaries
(indexed into a temporary Chroma with the offline hashing embedding). ``--viewer`` is ``public``, ``party``
(default), ``gm`` or ``player:<id>``. An unknown name ends with exit code 2 and one line naming close ones.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli import CliError


def _c(model: Any) -> Any:
    """The Core columns of a sqlmodel table (typed loosely: sqlmodel types fields as their Python values)."""
    return model.__table__.c


def add_parser(subparsers: Any) -> None:
    """Register ``recall`` and its arguments."""
    parser = subparsers.add_parser(
        "recall",
        help="show the ledger records a scene of a scenario recalls, ranked, with why",
        description=(
            "Load a scenario into a temporary ledger and show what scene retrieval returns for a location "
            "and the people present: at most 10 records (the decisive one first) and at most 5 summaries."
        ),
    )
    parser.add_argument("--scenario", required=True, metavar="FILE", help="the scenario .toml file")
    parser.add_argument(
        "--at", required=True, metavar="LOCATION", help="where the scene is (name, alias or id)"
    )
    parser.add_argument(
        "--present",
        default="",
        metavar="NAME,NAME",
        help="who is in the scene, comma-separated (names or ids)",
    )
    parser.add_argument(
        "--viewer", default="party", metavar="WHO", help="public | party (default) | gm | player:<id>"
    )
    parser.add_argument(
        "--thread", action="append", default=[], metavar="ID", help="an active thread (repeatable)"
    )
    parser.add_argument(
        "--session", type=int, default=None, help="the current session (default: the scenario's)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.set_defaults(run=run)


def parse_viewer(text: str) -> Any:
    """Turn ``public``, ``party``, ``gm`` or ``player:<id>`` into a Viewer; raise CliError otherwise."""
    from ledger.store.visibility import Viewer, is_visibility

    value = text.strip()
    if value == "public":
        return Viewer.public()
    if value == "party":
        return Viewer.party()
    if value == "gm":
        return Viewer.gm()
    if value.startswith("player:") and is_visibility(value):
        return Viewer.player(value.removeprefix("player:"))
    raise CliError(f"bad --viewer {text!r}: expected public, party, gm or player:<id>")


def run(args: argparse.Namespace) -> int:
    """Load, resolve, retrieve and print; raise CliError for a bad file, viewer or name."""
    import asyncio

    from ledger.scenario.format import ScenarioError
    from ledger.scenario.reading import load_scenario

    viewer = parse_viewer(args.viewer)
    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as exc:
        raise CliError(f"{exc.source}: {exc.summary()}") from None
    names = [n.strip() for n in args.present.split(",") if n.strip()]
    result = asyncio.run(_recall(args, scenario, viewer, names))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        _print_text(result)
    return 0


async def _recall(args: argparse.Namespace, scenario: Any, viewer: Any, names: list[str]) -> dict[str, Any]:
    import tempfile
    from pathlib import Path

    from ledger.recall.retrieval import scene_context
    from ledger.scenario.load import load_scenario_into
    from ledger.store.db import create_engine, init_db, ledger_session

    session_number = args.session if args.session is not None else scenario.campaign.current_session
    with tempfile.TemporaryDirectory(prefix="tablekeeper-recall-") as tmp:
        engine = create_engine(f"sqlite+aiosqlite:///{Path(tmp) / 'ledger.store.db'}")
        try:
            await init_db(engine)
            async with ledger_session(engine) as s:
                cid = await load_scenario_into(s, scenario=scenario, source=Path(args.scenario).name)
            async with ledger_session(engine) as s:
                location = await _resolve(s, cid, args.at, viewer, kinds=("location",), what="location")
                present = [await _resolve(s, cid, n, viewer, kinds=("entity",), what="name") for n in names]
                index = await _summary_index(s, cid, Path(tmp) / "chroma")
                ctx = await scene_context(
                    s,
                    campaign_id=cid,
                    location=location,
                    present=present,
                    threads=args.thread,
                    viewer=viewer,
                    current_session=session_number,
                    summaries=index,
                )
                labels = await _labels(s, cid, [location, *present, *ctx.dead])
        finally:
            await engine.dispose()
    return {
        "scenario": Path(args.scenario).name,
        "campaign": scenario.campaign.name,
        "session": session_number,
        "viewer": ctx.viewer,
        "location": {"id": location, "name": labels.get(location, location)},
        "present": [{"id": p, "name": labels.get(p, p)} for p in ctx.present],
        "dead": [{"id": d, "name": labels.get(d, d)} for d in ctx.dead],
        "records": [{"rank": i, **r.model_dump(mode="json")} for i, r in enumerate(ctx.records, start=1)],
        "summaries": [h.model_dump(mode="json") for h in ctx.summaries],
    }


def _fold(name: str) -> str:
    text = " ".join(name.casefold().split())
    return text.removeprefix("the ")


async def _resolve(
    session: Any, cid: int, name: str, viewer: Any, *, kinds: tuple[str, ...], what: str
) -> str:
    """A name, alias or id -> the one record id it names (case-insensitive, ``the`` optional).

    Raises CliError (exit 2) naming close matches when nothing, or more than one record, answers to it.
    """
    import difflib

    from sqlalchemy import select

    from ledger.store import models as m
    from ledger.store.visibility import visible_clause

    rows = (
        await session.exec(
            select(_c(m.NameIndex).ref, _c(m.NameIndex).name_folded).where(
                _c(m.NameIndex).campaign_id == cid,
                _c(m.NameIndex).record_kind.in_(kinds),
                visible_clause(viewer, _c(m.NameIndex).visibility),
            )
        )
    ).all()
    by_name: dict[str, set[str]] = {}
    for ref, folded in rows:
        by_name.setdefault(_fold(folded), set()).add(ref)
        by_name.setdefault(ref, set()).add(ref)
    wanted = _fold(name)
    found = by_name.get(wanted, set())
    if len(found) == 1:
        return next(iter(found))
    if len(found) > 1:
        raise CliError(f"{what} {name!r} is ambiguous: it could be {', '.join(sorted(found))}")
    shown = await _display_names(session, cid, sorted({r for refs in by_name.values() for r in refs}), kinds)
    close = difflib.get_close_matches(wanted, list(by_name), n=5, cutoff=0.5)
    close_names = list(dict.fromkeys(shown.get(c, c) for c in close))
    hint = f"; close: {', '.join(close_names)}" if close_names else ""
    raise CliError(f"unknown {what} {name!r}{hint}")


async def _display_names(session: Any, cid: int, refs: list[str], kinds: tuple[str, ...]) -> dict[str, str]:
    """Folded name or alias -> how it is written, for the records ``refs`` (to suggest close names)."""
    from sqlalchemy import select

    from ledger.store import models as m

    out: dict[str, str] = {}
    tables = [t for k, t in (("entity", m.Entity), ("location", m.Location), ("item", m.Item)) if k in kinds]
    for table in tables:
        for _ref, name, aliases in (
            await session.exec(
                select(_c(table).id, _c(table).name, _c(table).aliases).where(
                    _c(table).campaign_id == cid, _c(table).id.in_(refs)
                )
            )
        ).all():
            for written in (name, *(aliases or ())):
                out.setdefault(_fold(written), written)
    return out


async def _labels(session: Any, cid: int, ids: list[str]) -> dict[str, str]:
    from sqlalchemy import select

    from ledger.store import models as m

    out: dict[str, str] = {}
    for table in (m.Entity, m.Location):
        for ref, name in (
            await session.exec(
                select(_c(table).id, _c(table).name).where(
                    _c(table).campaign_id == cid, _c(table).id.in_(ids)
                )
            )
        ).all():
            out[ref] = name
    return out


async def _summary_index(session: Any, cid: int, folder: Any) -> Any:
    """Index the loaded history summaries into a temporary Chroma (offline hashing embedding), or None."""
    from sqlalchemy import select

    from ledger.store import models as m

    rows = (await session.exec(select(m.Summary).where(_c(m.Summary).campaign_id == cid))).all()
    if not rows:
        return None
    try:
        from ledger.recall.summaries import SummaryIndex
    except ImportError:  # the summary layer is optional here
        return None
    refs = sorted({ref for (row,) in rows for ref in row.event_ids})
    involved: dict[str, set[str]] = {}
    for entity, ref in (
        await session.exec(
            select(_c(m.EventEntity).entity_id, _c(m.Event).ref)
            .join(m.Event, _c(m.Event).id == _c(m.EventEntity).event_id)
            .where(_c(m.Event).campaign_id == cid, _c(m.Event).ref.in_(refs))
        )
    ).all():
        involved.setdefault(ref, set()).add(entity)
    index = SummaryIndex.local(folder)
    for (row,) in rows:
        index.add_now(
            summary_id=f"summary-{row.id}",
            campaign=str(cid),
            session=row.session_number,
            scope=row.scope,
            text=row.text,
            event_ids=row.event_ids,
            visibility=row.visibility,
            entities=sorted(set().union(*(involved.get(r, set()) for r in row.event_ids))),
        )
    return index


def _print_text(result: dict[str, Any]) -> None:
    present = ", ".join(p["name"] for p in result["present"]) or "nobody"
    print(
        f"{result['campaign']}, session {result['session']}: {result['location']['name']} with {present} "
        f"(as seen by {result['viewer']})"
    )
    for d in result["dead"]:
        print(f"  note: {d['name']} was named present but is dead")
    if not result["records"]:
        print("no ledger records for this scene")
    for r in result["records"]:
        print(f"{r['rank']:>2}. [{r['kind']}] {r['text']}")
        print(f"    why: {r['why']} (score {r['score']:g})")
    if result["summaries"]:
        print("summaries:")
        for h in result["summaries"]:
            print(f"  - session {h['session']}: {h['text']}")
