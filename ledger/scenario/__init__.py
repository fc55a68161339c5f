"""Scenario files: a campaign world and its history as TOML, validated, replayed offline, loaded into the
store.

It owns the file format (:mod:`.format`) and loading a file into SQL (:mod:`.load`). It may import
:mod:`ledger.store` (the change vocabulary, the writer) and :mod:`ledger.errors`; never recall or the check.
"""
