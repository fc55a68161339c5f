"""Migration 0002 on a database that already holds what the old code wrote.

Before it, two /act at once could leave two submissions of one player in a round, and outbox rows had no
retry columns. Upgrading must keep the newest submission (the one the round resolved), keep late actions,
and give every old outbox row zero attempts, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import text

from ledger.store.db import create_engine, init_db


async def test_upgrading_folds_duplicate_submissions_into_the_newest_and_keeps_the_outbox(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        await init_db(engine, revision="0001")
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO campaign (id, guild_id, channel_id, name, owner_user_id, settings, status,"
                    " event_seq, created_at) VALUES (1, '1', '2', 'Saltmere', '100', '{}', 'active', 0,"
                    " CURRENT_TIMESTAMP)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO round (id, campaign_id, session_number, number, state, seed_commitment,"
                    " opened_at, updated_at) VALUES (1, 1, 1, 1, 'posted', 'c', CURRENT_TIMESTAMP,"
                    " CURRENT_TIMESTAMP)"
                )
            )
            rows = [
                (1, "1001", "k1", "look around", "player"),
                (2, "1001", "k2", "take the silver key", "player"),
                (3, "1002", "k3", "listen at the door", "player"),
                (4, "1001", "late", "open the door", "late-moved"),
            ]
            for sid, player, key, said, origin in rows:
                await conn.execute(
                    text(
                        "INSERT INTO submission (id, round_id, campaign_id, player_user_id, idempotency_key,"
                        " text, ready, origin, created_at, updated_at) VALUES (:id, 1, 1, :player, :key,"
                        " :said, false, :origin, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                    ),
                    {"id": sid, "player": player, "key": key, "said": said, "origin": origin},
                )
            await conn.execute(
                text(
                    "INSERT INTO outbox (id, campaign_id, round_id, kind, content, source, status,"
                    " created_at, updated_at) VALUES (1, 1, 1, 'public', '{}', 'generated', 'sent',"
                    " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )
        await init_db(engine)
        async with engine.connect() as conn:
            kept = (
                await conn.execute(text("SELECT player_user_id, text, origin FROM submission ORDER BY id"))
            ).all()
            outbox = (await conn.execute(text("SELECT status, attempts, last_error FROM outbox"))).all()
        assert [tuple(r) for r in kept] == [
            ("1001", "take the silver key", "player"),
            ("1002", "listen at the door", "player"),
            ("1001", "open the door", "late-moved"),
        ]
        assert [tuple(r) for r in outbox] == [("sent", 0, "")]
    finally:
        await engine.dispose()
