"""A command's first read in one statement: the channel's campaign, its members and its round not yet posted.

Every round command (an action, ready, the round's status, the GM's close) begins by finding the channel's
campaign, who sits at it and the round in play. Those were three statements each (issue 14: a round's
statement count, and five players' actions before it); they are one SELECT here: the campaign
(:func:`ledger.store.campaigns.find_campaign`'s lookup), joined with its members and with its unfinished round
(at most one exists). Members come back by user id, as :func:`ledger.store.campaigns.list_members` gives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import and_, bindparam
from sqlalchemy import select as core_select

from ledger.store import models as m
from ledger.store.campaigns import _campaign_view
from ledger.store.coreread import core_rows
from ledger.store.records import CampaignView, MemberView, RoundView
from ledger.store.rounds import _round_view
from ledger.store.sqlin import in_values


@dataclass(frozen=True, slots=True)
class ChannelTable:
    """The channel's active campaign, its members (by user id) and its round not yet posted, if any."""

    campaign: CampaignView
    members: tuple[MemberView, ...]
    round: RoundView | None


def _table(model: Any) -> Any:
    return model.__table__


def _statement() -> Any:
    campaign, member, rnd = _table(m.Campaign), _table(m.Membership), _table(m.Round)
    found = (
        core_select(campaign)
        .where(
            campaign.c.guild_id == bindparam("guild_id"),
            campaign.c.channel_id == bindparam("channel_id"),
            campaign.c.status == "active",
        )
        .order_by(campaign.c.id.desc())
        .limit(1)
        .subquery("found")
    )
    return (
        core_select(
            *(c.label(f"c_{c.name}") for c in found.c),
            *(c.label(f"m_{c.name}") for c in member.c),
            *(c.label(f"r_{c.name}") for c in rnd.c),
        )
        .select_from(
            found.outerjoin(member, member.c.campaign_id == found.c.id).outerjoin(
                rnd,
                and_(rnd.c.campaign_id == found.c.id, in_values(rnd.c.state, m.UNFINISHED_ROUND_STATES)),
            )
        )
        .order_by(member.c.user_id)
    )


_CHANNEL_TABLE = _statement()


def _part(row: Any, prefix: str) -> SimpleNamespace:
    """The columns of ``row`` labelled ``<prefix>_<name>``, as attributes ``<name>``."""
    cut = len(prefix) + 1
    return SimpleNamespace(**{k[cut:]: v for k, v in row._mapping.items() if k.startswith(prefix + "_")})


async def channel_table(session: Any, *, guild_id: str | int, channel_id: str | int) -> ChannelTable | None:
    """The channel's campaign, members and open round in one SELECT; None when no campaign runs there."""
    rows = await core_rows(
        session, _CHANNEL_TABLE, {"guild_id": str(guild_id), "channel_id": str(channel_id)}
    )
    if not rows:
        return None
    campaign = _campaign_view(_part(rows[0], "c"))  # type: ignore[arg-type]
    members: dict[str, MemberView] = {}
    for row in rows:
        if row.m_user_id is not None and row.m_user_id not in members:
            members[row.m_user_id] = MemberView(
                campaign_id=row.m_campaign_id,
                user_id=row.m_user_id,
                character_id=row.m_character_id,
                active=row.m_active,
                is_gm=row.m_is_gm,
            )
    rnd = _round_view(_part(rows[0], "r")) if rows[0].r_id is not None else None  # type: ignore[arg-type]
    return ChannelTable(campaign=campaign, members=tuple(members.values()), round=rnd)


__all__ = ["ChannelTable", "channel_table"]
