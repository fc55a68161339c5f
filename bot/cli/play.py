"""``tablekeeper play --scenario FILE [--data DIR] [--seed N]``: a local table at one keyboard.

Every line is a command, said by a player: ``alice: /act attack the thug`` (the name before the colon speaks
and becomes the current player), or ``/as alice`` then plain ``/act ...``. A line without a command is an
action (``alice: grab the spyglass``). The commands mirror the Discord ones::

    /join NAME-or-claim            /act TEXT [target: X] [item: Y] [skill: Z]     /ready
    /round status | close (GM)     /ledger inventory [PLAYER] | threads | history [N] | record ID
    /ledger relationships [NPC] | notes | dispute ID REASON              /recap   /remember TEXT
    /gm rule ID accept|reject NOTE | thread ID STATUS NOTE | disputes               /roll EXPR
    /gm npc name: N [description: D] [location: L] [stats: C] [attitude: A] [pronouns: P]
    /gm spawn creature: C [count: N] [name: N] [location: L]      /gm move who: W|party to: L [description: D]
    /gm item name: N [to: H] [quantity: Q] [description: D]       /gm item-remove name: N fate: F [from: H]
    /gm thread-open kind: K from: A to: B terms: T [visibility: V] /gm secret about: X text: T [for: PLAYER]
    /status   /who   /as NAME   /help   /quit

The speaker ``gm`` is the game master (the campaign owner). Lines are read from stdin (piped or typed) and
everything is printed to stdout; a bad line gets one line of explanation, never a traceback. Without
``--data`` the ledger lives in a temporary folder deleted at the end; with it, the campaign persists and a
later ``play`` with the same folder continues it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import shlex
import sys
import threading
import uuid
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

from bot.cli import CliError
from bot.text import clean_text

GM_NAME = "gm"
DB_FILE = "tablekeeper.db"  # the SQLite file bot.config puts under the data folder
TICK_SECONDS = 5.0  # how often a waiting terminal checks round deadlines (the bot checks every 30 s)
OPTION = re.compile(r"\[\s*(target|item|skill)\s*:\s*([^\]]+?)\s*\]", re.I)
SPEAKER = re.compile(r"^\s*([A-Za-z][\w.-]{0,31})\s*:\s*(.*)$")
HELP = """commands (prefix a line with NAME: to speak as NAME, or use /as NAME):
  /join NAME-or-claim             sit down: claim a scenario character (e.g. Greyrock) or create one
  /act TEXT [target: X] [item: Y] [skill: Z]   declare (or change) your action; plain text works too
  /ready                          your action is final (the round closes when everyone is ready)
  /round status | /round close    who acted / close the round now (GM)
  /ledger inventory [PLAYER] | threads | history [N] | record ID | relationships [NPC] | notes
  /ledger dispute ID REASON       object to a record; the GM rules on it
  /gm rule ID accept|reject NOTE  /gm thread ID STATUS NOTE  /gm disputes  /gm conflicts   (GM)
  /gm npc name: N [description: D] [location: L] [stats: C] [attitude: A] [pronouns: P]   (GM)
  /gm spawn creature: C [count: N] [name: N] [location: L]   /gm move who: NPC|party to: L [description: D]
  /gm item name: N [to: H] [quantity: Q] [description: D]    /gm item-remove name: N fate: F [from: H]
  /gm thread-open kind: K from: A to: B terms: T [visibility: everyone|gm|PLAYER]
  /gm secret about: X text: T [for: PLAYER]
  /roll EXPR   /recap   /remember TEXT   /status   /who   /as NAME   /help   /quit"""


def add_parser(subparsers: Any) -> None:
    """Register ``play``."""
    parser = subparsers.add_parser(
        "play",
        help="play a scenario at one keyboard: commands on stdin, the table on stdout",
        description="A local table: players (and the GM) type commands; the same table as on Discord.",
    )
    parser.add_argument("--scenario", required=True, metavar="FILE", help="the scenario .toml file")
    parser.add_argument(
        "--data", metavar="DIR", default=None, help="keep the ledger in DIR (default: a temporary folder)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the round dice (reproducible sessions)")
    parser.add_argument(
        "--rich",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="force (or disable) rich rendering",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start (or continue) the campaign and serve commands from stdin until /quit or end of input."""
    from bot.terminal import Screen

    scenario = Path(args.scenario)
    if not scenario.is_file():
        raise CliError(f"{scenario}: no such scenario file")
    from ledger.scenario.reading import MAX_SCENARIO_BYTES

    if scenario.stat().st_size > MAX_SCENARIO_BYTES:  # refused before a ledger is created for it
        raise CliError(
            f"{scenario}: file too large: {scenario.stat().st_size:,} bytes, at most {MAX_SCENARIO_BYTES:,}"
        )
    if args.seed is not None and not 0 <= args.seed < 2**63:
        raise CliError(f"--seed must be between 0 and 2**63-1, not {args.seed}")
    screen = Screen(rich=args.rich)
    return asyncio.run(_main(args, scenario, screen, sys.stdin))


