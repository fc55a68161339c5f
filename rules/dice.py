"""Dice: every roll takes an explicit ``random.Random``, so the same seed always gives the same dice.

:func:`roll` wraps the d20 library for free-form expressions (``/roll``, ``tablekeeper roll``). d20 draws from
the module-global ``random`` inside ``d20.expression``; we swap that name for the caller's ``Random`` around
the synchronous call (under a lock, because the swap is process-wide) and restore it afterwards, all inside
:func:`_roll_seeded`, because d20 has no per-roll random source of its own.

Hostile input is refused *before* parsing when it could freeze the CPU or blow the stack (length, nesting,
literal size, dice count), and every d20 failure becomes a :class:`~rules.errors.DiceError` with one line a
player can act on. The engine's own checks and damage use :func:`roll_d20` and :func:`roll_pool`, which draw
from the same ``Random`` directly (no parsing, no lock).
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import threading
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from rules.errors import DiceError, InternalError

if TYPE_CHECKING:
    import d20

MAX_EXPRESSION_LENGTH = 100
MAX_DICE = 100
MAX_NESTING = 10
MAX_LITERAL_DIGITS = 6  # also bounds die sizes: d999999 at most
MAX_OPERATORS = 6  # keep/reroll/explode operators: each one walks every die (100 dice x 20 ops = 40 ms)

_DICE_COUNT = re.compile(r"(\d*)\s*d\s*(\d+|%)", re.IGNORECASE)
_LITERAL = re.compile(r"\d+")
_OPERATOR = re.compile(r"(rr|ro|ra|mi|ma|e|k|p)[lh<>]?\d", re.IGNORECASE)
_ALLOWED = re.compile(r"[0-9dD%+\-*/()<>=!,.\s\[\]a-zA-Z_']*")

_ENDLESS = re.compile(r"(rr|e)[lh<>]?\d", re.IGNORECASE)  # operators that roll more dice until told to stop
_PERCENTILE = re.compile(r"d\s*%", re.IGNORECASE)

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_roller: d20.Roller | None = None


class Die(BaseModel):
    """One physical die: its size, the face it shows, and whether it counts toward the total."""

    model_config = ConfigDict(frozen=True)

    sides: int
    value: int
    kept: bool = True


class DiceRoll(BaseModel):
    """The result of rolling one expression: the total, d20's breakdown string and every die."""

    model_config = ConfigDict(frozen=True)

    expression: str
    total: int
    breakdown: str
    dice: tuple[Die, ...] = ()
    natural: int | None = None  # the kept d20 face when the expression starts with a single kept d20


class Advantage(StrEnum):
    """How a d20 is rolled: once, or twice keeping the higher (advantage) or lower (disadvantage)."""

    NONE = "none"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"

    @classmethod
    def combine(cls, advantage: bool, disadvantage: bool) -> Advantage:
        """Any advantage and any disadvantage cancel to a straight roll (SRD: they never stack)."""
        if advantage and not disadvantage:
            return cls.ADVANTAGE
        if disadvantage and not advantage:
            return cls.DISADVANTAGE
        return cls.NONE


class D20(BaseModel):
    """A d20 rolled for a check, save or attack: the face that counts and every face rolled."""

    model_config = ConfigDict(frozen=True)

    natural: int
    faces: tuple[int, ...]
    advantage: Advantage = Advantage.NONE


def roll_d20(rng: random.Random, advantage: Advantage = Advantage.NONE) -> D20:
    """Roll a d20 (twice with advantage or disadvantage) from ``rng``; return the face that counts."""
    first = rng.randrange(20) + 1
    if advantage is Advantage.NONE:
        return D20(natural=first, faces=(first,), advantage=advantage)
    second = rng.randrange(20) + 1
    pick = max(first, second) if advantage is Advantage.ADVANTAGE else min(first, second)
    return D20(natural=pick, faces=(first, second), advantage=advantage)


def roll_pool(count: int, sides: int, rng: random.Random) -> tuple[int, ...]:
    """Roll ``count`` dice of ``sides`` faces from ``rng`` in a fixed order (damage and healing dice)."""
    if count < 0 or sides < 1:
        raise DiceError(f"Cannot roll {count}d{sides}")
    return tuple(rng.randrange(sides) + 1 for _ in range(count))


def _get_roller() -> d20.Roller:
    global _roller
    if _roller is None:
        import d20

        _roller = d20.Roller(d20.RollContext(max_rolls=MAX_DICE))
    return _roller


