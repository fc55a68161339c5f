"""Discord without Discord: drive the real bot and CommandTree with raw gateway payloads.

:class:`DiscordHarness` builds the real :class:`~bot.discord_client.TablekeeperBot` (cogs loaded, tree
synced), then feeds it INTERACTION_CREATE payloads as Discord sends them (slash commands with options and
subcommand groups, autocomplete, button presses) through ``ConnectionState.parse_interaction_create`` and
awaits the task discord.py starts. Nothing leaves the process:

* interaction responses and followups go through :class:`RecordingWebhookAdapter`, installed in
  ``discord.webhook.async_.async_context`` for each interaction;
* everything else (channel posts, DM channel creation and DMs, command sync) goes through
  ``client.http.request``, replaced by :meth:`DiscordHarness._http_request`, which records the call and
  answers with a minimal valid payload. Users in :attr:`DiscordHarness.dm_closed` get ``Forbidden`` (50007).

:class:`FakeTable` is an in-memory stand-in for :class:`bot.table.Table` with the same method signatures, so
the cogs can be tested before (and independently of) the real table.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.config import DiscordSettings, Settings
from bot.discord_client import build_bot
from bot.discord_courier import DiscordCourier
from bot.errors import InvalidAction, NoCampaign, NoOpenRound, NotAPlayer, NotFound, NotGM, TableError
from bot.narrator.proposals import NominationView, ProposalView, UndoView
from bot.table import DMClosed, ResendView
from bot.table.campaigns import CampaignExportView
from bot.views import (
    ActionLine,
    Caller,
    CampaignView,
    CharacterView,
    Choice,
    ConflictView,
    DisputeView,
    EdgeView,
    EventView,
    GraphView,
    HoldingView,
    InventoryView,
    NoteView,
    ReadyReceipt,
    RecapView,
    RecordView,
    RollView,
    RoundReport,
    RoundStatusView,
    SubmitReceipt,
    ThreadView,
    Where,
)

_log = logging.getLogger(__name__)

APP_ID = 900000000000000001
BOT_USER_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 800000000000000002
GM_ROLE_ID = 800000000000000003
PLAYER_ROLE_ID = 800000000000000004
TIMESTAMP = "2026-01-01T00:00:00+00:00"
EPHEMERAL = 64

_ids = itertools.count(1_000_000_000_000_000_000)


def next_id() -> int:
    """A fresh snowflake-sized id."""
    return next(_ids)


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A Discord user object."""
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


@dataclass(frozen=True)
class Member:
    """A guild member the tests act as."""

    user_id: int
    name: str
    role_ids: tuple[int, ...] = ()

    def payload(self) -> dict[str, Any]:
        """The interaction's ``member`` object."""
        return {
            "user": user_payload(self.user_id, self.name),
            "roles": [str(r) for r in self.role_ids],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "permissions": str(discord.Permissions.general().value),
        }