async def _main(args: argparse.Namespace, scenario: Path, screen: Any, stdin: TextIO) -> int:
    import random
    import tempfile

    if args.data:
        data = Path(args.data).expanduser()
        try:
            data.mkdir(parents=True, exist_ok=True)
            probe = data / ".tablekeeper-write-test"
            probe.write_bytes(b"")
            probe.unlink()
            if (data / DB_FILE).exists() and not (data / DB_FILE).is_file():
                raise IsADirectoryError(0, f"{DB_FILE} there is not a file")
        except OSError as err:
            raise CliError(f"{data}: cannot use as data folder ({err.strerror or err})") from None
        return await _serve(args, scenario, screen, stdin, data, random)
    with tempfile.TemporaryDirectory(prefix="tablekeeper-play-") as tmp:
        return await _serve(args, scenario, screen, stdin, Path(tmp), random)


async def _serve(
    args: argparse.Namespace, scenario: Path, screen: Any, stdin: TextIO, data: Path, random: Any
) -> int:
    from bot.config import parse_settings
    from bot.errors import NoCampaign, TableError
    from bot.table import Table
    from bot.terminal import TerminalCourier, show_campaign
    from bot.views import Where

    settings = parse_settings({"storage": {"data_dir": str(data)}})
    overrides: dict[str, Any] = {}
    if args.seed is not None:
        rng = random.Random(args.seed)
        overrides["seeds"] = lambda: rng.randrange(1, 2**31)
    courier = TerminalCourier()
    try:
        table = await Table.create(settings, courier=courier, **overrides)
    except Exception as err:  # a read-only folder, a folder named like the database file: one line
        logging.getLogger(__name__).debug("cannot open the ledger", exc_info=True)
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise CliError(f"{data}: cannot open the ledger there ({reason[:160]})") from None
    try:
        session = PlaySession(table, courier, screen, Where(guild_id="local", channel_id="table"), data=data)
        try:
            await table.campaign_status(session.where, session.caller(GM_NAME))
            await table.resume()
            screen.line(f"Continuing the campaign kept in {data}.")
        except NoCampaign:
            try:
                await table.start_campaign_from_file(session.where, session.caller(GM_NAME), path=scenario)
            except TableError as err:
                message = str(err)  # a scenario problem already starts with the file name: say it once
                raise CliError(
                    message if message.startswith(f"{scenario}:") else f"{scenario}: {message}"
                ) from None
        show_campaign(screen, await table.campaign_status(session.where, session.caller(GM_NAME)))
        screen.line("Type /help for the commands; 'NAME: /join CHARACTER' to sit down; /quit to stop.")
        intact = await session.loop(stdin)
    finally:
        await table.aclose()
    return 0 if intact else 1


