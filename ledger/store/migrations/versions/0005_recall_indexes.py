"""recall indexes

Scene retrieval reads the threads binding each NPC present, the place and each one-hop tie from
``thread_party`` by ``(campaign_id, entity_id)``. The index on those two columns alone sent every match back
to the table for its ``thread_id``; ``ix_thread_party_entity_thread`` holds the thread id too, so the lookup
is answered from the index alone (a covering index). It replaces ``ix_thread_party_entity``, its prefix.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 22:55:00
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("thread_party", schema=None) as batch_op:
        batch_op.create_index(
            "ix_thread_party_entity_thread", ["campaign_id", "entity_id", "thread_id"], unique=False
        )
        batch_op.drop_index("ix_thread_party_entity")


def downgrade() -> None:
    with op.batch_alter_table("thread_party", schema=None) as batch_op:
        batch_op.create_index("ix_thread_party_entity", ["campaign_id", "entity_id"], unique=False)
        batch_op.drop_index("ix_thread_party_entity_thread")
