"""Formatting for Discord: text split under the message limits, user text escaped, the round report's embeds.

Nothing here sends anything: :mod:`bot.discord_courier` posts and replies, :mod:`bot.discord_client` runs the
bot, and the cogs (``cogs/render.py``) build their embeds with these helpers. User text is escaped where it
leaves for Discord (:func:`safe`); the table cleans it where it enters (:mod:`bot.text`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.views import RoundReport

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TOTAL_LIMIT = 6000  # all embeds of one message together
MAX_EMBEDS_PER_MESSAGE = 10

# ----------------------------------------------------------------------------------------------------
# Text helpers
# ----------------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters.

    Cuts at paragraph breaks first, then sentence ends, then spaces, and only as a last resort inside a word.
    Returns at least one piece (``[""]`` for empty text).
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    text = text.strip()
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for unit in _units(text, limit):
        sep = unit[0]
        body = unit[1]
        candidate = f"{current}{sep}{body}" if current else body
        if len(candidate) <= limit:
            current = candidate
        else:
            if current:
                pieces.append(current)
            current = body
    if current:
        pieces.append(current)
    return pieces


def _units(text: str, limit: int) -> list[tuple[str, str]]:
    """Break ``text`` into (separator, unit) pairs, each unit at most ``limit`` characters."""
    units: list[tuple[str, str]] = []
    for p_index, paragraph in enumerate(p for p in re.split(r"\n\s*\n", text) if p.strip()):
        sep = "\n\n" if p_index else ""
        if len(paragraph) <= limit:
            units.append((sep, paragraph))
            continue
        for s_index, sentence in enumerate(_SENTENCE_END.split(paragraph)):
            s_sep = sep if s_index == 0 else " "
            if len(sentence) <= limit:
                units.append((s_sep, sentence))
                continue
            for w_index, word in enumerate(sentence.split(" ")):
                w_sep = s_sep if w_index == 0 else " "
                while len(word) > limit:
                    units.append((w_sep, word[:limit]))
                    word = word[limit:]
                    w_sep = ""
                units.append((w_sep, word))
    return units


def safe(text: str) -> str:
    """``text`` that came from a user (a character, display or campaign name, action text, a reason), with
    Discord markdown and mass mentions escaped so it reads as typed: a masked link, a header, a quote or
    a wall of bold shows as its characters, never as formatting. The bot's own formatting around it stays.
    """
    # discord.py treats ``[...](...)`` as one masked link up to the *last* ")" and leaves its inside
    # unescaped: hide the brackets from it, then escape every one, so no masked link can form.
    text = str(text).replace("[", _BRACKET)
    text = discord.utils.escape_markdown(text).replace(_BRACKET, "\\[")
    return discord.utils.escape_mentions(text)


_BRACKET = "\ue000"  # a private-use character standing in for "[" while escaping
_ROUND_HEADER = re.compile(r"\*\*Round \d+\*\*")


def narration_markdown(text: str) -> str:
    """A narration as the channel should read it: the table's own round header and ``-#`` notice lines keep
    their formatting; everything else (a narrator's prose, which holds player-chosen names and whatever a
    model was talked into writing) is escaped, so no masked link, header or mention wall can form."""
    lines = []
    for line in text.split("\n"):
        if _ROUND_HEADER.fullmatch(line):
            lines.append(line)
        elif line.startswith("-# "):
            lines.append("-# " + safe(line[3:]))
        else:
            lines.append(safe(line))
    return "\n".join(lines)


def clip(text: str, limit: int) -> str:
    """Return ``text`` cut to ``limit`` characters, ending with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ----------------------------------------------------------------------------------------------------
# The round report as embeds: the /ready reply (cogs) and the courier's follow-ups and channel posts
# render it the same way. It lives here so the dependency points one way, from cogs/ down to bot/.
# ----------------------------------------------------------------------------------------------------

COLOUR_TABLE = discord.Colour.dark_gold()
COLOUR_STORY = discord.Colour.gold()
#: A story embed's description is kept under this (Discord allows 4096; the round's 6000 are shared).
STORY_EMBED_LIMIT = 3500

SOURCE_LABELS = {
    "generated": "narration: generated by the narrator and checked against the ledger",
    "regenerated": "narration: rewritten once after the checker found a conflict",
    "fallback": "narration: built from the results (the narrator's draft conflicted with the ledger)",
    "offline": "narration: offline narrator",
}