class PlaySession:
    """One keyboard, many speakers: parses lines and calls the table, printing what comes back."""

    def __init__(
        self, table: Any, courier: Any, screen: Any, where: Any, *, data: Path | None = None
    ) -> None:
        self.table = table
        self.data = data  # the folder holding the SQLite ledger, watched so a deleted one is noticed
        self.courier = courier
        self.s = screen
        self.where = where
        self.current: str | None = None
        self.names: dict[str, str] = {}  # user id -> speaker name
        self.shown_posts = 0
        self.shown_dms = 0
        self.keys = 0
        self.run_id = uuid.uuid4().hex[:12]

    def caller(self, name: str) -> Any:
        """The Caller for a speaker: ``gm`` has the GM role; ids are stable numbers derived from the name."""
        from bot.views import Caller

        key = name.lower()
        user_id = "1" if key == GM_NAME else str(1000 + zlib.crc32(key.encode()) % 900_000_000)
        self.names[user_id] = name
        return Caller(user_id=user_id, display_name=name, has_gm_role=key == GM_NAME)

    def who(self, user_id: str | None) -> str:
        return self.names.get(user_id or "", user_id or "?")

    async def loop(self, stdin: TextIO) -> bool:
        """Serve lines until /quit or end of input; return False when the data folder vanished meanwhile.

        Round deadlines are enforced as on Discord: the table's :meth:`tick` runs before every command and,
        while a real terminal or pipe is waited on, every :data:`TICK_SECONDS` in the background. Reading a
        real stdin happens in a daemon thread, so Ctrl-C stops the session at once (asyncio cancels the
        main task; the table is closed in ``finally``) and a blocked read never holds the process.
        """
        interactive = bool(getattr(stdin, "isatty", lambda: False)())
        read = _line_reader(stdin)
        ticker = asyncio.create_task(self._tick_forever()) if read is not None else None
        try:
            while True:
                if interactive:
                    print(f"{self.current or '?'}> ", end="", flush=True)
                raw = await read() if read is not None else stdin.readline()
                if not await self.ledger_intact():
                    return False
                if not raw:
                    break
                line = clean_text(raw).strip()  # no terminal escapes echoed back, none sent to the table
                if not line or line.startswith("#"):
                    continue
                if not interactive:
                    self.s.line(f"> {line}")
                await self.tick()
                if not await self.handle(line):
                    break
        finally:
            if ticker is not None:
                ticker.cancel()
        if not await self.ledger_intact():
            return False
        self.s.line("Goodbye.")
        return True

    async def tick(self) -> None:
        """Close the rounds whose deadline passed (and retry due posts), then print what they sent."""
        try:
            await self.table.tick()
        except Exception:  # never a traceback at the table; the next tick tries again
            logging.getLogger(__name__).warning("the round deadline check failed", exc_info=True)
        self.flush()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            await self.tick()

    async def ledger_intact(self) -> bool:
        """Whether the SQLite ledger file still exists; if it was deleted, save it again and say so.

        On Linux the open database keeps working after its folder is deleted, and everything is lost at
        exit. So the session notices, writes the still-open database back to its path (``VACUUM INTO``),
        and stops with one line, rather than playing on into nothing.
        """
        if self.data is None:
            return True
        path = self.data / DB_FILE
        if path.exists():
            return True
        try:
            self.data.mkdir(parents=True, exist_ok=True)
            # A pooled connection still holds the deleted file open; VACUUM must run outside a transaction,
            # and the ledger's engine begins one on every statement, so it goes to the driver directly.
            async with self.table.engine.connect() as conn:
                raw = await conn.get_raw_connection()
                await raw.driver_connection.execute("VACUUM INTO ?", (str(path),))
        except Exception as err:
            self.s.line(
                f"error: the data folder {self.data} was deleted during play and the campaign could not be "
                f"saved again ({type(err).__name__}); stopping"
            )
            return False
        self.s.line(
            f"error: the data folder {self.data} was deleted during play; the campaign was saved again to "
            f"{path}; stopping (run play with the same --data to continue)"
        )
        return False

    async def handle(self, line: str) -> bool:
        """Run one line; return False to stop. Every failure becomes one printed line."""
        from bot.errors import TableError

        try:
            return await self._dispatch(line)
        except TableError as err:
            self.s.error(str(err))
        except UsageError as err:
            self.s.line(f"error: {err}")
        except Exception as err:  # never a traceback at the table
            logging.getLogger(__name__).debug("command failed", exc_info=True)
            self.s.line(f"error: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else 'failed'}")
        finally:
            self.flush()
        return True

    def flush(self) -> None:
        """Print the channel posts and DMs the table sent since the last command."""
        from bot.terminal import plain

        for message in self.courier.public[self.shown_posts :]:
            self.s.panel("#table", plain(message.text), style="green")
        self.shown_posts = len(self.courier.public)
        for message in self.courier.dms[self.shown_dms :]:
            self.s.panel(f"DM to {self.who(message.user_id)} (private)", plain(message.text), style="magenta")
        self.shown_dms = len(self.courier.dms)

    async def _dispatch(self, line: str) -> bool:
        found = SPEAKER.match(line)
        if found and not line.startswith("/"):
            self.current = found.group(1)
            line = found.group(2).strip()
            if not line:
                self.s.line(f"(now speaking: {self.current})")
                return True
        if not line.startswith("/"):
            line = f"/act {line}"
        command, _, rest = line[1:].partition(" ")
        command, rest = command.lower(), rest.strip()
        if command in ("quit", "exit"):
            return False
        if command == "help":
            for row in HELP.splitlines():
                self.s.line(row)
            return True
        if command == "as":
            if not rest or not SPEAKER.match(f"{rest}:"):
                raise UsageError("usage: /as NAME")
            self.current = rest
            self.s.line(f"(now speaking: {rest})")
            return True
        if command == "roll":
            if not rest:
                raise UsageError("usage: /roll EXPR, e.g. /roll 2d6+3")
            from bot.terminal import show_roll

            show_roll(self.s, await self.table.roll(self._speaker(), expression=rest))
            return True
        handler = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            raise UsageError(f"unknown command '/{command}'; type /help")
        await handler(rest)
        return True

    def _speaker(self) -> Any:
        if self.current is None:
            raise UsageError("who is speaking? Start the line with 'NAME:' or use /as NAME")
        return self.caller(self.current)

    # --- commands --------------------------------------------------------------------------------------

    async def _cmd_status(self, rest: str) -> None:
        from bot.terminal import show_campaign

        show_campaign(self.s, await self.table.campaign_status(self.where, self._speaker()))

    async def _cmd_who(self, rest: str) -> None:
        c = await self.table.campaign_status(self.where, self._speaker())
        players = [re.sub(r"<@(\w+)>", lambda m: self.who(m.group(1)), p) for p in c.players]
        self.s.line(f"at the table: {', '.join(players) or 'nobody yet'}")

    async def _cmd_join(self, rest: str) -> None:
        from bot.errors import NotFound
        from bot.terminal import show_character

        if not rest:
            raise UsageError("usage: /join NAME-or-claim (e.g. /join Greyrock)")
        caller = self._speaker()
        try:
            view = await self.table.join(self.where, caller, claim=rest)
        except NotFound:
            view = await self.table.join(self.where, caller, name=rest)
        show_character(self.s, caller.display_name, view)

    async def _cmd_act(self, rest: str) -> None:
        from bot.terminal import show_receipt

        options = {k.lower(): val for k, val in OPTION.findall(rest)}
        text = OPTION.sub("", rest).strip()
        if not text and not options:
            raise UsageError("usage: /act TEXT [target: X] [item: Y] [skill: Z]")
        caller = self._speaker()
        self.keys += 1
        # Unique across runs: a campaign kept with --data sees every earlier run's submission keys.
        key = f"play-{self.run_id}-{self.keys}"
        receipt = await self.table.submit(self.where, caller, key=key, text=text, **options)
        show_receipt(self.s, caller.display_name, text, receipt)

    async def _cmd_ready(self, rest: str) -> None:
        receipt = await self.table.ready(self.where, self._speaker())
        if receipt.report is None:
            self.s.line(f"ready; round {receipt.round_number} waits for {', '.join(receipt.waiting)}")
        else:
            await self._report(receipt.report)

    async def _cmd_round(self, rest: str) -> None:
        from bot.terminal import show_status

        sub = rest.split()[0].lower() if rest else ""
        if sub == "status":
            show_status(self.s, await self.table.round_status(self.where, self._speaker()))
        elif sub == "close":
            await self._report(await self.table.close_round(self.where, self._speaker()))
        else:
            raise UsageError("usage: /round status | /round close")

    async def _report(self, report: Any) -> None:
        from bot.terminal import display_names, report_ids, show_report

        campaign = await self.table.campaign_status(self.where, self.caller(GM_NAME))
        names = await display_names(self.table.engine, campaign.id, report_ids(report))
        show_report(self.s, report, names, narration=False)

    async def _cmd_ledger(self, rest: str) -> None:
        from bot import terminal as t

        sub, _, arg = rest.partition(" ")
        sub, arg = sub.lower(), arg.strip()
        caller = self._speaker()
        if sub == "inventory":
            other = self.caller(arg).user_id if arg else None
            t.show_inventory(self.s, await self.table.inventory(self.where, caller, player_user_id=other))
        elif sub == "threads":
            t.show_threads(self.s, await self.table.threads(self.where, caller))
        elif sub == "history":
            count = _int(arg, "usage: /ledger history [N]") if arg else 10
            t.show_history(self.s, await self.table.history(self.where, caller, count=count))
        elif sub == "record":
            if not arg:
                raise UsageError("usage: /ledger record ID")
            t.show_record(self.s, await self.table.record(self.where, caller, ref=arg))
        elif sub == "relationships":
            t.show_relationships(self.s, await self.table.relationships(self.where, caller, npc=arg or None))
        elif sub == "notes":
            t.show_notes(self.s, caller.display_name, await self.table.notes(self.where, caller))
        elif sub == "dispute":
            ref, _, reason = arg.partition(" ")
            if not ref or not reason.strip():
                raise UsageError("usage: /ledger dispute ID REASON")
            self._show_dispute(await self.table.dispute(self.where, caller, ref=ref, reason=reason))
        else:
            raise UsageError(
                "usage: /ledger inventory|threads|history [N]|record ID|relationships [NPC]|notes"
                " | /ledger dispute ID REASON"
            )

    def _show_dispute(self, d: Any) -> None:
        from bot.terminal import show_dispute

        show_dispute(self.s, d.model_copy(update={"raised_by": self.who(d.raised_by)}))

    async def _cmd_gm(self, rest: str) -> None:
        from bot.terminal import show_thread

        sub, _, options = rest.strip().partition(" ")
        if sub.lower() in WORLD_COMMANDS:
            await self._gm_world(sub.lower(), options)
            return
        try:
            parts = shlex.split(rest)
        except ValueError:
            parts = rest.split()
        sub = parts[0].lower() if parts else ""
        caller = self._speaker()
        if sub == "rule":
            if len(parts) < 3 or parts[2].lower() not in ("accept", "reject"):
                raise UsageError("usage: /gm rule ID accept|reject NOTE")
            dispute_id = _int(parts[1].lstrip("#"), "usage: /gm rule ID accept|reject NOTE (ID is a number)")
            note = " ".join(parts[3:])
            view = await self.table.gm_rule(
                self.where, caller, dispute_id=dispute_id, accept=parts[2].lower() == "accept", note=note
            )
            self._show_dispute(view)
        elif sub == "thread":
            if len(parts) < 3:
                raise UsageError("usage: /gm thread ID settled|broken|expired NOTE")
            show_thread(
                self.s,
                await self.table.gm_thread(
                    self.where, caller, thread_id=parts[1], status=parts[2].lower(), note=" ".join(parts[3:])
                ),
            )
        elif sub == "conflicts":
            conflicts = await self.table.gm_conflicts(self.where, caller)
            for c in conflicts:
                self.s.line(f"conflict #{c.id} (round {c.round_number}): {c.claim} [{c.status}]")
            if not conflicts:
                self.s.line("no conflicts")
        elif sub == "disputes":
            disputes = await self.table.gm_disputes(self.where, caller)
            for d in disputes:
                self._show_dispute(d)
            if not disputes:
                self.s.line("no open disputes")
        else:
            raise UsageError(
                "usage: /gm rule ID accept|reject NOTE | /gm thread ID STATUS NOTE | /gm disputes"
                " | /gm conflicts | /gm npc|spawn|move|item|item-remove|thread-open|secret KEY: VALUE ..."
            )

    async def _gm_world(self, sub: str, text: str) -> None:
        """``/gm npc name: Marta Vell attitude: 20``: the same world commands and options as on Discord."""
        method, keys, required, numbers = WORLD_COMMANDS[sub]
        options = _options(text, keys)
        missing = [k for k in required if not options.get(k)]
        if missing:
            shown = " ".join(f"{k}: ..." for k in keys)
            raise UsageError(f"usage: /gm {sub} {shown} ({', '.join(missing)} needed)")
        args: dict[str, Any] = {}
        for key, value in options.items():
            name = {"from": "holder" if sub == "item-remove" else "from_", "for": "for_"}.get(key, key)
            args[name] = (
                _int(value, f"usage: /gm {sub}: {key} is a whole number") if key in numbers else value
            )
        view = await getattr(self.table, method)(self.where, self._speaker(), **args)
        self.s.line(view.summary)
        for line in (*view.changes, *view.notices):
            self.s.line(f"  {line}")

    async def _cmd_recap(self, rest: str) -> None:
        from bot.terminal import show_recap

        show_recap(self.s, await self.table.recap(self.where, self._speaker()))

    async def _cmd_remember(self, rest: str) -> None:
        if not rest:
            raise UsageError("usage: /remember TEXT (a fact, promise or clue from play)")
        view = await self.table.remember(self.where, self._speaker(), text=rest)
        if view.status == "accepted":
            private = " (private)" if view.visibility.startswith("player:") else ""
            self.s.line(
                f"remembered as {'a thread' if view.kind == 'thread' else 'an event'}, {view.source}{private}"
            )
        else:
            self.s.line(f"sent to the GM (proposal #{view.proposal_id}): {view.reason}")


