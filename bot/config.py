"""Configuration: a TOML file validated into frozen pydantic models.

Secrets never live in the file: it names the environment variables that hold them
(``discord.token_env``, ``llm.api_key_env``), and :meth:`Settings.secret` reads them when needed.
Settings are built in ``main()`` by :func:`load_settings`, never at import time.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

MAX_CONFIG_BYTES = 1024 * 1024


class ConfigError(Exception):
    """The configuration is missing or invalid; the message names the key, the value and what was expected."""


def http_url(value: str) -> str:
    """Return ``value`` when it is an http(s) URL with a host; raise ``ValueError`` otherwise."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("expected an http:// or https:// URL with a host, like http://127.0.0.1:11434/v1")
    return value


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def guild_shard(guild_id: str, shard_count: int) -> int:
    """The Discord shard that carries ``guild_id``: ``(guild_id >> 22) % shard_count`` (Discord's formula).

    An id that is not a number (the terminal table's, a DM's) is on shard 0, as Discord puts DMs there.
    """
    try:
        return (int(guild_id) >> 22) % shard_count
    except ValueError:
        return 0


class DiscordSettings(_Section):
    """How the bot connects to Discord.

    Several processes share one database by each owning a range of shards: every process runs with the same
    ``shard_count`` and its own ``shard_ids``; a process closes the rounds (deadlines, resumes, retries) only
    of campaigns in the guilds its shards carry (see :meth:`owns_guild`).
    """

    token_env: str = "TABLEKEEPER_DISCORD_TOKEN"
    guild_ids: tuple[int, ...] = ()
    gm_role: str = "GM"
    sharded: bool = False
    shard_count: int | None = Field(default=None, ge=1)
    # Declared after shard_count and sharded: its validator reads them.
    shard_ids: tuple[int, ...] | None = None

    @field_validator("shard_ids")
    @classmethod
    def _shard_range(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        if "shard_count" not in info.data or "sharded" not in info.data:
            raise ValueError("fix discord.shard_count and discord.sharded first")
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs discord.shard_count (the same total in every process)")
        if not info.data["sharded"]:
            raise ValueError("needs discord.sharded = true")
        if not value:
            raise ValueError("expected at least one shard id; leave shard_ids out to run every shard")
        outside = sorted({n for n in value if not 0 <= n < count})
        if outside:
            raise ValueError(f"shard {outside[0]} is outside 0..{count - 1} (shard_count = {count})")
        repeated = sorted({n for n in value if value.count(n) > 1})
        if repeated:
            raise ValueError(f"shard {repeated[0]} is listed twice")
        return tuple(sorted(value))

    def owns_guild(self, guild_id: str) -> bool:
        """Whether this process's shards carry ``guild_id`` (every guild unless ``shard_ids`` is set)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return guild_shard(guild_id, self.shard_count) in self.shard_ids


class LLMSettings(_Section):
    """An OpenAI-compatible chat endpoint; ``enabled = false`` uses the offline narrator only."""

    enabled: bool = False
    base_url: str = "http://127.0.0.1:11434/v1"
    model: str = "llama3.1"
    api_key_env: str = "OPENAI_API_KEY"
    timeout_seconds: float = Field(default=30.0, gt=0, le=600)
    max_retries: int = Field(default=1, ge=0, le=5)
    context_tokens: int = Field(default=8192, ge=1024)
    reply_tokens: int = Field(default=900, ge=64)
    temperature: float = Field(default=0.8, ge=0, le=2)
    extract_claims: bool = True
    # The narrator declares its claims per sentence; when it did, the separate extraction call is skipped
    # unless this is true (a second reading costs a model call per draft).
    extract_when_declared: bool = False

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        return http_url(value)

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise ValueError("expected the name of an environment variable, like OPENAI_API_KEY")
        return value


class StorageSettings(_Section):
    """Where the ledger lives. An empty ``database_url`` means SQLite under ``data_dir``."""

    database_url: str = ""
    data_dir: Path = Path("~/.local/share/tablekeeper")

    @field_validator("database_url")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        if value and not value.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            raise ValueError("expected sqlite+aiosqlite://... or postgresql+asyncpg://...")
        return value

    def resolved_data_dir(self) -> Path:
        """Return ``data_dir`` with ``~`` expanded."""
        return self.data_dir.expanduser()

    def resolved_database_url(self) -> str:
        """Return the configured URL, or the default SQLite file under the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.resolved_data_dir() / 'tablekeeper.db'}"


class ChromaSettings(_Section):
    """Summary index: a local folder (``local``) or a Chroma server (``http``)."""

    mode: Literal["local", "http"] = "local"
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    # local: campaigns whose vector index stays in memory (about 2.6 MB each); the least recently used beyond
    # it is evicted and loaded from disk on its next use. Chroma's own default keeps them all.
    resident_collections: int = Field(default=64, ge=1, le=100_000)


class EmbeddingSettings(_Section):
    """``hashing`` is deterministic and offline; ``openai`` calls an OpenAI-compatible embeddings endpoint."""

    provider: Literal["hashing", "openai"] = "hashing"
    model: str = "text-embedding-3-small"
    base_url: str = "https://api.openai.com/v1"
    api_key_env: str = "OPENAI_API_KEY"
    # Each call is bounded: a slow or down endpoint costs at most timeout x (retries + 1) per batch, then the
    # table plays on with ledger records only and indexes the summary later.
    timeout_seconds: float = Field(default=20.0, gt=0, le=600)
    max_retries: int = Field(default=2, ge=0, le=5)
    batch_size: int = Field(default=64, ge=1, le=2048)


class RoundSettings(_Section):
    """Round timing and what absent players do."""

    deadline_minutes: float = Field(default=10.0, gt=0, le=7 * 24 * 60)
    default_action: str = Field(default="holds position", min_length=1, max_length=200)


class Settings(_Section):
    """All of Tablekeeper's settings."""

    discord: DiscordSettings = DiscordSettings()
    llm: LLMSettings = LLMSettings()
    storage: StorageSettings = StorageSettings()
    chroma: ChromaSettings = ChromaSettings()
    embeddings: EmbeddingSettings = EmbeddingSettings()
    rounds: RoundSettings = RoundSettings()

    @staticmethod
    def secret(env_name: str) -> str | None:
        """Return the secret held by environment variable ``env_name``, or None when it is unset or empty."""
        value = os.environ.get(env_name, "").strip()
        return value or None


def _describe(errors: list[dict[str, Any]], source: str) -> str:
    lines = []
    for err in errors:
        key = ".".join(str(part) for part in err["loc"])
        value = err.get("input")
        if err["type"] == "extra_forbidden":
            lines.append(f"{source}: unknown setting {key!r}")
        else:
            shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
            lines.append(f"{source}: {key} = {shown}: {err['msg'].removeprefix('Value error, ')}")
    return "; ".join(lines)


def parse_settings(data: dict[str, Any], *, source: str = "config") -> Settings:
    """Validate a parsed TOML mapping; raise :class:`ConfigError` naming each bad key."""
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe([dict(e) for e in exc.errors()], source)) from None


def load_settings(path: str | Path | None) -> Settings:
    """Read and validate the TOML file at ``path``; ``None`` gives the defaults (offline, SQLite)."""
    if path is None:
        return Settings()
    from ledger.scenario.reading import read_toml

    file = Path(path)
    try:
        if file.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{file}: too large for a configuration file (at most {MAX_CONFIG_BYTES:,} B)")
        data = read_toml(file.read_text(encoding="utf-8"), max_bytes=MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such configuration file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read ({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        raise ConfigError(f"{file}: {exc}") from None
    return parse_settings(data, source=str(file))
