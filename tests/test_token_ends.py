"""TokenEnds: token_end for every column of a line at once, as with_ends uses it on a line
many findings start on."""

from __future__ import annotations

import random

import pytest

from dnlint.diagnostics import TokenEnds, new_diagnostic, token_end, with_ends

LINES = [
    "",
    "a",
    "[net]",
    "[net",
    "[[a]]x",
    "anchors = 10,14,  23,27 , 37,58 # comment",
    "layers=-1,,,2;x",
    "key==value\tmore",
    ", ,\t, a",
    "  x=1 2  ",
    "]]]",
]


def _random_lines() -> list[str]:
    rng = random.Random(7)
    alphabet = "ab1,,  \t=#;[]"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
            for _ in range(300)]


@pytest.mark.parametrize("text", LINES + _random_lines())
def test_token_ends_match_token_end_at_every_column(text: str) -> None:
    table = TokenEnds(text)
    for column in range(1, len(text) + 3):
        assert table.end(column) == token_end(text, column), (text, column)


def test_with_ends_on_a_line_of_many_findings() -> None:
    text = "x=" + ",".join("a" * (i % 3 + 1) for i in range(50)) + " y"
    diagnostics = [new_diagnostic("DN201", 1, column, "m") for column in range(1, len(text) + 2)]
    ended = with_ends(diagnostics, [text])
    assert [d.end_column for d in ended] == [token_end(text, c) for c in range(1, len(text) + 2)]
    assert {d.end_line for d in ended} == {1}
