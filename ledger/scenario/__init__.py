"""Scenario files: a campaign world and its history as TOML, validated, replayed offline, loaded into the
store.

Modules, lowest first (each imports only those above it):

- :mod:`.values`: the values a file writes (id and key patterns, names, sessions, visibilities, 5e words).
- :mod:`.changes`: ``[[history]]`` changes, the store's own vocabulary classes narrowed for a file.
- :mod:`.format`: the file's sections as pydantic models, :class:`~.format.ScenarioError`, the JSON Schema.
- :mod:`.timeline`: a scenario as ordered groups of changes (setup per session, then history).
- :mod:`.replay`: the timeline replayed in pure Python: the world as a viewer knows it, the replay's checks.
- :mod:`.validate`: checks of the whole file, and pydantic's errors put into the file's words.
- :mod:`.reading`: TOML within limits, then every check: ``parse_scenario`` / ``load_scenario``.
- :mod:`.load`: a scenario written into SQL through the store's writer, as one transaction.

It may import :mod:`ledger.store` (the change vocabulary, the writer) and :mod:`ledger.errors`; never recall
or the check, and the store never imports it.
"""