def _line_reader(stdin: TextIO) -> Callable[[], Awaitable[str]] | None:
    """An awaitable ``readline`` for a real file descriptor (terminal or pipe), or None for a text buffer.

    One daemon thread reads ahead into a queue: the event loop stays free for the deadline ticker and for
    Ctrl-C, and a read still blocked at exit does not keep the process alive.
    """
    try:
        stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def pump() -> None:
        while True:
            try:
                raw = stdin.readline()
            except (OSError, ValueError):
                raw = ""
            try:
                loop.call_soon_threadsafe(lines.put_nowait, raw)
            except RuntimeError:  # the loop is closed: the session is over
                return
            if not raw:
                return

    threading.Thread(target=pump, name="tablekeeper-stdin", daemon=True).start()
    return lines.get


#: ``/gm <sub>`` world commands: (table method, option keys in order, required keys, whole-number keys).
WORLD_COMMANDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "npc": (
        "gm_npc",
        ("name", "description", "location", "stats", "attitude", "pronouns"),
        ("name",),
        ("attitude",),
    ),
    "spawn": ("gm_spawn", ("creature", "count", "name", "location"), ("creature",), ("count",)),
    "move": ("gm_move", ("who", "to", "description"), ("who", "to"), ()),
    "item": ("gm_item", ("name", "to", "quantity", "description"), ("name",), ("quantity",)),
    "item-remove": ("gm_item_remove", ("name", "fate", "from", "quantity"), ("name", "fate"), ("quantity",)),
    "thread-open": (
        "gm_thread_open",
        ("kind", "from", "to", "terms", "visibility"),
        ("kind", "from", "to", "terms"),
        (),
    ),
    "secret": ("gm_secret", ("about", "text", "for"), ("about", "text"), ()),
}


def _options(text: str, keys: tuple[str, ...]) -> dict[str, str]:
    """``name: Marta Vell attitude: 20`` -> ``{"name": "Marta Vell", "attitude": "20"}`` for the known keys.

    A value runs to the next known ``key:``; anything before the first key is an error (say which keys exist).
    """
    pattern = re.compile(r"(?:^|(?<=\s))(" + "|".join(re.escape(k) for k in keys) + r")\s*:", re.I)
    found = list(pattern.finditer(text))
    if text.strip() and (not found or text[: found[0].start()].strip()):
        raise UsageError(f"options are KEY: VALUE, with KEY one of: {', '.join(keys)}")
    out: dict[str, str] = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        out[match.group(1).lower()] = text[match.end() : end].strip()
    return out


class UsageError(Exception):
    """A malformed command line: printed as one line starting with ``error:``."""


def _int(text: str, usage: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(usage) from None
