"""proposals

The world grows in play (issue 12): the narrator's proposals and the players' nominations, each with its
status (accepted, refused, queued, undone), the reason, the changes it made and the events they became, so
the GM can list them and undo one by a retcon.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 16:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "proposal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("origin", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("author", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("summary", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("refs", sa.JSON(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("visibility", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("cause", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("undo_event", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"]),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.create_index("ix_proposal_status", ["campaign_id", "status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.drop_index("ix_proposal_status")
    op.drop_table("proposal")
