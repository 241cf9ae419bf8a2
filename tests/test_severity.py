"""Severity follows the consequence, per dialect: what Darknet reads exactly is not an error."""

from __future__ import annotations

import pytest

from conftest import lint_text, need_shared
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult

AB, PJ, HANK = Dialect.AB, Dialect.PJ, Dialect.HANK
NET = """\
[net]
width=32
height=32
channels=3
max_batches=4000
policy=steps
{steps}
scales=.1,.1

[convolutional]
filters=4
size=1
activation=linear
"""


def found(result: FileResult) -> list[tuple[str, int | None, str]]:
    return [(d.code, d.line, d.severity.value) for d in result.diagnostics]


@pytest.mark.parametrize("dialect", [AB, PJ])
def test_zero_fraction_list_items_are_read_exactly(dialect: Dialect) -> None:
    result = lint_text(NET.format(steps="steps=1600.0,1800.0"), dialect)
    assert found(result) == [("DN205", 7, "warning")]
    assert "reads exactly 1600, 1800" in result.diagnostics[0].message


def test_hank_splits_zero_fraction_items_one_error_not_three() -> None:
    result = lint_text(NET.format(steps="steps=1600.0,1800.0"), HANK)
    # the step count and order that follow from the split are not repeated (DN109, DN110)
    assert found(result) == [("DN214", 7, "error")]
    assert "'1600.0' as [1600, 0]; '1800.0' as [1800, 0]" in result.diagnostics[0].message


def test_every_bad_item_of_a_list_is_reported() -> None:
    result = lint_text(NET.format(steps="steps=3.2,3.6"))
    assert found(result) == [("DN205", 7, "error")]
    assert result.diagnostics[0].message == (
        "items '3.2', '3.6' of steps are not integers; Darknet's atoi reads 3, 3")


def test_a_changed_item_is_an_error_even_next_to_an_exact_one() -> None:
    result = lint_text(NET.format(steps="steps=1600.0,1800.5"))
    assert found(result) == [("DN205", 7, "error")]
    assert result.diagnostics[0].message == (
        "item '1800.5' of steps is not an integer; Darknet's atoi reads 1800 (and item '1600.0' "
        "exactly)")


@pytest.mark.parametrize(("value", "severity"), [("2000.0", "warning"), ("2000.", "warning"),
                                                 ("2000.5", "error"), ("2e3", "error")])
@pytest.mark.parametrize("dialect", [AB, PJ])
def test_scalar_integers_with_a_fraction(value: str, severity: str, dialect: Dialect) -> None:
    text = NET.format(steps="steps=1000,2000").replace("max_batches=4000",
                                                      f"max_batches={value}")
    assert found(lint_text(text, dialect)) == [("DN205", 5, severity)]


@pytest.mark.parametrize(("value", "expected"), [
    ("2000.0", []), ("2000.", []),  # hank reads an int through a float: exactly 2000
    ("2000.5", [("DN205", 5, "error")]),  # truncated to 2000
    ("2e3", [("DN213", 5, "error")]),  # 'e' is no number to hank: it stops
])
def test_scalar_integers_with_a_fraction_under_hank(value: str,
                                                    expected: list[tuple[str, int, str]]) -> None:
    text = NET.format(steps="steps=1000,2000").replace("max_batches=4000",
                                                      f"max_batches={value}")
    assert found(lint_text(text, HANK)) == expected


@pytest.mark.parametrize(("dialect", "severity", "says"), [
    (PJ, "error", "the mini-batch is 0"),
    (AB, "warning", "clamps the mini-batch to 1 and trains on 8 images per iteration"),
    (HANK, "warning", "clamps the mini-batch to 1 and trains on 8 images per iteration"),
])
def test_subdivisions_over_batch(dialect: Dialect, severity: str, says: str) -> None:
    text = NET.format(steps="steps=1000,2000").replace("max_batches", "batch=1\nsubdivisions=8\n"
                                                                     "max_batches")
    result = lint_text(text, dialect)
    assert found(result) == [("DN102", 6, severity)]
    assert says in result.diagnostics[0].message


@pytest.mark.parametrize(("dialect", "expected"), [(PJ, [("DN013", "error")]),
                                                  (AB, [("DN013", "info")]),
                                                  (HANK, [])])  # hank's lexer trims it
def test_crlf_is_a_portability_note_where_it_is_stripped(
        dialect: Dialect, expected: list[tuple[str, str]]) -> None:
    text = NET.format(steps="steps=1000,2000").replace("\n", "\r\n").encode()
    result = lint_cfg_bytes(text, "t.cfg", dialect)
    assert [(d.code, d.severity.value) for d in result.diagnostics][:1] == expected


def test_an_error_only_in_the_guessed_dialect_says_so() -> None:
    path = need_shared() / "corpus" / "pjreddie" / "cfg" / "resnet50.cfg"
    result = lint_cfg_bytes(path.read_bytes(), str(path), None)  # --dialect auto
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert [(d.code, d.line) for d in errors] == [("DN318", 152)]
    assert errors[0].message.endswith(
        "(only in AlexeyAB's Darknet, guessed for this file: the original Darknet (pjreddie) "
        "builds this file; use --dialect pjreddie if that is what you run)")
    # named explicitly, the dialect is not a guess
    chosen = lint_cfg_bytes(path.read_bytes(), str(path), AB)
    assert "guessed" not in next(d for d in chosen.diagnostics if d.code == "DN318").message
