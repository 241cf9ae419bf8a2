"""DN001 for a file of blanks only: the sniffer's test, at the edges of the slices it reads."""

from __future__ import annotations

import re

import pytest

from conftest import codes, lint_text
from dnlint.read.sniff import _all_blank

# the pattern the sniffer stands for: spaces, tabs, CRs and LFs up to the end, nothing else
BLANK = re.compile(rb"[ \t\r\n]*\Z")


@pytest.mark.parametrize("data", [
    b"", b" ", b"\n\r\t ", b"\f", b"\v\n", b" " * 255 + b"x", b" " * 256 + b"x",
    b" " * 1279 + b"x", b" " * 1280 + b"x", b" " * 1281, b"\n" * 3_000_000,
    b"\n" * 3_000_000 + b"[net]", b"\r\n" * 700 + b"\x00", b"\n\n[net]\n",
])
def test_blank_as_the_pattern_says(data: bytes) -> None:
    assert _all_blank(data) is (BLANK.match(data) is not None)


def test_a_file_of_blank_lines_is_empty() -> None:
    assert codes(lint_text("\n \n\t\r\n")) == [("DN001", 1)]
    assert "DN001" not in {code for code, _ in codes(lint_text("\n \n[net]\nwidth=32\n"))}
