"""Tablekeeper's application layer: configuration, the table (round lifecycle), narrators, CLI, Discord.

Imports only point down: ``bot`` may use ``ledger`` and ``rules``; nothing below imports ``bot``.
"""
