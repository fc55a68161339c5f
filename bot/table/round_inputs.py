"""What a round reads once and hands down: its campaign and active members (issue 14, rounds at scale).

A round is driven through closed, resolved, narrated and posted by one task holding the campaign's lock.
The campaign row and the memberships do not change in that time in any way the round depends on (the
campaign's name, owner, channel and settings; who plays which character), so they are read once, in the
session that already reads the round, and passed to resolution, narration, delivery and the next round's
opening instead of being read again in each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ledger import service

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from ledger.store.records import CampaignView, MemberView


@dataclass(frozen=True)
class RoundInputs:
    """The campaign a round belongs to and its active members, read once per driven round."""

    campaign: CampaignView
    members: tuple[MemberView, ...]

    @property
    def pc_ids(self) -> list[str]:
        """The active members' characters, in member order (as the table has always listed them)."""
        return [m.character_id for m in self.members if m.character_id]


async def load_inputs(
    s: AsyncSession, campaign_id: int, *, campaign: CampaignView | None = None
) -> RoundInputs:
    """Read the round's inputs (the campaign only when not given); two statements at most."""
    if campaign is None:
        campaign = await service.get_campaign(s, campaign_id=campaign_id)
    members = await service.list_members(s, campaign_id=campaign_id, active_only=True)
    return RoundInputs(campaign=campaign, members=tuple(members))


def from_members(campaign: CampaignView, members: list[MemberView]) -> RoundInputs:
    """The inputs from a read of every membership (active or not) the caller already made."""
    return RoundInputs(campaign=campaign, members=tuple(m for m in members if m.active))