def round_report_embeds(report: RoundReport) -> list[discord.Embed]:
    """The round's mechanics: initiative, every action with its roll lines; the source in the footer.

    Actions spread over as many embeds as needed (each under 5000 characters and 25 fields), so a big
    round never hits Discord's limits; the footer with the narration's source is on the last one.
    """
    title = f"Round {report.round_number}: results"
    embeds = [discord.Embed(title=title, colour=COLOUR_TABLE)]
    if report.initiative:
        order = "\n".join(
            f"{i}. {safe(initiative_entry(line))}" for i, line in enumerate(report.initiative, start=1)
        )
        embeds[0].add_field(name="Initiative", value=clip(order, 1024), inline=False)
    fields: list[tuple[str, str]] = []
    for action in report.actions:
        rolls = "\n".join(f"`{clip(r, 200)}`" for r in action.rolls)
        summary, outcome = safe(action.summary), safe(action.outcome)
        value = "\n".join(part for part in (summary, rolls, f"→ {outcome}") if part)
        fields.append((clip(safe(action.actor), 256), clip(value, 1024)))
    if report.notices:
        fields.append(("Notices", clip("\n".join(safe(n) for n in report.notices), 1024)))
    for name, value in fields:
        current = embeds[-1]
        if len(current.fields) >= 25 or len(current) + len(name) + len(value) > 5000:
            current = discord.Embed(title=f"{title} (continued)", colour=COLOUR_TABLE)
            embeds.append(current)
        current.add_field(name=name, value=value, inline=False)
    source = SOURCE_LABELS.get(report.source, f"narration: {report.source}")
    extra = f" · {report.conflicts_queued} conflict(s) queued for the GM" if report.conflicts_queued else ""
    embeds[-1].set_footer(
        text=clip(
            f"{source}{extra} · seed {report.seed} (commitment {report.seed_commitment}) · "
            f"/ledger record round-{report.round_number} shows why each NPC spoke",
            2048,
        )
    )
    return embeds


def round_message_embeds(report: RoundReport) -> list[discord.Embed]:
    """The round as one channel message: the dice first (:func:`round_report_embeds`), the story under it.

    The story is the narration in an embed's description (split over more embeds past Discord's 4096
    characters), escaped like any narration; the narration's source, the seed and its commitment are in the
    last embed's footer. Group the result with :func:`fit_embeds`: a long fight spreads over as many messages
    as Discord's 10-embed and 6000-character limits need, the dice still before the story.
    """
    dice = round_report_embeds(report)
    footer = dice[-1].footer.text if dice[-1].footer else None
    story = [
        discord.Embed(
            title=None if i == 0 else f"Round {report.round_number}: the story (continued)",
            description=narration_markdown(part),
            colour=COLOUR_STORY,
        )
        for i, part in enumerate(split_text(report.public_text, STORY_EMBED_LIMIT))
        if part
    ]
    if not story:
        return dice
    dice[-1].remove_footer()
    if footer:
        story[-1].set_footer(text=footer)
    return [*dice, *story]


def initiative_entry(entry: str) -> str:
    """``Dock Thug 5`` (name, then the initiative total) as ``Dock Thug (initiative 5)``.

    The table keeps the total last (the terminal splits it the same way); shown bare it read as a name.
    """
    name, _, total = entry.rpartition(" ")
    return f"{name} (initiative {total})" if name and total.lstrip("-").isdigit() else entry


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Group ``embeds`` into messages of at most 10 embeds and 6000 characters (Discord's limits)."""
    groups: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not groups or len(groups[-1]) >= MAX_EMBEDS_PER_MESSAGE or size + len(embed) > EMBED_TOTAL_LIMIT:
            groups.append([])
            size = 0
        groups[-1].append(embed)
        size += len(embed)
    return groups


def paginate_lines(
    lines: Sequence[str],
    *,
    title: str,
    empty: str,
    per_page: int = 10,
    colour: discord.Colour | None = None,
) -> list[discord.Embed]:
    """Lay ``lines`` out over embeds of at most ``per_page`` lines (and under the description limit)."""
    colour = colour or discord.Colour.dark_teal()
    if not lines:
        return [discord.Embed(title=title, description=empty, colour=colour)]
    pages: list[discord.Embed] = []
    block: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, 1000)
        if block and (len(block) >= per_page or size + len(line) + 1 > EMBED_DESCRIPTION_LIMIT - 200):
            pages.append(discord.Embed(title=title, description="\n".join(block), colour=colour))
            block, size = [], 0
        block.append(line)
        size += len(line) + 1
    pages.append(discord.Embed(title=title, description="\n".join(block), colour=colour))
    return pages