def guild_payload() -> dict[str, Any]:
    """A guild with a GM role and a text channel, as the gateway's GUILD_CREATE describes it."""

    def role(role_id: int, name: str, position: int) -> dict[str, Any]:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "hoist": False,
            "position": position,
            "permissions": "0",
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    return {
        "id": str(GUILD_ID),
        "name": "The Table",
        "owner_id": "1",
        "roles": [
            role(GUILD_ID, "@everyone", 0),
            role(GM_ROLE_ID, "GM", 2),
            role(PLAYER_ROLE_ID, "Player", 1),
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "members": [],
        "channels": [channel_payload()],
        "threads": [],
        "member_count": 5,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "nsfw_level": 0,
        "afk_timeout": 300,
    }


def channel_payload() -> dict[str, Any]:
    """The campaign's text channel."""
    return {
        "id": str(CHANNEL_ID),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": "the-table",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


@dataclass
class Sent:
    """One message (or acknowledgement) the bot sent in answer to an interaction."""

    kind: str  # "message" | "defer" | "update" | "autocomplete" | "followup" | "edit" | "delete"
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    ephemeral: bool = False
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer, as one string."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def buttons(self) -> dict[str, dict[str, Any]]:
        """The buttons on this message by label."""
        found: dict[str, dict[str, Any]] = {}
        for row in self.components:
            for comp in row.get("components", []):
                if comp.get("type") == 2:
                    found[comp.get("label", "")] = comp
        return found


@dataclass
class Outcome:
    """Everything the bot answered to one interaction."""

    interaction_id: int
    sent: list[Sent]

    @property
    def messages(self) -> list[Sent]:
        """The visible messages (not the bare 'thinking…' acknowledgement)."""
        return [s for s in self.sent if s.kind not in ("defer", "delete")]

    @property
    def text(self) -> str:
        """All visible text of all messages."""
        return "\n".join(m.text for m in self.messages)

    @property
    def ephemeral(self) -> bool:
        """Whether every visible message was ephemeral (only the invoker saw it)."""
        return bool(self.messages) and all(m.ephemeral for m in self.messages)

    @property
    def deferred(self) -> bool:
        """Whether the bot acknowledged with 'thinking…' before answering."""
        return any(s.kind == "defer" for s in self.sent)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices answered."""
        return [c for s in self.sent for c in s.choices]


@dataclass
class Post:
    """A message the bot sent through REST (a channel post or a DM)."""

    channel_id: int
    content: str
    allowed_mentions: dict[str, Any] | None
    files: list[str]
    embeds: list[dict[str, Any]]


class RecordingWebhookAdapter(AsyncWebhookAdapter):
    """Records interaction callbacks and followups instead of calling Discord."""

    def __init__(self, harness: DiscordHarness) -> None:
        super().__init__()
        self.harness = harness

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        """Record the call; answer like Discord would, with the least payload discord.py accepts."""
        payload = kwargs.get("payload")
        files: list[str] = []
        multipart = kwargs.get("multipart")
        if multipart:
            for part in multipart:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
                elif "filename" in part:
                    files.append(part["filename"])
        payload = payload or {}
        url: str = route.url
        self.harness.webhook_calls.append((route.method, url, payload))
        token = _token_in(url)
        if "/callback" in url:
            return self._callback(token, payload, files)
        data = payload
        sent = Sent(
            kind="edit" if route.method == "PATCH" else "followup",
            content=data.get("content") or "",
            embeds=data.get("embeds") or [],
            ephemeral=bool((data.get("flags") or 0) & EPHEMERAL),
            components=data.get("components") or [],
            files=files,
            allowed_mentions=data.get("allowed_mentions"),
        )
        if route.method == "DELETE":
            self.harness.record_sent(token, Sent(kind="delete"))
            return None
        answer = self.harness.message_payload(CHANNEL_ID, sent.content, components=sent.components)
        if route.method in ("POST", "PATCH"):
            self.harness.record_sent(token, sent, message_id=int(answer["id"]))
        return answer

    def _callback(self, token: str, payload: dict[str, Any], files: list[str]) -> dict[str, Any]:
        kind = {4: "message", 5: "defer", 6: "defer", 7: "update", 8: "autocomplete"}.get(
            payload["type"], "other"
        )
        data = payload.get("data") or {}
        sent = Sent(
            kind=kind,
            content=data.get("content") or "",
            embeds=data.get("embeds") or [],
            ephemeral=bool((data.get("flags") or 0) & EPHEMERAL),
            components=data.get("components") or [],
            files=files,
            choices=data.get("choices") or [],
            allowed_mentions=data.get("allowed_mentions"),
        )
        message_id = next_id()
        self.harness.record_sent(token, sent, message_id=message_id)
        return {
            "interaction": {
                "id": token.removeprefix("tok-"),
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_loading": payload["type"] == 5,
                "response_message_ephemeral": sent.ephemeral,
            },
            "resource": {"type": payload["type"]},
        }


def _token_in(url: str) -> str:
    for part in url.split("/"):
        if part.startswith("tok-"):
            return part
    return ""


class DiscordHarness:
    """The real bot and command tree, fed raw interaction payloads; records everything it sends."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.adapter = RecordingWebhookAdapter(self)
        self.webhook_calls: list[tuple[str, str, dict[str, Any]]] = []
        self.http_calls: list[tuple[str, str, dict[str, Any]]] = []
        self.channel_posts: list[Post] = []
        self.dms: dict[int, list[Post]] = {}
        self.dm_closed: set[int] = set()
        self._sent: dict[str, list[Sent]] = {}
        self._message_origin: dict[int, tuple[str, Sent]] = {}
        self._dm_channels: dict[int, int] = {}  # dm channel id -> user id

    @classmethod
    async def create(
        cls,
        table: Any = None,
        *,
        settings: Settings | None = None,
        tick: bool = False,
        table_factory: Callable[[DiscordCourier], Awaitable[Any]] | None = None,
    ) -> DiscordHarness:
        """Build the bot around ``table`` (or ``await table_factory(courier)``), load the cogs, sync the tree.

        The sync is recorded, not sent. A table with ``courier = None`` gets the bot's courier.
        """
        settings = settings or Settings(discord=DiscordSettings(guild_ids=(GUILD_ID,), gm_role="GM"))
        bot = build_bot(settings, table, tick=tick)
        harness = cls(bot)
        await bot._async_setup_hook()
        state = bot._connection
        state.application_id = APP_ID
        state.user = discord.ClientUser(
            state=state,
            data=user_payload(BOT_USER_ID, "Tablekeeper", bot=True),  # type: ignore[arg-type]
        )
        bot.http.request = harness._http_request  # type: ignore[method-assign]
        state._add_guild_from_data(guild_payload())  # type: ignore[arg-type]
        courier = DiscordCourier(bot)
        if table_factory is not None:
            table = await table_factory(courier)
            bot.table = table  # type: ignore[attr-defined]
        elif getattr(table, "courier", "missing") is None:
            table.courier = courier
        await bot.setup_hook()
        return harness

    async def close(self) -> None:
        """Stop the bot's views and tasks."""
        self.bot._connection._view_store._views.clear()

    # ---------------------------------------------------------------- REST (client.http.request)

    async def _http_request(self, route: Any, *, files: Sequence[Any] | None = None, **kwargs: Any) -> Any:
        payload = kwargs.get("json") or {}
        if kwargs.get("form"):
            for part in kwargs["form"]:
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
        method, path = route.method, route.path
        self.http_calls.append((method, route.url, payload))
        params = _route_params(route)
        if method == "PUT" and path.endswith("/commands"):
            return []
        if method == "POST" and path == "/users/@me/channels":
            user_id = int(payload["recipient_id"])
            channel_id = next_id()
            self._dm_channels[channel_id] = user_id
            return {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user_payload(user_id, f"user{user_id}")],
                "last_message_id": None,
            }
        if method == "POST" and path == "/channels/{channel_id}/messages":
            channel_id = int(params["channel_id"])
            post = Post(
                channel_id=channel_id,
                content=payload.get("content") or "",
                allowed_mentions=payload.get("allowed_mentions"),
                files=[getattr(f, "filename", "") for f in files or ()],
                embeds=payload.get("embeds") or [],
            )
            if channel_id in self._dm_channels:
                user_id = self._dm_channels[channel_id]
                if user_id in self.dm_closed:
                    response = SimpleNamespace(status=403, reason="Forbidden")
                    raise discord.Forbidden(
                        response,  # type: ignore[arg-type]
                        {"code": 50007, "message": "Cannot send messages to this user"},
                    )
                self.dms.setdefault(user_id, []).append(post)
            else:
                self.channel_posts.append(post)
            return self.message_payload(channel_id, post.content)
        return {}

    def message_payload(
        self, channel_id: int, content: str, *, components: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """A minimal message object as Discord returns it."""
        return {
            "id": str(next_id()),
            "channel_id": str(channel_id),
            "author": user_payload(BOT_USER_ID, "Tablekeeper", bot=True),
            "content": content,
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": components or [],
        }

    # ---------------------------------------------------------------- interactions

    def record_sent(self, token: str, sent: Sent, *, message_id: int | None = None) -> None:
        """Keep ``sent`` under its interaction's token (and its message id, for later button presses)."""
        self._sent.setdefault(token, []).append(sent)
        if message_id is not None:
            self._message_origin[message_id] = (token, sent)

    async def _dispatch(self, payload: dict[str, Any]) -> Outcome:
        interaction_id = int(payload["id"])
        token = payload["token"]
        async_context.set(self.adapter)
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)
        started = [
            t
            for t in asyncio.all_tasks() - before
            if t.get_name() == "CommandTree-invoker" or t.get_name().startswith("discord-ui-view-dispatch")
        ]
        await asyncio.gather(*started)
        return Outcome(interaction_id=interaction_id, sent=list(self._sent.get(token, [])))

    def _base(self, user: Member, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        interaction_id = next_id()
        return {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"tok-{interaction_id}",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(CHANNEL_ID),
            "channel": channel_payload(),
            "member": user.payload(),
            "app_permissions": str(discord.Permissions.text().value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "data": data,
        }

    def command_data(
        self, path: str, options: dict[str, Any], *, focused: str | None = None
    ) -> dict[str, Any]:
        """The ``data`` of a chat-input interaction for ``path`` ("ledger record") with typed options."""
        names = path.split()
        command: Any = self.bot.tree.get_command(names[0], guild=discord.Object(GUILD_ID)) or (
            self.bot.tree.get_command(names[0])
        )
        if command is None:
            raise KeyError(f"no command /{names[0]}")
        chain = [command]
        for name in names[1:]:
            command = command.get_command(name)
            chain.append(command)
        leaf: app_commands.Command[Any, ..., Any] = chain[-1]
        typed: list[dict[str, Any]] = []
        for name, value in options.items():
            param = leaf._params.get(name)
            kind = param.type.value if param is not None else discord.AppCommandOptionType.string.value
            option: dict[str, Any] = {"type": kind, "name": name, "value": value}
            if name == focused:
                option["focused"] = True
            typed.append(option)
        for sub in reversed(chain[1:]):
            kind = 2 if isinstance(sub, app_commands.Group) else 1
            typed = [{"type": kind, "name": sub.name, "options": typed}]
        return {"id": str(abs(hash(chain[0].name)) + 1), "name": chain[0].name, "type": 1, "options": typed}

    async def command(self, path: str, user: Member, **options: Any) -> Outcome:
        """Run slash command ``path`` (e.g. "ledger dispute") as ``user`` with ``options``."""
        return await self._dispatch(self._base(user, 2, self.command_data(path, options)))

    async def dm_command(self, path: str, user: Member, **options: Any) -> Outcome:
        """Run slash command ``path`` from a direct message with the bot (no guild, no member)."""
        payload = self._base(user, 2, self.command_data(path, options))
        for key in ("guild_id", "member", "guild_locale"):
            payload.pop(key)
        payload["user"] = user.payload()["user"]
        payload["channel"] = {"id": str(next_id()), "type": 1, "recipients": [payload["user"]]}
        payload["channel_id"] = payload["channel"]["id"]
        payload["context"] = 1
        return await self._dispatch(payload)

    async def raw_command(self, user: Member, data: dict[str, Any]) -> Outcome:
        """Run a slash command from a hand-written ``data`` object (e.g. values Discord would refuse)."""
        return await self._dispatch(self._base(user, 2, data))

    async def autocomplete(
        self, path: str, user: Member, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        """Ask for autocomplete choices of option ``focused`` while ``options`` are typed; return them."""
        outcome = await self._dispatch(self._base(user, 4, self.command_data(path, options, focused=focused)))
        return outcome.choices

    async def press(self, outcome: Outcome, label: str, user: Member) -> Outcome:
        """Press the button labelled ``label`` on the last message of ``outcome`` with one, as ``user``."""
        found = [
            (message_id, sent)
            for message_id, (_token, sent) in self._message_origin.items()
            if any(sent is s for s in outcome.sent) and label in sent.buttons()
        ]
        if not found:
            raise KeyError(f"no button {label!r} in that answer")
        message_id, sent = found[-1]
        button = sent.buttons()[label]
        message = self.message_payload(CHANNEL_ID, sent.content, components=sent.components)
        message["id"] = str(message_id)
        message["flags"] = EPHEMERAL if sent.ephemeral else 0
        data = {"custom_id": button["custom_id"], "component_type": 2}
        payload = self._base(user, 3, data)
        payload["message"] = message
        return await self._dispatch(payload)


def _route_params(route: Any) -> dict[str, Any]:
    """The ids formatted into a route (discord.py keeps them as attributes)."""
    return {
        "channel_id": getattr(route, "channel_id", None),
        "guild_id": getattr(route, "guild_id", None),
    }


# ====================================================================================================
# FakeTable: the table's API in memory, to test the cogs on their own
# ====================================================================================================


@dataclass
class _Player:
    caller: Caller
    character: str
    hp: int = 12


@dataclass
class _Campaign:
    id: int
    name: str
    owner: str
    where: Where
    players: dict[str, _Player] = field(default_factory=dict)
    session: int | None = None
    session_open: bool = False
    round_number: int = 0
    actions: dict[str, str] = field(default_factory=dict)
    ready: set[str] = field(default_factory=set)
    submitted_keys: dict[str, str] = field(default_factory=dict)
    notes: dict[str, list[NoteView]] = field(default_factory=dict)
    disputes: dict[int, DisputeView] = field(default_factory=dict)
    events: list[EventView] = field(default_factory=list)


class FakeTable:
    """A small in-memory table with :class:`bot.table.Table`'s methods and errors.

    Targets are ``npc-dock-thug`` and ``npc-old-wei``; a player who acts on Old Wei gets a private note.
    ``explode_on`` names a method that raises an unexpected error (to test the error-id path).
    """

    TARGETS: ClassVar[dict[str, str]] = {"npc-dock-thug": "Dock Thug", "npc-old-wei": "Old Wei"}
    # What only the GM reads (in their own recap): a reply for the table must never show it.
    GM_SECRET: ClassVar[str] = "Old Wei fears the harbourmaster"

    def __init__(self) -> None:
        self.courier: Any = None
        self.campaigns: dict[tuple[str, str], _Campaign] = {}
        self.explode_on: str | None = None
        self.posted: list[str] = []
        self.resent: list[int | None] = []

    def _boom(self, name: str) -> None:
        if self.explode_on == name:
            raise RuntimeError(f"the fake table broke in {name}")

    def _campaign(self, where: Where) -> _Campaign:
        found = self.campaigns.get((where.guild_id, where.channel_id))
        if found is None:
            raise NoCampaign("There is no campaign in this channel: a GM can start one with /campaign start.")
        return found

    def _gm(self, where: Where, caller: Caller) -> _Campaign:
        campaign = self._campaign(where)
        if caller.user_id != campaign.owner and not caller.has_gm_role:
            raise NotGM("Only the GM can do that.")
        return campaign

    def _player(self, campaign: _Campaign, caller: Caller) -> _Player:
        player = campaign.players.get(caller.user_id)
        if player is None:
            raise NotAPlayer("You have no character in this campaign: use /join first.")
        return player

    def _view(self, c: _Campaign) -> CampaignView:
        return CampaignView(
            id=c.id,
            name=c.name,
            owner_user_id=c.owner,
            status="active",
            session_number=c.session,
            session_open=c.session_open,
            round_number=c.round_number or None,
            round_state="open" if c.session_open else None,
            location="The Harbor",
            players=tuple(f"{p.character} ({p.caller.display_name})" for p in c.players.values()),
        )

    async def start_campaign(
        self, where: Where, caller: Caller, *, name: str, scenario: str | None
    ) -> CampaignView:
        self._boom("start_campaign")
        if (where.guild_id, where.channel_id) in self.campaigns:
            raise InvalidAction("This channel already has a campaign.")
        campaign = _Campaign(id=len(self.campaigns) + 1, name=name, owner=caller.user_id, where=where)
        self.campaigns[(where.guild_id, where.channel_id)] = campaign
        return self._view(campaign)

    async def check_world_upload(self, *, filename: str, size: int) -> None:
        if not filename.endswith(".toml") or size > 4 * 1024 * 1024:
            raise InvalidAction("Attach the world as a .toml scenario file of at most 4 MB.")

    async def start_campaign_from_upload(
        self, where: Where, caller: Caller, *, filename: str, data: bytes, name: str | None = None
    ) -> CampaignView:
        await self.check_world_upload(filename=filename, size=len(data))
        return await self.start_campaign(where, caller, name=name or filename, scenario=None)

    async def export_campaign(self, where: Where, caller: Caller) -> CampaignExportView:
        campaign = self._gm(where, caller)
        text = f'[campaign]\nname = "{campaign.name}"\n'
        return CampaignExportView(
            name=campaign.name, filename="campaign.toml", text=text, events=0, entries=0
        )

    async def campaign_status(self, where: Where, caller: Caller) -> CampaignView:
        return self._view(self._campaign(where))

    async def end_campaign(self, where: Where, caller: Caller) -> CampaignView:
        campaign = self._gm(where, caller)
        del self.campaigns[(where.guild_id, where.channel_id)]
        return self._view(campaign)

    async def start_session(self, where: Where, caller: Caller) -> CampaignView:
        campaign = self._gm(where, caller)
        campaign.session = (campaign.session or 0) + 1
        campaign.session_open = True
        campaign.round_number = 1
        return self._view(campaign)

    async def end_session(self, where: Where, caller: Caller) -> RecapView:
        campaign = self._gm(where, caller)
        campaign.session_open = False
        return RecapView(session_number=campaign.session, text="The party reached the harbor.", highlights=())

    async def join(
        self,
        where: Where,
        caller: Caller,
        *,
        name: str | None = None,
        claim: str | None = None,
        scores: str | None = None,
        method: str = "standard",
        skills: str | None = None,
        weapon: str | None = None,
    ) -> CharacterView:
        campaign = self._campaign(where)
        if not name:
            raise InvalidAction("Give your character a name.")
        campaign.players[caller.user_id] = _Player(caller=caller, character=name)
        return CharacterView(
            id=f"pc-{name.lower()}",
            name=name,
            owner_user_id=caller.user_id,
            level=1,
            hp=12,
            max_hp=12,
            ac=14,
            abilities={"str": 15, "dex": 14, "con": 13, "int": 12, "wis": 10, "cha": 8},
            skills=("athletics",),
            location="The Harbor",
        )

    async def leave(self, where: Where, caller: Caller) -> CharacterView:
        campaign = self._campaign(where)
        player = self._player(campaign, caller)
        del campaign.players[caller.user_id]
        return CharacterView(
            id=f"pc-{player.character.lower()}",
            name=player.character,
            owner_user_id=caller.user_id,
            level=1,
            hp=12,
            max_hp=12,
            ac=14,
            abilities={},
            skills=(),
            location=None,
        )

    async def submit(
        self,
        where: Where,
        caller: Caller,
        *,
        key: str,
        text: str,
        target: str | None = None,
        item: str | None = None,
        skill: str | None = None,
    ) -> SubmitReceipt:
        self._boom("submit")
        campaign = self._campaign(where)
        player = self._player(campaign, caller)
        if not campaign.session_open:
            raise NoOpenRound("No round is open: the GM starts a session with /session start.")
        if target is not None and target not in self.TARGETS:
            raise InvalidAction(f"There is no {target!r} here.")
        if len(text) > 500:
            raise InvalidAction("Describe your action in 1 to 500 characters.")
        edited = caller.user_id in campaign.actions and campaign.submitted_keys.get(key) != caller.user_id
        campaign.actions[caller.user_id] = f"{text}|{target or ''}"
        campaign.submitted_keys[key] = caller.user_id
        summary = text if target is None else f"{text} ({self.TARGETS[target]})"
        return SubmitReceipt(
            round_number=campaign.round_number,
            character_name=player.character,
            intent_summary=summary,
            edited=edited,
        )

    async def ready(self, where: Where, caller: Caller, *, reply: str | None = None) -> ReadyReceipt:
        campaign = self._campaign(where)
        self._player(campaign, caller)
        if caller.user_id not in campaign.actions:
            raise InvalidAction("Declare an action with /act before you're ready.")
        campaign.ready.add(caller.user_id)
        waiting = tuple(p.character for u, p in campaign.players.items() if u not in campaign.ready)
        if waiting:
            return ReadyReceipt(round_number=campaign.round_number, waiting=waiting)
        report = await self._close(campaign)
        return ReadyReceipt(round_number=report.round_number, waiting=(), report=report)

    async def _close(self, campaign: _Campaign) -> RoundReport:
        number = campaign.round_number
        lines: list[ActionLine] = []
        notes: dict[str, str] = {}
        for user_id, player in campaign.players.items():
            text, _, target = campaign.actions.get(user_id, "holds position|").partition("|")
            lines.append(
                ActionLine(
                    actor=player.character,
                    summary=f"{player.character}: {text}",
                    rolls=("check: d20 (14) + 3 = 17 vs DC 12 -> success",),
                    outcome="success",
                )
            )
            if target == "npc-old-wei":
                notes[user_id] = f"Old Wei slips {player.character} a note: the harbormaster lies."
        public = "\n\n".join(f"{line.actor} acts, and it works." for line in lines)
        await self.courier.post_public(campaign.where.guild_id, campaign.where.channel_id, public)
        self.posted.append(public)
        sent, undelivered = 0, []
        for user_id, text in notes.items():
            try:
                await self.courier.send_dm(user_id, text)
                delivered = True
                sent += 1
            except DMClosed:
                delivered = False
                undelivered.append(user_id)
            campaign.notes.setdefault(user_id, []).append(
                NoteView(round_number=number, text=text, delivered=delivered)
            )
        campaign.events.append(
            EventView(
                ref=f"ev-{number:06d}",
                session=campaign.session,
                round=number,
                kind="round",
                text=public,
                cause=None,
            )
        )
        campaign.round_number += 1
        campaign.actions.clear()
        campaign.ready.clear()
        return RoundReport(
            round_number=number,
            initiative=tuple(f"{p.character} {20 - i}" for i, p in enumerate(campaign.players.values())),
            actions=tuple(lines),
            public_text=public,
            source="fallback",
            seed=1234,
            seed_commitment="ab12cd34",
            dms_sent=sent,
            dms_undelivered=tuple(undelivered),
            conflicts_queued=1,
        )

    async def round_status(self, where: Where, caller: Caller) -> RoundStatusView:
        campaign = self._campaign(where)
        return RoundStatusView(
            round_number=campaign.round_number,
            state="open",
            deadline_utc=None,
            acted=tuple(campaign.players[u].character for u in campaign.actions),
            ready=tuple(campaign.players[u].character for u in campaign.ready),
            waiting=tuple(p.character for u, p in campaign.players.items() if u not in campaign.ready),
            seed_commitment="ab12cd34",
        )

    async def close_round(self, where: Where, caller: Caller, *, reply: str | None = None) -> RoundReport:
        return await self._close(self._gm(where, caller))

    async def gm_resend(self, where: Where, caller: Caller, *, round_number: int | None = None) -> ResendView:
        campaign = self._gm(where, caller)
        self.resent.append(round_number)
        number = round_number or campaign.round_number - 1
        return ResendView(round_number=number, requeued=1, story_posted=True, still_waiting=0)

    async def roll(self, caller: Caller, *, expression: str, seed: int | None = None) -> RollView:
        if not expression[:1].isdigit() or "d" not in expression:
            raise InvalidAction(f"I can't read the dice {expression!r}: try something like 1d20+5.")
        return RollView(expression=expression, total=17, breakdown="1d20 (12) + 5 = 17", seed=seed or 42)

    async def inventory(
        self, where: Where, caller: Caller, *, player_user_id: str | None = None
    ) -> InventoryView:
        campaign = self._campaign(where)
        owner = player_user_id or caller.user_id
        player = campaign.players.get(owner)
        if player is None:
            raise NotFound("No such player in this campaign.")
        items = (
            HoldingView(item_id="item-silver-dagger", name="Silver Dagger", quantity=1, visibility="party"),
        )
        return InventoryView(
            holder_id=f"pc-{player.character.lower()}",
            holder_name=player.character,
            items=items,
            private=owner == caller.user_id,
        )

    async def relationships(
        self, where: Where, caller: Caller, *, npc: str | None = None, public: bool = False
    ) -> tuple[EdgeView, ...]:
        self._campaign(where)
        edges = tuple(
            EdgeView(
                ref=f"rel-{i:04d}",
                source=f"NPC {i}",
                target="Mira",
                kind="owes-favour",
                attitude=40,
                reason="saved the boat",
                since_session=1,
            )
            for i in range(23)
        )
        return edges

    async def threads(self, where: Where, caller: Caller, *, public: bool = False) -> tuple[ThreadView, ...]:
        self._campaign(where)
        return (
            ThreadView(
                id="favor-0001-01",
                kind="favour",
                status="open",
                terms="Old Wei owes Mira a boat ride",
                parties=("npc-old-wei", "pc-mira"),
                source_session=1,
            ),
        )

    async def history(
        self, where: Where, caller: Caller, *, count: int = 10, public: bool = False
    ) -> tuple[EventView, ...]:
        return tuple(self._campaign(where).events[-count:])

    async def record(self, where: Where, caller: Caller, *, ref: str, public: bool = False) -> RecordView:
        campaign = self._campaign(where)
        for event in campaign.events:
            if event.ref == ref:
                return RecordView(
                    ref=ref,
                    kind="event",
                    text=event.text,
                    fields={"round": str(event.round)},
                    causes=("roll-1",),
                    replay="round 1 seed 1234: replays identically",
                )
        raise NotFound(f"There is no record {ref!r} you can see.")

    async def notes(self, where: Where, caller: Caller) -> tuple[NoteView, ...]:
        return tuple(self._campaign(where).notes.get(caller.user_id, ()))

    async def dispute(self, where: Where, caller: Caller, *, ref: str, reason: str) -> DisputeView:
        campaign = self._campaign(where)
        await self.record(where, caller, ref=ref)
        dispute_id = len(campaign.disputes) + 1
        view = DisputeView(
            id=dispute_id,
            record_ref=ref,
            raised_by=caller.display_name,
            reason=reason,
            status="open",
            ruling_note=None,
        )
        campaign.disputes[dispute_id] = view
        return view

    async def graph(self, where: Where, caller: Caller, *, public: bool = False) -> GraphView:
        edges = await self.relationships(where, caller, npc=None, public=public)
        return GraphView(nodes=("Mira",), edges=edges[:3])

    async def require_gm(self, where: Where, caller: Caller) -> None:
        self._gm(where, caller)

    async def gm_disputes(self, where: Where, caller: Caller) -> tuple[DisputeView, ...]:
        return tuple(self._gm(where, caller).disputes.values())

    async def gm_autocomplete(
        self, where: Where, caller: Caller, *, kind: str, prefix: str
    ) -> tuple[Choice, ...]:
        """The GM's world-command choices: a couple of SRD creatures and the fake's targets."""
        self._gm(where, caller)
        pool = {"creature": ["bandit", "goblin"], "place": ["The Salty Gull"]}.get(
            kind, list(self.TARGETS.values())
        )
        return tuple(Choice(name=n, value=n) for n in pool if n.lower().startswith(prefix.lower()))[:25]

    async def gm_proposals(self, where: Where, caller: Caller) -> tuple[ProposalView, ...]:
        self._gm(where, caller)
        return (
            ProposalView(
                id=1, origin="narrator", kind="npc", what="a ferryman, Jonah Pike", status="accepted"
            ),
        )

    async def gm_undo_proposal(self, where: Where, caller: Caller, *, proposal_id: int) -> UndoView:
        self._gm(where, caller)
        if proposal_id != 1:
            raise NotFound(f"There is no proposal #{proposal_id}.")
        (shown,) = await self.gm_proposals(where, caller)
        return UndoView(
            proposal=shown.model_copy(update={"status": "undone"}),
            retcon_event="ev-000099",
            changes=("Jonah Pike leaves the story",),
        )

    async def remember(self, where: Where, caller: Caller, *, text: str) -> NominationView:
        self._campaign(where)
        return NominationView(
            proposal_id=2, status="queued", kind="fact", what=text, reason="the GM will look at it"
        )

    async def gm_rule(
        self,
        where: Where,
        caller: Caller,
        *,
        dispute_id: int,
        accept: bool,
        note: str,
        changes: Sequence[dict[str, Any]] | None = None,
    ) -> DisputeView:
        campaign = self._gm(where, caller)
        if dispute_id not in campaign.disputes:
            raise NotFound(f"There is no dispute #{dispute_id}.")
        ruled = campaign.disputes[dispute_id].model_copy(
            update={"status": "accepted" if accept else "rejected", "ruling_note": note}
        )
        campaign.disputes[dispute_id] = ruled
        return ruled

    async def gm_retcon(self, where: Where, caller: Caller, *, ref: str, reason: str) -> EventView:
        campaign = self._gm(where, caller)
        return EventView(
            ref="ev-999999",
            session=campaign.session,
            round=None,
            kind="retcon",
            text=f"{ref} retconned: {reason}",
            cause=ref,
        )

    async def gm_thread(
        self, where: Where, caller: Caller, *, thread_id: str, status: str, note: str
    ) -> ThreadView:
        self._gm(where, caller)
        found = [t for t in await self.threads(where, caller) if t.id == thread_id]
        if not found:
            raise NotFound(f"No thread '{thread_id}' in this campaign.")
        return found[0].model_copy(update={"status": status})

    async def gm_deadline(self, where: Where, caller: Caller, *, minutes: float) -> RoundStatusView:
        self._gm(where, caller)
        view = await self.round_status(where, caller)
        return view.model_copy(update={"deadline_utc": f"in {minutes:g} minutes"})

    async def gm_conflicts(self, where: Where, caller: Caller) -> tuple[ConflictView, ...]:
        self._gm(where, caller)
        return (
            ConflictView(
                id=1,
                round_number=1,
                claim="alive(npc-old-wei) = false",
                refuted_by="ev-000001",
                status="open",
            ),
        )

    async def gm_conflict(
        self, where: Where, caller: Caller, *, conflict_id: int, action: str, note: str
    ) -> ConflictView:
        self._gm(where, caller)
        return ConflictView(
            id=conflict_id,
            round_number=1,
            claim="alive(npc-old-wei) = false",
            refuted_by="ev-000001",
            status=f"{action}ed",
        )

    async def recap(self, where: Where, caller: Caller, *, public: bool = False) -> RecapView:
        campaign = self._campaign(where)
        gm_only = () if public or caller.user_id != campaign.owner else (self.GM_SECRET,)
        return RecapView(
            session_number=campaign.session,
            text="Last time, the party met Old Wei.",
            highlights=("Mira owes Old Wei a favour", *gm_only),
        )

    async def autocomplete(
        self, where: Where, caller: Caller, *, kind: str, prefix: str
    ) -> tuple[Choice, ...]:
        self._campaign(where)
        pool = {
            "target": [Choice(name=n, value=i) for i, n in self.TARGETS.items()],
            "record": [Choice(name=e.ref, value=e.ref) for e in self._campaign(where).events],
        }.get(kind, [])
        return tuple(
            c for c in pool if c.name.lower().startswith(prefix.lower()) or c.value.startswith(prefix)
        )[:25]

    async def tick(self) -> None:
        return None

    async def resume(self) -> None:
        return None


__all__ = [
    "CHANNEL_ID",
    "GM_ROLE_ID",
    "GUILD_ID",
    "PLAYER_ROLE_ID",
    "DiscordHarness",
    "FakeTable",
    "Member",
    "Outcome",
    "Sent",
    "TableError",
]


def sample_report() -> RoundReport:
    """A small resolved round (one hit by Greyrock), for tests of how a report is posted."""
    return RoundReport(
        round_number=2,
        initiative=("Greyrock 17",),
        actions=(
            ActionLine(
                actor="Greyrock", summary="Greyrock hits.", rolls=("attack: 1d20+6 = 19",), outcome="success"
            ),
        ),
        public_text="The tide turns.",
        source="offline",
        seed=5,
        seed_commitment="ab",
        dms_sent=0,
        dms_undelivered=(),
        conflicts_queued=0,
    )
