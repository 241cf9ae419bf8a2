"""The reader's fast paths must give exactly what its general line path gives.

The plain-line loop (``_Lexer._run_plain``) and the spaced-option regex (``_Lexer._line``) exist
only for speed; every option, position, comment and finding they produce is compared here with
``_Lexer._line_general``, the path that handles any line.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dnlint.read.darknet_reader import (
    _PLAIN_LINES,
    _PLAIN_LINES_MAX,
    _SECTION_TEXTS,
    CfgDocument,
    LexFinding,
    Section,
    _Lexer,
    read_cfg,
)
from dnlint.read.structure import check_structure

PIECES = [" ", "\t", "  ", ",", "=", "a", "b2", "1", "-", ".", "#", ";", "[", "]", "é", "\x0b",
          "net", "layers", "-1", "0.5"]
line_text = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)


def _options(sections: list[Section]) -> list[Any]:
    return [
        (s.name, s.line, s.column, s.header_ok, s.odd,
         [(o.key, o.value, o.line, o.column, o.value_column, o.raw, o.comment_at)
          for o in s.options],
         {k: o.line for k, o in s.first.items()})
        for s in sections
    ]


def _findings(findings: list[LexFinding]) -> list[Any]:
    return [(f.code, f.line, f.column, f.message, f.hint, f.by_dialect, f.only) for f in findings]


def _lexed(lexer: _Lexer) -> tuple[Any, ...]:
    return (_options(lexer.sections), _findings(lexer.findings),
            [(c.line, c.text) for c in lexer.comments])


@settings(max_examples=3000, deadline=None)
@given(line_text, st.booleans())
def test_spaced_option_path_equals_general_path(text: str, in_section: bool) -> None:
    fast, general = _Lexer([]), _Lexer([])
    if in_section:
        fast.sections.append(Section("x", 1, 1))
        general.sections.append(Section("x", 1, 1))
    fast._line(text, 7)
    general._line_general(text, 7)
    assert _lexed(fast) == _lexed(general)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(line_text, st.sampled_from(["[net]", "[conv]", "", "# c", "x=1"])),
                max_size=25))
def test_plain_document_loop_equals_general_path(lines: list[str]) -> None:
    _assert_read_as_the_general_path_reads("\n".join(lines).encode())


SECTION_LINES = ["[net]", "[conv]", "[conv]", "[yolo]", "[x] ", " [x]", "[x]]", "[]", "", "",
                 "a=1", "b=2", "a=1", "a=2", "c=#1", "k=1#c", "# c", ";c", "//c", " x=1", "y = 2",
                 "z=1, 2", "bare", "=3", "q=\t1"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(SECTION_LINES) | st.sampled_from(SECTION_LINES)
                | line_text.filter(str.isascii), max_size=30), st.booleans())
def test_sections_made_from_a_text_read_before_equal_the_general_path(
        lines: list[str], final_newline: bool) -> None:
    """A file's sections read once (each text kept in _SECTION_TEXTS when it qualifies), then
    again (every kept text made from what the first read made)."""
    data = ("\n".join(lines) + ("\n" if final_newline else "")).encode()
    _SECTION_TEXTS.clear()
    _PLAIN_LINES.clear()
    _assert_read_as_the_general_path_reads(data)
    _assert_read_as_the_general_path_reads(data)


def test_a_section_text_read_before_is_made_not_read() -> None:
    _SECTION_TEXTS.clear()
    read_cfg(b"[net]\nbatch=1\n[conv]\nsize=3\n# c\nfilters=8\n\n")
    made = _SECTION_TEXTS[b"conv]\nsize=3\n# c\nfilters=8\n\n"]
    assert (made.name, made.options, made.comments, made.height) == (
        "conv", (("size", "3", 1, None), ("filters", "8", 3, None)), ((2, "# c"),), 6)
    doc = read_cfg(b"[net]\n[conv]\nsize=3\n# c\nfilters=8\n\n\n[conv]\nsize=3\n# c\nfilters=8\n\n")
    conv, again = doc.sections[1], doc.sections[2]
    assert conv.text is made and again.text is made
    assert [(o.key, o.value, o.line) for o in again.options] == [("size", "3", 9),
                                                                 ("filters", "8", 11)]
    assert [(c.line, c.text) for c in doc.comments] == [(4, "# c"), (10, "# c")]
    assert list(doc.sections.lines) == [1, 2, 8]


def test_a_section_text_with_blanks_around_its_equals_signs_is_made_with_their_places() -> None:
    _SECTION_TEXTS.clear()
    text = b"[net]\n[route]\nlayers = -1, 61 \n[route]\nlayers = -1, 61 "
    _assert_read_as_the_general_path_reads(text)
    doc = read_cfg(text)
    assert doc.sections[2].text is doc.sections[1].text is not None
    option = doc.sections[2].options[0]
    assert (option.key, option.value, option.line, option.column, option.value_column,
            option.raw) == ("layers", "-1,61", 5, 1, 10, "layers = -1, 61 ")


def test_a_section_text_with_a_finding_is_not_kept() -> None:
    _SECTION_TEXTS.clear()
    read_cfg(b"[net]\n[conv]\nsize=3\nsize=5\n")  # a repeated key
    read_cfg(b"[net]\n[conv]\n//c\n")  # a '//' line
    assert not _SECTION_TEXTS


def _assert_read_as_the_general_path_reads(data: bytes) -> None:
    doc = read_cfg(data)
    if doc.fatal and not doc.sections:
        return  # empty or not text: nothing was lexed line by line
    reference = _Lexer([])
    for number, text in enumerate(data.decode().split("\n"), start=1):
        reference._line_general(text, number)
    expected = CfgDocument(reference.sections, [], reference.comments, reference.findings)
    check_structure(expected)
    assert _options(doc.sections) == _options(expected.sections)
    assert _findings(doc.findings) == _findings(expected.findings)
    assert [(c.line, c.text) for c in doc.comments] == [(c.line, c.text) for c in expected.comments]
    items = doc.sections._items
    assert doc.sections._bare == sum(type(item) is not Section for item in items)
    assert list(doc.sections.lines) == [section.line for section in expected.sections]


def _read(data: bytes) -> tuple[Any, ...]:
    doc = read_cfg(data)
    return (_options(doc.sections), _findings(doc.findings),
            [(c.line, c.text) for c in doc.comments])


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(line_text, st.sampled_from(["[net]", "[conv]", "", "x=1", "a=#1"])),
                max_size=25))
def test_lines_remembered_from_another_file_read_as_afresh(lines: list[str]) -> None:
    """The second read finds its plain lines in the reader's memory of lines (_PLAIN_LINES)."""
    data = "\n".join(lines).encode()
    _PLAIN_LINES.clear()
    afresh = _read(data)
    assert _read(data) == afresh


def test_a_remembered_line_before_any_section_is_still_an_option_before_a_section() -> None:
    _PLAIN_LINES.clear()
    read_cfg(b"[net]\nbatch=1\n")
    assert "batch=1" in _PLAIN_LINES
    doc = read_cfg(b"batch=1\n[net]\nbatch=1\n")
    assert [(f.code, f.line) for f in doc.findings] == [("DN002", 1)]
    assert [(o.key, o.value, o.line) for o in doc.sections[0].options] == [("batch", "1", 3)]


def test_the_memory_of_lines_is_bounded() -> None:
    _PLAIN_LINES.clear()
    read_cfg(b"[net]\n" + b"".join(b"k%d=1\n" % n for n in range(_PLAIN_LINES_MAX + 10)))
    assert len(_PLAIN_LINES) == 10
    read_cfg(b"[net]\n" + b"x=" + b"1" * 80 + b"\n")  # a long line is not kept
    assert len(_PLAIN_LINES) == 10
