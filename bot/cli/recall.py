"""``tablekeeper recall``: what the narrator would be reminded of in a scene of a scenario, and why.

``tablekeeper recall --scenario FILE --at LOCATION --present NAME,NAME [--viewer WHO] [--json]`` loads the
scenario into a SQLite ledger, resolves the location and the names present (case-insensitive names, aliases
or ids), and prints the ranked records of :func:`ledger.recall.retrieval.scene_context`, each with why it
ranked there, then the closest history summaries (a Chroma index with the offline hashing embedding).
``--viewer`` is ``public``, ``party`` (default), ``gm`` or ``player:<id>``. An unknown name ends with exit
code 2 and one line naming close ones.

The ledger and its summary index are kept between calls, never in the working tree: under the cache folder
(``--cache DIR``; default ``$TABLEKEEPER_CACHE_DIR``, else ``$XDG_CACHE_HOME/tablekeeper``, else
``~/.cache/tablekeeper``), in ``recall/<hash of the file's bytes>/`` as ``ledger.db`` with ``chroma/`` next
to it. The first call on a file validates and loads it, and answers from its summaries in memory by the
index's rule (:class:`ledger.recall.exact_summaries.ExactSummaries`: a call that asks one scene need not
import Chroma and build an index first); the next call on the same bytes builds the summary index, and later
ones open what is there and re-index only summaries that changed
(:meth:`ledger.recall.summaries.SummaryIndex.sync_now`). Edit the file and it is a new entry. ``--no-cache``
works in a temporary folder removed afterwards, and never builds an index. A summary's distance is printed
to 4 decimals: the exact search and Chroma's agree to about 1e-7.
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
    parser.add_argument(
        "--cache", default=None, metavar="DIR", help="where loaded ledgers and their indexes are kept"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="load into a temporary folder and remove it afterwards"
    )
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
    """Load (or reopen), resolve, retrieve and print; raise CliError for a bad file, viewer or name."""
    import asyncio
    import tempfile
    from pathlib import Path

    viewer = parse_viewer(args.viewer)
    names = [n.strip() for n in args.present.split(",") if n.strip()]
    if args.no_cache:
        with tempfile.TemporaryDirectory(prefix="tablekeeper-recall-") as tmp:
            folder = Path(tmp) / "ledger"
            _build(Path(args.scenario), folder)
            result = asyncio.run(_recall(args, folder, viewer, names, fresh=True))
    else:
        folder, built = _cached(Path(args.scenario), cache_root(args.cache))
        result = asyncio.run(_recall(args, folder, viewer, names, fresh=built))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        _print_text(result)
    return 0


#: Bump when what a cache folder holds changes shape (old folders are then simply not found again).
CACHE_FORMAT = "recall-1"
_READY = "ready.json"


def cache_root(given: str | None) -> Any:
    """The cache folder: ``given``, else ``$TABLEKEEPER_CACHE_DIR``, ``$XDG_CACHE_HOME/tablekeeper`` or
    ``~/.cache/tablekeeper``."""
    import os
    from pathlib import Path

    if given:
        return Path(given).expanduser()
    if os.environ.get("TABLEKEEPER_CACHE_DIR"):
        return Path(os.environ["TABLEKEEPER_CACHE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablekeeper"


def _cached(path: Any, root: Any) -> tuple[Any, bool]:
    """The folder holding ``path`` loaded (``ledger.db``, ``chroma/``, ``ready.json``), built when missing,
    and whether this call built it.

    Keyed by a hash of the file's bytes and the package version, so an edited file or a new release loads
    afresh. Built in a private folder and renamed into place, so a crash or a second process never leaves
    or sees half a ledger.
    """
    import hashlib
    import os
    import shutil
    from importlib.metadata import PackageNotFoundError, version

    try:
        data = path.read_bytes()
    except OSError:
        _validated(path)  # says why the file cannot be read, as validation does
        raise CliError(f"cannot read {path}") from None
    try:
        release = version("tablekeeper")
    except PackageNotFoundError:  # pragma: no cover - a source checkout without the package installed
        release = "source"
    stamp = f"\0{CACHE_FORMAT}\0{release}\0{_code_stamp()}"
    key = hashlib.sha256(data + stamp.encode()).hexdigest()[:32]
    folder = root / "recall" / key
    if (folder / _READY).is_file():
        return folder, False
    building = root / "recall" / f".{key}.{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    try:
        _build(path, building)
        try:
            building.rename(folder)
        except OSError:  # another process put it there first: use theirs
            if not (folder / _READY).is_file():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return folder, True


def _code_stamp() -> str:
    """Sizes and times of the code that writes a ledger (the store and the scenario loader): a changed
    loader in a working checkout must not answer from a ledger the old one wrote."""
    from pathlib import Path

    import ledger.scenario
    import ledger.store

    store = Path(next(iter(ledger.store.__path__)))
    files = [
        *sorted(Path(next(iter(ledger.scenario.__path__))).glob("*.py")),
        *(store / name for name in _WRITERS),
        *sorted((store / "migrations" / "versions").glob("*.py")),
    ]
    parts = []
    for file in files:
        info = file.stat()
        parts.append(f"{file.name}:{info.st_size}:{info.st_mtime_ns}")
    return ";".join(parts)


# The store's modules that decide what a loaded ledger holds (the rest of the store only reads it).
_WRITERS = ("models.py", "narrative.py", "vocabulary.py", "world.py", "writes.py", "visibility.py")


def _validated(path: Any) -> Any:
    from ledger.scenario.format import ScenarioError
    from ledger.scenario.reading import load_scenario

    try:
        return load_scenario(path)
    except ScenarioError as exc:
        raise CliError(f"{exc.source}: {exc.summary()}") from None


def _build(path: Any, folder: Any) -> None:
    """Validate ``path``, load it into ``folder/ledger.db``, write ``ready.json``.

    The summary index is not built here: the call that loads a file answers from its summaries in memory
    (:class:`~ledger.recall.exact_summaries.ExactSummaries`), and the next call builds the kept index.
    """
    import asyncio

    scenario = _validated(path)
    folder.mkdir(parents=True, exist_ok=True)

    async def load() -> int:
        from ledger.scenario.load import load_scenario_into
        from ledger.store.db import create_engine, init_db, ledger_session

        engine = create_engine(f"sqlite+aiosqlite:///{folder / 'ledger.db'}")
        try:
            await init_db(engine)
            async with ledger_session(engine) as s:
                cid = await load_scenario_into(s, scenario=scenario, source=path.name)
        finally:
            await engine.dispose()
        return cid

    cid = asyncio.run(load())
    ready = {
        "campaign_id": cid,
        "campaign": scenario.campaign.name,
        "current_session": scenario.campaign.current_session,
        "scenario": path.name,
    }
    (folder / _READY).write_text(json.dumps(ready), encoding="utf-8")


async def _recall(
    args: argparse.Namespace, folder: Any, viewer: Any, names: list[str], *, fresh: bool = False
) -> dict[str, Any]:
    """Resolve the scene and retrieve it. ``fresh``: the ledger was loaded by this call, which will ask no
    other scene, so its summaries are searched in memory instead of building the kept index first."""
    from ledger.recall.retrieval import scene_context
    from ledger.store.db import create_engine, ledger_session

    ready = json.loads((folder / _READY).read_text(encoding="utf-8"))
    cid = int(ready["campaign_id"])
    session_number = args.session if args.session is not None else int(ready["current_session"])
    engine = create_engine(f"sqlite+aiosqlite:///{folder / 'ledger.db'}")
    try:
        async with ledger_session(engine) as s:
            location = await _resolve(s, cid, args.at, viewer, kinds=("location",), what="location")
            present = [await _resolve(s, cid, n, viewer, kinds=("entity",), what="name") for n in names]
            if fresh:  # loaded by this call, which asks nothing else: no index to build first
                index = await _summaries_in_memory(s, cid)
            else:
                index = await _summary_index(s, cid, folder / "chroma")
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
        "scenario": ready["scenario"],
        "campaign": ready["campaign"],
        "session": session_number,
        "viewer": ctx.viewer,
        "location": {"id": location, "name": labels.get(location, location)},
        "present": [{"id": p, "name": labels.get(p, p)} for p in ctx.present],
        "dead": [{"id": d, "name": labels.get(d, d)} for d in ctx.dead],
        "records": [{"rank": i, **r.model_dump(mode="json")} for i, r in enumerate(ctx.records, start=1)],
        "summaries": [{**h.model_dump(mode="json"), "distance": round(h.distance, 4)} for h in ctx.summaries],
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
    """The campaign's summaries in the Chroma index under ``folder`` (offline hashing embedding), or None.

    The index is kept: :meth:`~ledger.recall.summaries.SummaryIndex.sync_now` embeds only summaries that are
    new or changed since the last call and drops those gone, and each summary row is marked ``indexed``.
    An index that cannot be used leaves the scene to the ledger's records (None).
    """
    from sqlalchemy import func, select, update

    from ledger.store import models as m

    summary = _c(m.Summary)
    # First only how many there are and which are not marked indexed: a kept index answers from that.
    states = (
        await session.exec(
            select(summary.index_state, func.count())
            .where(summary.campaign_id == cid)
            .group_by(summary.index_state)
        )
    ).all()
    total = sum(int(n) for _state, n in states)
    if not total:
        return None
    try:
        from ledger.recall.summaries import IndexUnavailable, SummaryIndex
    except ImportError:  # the summary layer is optional here
        return None
    index = SummaryIndex.local(folder)
    try:
        if all(state == "indexed" for state, _n in states) and index.count_now(str(cid)) == total:
            return index  # indexed when this ledger was built, and nothing changed since
    except IndexUnavailable:
        return None
    rows = await _summary_rows(session, cid)
    pending = [sid for sid, *_rest, state in rows if state != "indexed"]
    docs = await _summary_docs(session, cid, rows)
    try:
        # Rows SQL marks indexed were indexed from what they hold now: only the others are compared.
        index.sync_now(str(cid), docs, suspect=[f"summary-{sid}" for sid in pending])
    except IndexUnavailable:
        return None
    if pending:
        await (await session.connection()).execute(
            update(m.Summary).where(summary.id.in_(pending)).values(index_state="indexed")
        )
        await session.commit()
    return index


async def _summary_rows(session: Any, cid: int) -> list[Any]:
    """The campaign's summary rows: id, session, scope, text, event ids, visibility, index state."""
    from sqlalchemy import select

    from ledger.store import models as m

    summary = _c(m.Summary)
    return list(
        (
            await session.exec(
                select(
                    summary.id,
                    summary.session_number,
                    summary.scope,
                    summary.text,
                    summary.event_ids,
                    summary.visibility,
                    summary.index_state,
                ).where(summary.campaign_id == cid)
            )
        ).all()
    )


