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
    data = "\n".join(lines).encode()
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
