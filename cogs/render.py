"""How the table's views look in Discord: embeds and text lines. Presentation only, no rules.

Not an extension: the cogs import these builders.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands

from bot.describe import cause_label
from bot.discord_format import COLOUR_TABLE, EMBED_DESCRIPTION_LIMIT, clip, paginate_lines, safe
from bot.views import (
    CampaignView,
    CharacterView,
    ConflictView,
    DisputeView,
    EdgeView,
    EventView,
    InventoryView,
    NoteView,
    RecapView,
    RecordView,
    RollView,
    RoundStatusView,
    ThreadView,
)

_log = logging.getLogger(__name__)

COLOUR_LEDGER = discord.Colour.dark_teal()
COLOUR_GM = discord.Colour.dark_red()
COLOUR_PRIVATE = discord.Colour.blurple()

SKILLS: tuple[tuple[str, str], ...] = (
    ("Acrobatics", "acrobatics"),
    ("Animal Handling", "animal_handling"),
    ("Arcana", "arcana"),
    ("Athletics", "athletics"),
    ("Deception", "deception"),
    ("History", "history"),
    ("Insight", "insight"),
    ("Intimidation", "intimidation"),
    ("Investigation", "investigation"),
    ("Medicine", "medicine"),
    ("Nature", "nature"),
    ("Perception", "perception"),
    ("Performance", "performance"),
    ("Persuasion", "persuasion"),
    ("Religion", "religion"),
    ("Sleight of Hand", "sleight_of_hand"),
    ("Stealth", "stealth"),
    ("Survival", "survival"),
)
SKILL_CHOICES: list[app_commands.Choice[str]] = [app_commands.Choice(name=n, value=v) for n, v in SKILLS]


def campaign_embed(view: CampaignView, *, title: str | None = None) -> discord.Embed:
    """The campaign, its session and round, and its players."""
    embed = discord.Embed(title=title or f"Campaign: {safe(view.name)}", colour=COLOUR_TABLE)
    embed.add_field(name="Status", value=view.status)
    session = "none yet" if view.session_number is None else str(view.session_number)
    embed.add_field(name="Session", value=f"{session} ({'open' if view.session_open else 'closed'})")
    if view.round_number is not None:
        embed.add_field(name="Round", value=f"{view.round_number} ({view.round_state or '?'})")
    if view.location:
        embed.add_field(name="Location", value=safe(view.location))
    embed.add_field(name="GM", value=f"<@{view.owner_user_id}>")
    if view.claim_check_fallbacks:
        fell = f"{view.claim_check_fallbacks} time(s): the endpoint failed (see the log)"
        embed.add_field(name="Model check fell back", value=fell)
    players = "\n".join(safe(p) for p in view.players) if view.players else "nobody yet: use /join"
    embed.add_field(name=f"Players ({len(view.players)})", value=clip(players, 1024), inline=False)
    embed.set_footer(text=f"campaign #{view.id}")
    return embed


def character_embed(view: CharacterView, *, title: str | None = None) -> discord.Embed:
    """A character sheet summary."""
    embed = discord.Embed(title=title or safe(view.name), colour=COLOUR_TABLE)
    embed.add_field(name="Level", value=str(view.level))
    embed.add_field(name="HP", value=f"{view.hp}/{view.max_hp}")
    embed.add_field(name="AC", value=str(view.ac))
    abilities = " · ".join(f"{k.upper()} {v}" for k, v in view.abilities.items())
    if abilities:
        embed.add_field(name="Abilities", value=abilities, inline=False)
    if view.skills:
        embed.add_field(name="Skills", value=clip(", ".join(view.skills), 1024), inline=False)
    if view.location:
        embed.add_field(name="Location", value=safe(view.location))
    if view.conditions:
        embed.add_field(name="Conditions", value=", ".join(view.conditions))
    return embed


def round_status_embed(view: RoundStatusView) -> discord.Embed:
    """Who has acted, who is ready, and when the round closes."""
    embed = discord.Embed(title=f"Round {view.round_number} · {view.state}", colour=COLOUR_TABLE)
    # Each character once: ready; acted but not ready yet; not acted yet (issue 9: "acted" and "waiting"
    # used to list the same character twice).
    ready = list(view.ready)
    acted = [a for a in view.acted if a not in ready]
    idle = [w for w in view.waiting if w not in ready and w not in acted]
    ready, acted, idle = ([safe(n) for n in names] for names in (ready, acted, idle))
    embed.add_field(name="Ready", value=clip(", ".join(ready) or "nobody yet", 1024), inline=False)
    embed.add_field(name="Acted, not ready yet", value=clip(", ".join(acted) or "nobody", 1024), inline=False)
    embed.add_field(name="Not acted yet", value=clip(", ".join(idle) or "nobody", 1024), inline=False)
    if view.deadline_utc:
        embed.add_field(name="Deadline (UTC)", value=view.deadline_utc, inline=False)
    embed.set_footer(text=f"seed commitment {view.seed_commitment}")
    return embed


def user_label(user: str) -> str:
    """A user id as a mention (Discord shows the member's name, and embeds never ping); text as it is."""
    return f"<@{user}>" if user.isdigit() else safe(user)


def roll_embed(view: RollView, *, who: str) -> discord.Embed:
    """A dice roll with its replay seed."""
    embed = discord.Embed(
        title=f"{safe(who)} rolls {safe(clip(view.expression, 200))}",
        description=clip(f"{view.breakdown}\n**Total: {view.total}**", EMBED_DESCRIPTION_LIMIT),
        colour=COLOUR_TABLE,
    )
    embed.set_footer(text=f"seed {view.seed}: /roll {clip(view.expression, 100)} replays with this seed")
    return embed


def inventory_embed(view: InventoryView) -> discord.Embed:
    """What a character carries."""
    lines = [f"**{safe(h.name)}** ×{h.quantity}" for h in view.items] or ["empty-handed"]
    embed = discord.Embed(
        title=f"{safe(view.holder_name)}'s inventory",
        description=clip("\n".join(lines), EMBED_DESCRIPTION_LIMIT),
        colour=COLOUR_PRIVATE if view.private else COLOUR_LEDGER,
    )
    if view.private:
        embed.set_footer(text="private: only you (and the GM) see this")
    return embed


def edge_line(edge: EdgeView) -> str:
    """``Mira → Old Wei: owes favour (+40): saved his boat · s2``."""
    since = f" · s{edge.since_session}" if edge.since_session is not None else ""
    kind = edge.kind.replace("-", " ")
    who = f"{safe(edge.source)} → {safe(edge.target)}"
    return f"{who}: {kind} ({edge.attitude:+d}): {safe(edge.reason)}{since}"


def thread_line(thread: ThreadView) -> str:
    """One favour, debt, oath... on the foreshadowing stack."""
    parties = ", ".join(safe(p) for p in thread.parties)
    since = f" · s{thread.source_session}" if thread.source_session is not None else ""
    return f"**{thread.kind}** [{thread.status}] {safe(thread.terms)} ({parties}){since} · `{thread.id}`"


def event_line(event: EventView) -> str:
    """One line of history with its cause."""
    when = []
    if event.session is not None:
        when.append(f"s{event.session}")
    if event.round is not None:
        when.append(f"r{event.round}")
    cause = f" ← {_cause(event.cause)}" if event.cause else ""
    # the ref is what a player types in /ledger record or /ledger dispute; the line itself is told in words
    return f"`{event.ref}` {' '.join(when)}: {safe(event.text)}{cause}"


def _cause(cause: str) -> str:
    """A cause: a record ref a player may type in code style, the ledger's bookkeeping in words."""
    label = cause_label(cause)
    return f"`{label}`" if label == cause else safe(label)


def record_embed(view: RecordView) -> discord.Embed:
    """One ledger record as a card: what (the title, or the story of a round), when, who saw it, the record's
    own details, why (its cause chain) and the replay of the roll behind it; the ref to type in the footer.

    Every value is words the table wrote (names, not ids or Python reprs); no field appears twice.
    """
    what = view.text.strip() or view.ref
    short = len(what) <= 256 and "\n" not in what
    embed = discord.Embed(
        title=clip(safe(what), 256) if short else _RECORD_TITLES.get(view.kind, view.kind.capitalize()),
        description=None if short else clip(safe(what), EMBED_DESCRIPTION_LIMIT),
        colour=COLOUR_LEDGER,
    )
    for key, value in list(view.fields.items())[:20]:
        text = clip(safe(value) or "—", 1024)
        embed.add_field(name=clip(key[:1].upper() + key[1:], 256), value=text, inline=len(text) <= 40)
    if view.causes:
        joiner = "\n" if view.kind == "round" else " ← "
        embed.add_field(name="Why", value=clip(joiner.join(safe(c) for c in view.causes), 1024), inline=False)
    if view.replay:
        embed.add_field(name="Replay", value=clip(view.replay, 1024), inline=False)
    embed.set_footer(text=clip(f"{view.kind} · {view.ref} · /ledger dispute {view.ref} if it is wrong", 2048))
    return embed


_RECORD_TITLES = {"round": "A round, as it was told", "event": "An event"}


def note_line(note: NoteView) -> str:
    """A private note and whether it reached the player's DMs."""
    when = f"Round {note.round_number}" if note.round_number is not None else "Note"
    status = "" if note.delivered else " *(not delivered by DM)*"
    return f"**{when}**{status}: {safe(note.text)}"


def dispute_line(view: DisputeView) -> str:
    """A dispute and its ruling."""
    ruling = f" · ruling: {safe(view.ruling_note)}" if view.ruling_note else ""
    by = user_label(view.raised_by)
    return f"#{view.id} `{view.record_ref}` [{view.status}] by {by}: {safe(view.reason)}{ruling}"


def dispute_embed(view: DisputeView, *, title: str) -> discord.Embed:
    """One dispute in full."""
    embed = discord.Embed(title=title, colour=COLOUR_GM, description=clip(safe(view.reason), 2000))
    embed.add_field(name="Record", value=f"`{view.record_ref}`")
    embed.add_field(name="Status", value=view.status)
    embed.add_field(name="Raised by", value=user_label(view.raised_by))
    if view.ruling_note:
        embed.add_field(name="Ruling", value=clip(safe(view.ruling_note), 1024), inline=False)
    embed.set_footer(text=f"dispute #{view.id}")
    return embed


def conflict_line(view: ConflictView) -> str:
    """A narration conflict queued for the GM."""
    when = f"r{view.round_number} " if view.round_number is not None else ""
    refuted = f" (refuted by `{view.refuted_by}`)" if view.refuted_by else ""
    return f"#{view.id} {when}[{view.status}] {safe(view.claim)}{refuted}"


def recap_embed(view: RecapView) -> discord.Embed:
    """The last session in brief."""
    title = "Previously…" if view.session_number is None else f"Previously, in session {view.session_number}…"
    embed = discord.Embed(
        title=title, description=clip(view.text, EMBED_DESCRIPTION_LIMIT), colour=COLOUR_TABLE
    )
    if view.highlights:
        embed.add_field(
            name="Highlights",
            value=clip("\n".join(f"• {safe(h)}" for h in view.highlights), 1024),
            inline=False,
        )
    return embed


def list_pages(lines: Sequence[str], *, title: str, empty: str, gm: bool = False) -> list[discord.Embed]:
    """Pages of lines in the ledger's (or the GM's) colour."""
    return paginate_lines(lines, title=title, empty=empty, colour=COLOUR_GM if gm else COLOUR_LEDGER)
