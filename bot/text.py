"""Text from players, cleaned where it enters the table: no control characters, no terminal escapes.

A NUL in an action reached PostgreSQL (which refuses it in text columns: a raw ``DBAPIError``), and ANSI/OSC
escape sequences in an action or a name were echoed to the GM's terminal (colours, a retitled window, a
hyperlink) and stored for the narration. :func:`clean_text` removes them once, at the edge
(:meth:`bot.table.Table.submit` and :meth:`~bot.table.Table.join`), so nothing downstream has to care.
Ordinary text (accents, emoji, line breaks, tabs as spaces) is kept exactly.
"""

from __future__ import annotations

import re

__all__ = ["clean_name", "clean_text"]

# ESC-introduced sequences: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), DCS/SOS/PM/APC
# (ESC P/X/^/_ ... ESC \), and two-byte escapes (ESC + one character). The 8-bit C1 forms too (CSI = \x9b).
_ESCAPES = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?            # CSI: parameters, intermediates, final byte
    | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC up to BEL or ST (or the end)
    | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC up to ST
    | \x1b.?                                     # any other escape and the character it introduces
    """,
    re.VERBOSE | re.DOTALL,
)
# What is left after the escapes: C0 controls except tab and newline, DEL, C1 controls, and the Unicode
# direction overrides that make a name read backwards ("Trojan Source").
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean_text(text: str) -> str:
    """Return ``text`` without terminal escape sequences and control characters (tabs become spaces).

    Line breaks are kept (an action may have two sentences on two lines); ``\\r\\n`` becomes ``\\n``.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _ESCAPES.sub("", text)
    return _CONTROLS.sub("", text)


def clean_name(name: str) -> str:
    """Return a name on one line: cleaned like :func:`clean_text`, runs of whitespace made one space."""
    return " ".join(clean_text(name).split())
