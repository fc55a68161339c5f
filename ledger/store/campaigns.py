"""Campaigns, their game sessions' numbers and the members at the table (characters, active and GM flags).

Write functions commit on success and roll back on failure (raising a LedgerError with a one-line message).
Writers of one campaign serialise on its row.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from ledger.errors import CampaignNotFound, InvalidChange
from ledger.store import models as m
from ledger.store.coreread import core_rows
from ledger.store.records import CampaignView, MemberView
from ledger.store.transaction import WriteTransaction
from ledger.store.writes import lock_campaign


def _campaign_view(c: m.Campaign) -> CampaignView:
    return CampaignView(
        id=c.id or 0,
        name=c.name,
        guild_id=c.guild_id,
        channel_id=c.channel_id,
        owner_user_id=c.owner_user_id,
        settings=dict(c.settings),
        status=c.status,
    )


# --- campaigns and members -----------------------------------------------------------------------------


async def create_campaign(
    session: AsyncSession,
    *,
    name: str,
    guild_id: str | int = "",
    channel_id: str | int = "",
    owner_user_id: str | int = "",
    settings: dict[str, Any] | None = None,
) -> CampaignView:
    """Create a campaign and its session 1; returns it (its ``id`` scopes every other call)."""
    if not name.strip():
        raise InvalidChange("a campaign needs a name")
    async with WriteTransaction(session):
        c = m.Campaign(
            name=name.strip(),
            guild_id=str(guild_id),
            channel_id=str(channel_id),
            owner_user_id=str(owner_user_id),
            settings=settings or {},
        )
        session.add(c)
        await session.flush()
        session.add(m.GameSession(campaign_id=c.id or 0, number=1))
        view = _campaign_view(c)
    return view


async def get_campaign(session: AsyncSession, *, campaign_id: int) -> CampaignView:
    """One campaign. Raises CampaignNotFound."""
    c = await session.get(m.Campaign, campaign_id)
    if c is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    return _campaign_view(c)


async def find_campaign(
    session: AsyncSession, *, guild_id: str | int, channel_id: str | int
) -> CampaignView | None:
    """The active campaign played in this channel, or None."""
    where = {"guild_id": str(guild_id), "channel_id": str(channel_id)}
    rows = await core_rows(session, _FIND_CAMPAIGN, where)
    return _campaign_view(rows[0]) if rows else None


async def current_session_number(session: AsyncSession, *, campaign_id: int) -> int:
    """The number of the campaign's latest game session (1 for a new campaign). Raises CampaignNotFound."""
    number = (
        await session.exec(
            select(m.GameSession.number)
            .where(m.GameSession.campaign_id == campaign_id)
            .order_by(col(m.GameSession.number).desc())
        )
    ).first()
    if number is None:
        raise CampaignNotFound(f"no campaign {campaign_id}")
    return number


async def start_session(session: AsyncSession, *, campaign_id: int) -> int:
    """Close the current game session and open the next; returns the new session number."""
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
        rows = (
            await session.exec(select(m.GameSession).where(m.GameSession.campaign_id == campaign_id))
        ).all()
        for row in rows:
            if row.status == "open":
                row.status = "closed"
                session.add(row)
        number = max((r.number for r in rows), default=0) + 1
        session.add(m.GameSession(campaign_id=campaign_id, number=number))
    return number


async def set_member(
    session: AsyncSession,
    *,
    campaign_id: int,
    user_id: str | int,
    character_id: str | None = None,
    active: bool = True,
    is_gm: bool = False,
) -> MemberView:
    """Add or update a user at the table (their character, active flag, GM flag); returns the membership."""
    async with WriteTransaction(session):
        await lock_campaign(session, campaign_id)
        row = (
            await session.exec(
                select(m.Membership).where(
                    m.Membership.campaign_id == campaign_id, m.Membership.user_id == str(user_id)
                )
            )
        ).first()
        if row is None:
            row = m.Membership(campaign_id=campaign_id, user_id=str(user_id))
        row.character_id, row.active, row.is_gm = character_id, active, is_gm
        session.add(row)
        view = MemberView(
            campaign_id=campaign_id,
            user_id=str(user_id),
            character_id=character_id,
            active=active,
            is_gm=is_gm,
        )
    return view


async def list_members(
    session: AsyncSession, *, campaign_id: int, active_only: bool = False
) -> list[MemberView]:
    """The campaign's members, by user id."""
    stmt = _ACTIVE_MEMBERS if active_only else _MEMBERS
    return [
        MemberView(
            campaign_id=r.campaign_id,
            user_id=r.user_id,
            character_id=r.character_id,
            active=r.active,
            is_gm=r.is_gm,
        )
        for r in await core_rows(session, stmt, {"campaign_id": campaign_id})
    ]


# Prebuilt Core lookups (:mod:`.coreread`): compiled once, no ORM instance built per row.
_CAMPAIGN = m.Campaign.__table__.c  # type: ignore[attr-defined]
_FIND_CAMPAIGN = (
    core_select(m.Campaign.__table__)  # type: ignore[attr-defined]
    .where(
        _CAMPAIGN.guild_id == bindparam("guild_id"),
        _CAMPAIGN.channel_id == bindparam("channel_id"),
        _CAMPAIGN.status == "active",
    )
    .order_by(_CAMPAIGN.id.desc())
    .limit(1)
)
_MEMBER = m.Membership.__table__.c  # type: ignore[attr-defined]
_MEMBERS = (
    core_select(m.Membership.__table__)  # type: ignore[attr-defined]
    .where(_MEMBER.campaign_id == bindparam("campaign_id"))
    .order_by(_MEMBER.user_id)
)
_ACTIVE_MEMBERS = _MEMBERS.where(_MEMBER.active == True)  # noqa: E712 - SQL comparison


__all__ = [
    "create_campaign",
    "current_session_number",
    "find_campaign",
    "get_campaign",
    "list_members",
    "set_member",
    "start_session",
]
