"""Dice: seeded, bounded, and every bad expression becomes one clear DiceError."""

from __future__ import annotations

import logging
import random
import statistics
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Advantage, roll, roll_d20, roll_pool
from rules.errors import DiceError, InternalError


def test_same_seed_same_roll_and_global_random_untouched() -> None:
    random.seed(123)
    before = random.random()
    random.seed(123)
    first = roll("4d6kh3+2", random.Random(7))
    second = roll("4d6kh3+2", random.Random(7))
    assert first == second
    assert random.random() == before  # the global generator was not consumed


def test_roll_reports_total_breakdown_and_dice() -> None:
    result = roll("4d6kh3", random.Random(1))
    assert len(result.dice) == 4
    assert sum(1 for d in result.dice if not d.kept) == 1
    assert result.total == sum(d.value for d in result.dice if d.kept)
    assert result.breakdown.startswith("4d6kh3")
    assert result.natural is None


def test_natural_d20_is_reported_for_checks() -> None:
    result = roll("1d20+5", random.Random(3))
    assert result.natural is not None
    assert result.total == result.natural + 5
    adv = roll("2d20kh1+1", random.Random(3))
    assert adv.natural == max(d.value for d in adv.dice)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("3d", "Could not read '3d'"),
        ("1d20+", "Could not read"),
        ("", "Empty dice expression"),
        ("x" * 101, "Expression too long: at most 100 characters"),
        ("101d6", "Too many dice: at most 100"),
        ("60d6+60d6", "Too many dice: at most 100"),
        ("1d1e1", "keeps rerolling or exploding past 100 dice"),  # explodes forever without the roll cap
        ("1d20rr<21", "keeps rerolling or exploding past 100 dice"),  # every face rerolls: not "too many"
        ("1d0", "Could not roll"),
        ("1/0", "Could not roll"),
        ("(" * 11 + "1" + ")" * 11, "Too deeply nested"),
        ("9" * 7, "Number too large"),
        ("1d6;rm -rf /", "unexpected character"),
        ("10d6" + "kh1" * 7, "Too many dice operators: at most 6"),
    ],
)
def test_bad_expressions_give_one_line_messages(expr: str, message: str) -> None:
    with pytest.raises(DiceError) as err:
        roll(expr, random.Random(0))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "expr",
    [
        "(" * 500 + "1" + ")" * 500,  # RecursionError in the parser
        "9" * 4400,  # int() digit limit
        "1000d6" + "kh1" * 30,  # seconds of CPU inside d20
        "100d6" + "kh1" * 30,
    ],
)
def test_hostile_expressions_are_refused_before_parsing(expr: str) -> None:
    with pytest.raises(DiceError):
        roll(expr, random.Random(0))


@settings(deadline=None, max_examples=300)
@given(st.text(max_size=120))
def test_any_text_rolls_or_raises_dice_error(text: str) -> None:
    """Whatever a player types is rolled or refused in one line: never an internal error or a traceback."""
    try:
        result = roll(text, random.Random(0))
    except DiceError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(result.total, int)
        assert all(1 <= d.value <= d.sides for d in result.dice)


_SHAPES = ["1d20", "d6", "4d6", "kh1", "kl2", "rr1", "e6", "+", "-", "*", "(", ")", "3", "ro1", "mi2", "d%"]


@settings(deadline=None, max_examples=200)
@given(st.lists(st.sampled_from(_SHAPES), max_size=30))
def test_dice_shaped_text_rolls_or_raises_dice_error(parts: list[str]) -> None:
    """Dice-shaped text either rolls (every face on its die, at most 100 dice, the same again with the same
    seed) or is refused with a one-line DiceError."""
    text = "".join(parts)
    try:
        result = roll(text, random.Random(1))
    except DiceError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(result.dice) <= 100
    assert all(1 <= d.value <= d.sides for d in result.dice)
    assert roll(text, random.Random(1)) == result


def test_percentile_die_rolls_one_to_a_hundred() -> None:
    rng = random.Random(5)
    faces = [roll("d%", rng).dice[0] for _ in range(2000)]
    assert {d.sides for d in faces} == {100}
    values = {d.value for d in faces}
    assert min(values) == 1 and max(values) == 100
    assert any(v % 10 for v in values)  # not only the tens die (0, 10, ..., 90)


def test_internal_bug_is_not_blamed_on_the_player(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import rules.dice as dice_module

    def broken(text: str, rng: random.Random) -> None:
        raise KeyError("a bug in our own code")

    monkeypatch.setattr(dice_module, "_roll_seeded", broken)
    with caplog.at_level(logging.ERROR, logger="rules.dice"), pytest.raises(InternalError) as err:
        roll("1d20", random.Random(0))
    assert not isinstance(err.value, DiceError)
    assert err.value.error_id in str(err.value)
    logged = [r for r in caplog.records if err.value.error_id in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # the traceback is in the log under that id


def test_threads_rolling_with_their_own_seeds_get_their_own_sequences() -> None:
    """The d20 random swap is per roll: eight threads rolling at once each see exactly their seed's dice."""

    def sequence(seed: int) -> list[int]:
        rng = random.Random(seed)
        return [roll("4d6+1d20+2d8", rng).total for _ in range(300)]

    expected = {seed: sequence(seed) for seed in range(8)}
    start = threading.Barrier(8)

    def worker(seed: int) -> list[int]:
        start.wait()
        return sequence(seed)

    with ThreadPoolExecutor(max_workers=8) as pool:
        got = dict(zip(range(8), pool.map(worker, range(8)), strict=True))
    assert got == expected
    assert len({tuple(v) for v in got.values()}) == 8


def test_mean_of_d20_over_100k_rolls() -> None:
    rng = random.Random(2024)
    mean = statistics.fmean(roll_d20(rng).natural for _ in range(100_000))
    assert 10.4 < mean < 10.6


def test_advantage_beats_fifteen_about_half_the_time() -> None:
    # P(max of two d20 >= 15) = 1 - (14/20)^2 = 0.51
    rng = random.Random(99)
    hits = sum(roll_d20(rng, Advantage.ADVANTAGE).natural >= 15 for _ in range(100_000))
    assert 0.50 < hits / 100_000 < 0.52
    rng = random.Random(99)
    hits = sum(roll_d20(rng, Advantage.DISADVANTAGE).natural >= 15 for _ in range(100_000))
    assert 0.08 < hits / 100_000 < 0.10  # (6/20)^2 = 0.09


def test_advantage_keeps_the_higher_and_disadvantage_the_lower() -> None:
    for seed in range(50):
        adv = roll_d20(random.Random(seed), Advantage.ADVANTAGE)
        dis = roll_d20(random.Random(seed), Advantage.DISADVANTAGE)
        assert adv.faces == dis.faces and len(adv.faces) == 2
        assert adv.natural == max(adv.faces)
        assert dis.natural == min(dis.faces)


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "expected"),
    [
        (False, False, Advantage.NONE),
        (True, False, Advantage.ADVANTAGE),
        (False, True, Advantage.DISADVANTAGE),
        (True, True, Advantage.NONE),
    ],
)
def test_advantage_truth_table(advantage: bool, disadvantage: bool, expected: Advantage) -> None:
    assert Advantage.combine(advantage, disadvantage) is expected


def test_roll_pool_is_seeded_and_in_range() -> None:
    faces = roll_pool(10, 6, random.Random(5))
    assert faces == roll_pool(10, 6, random.Random(5))
    assert all(1 <= f <= 6 for f in faces)
