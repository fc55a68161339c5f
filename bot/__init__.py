"""Tablekeeper's application layer: configuration, the table (round lifecycle), narrators, CLI and Discord client.

Imports only point down: ``bot`` may use ``ledger`` and ``rules``; nothing below imports ``bot``.
"""
