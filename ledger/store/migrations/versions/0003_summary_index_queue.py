"""summary index queue

Each summary row says where it stands in the Chroma index (``pending``, ``indexed`` or ``refused``), so the
summaries that could not be indexed while Chroma or the embeddings endpoint was down are kept in SQL (the
authority) and indexed when the index is back. Rows filed before this revision start ``pending``: indexing
them again is an idempotent upsert.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 13:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("summary", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "index_state",
                sqlmodel.sql.sqltypes.AutoString(length=20),
                nullable=False,
                server_default="pending",
            )
        )
    # The model carries no server default: drop it once existing rows are filled, so autogenerate agrees.
    with op.batch_alter_table("summary", schema=None) as batch_op:
        batch_op.alter_column("index_state", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("summary", schema=None) as batch_op:
        batch_op.drop_column("index_state")
