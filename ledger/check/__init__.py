"""The fact check: a narration split into claims and judged against the world its audience may know.

It owns the closed claim vocabulary (:mod:`.claims`), extraction (:mod:`.extract`), judging
(:mod:`.judge`, with :mod:`.judge_meaning` for the meaning-level kinds: health, senses, kinship, counts,
attitude), the paraphrase leak check (:mod:`.leaks`) and the in-memory picture it judges against
(:mod:`.snapshot`, filled from SQL by :mod:`.snapshot_sql`). It reads :mod:`ledger.store`; nothing in the
store, the scenario room or recall imports the check.
"""
