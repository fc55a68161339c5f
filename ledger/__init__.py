"""The five-layer campaign store: facts and inventory, relationships, threads, events, summaries.

Knows nothing of Discord or the LLM. SQL is the authority; Chroma summaries are an index. The public entry is
:mod:`ledger.service`. The code lives in four rooms, by job, and imports point one way between them:

- :mod:`ledger.store`: the tables, migrations, the change vocabulary, writing changes, reading state through
  a viewer, visibility, corrections and the table's paperwork (campaigns, rounds, sessions, the outbox).
- :mod:`ledger.scenario`: the scenario file format (TOML), its validation, its offline replay and loading a
  file into the store.
- :mod:`ledger.recall`: what the narrator is reminded of: scene retrieval, the Chroma summaries, embeddings.
- :mod:`ledger.check`: the fact check: the claim vocabulary, extraction, judging, leak detection and the
  in-memory snapshot it judges against.

``store`` imports no other room; ``scenario`` imports ``store``; ``recall`` and ``check`` import ``store`` and
``scenario``, never each other's privates and never the reverse. :mod:`ledger.errors` is shared by all.
"""