async def _summaries_in_memory(session: Any, cid: int) -> Any:
    """The campaign's summaries searched in memory by the index's rule (no Chroma), or None when it has
    none: for the call that has just loaded the ledger."""
    from ledger.recall.exact_summaries import ExactSummaries

    rows = await _summary_rows(session, cid)
    return ExactSummaries(await _summary_docs(session, cid, rows)) if rows else None


async def _summary_docs(session: Any, cid: int, rows: list[Any]) -> list[Any]:
    """Summary rows as the index stores them, each with the entities its events involve."""
    from sqlalchemy import select

    from ledger.recall.summaries import SummaryDoc
    from ledger.store import models as m

    involved: dict[str, set[str]] = {}
    event, entity = _c(m.Event), _c(m.EventEntity)
    for entity_id, ref in (
        await session.exec(
            select(entity.entity_id, event.ref)
            .join(m.Event, event.id == entity.event_id)
            .where(event.campaign_id == cid, entity.campaign_id == cid)
        )
    ).all():
        involved.setdefault(ref, set()).add(entity_id)
    return [
        SummaryDoc(
            id=f"summary-{sid}",
            session=number,
            scope=scope,
            text=text,
            event_ids=tuple(event_ids),
            visibility=visibility,
            entities=tuple(sorted(set().union(*(involved.get(r, set()) for r in event_ids)))),
        )
        for sid, number, scope, text, event_ids, visibility, _state in rows
    ]


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
