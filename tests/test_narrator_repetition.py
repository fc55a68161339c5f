"""The repetition check: near-copies of the last four narrations are caught, fresh text is not."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.narrator.repetition import WINDOW, is_repetitive, repeated_of, similarity

LAST = "Rain lashes the harbour as Mira and Greyrock corner two goblins between the crates."


def test_a_reworded_copy_is_repetitive_and_fresh_text_is_not() -> None:
    assert is_repetitive(
        "Rain lashes the harbour, as Mira & Greyrock corner 2 goblins between crates!", [LAST]
    )
    assert not is_repetitive("Old Wei slides a sealed letter across the counter to Lin.", [LAST])


def test_whitespace_case_and_punctuation_do_not_hide_a_copy() -> None:
    assert similarity(LAST, LAST.upper().replace(" ", "  ").replace(".", "...")) == 1.0


def test_only_the_last_four_narrations_count() -> None:
    older = [LAST] + [
        f"Round {i}: the tide turns and gulls cry over empty docks number {i}." for i in range(WINDOW)
    ]
    assert not is_repetitive(LAST, older)
    assert repeated_of(LAST, [*older, LAST]) == (LAST,)


def test_empty_texts_never_count_as_repeats() -> None:
    assert not is_repetitive("", [LAST]) and not is_repetitive("...", ["..."])


@given(st.text(min_size=2, max_size=200), st.text(min_size=2, max_size=200))
def test_similarity_is_symmetric_and_bounded(first: str, second: str) -> None:
    value = similarity(first, second)
    assert 0.0 <= value <= 1.0
    assert value == similarity(second, first)
