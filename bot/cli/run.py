"""``tablekeeper run --config FILE``: run the Discord bot.

Order matters so that every mistake ends with one line before anything connects to Discord: read and validate
the settings, check the token's environment variable, open the table (database, summary index, narrator), and
only then log in. The token never appears in the configuration file or in any message.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import socket
import sys
import traceback
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.cli import CliError

if TYPE_CHECKING:
    from bot.config import Settings

_log = logging.getLogger(__name__)


def add_parser(subparsers: Any) -> None:
    """Register ``run`` and its arguments."""
    parser = subparsers.add_parser(
        "run",
        help="run the Discord bot",
        description="Connect to Discord and serve every campaign in the configured guilds. "
        "The bot token is read from the environment variable named by discord.token_env.",
    )
    parser.add_argument("--config", metavar="FILE", required=True, help="TOML configuration file")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="on a start-up failure also print the traceback (it is always written to the log file)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the settings and the token, open the table, and run the bot until stopped."""
    from bot.config import ConfigError, load_settings

    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    token = require_token(settings)
    require_llm_key(settings)
    require_storage(settings)
    require_rules_data()
    return asyncio.run(serve(settings, token, debug=bool(getattr(args, "debug", False))))


def require_llm_key(settings: Settings) -> None:
    """With an LLM enabled at a remote endpoint, its key variable must be set; a local one may need none."""
    llm = settings.llm
    if not llm.enabled or settings.secret(llm.api_key_env) is not None:
        return
    host = urlsplit(llm.base_url).hostname or ""
    if host in ("localhost", "::1") or host.startswith("127."):
        return  # a local server (Ollama, llama.cpp) usually takes no key
    raise CliError(
        f"llm.api_key_env: the environment variable {llm.api_key_env} is not set, "
        f"and {llm.base_url} is not a local endpoint"
    )


def require_rules_data() -> None:
    """Load the rules data (weapons, bestiary) now: a broken file stops the start, naming file and entry.

    Otherwise the first /act of the evening would meet it. ``DataError`` is reported by ``bot.cli.main``.
    """
    from rules.srd import bestiary, weapons

    weapons()
    bestiary()


def require_storage(settings: Settings) -> None:
    """Refuse, naming the setting, a data folder that cannot be written or a Chroma server that is down."""
    data_dir = settings.storage.resolved_data_dir()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".tablekeeper-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise CliError(f"storage.data_dir: cannot write to {data_dir} ({exc.strerror or exc})") from None
    chroma = settings.chroma
    if chroma.mode == "http":
        try:
            socket.create_connection((chroma.host, chroma.port), timeout=5).close()
        except OSError as exc:
            raise CliError(
                f"chroma.host/chroma.port: no Chroma server answers at {chroma.host}:{chroma.port} "
                f"({exc.strerror or exc})"
            ) from None


def _startup_failure(settings: Settings, exc: BaseException, message: str, *, debug: bool) -> CliError:
    """Keep the one line for the user, and put the traceback where it can be found: the log file, --debug."""
    trace = "".join(traceback.format_exception(exc))
    if debug:
        print(trace, file=sys.stderr, end="")
    log_file = settings.storage.resolved_data_dir() / "tablekeeper.log"
    try:
        with log_file.open("a", encoding="utf-8") as out:
            out.write(f"{datetime.now(UTC).isoformat()} start-up failed: {message}\n{trace}\n")
    except OSError:
        _log.error("start-up failed: %s", message, exc_info=exc)
        return CliError(message)
    return CliError(f"{message} (traceback in {log_file})")


def require_token(settings: Settings) -> str:
    """Return the bot token from the environment; raise CliError naming the variable when it is unset."""
    name = settings.discord.token_env
    token = settings.secret(name)
    if token is None:
        raise CliError(f"the environment variable {name} (discord.token_env) must hold the Discord bot token")
    return token


async def open_table(settings: Settings, courier: Any, *, debug: bool = False) -> Any:
    """Build the table the bot serves; raise CliError naming the setting when storage cannot be opened."""
    try:
        from bot.table import Table
    except ImportError as exc:  # pragma: no cover - only while the table is being built
        raise CliError(f"the table cannot be loaded: {exc}") from None
    factory = getattr(Table, "create", None)
    try:
        if factory is None:
            raise CliError("the table has no create(settings, courier=...) constructor yet")
        table = factory(settings, courier=courier)
        if inspect.isawaitable(table):
            table = await table
    except CliError:
        raise
    except Exception as exc:
        # Driver errors (sqlalchemy OperationalError, asyncpg, chromadb) are not imported here on purpose.
        where = _setting_for(exc)
        message = f"{where}: cannot open the table ({type(exc).__name__}: {_one_line(exc)})"
        raise _startup_failure(settings, exc, message, debug=debug) from None
    return table


def _setting_for(exc: BaseException) -> str:
    """Name the setting a start-up failure most likely comes from, by the module that raised it."""
    frames = traceback.extract_tb(exc.__traceback__)
    modules = " ".join(f.filename for f in frames).lower()
    text = f"{type(exc).__module__} {type(exc).__name__} {exc}".lower()
    if "chroma" in text or "/chromadb/" in modules or "ledger/summaries" in modules:
        return "chroma.mode/chroma.host"
    if "embedding" in text or "ledger/embeddings" in modules:
        return "embeddings.base_url"
    if "/openai/" in modules or "bot/narrator" in modules:
        return "llm.base_url"
    if any(word in text for word in ("sqlalchemy", "asyncpg", "sqlite", "database", "connect")) or isinstance(
        exc, OSError | ConnectionError | TimeoutError
    ):
        return "storage.database_url"
    return "the configuration"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


async def serve(settings: Settings, token: str, *, debug: bool = False) -> int:
    """Open the table, then log in and run the bot until it is closed; return the exit code."""
    import aiohttp
    import discord

    from bot.discord_client import build_bot
    from bot.discord_courier import DiscordCourier

    bot = build_bot(settings)
    courier = DiscordCourier(bot)
    table = await open_table(settings, courier, debug=debug)
    bot.table = table  # type: ignore[attr-defined]
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        raise CliError(
            f"Discord refused the token in {settings.discord.token_env}: reset it and try again"
        ) from None
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        raise CliError(f"cannot reach Discord ({_one_line(exc)}): check the network and try again") from None
    except discord.PrivilegedIntentsRequired as exc:  # pragma: no cover - we ask for none
        raise CliError(f"Discord refused the intents: {exc}") from None
    finally:
        close = getattr(table, "aclose", None)
        if close is not None:
            result = close()
            if inspect.isawaitable(result):
                await result
    return 0
