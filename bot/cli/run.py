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
from typing import TYPE_CHECKING, Any

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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the settings and the token, open the table, and run the bot until stopped."""
    from bot.config import ConfigError, load_settings

    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    token = require_token(settings)
    return asyncio.run(serve(settings, token))


def require_token(settings: Settings) -> str:
    """Return the bot token from the environment; raise CliError naming the variable when it is unset."""
    name = settings.discord.token_env
    token = settings.secret(name)
    if token is None:
        raise CliError(f"the environment variable {name} (discord.token_env) must hold the Discord bot token")
    return token


async def open_table(settings: Settings, courier: Any) -> Any:
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
    except (OSError, ConnectionError, TimeoutError) as exc:
        raise CliError(f"storage.database_url: cannot reach the database ({_one_line(exc)})") from None
    except Exception as exc:
        # Driver errors (sqlalchemy OperationalError, asyncpg, chromadb) are not imported here on purpose.
        where = "storage.database_url" if _looks_like_storage(exc) else "the configuration"
        raise CliError(f"{where}: cannot open the table ({type(exc).__name__}: {_one_line(exc)})") from None
    return table


def _looks_like_storage(exc: BaseException) -> bool:
    text = f"{type(exc).__module__} {type(exc).__name__} {exc}".lower()
    return any(word in text for word in ("sqlalchemy", "asyncpg", "sqlite", "database", "connect"))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


async def serve(settings: Settings, token: str) -> int:
    """Open the table, then log in and run the bot until it is closed; return the exit code."""
    import aiohttp
    import discord

    from bot.discord_client import DiscordCourier, build_bot

    bot = build_bot(settings)
    courier = DiscordCourier(bot)
    table = await open_table(settings, courier)
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
