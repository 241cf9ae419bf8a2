"""The language server's text store and position encodings, without a server."""

from __future__ import annotations

from typing import Any

import pytest

from dnlint.lsp.text import UTF8, UTF16, UTF32, TextDocument, code_points, units


def at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def edit(doc: TextDocument, start: dict[str, int], end: dict[str, int], text: str,
         encoding: str = UTF16) -> None:
    doc.apply_change({"range": {"start": start, "end": end}, "text": text}, encoding)


def test_lines_end_only_where_lsp_says() -> None:
    doc = TextDocument("u", "a\u2028b\x0cc\x85d\ne\r\nf\rg", 1)
    assert doc.line_count() == 4
    assert [doc.line_text(n) for n in range(4)] == ["a\u2028b\x0cc\x85d", "e", "f", "g"]


def test_an_edit_after_a_unicode_line_separator_lands_on_the_right_line() -> None:
    # str.splitlines() would count "\u2028" as a line break and insert into "b"
    doc = TextDocument("u", "a\u2028b\nc", 1)
    edit(doc, at(1, 0), at(1, 0), "X")
    assert doc.text == "a\u2028b\nXc"


def test_crlf_and_lone_cr_lines() -> None:
    doc = TextDocument("u", "ab\r\ncd\ref", 1)
    edit(doc, at(1, 1), at(2, 1), "")
    assert doc.text == "ab\r\ncf"
    assert doc.position_at(3, UTF16) == at(0, 2)  # between CR and LF: the line's end


@pytest.mark.parametrize(("encoding", "character"), [(UTF16, 3), (UTF8, 5), (UTF32, 2)])
def test_characters_count_in_the_negotiated_encoding(encoding: str, character: int) -> None:
    doc = TextDocument("u", "x\U0001F600yz", 1)  # the emoji: 2 UTF-16 units, 4 bytes
    assert doc.offset_at(at(0, character), encoding) == 2
    assert doc.position_at(2, encoding) == at(0, character)
    edit(doc, at(0, character), at(0, character), "-", encoding)
    assert doc.text == "x\U0001F600-yz"


def test_positions_past_the_end_are_clamped() -> None:
    doc = TextDocument("u", "ab\ncd", 1)
    assert doc.offset_at(at(0, 99), UTF16) == 2
    assert doc.offset_at(at(7, 0), UTF16) == 5
    assert doc.offset_at({"line": "x"}, UTF16) == 0
    edit(doc, at(9, 9), at(9, 9), "!")
    assert doc.text == "ab\ncd!"


def test_a_position_inside_a_surrogate_pair_counts_the_character() -> None:
    assert code_points("\U0001F600a", 1, UTF16) == 1
    assert units("\U0001F600a", UTF16) == 3
    assert units("\ud800a", UTF8) == 4  # a lone surrogate: three bytes (surrogatepass)


def test_whole_text_change_and_malformed_changes() -> None:
    doc = TextDocument("u", "abc", 1)
    doc.apply_change({"text": "xyz\n"}, UTF16)
    assert doc.text == "xyz\n"
    bad: list[Any] = [None, 3, {"range": {}}, {"text": 5}]
    for change in bad:
        doc.apply_change(change, UTF16)
    assert doc.text == "xyz\n"


def test_dnlint_lines_split_at_lf_only() -> None:
    doc = TextDocument("u", "a\rb\nc\r\nd", 1)
    assert doc.lf_line_span(1) == (0, 3)  # "a\rb": one line for dnlint, two for LSP
    assert doc.lf_line_span(2) == (4, 5)
    assert doc.lf_offset(1, 3) == 2
    assert doc.position_at(doc.lf_offset(1, 3), UTF16) == at(1, 0)
    assert doc.lf_line_column(5) == (2, 2)


# --- a finding's range ------------------------------------------------------------------------
RANGE_CFG = "[convolutional]\nfilters=16 # x\nmask=0,1,2\nlayers = -1\n"


def span(line: int | None, column: int | None, **end: int) -> str:
    from types import SimpleNamespace

    from dnlint.lsp.convert import finding_span

    doc = TextDocument("u", RANGE_CFG, 1)
    finding = SimpleNamespace(line=line, column=column, **end)
    start, stop = finding_span(doc, finding)  # type: ignore[arg-type]
    return doc.text[start:stop]


def test_a_finding_covers_the_token_at_its_column() -> None:
    assert span(1, 1) == "[convolutional]"
    assert span(2, 1) == "filters"
    assert span(2, 9) == "16"
    assert span(2, 12) == "#"
    assert span(3, 8) == "1"  # one list item
    assert span(4, 10) == "-1"
    assert span(4, 8) == "="  # a separator: at least one character
    assert span(2, 99) == ""  # past the line's end: the end of the line, empty


def test_a_finding_without_a_column_covers_its_line_and_one_without_a_line_nothing() -> None:
    assert span(3, None) == "mask=0,1,2"
    assert span(None, None) == ""


def test_a_finding_that_names_its_end_covers_up_to_it() -> None:
    assert span(3, 6, end_line=3, end_column=11) == "0,1,2"
    assert span(2, 9, end_line=3, end_column=5) == "16 # x\nmask"
