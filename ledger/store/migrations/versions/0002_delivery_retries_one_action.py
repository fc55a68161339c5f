"""delivery retries and one action per player per round

Outbox rows keep how often a send was tried, when the next try is due and why the last one failed, so failed
channel posts are retried (across restarts) instead of being lost. Submissions get a unique partial index on
(round, player), so two /act at the same moment cannot both insert; rows a race already duplicated are
folded into the newest one first (the newest was the one the round resolved).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 13:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column(
                "last_error", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False, server_default=""
            )
        )
    # The models carry no server defaults: drop them once existing rows are filled, so autogenerate agrees.
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.alter_column("attempts", server_default=None)
        batch_op.alter_column("last_error", server_default=None)
    op.execute(
        "DELETE FROM submission WHERE origin != 'late-moved' AND id NOT IN ("
        " SELECT keep FROM (SELECT MAX(id) AS keep FROM submission WHERE origin != 'late-moved'"
        " GROUP BY round_id, player_user_id) AS newest)"
    )
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.create_index(
            "uq_submission_round_player",
            ["round_id", "player_user_id"],
            unique=True,
            sqlite_where=sa.text("origin != 'late-moved'"),
            postgresql_where=sa.text("origin != 'late-moved'"),
        )


def downgrade() -> None:
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_submission_round_player",
            sqlite_where=sa.text("origin != 'late-moved'"),
            postgresql_where=sa.text("origin != 'late-moved'"),
        )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("last_error")
        batch_op.drop_column("next_attempt_at")
        batch_op.drop_column("attempts")