def _screen(expr: str) -> str:
    """Refuse, before parsing, what is too big to parse or roll safely; return the stripped expression."""
    if not isinstance(expr, str):
        raise DiceError("Dice expression must be text")
    text = " ".join(expr.split())  # one line: newlines and tabs become single spaces
    # d20 rolls "d%" as 0, 10, ..., 90 (the tens die alone); a percentile roll is 1-100, as everyone means it.
    text = _PERCENTILE.sub("d100", text)
    if not text:
        raise DiceError("Empty dice expression: try 1d20+5")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceError(f"Expression too long: at most {MAX_EXPRESSION_LENGTH} characters")
    if not _ALLOWED.fullmatch(text):
        bad = next(ch for ch in text if not _ALLOWED.fullmatch(ch))
        shown = text if text.isprintable() else ascii(text)[1:-1]
        raise DiceError(f"Could not read '{shown}': unexpected character {bad!a}")
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
            if depth > MAX_NESTING:
                raise DiceError(f"Too deeply nested: at most {MAX_NESTING} levels of parentheses")
        elif ch == ")":
            depth -= 1
    for literal in _LITERAL.findall(text):
        if len(literal.lstrip("0") or "0") > MAX_LITERAL_DIGITS:
            raise DiceError(f"Number too large: at most {MAX_LITERAL_DIGITS} digits")
    dice = 0
    for count, _sides in _DICE_COUNT.findall(text):
        dice += int(count) if count else 1
        if dice > MAX_DICE:
            raise DiceError(f"Too many dice: at most {MAX_DICE}")
    if len(_OPERATOR.findall(text)) > MAX_OPERATORS:
        raise DiceError(f"Too many dice operators: at most {MAX_OPERATORS}")
    return text


def _leftmost_natural(node: Any) -> int | None:
    from d20 import Dice

    left = node
    while left.children:
        left = left.children[0]
    if isinstance(left, Dice) and left.size == 20 and len(left.keptset) == 1:
        return int(left.total)
    return None


def _collect_dice(node: Any, out: list[Die]) -> None:
    from d20 import Dice

    if isinstance(node, Dice):
        sides = int(node.size)  # "d%" never reaches d20: _screen rewrote it to d100
        for die in node.values:
            for face in die.values:
                out.append(Die(sides=sides, value=int(face.number), kept=bool(die.kept and face.kept)))
        return
    for child in node.children:
        _collect_dice(child, out)


def _roll_seeded(text: str, rng: random.Random) -> d20.RollResult:
    """Roll ``text`` with d20, every die drawn from ``rng``: the one place d20's global ``random`` is swapped.

    d20 draws each die from the module-global ``random`` in ``d20.expression`` and offers no per-roll source
    (``Roller`` and ``RollContext`` take none). So for the length of one synchronous roll, under a lock, that
    name points at ``rng``; the swap cannot leak past this function, and two threads never see each other's
    generator. Everything after the roll (reading the tree) happens outside.
    """
    import d20
    import d20.expression as d20_expression

    roller = _get_roller()
    with _lock:
        saved = d20_expression.random
        d20_expression.random = rng
        try:
            return roller.roll(text, stringifier=d20.SimpleStringifier())
        finally:
            d20_expression.random = saved


def roll(expr: str, rng: random.Random) -> DiceRoll:
    """Roll a dice expression (d20 syntax: ``1d20+5``, ``4d6kh3``, ``2d20kl1``, ``d%``) with ``rng``.

    Returns a frozen :class:`DiceRoll`. Raises :class:`DiceError` with a one-line message for anything the
    player wrote that cannot or may not be rolled. Anything else is a bug of ours, not the player's: it is
    logged with a traceback under an error id and raised as :class:`~rules.errors.InternalError`.
    """
    text = _screen(expr)
    import d20
    import lark

    dice: list[Die] = []
    try:
        result = _roll_seeded(text, rng)
        total = int(result.total)  # d20 evaluates lazily: 1/0 raises here, not in the roll
        breakdown = result.result
        _collect_dice(result.expr, dice)
        natural = _leftmost_natural(result.expr)
    except d20.TooManyRolls:
        if _ENDLESS.search(text):
            raise DiceError(
                f"Could not roll '{text}': it keeps rerolling or exploding past {MAX_DICE} dice "
                "(does every face reroll or explode?)"
            ) from None
        raise DiceError(f"Too many dice: at most {MAX_DICE}") from None
    except d20.RollSyntaxError as exc:
        got = str(exc.got) if exc.got is not None else ""
        where = f"unexpected {got!r} at column {exc.col}" if got else "it ends too early"
        raise DiceError(f"Could not read '{text}': {where}") from None
    except d20.RollError as exc:  # RollValueError and the rest of d20's own refusals
        raise DiceError(f"Could not roll '{text}': {exc}") from None
    except ZeroDivisionError:
        raise DiceError(f"Could not roll '{text}': division by zero") from None
    except lark.exceptions.LarkError as exc:  # a parse error d20 did not translate (UnexpectedEOF)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DiceError(f"Could not read '{text}': {reason[:80]}") from None
    except Exception as exc:
        raise internal_error(f"rolling {text!r}", exc) from exc
    if len(breakdown) > 2000:
        breakdown = breakdown[:1997] + "..."
    return DiceRoll(expression=text, total=total, breakdown=breakdown, dice=tuple(dice), natural=natural)


def internal_error(doing: str, exc: BaseException) -> InternalError:
    """Log ``exc`` with its traceback under a fresh error id; return the :class:`InternalError` to raise."""
    error_id = secrets.token_hex(3).upper()
    _log.error("error id %s: internal error while %s", error_id, doing, exc_info=exc)
    return InternalError(error_id)
