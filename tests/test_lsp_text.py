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


# --- many edits in one didChange -------------------------------------------------------------
def _replaced_one_by_one(text: str, changes: list[dict[str, Any]], encoding: str) -> str:
    """What each change does when it is applied alone to the text before it: offsets from a
    fresh document, the text cut and joined."""
    for change in changes:
        if "range" not in change:
            text = change["text"]
            continue
        doc = TextDocument("u", text, 1)
        start = doc.offset_at(change["range"]["start"], encoding)
        end = doc.offset_at(change["range"]["end"], encoding)
        start, end = min(start, end), max(start, end)
        text = text[:start] + change["text"] + text[end:]
    return text


_PIECES = ["a", "bc", "\n", "\r", "\r\n", "\U0001F600", "\u2028", "é", "", "[net]\n"]


@pytest.mark.parametrize("seed", range(60))
def test_a_batch_of_edits_is_the_edits_one_by_one(seed: int) -> None:
    import random

    rng = random.Random(seed)
    encoding = (UTF8, UTF16, UTF32)[seed % 3]

    def text() -> str:
        return "".join(rng.choice(_PIECES) for _ in range(rng.randrange(8)))

    def position() -> dict[str, int]:
        return at(rng.randrange(-1, 8), rng.randrange(-1, 8))

    original = text() * 3
    changes: list[dict[str, Any]] = []
    for _ in range(rng.randrange(1, 25)):
        if rng.random() < 0.05:
            changes.append({"text": text()})
        else:
            changes.append({"range": {"start": position(), "end": position()},
                            "text": text()})
    doc = TextDocument("u", original, 1)
    doc.apply_changes(changes, encoding)
    expected = _replaced_one_by_one(original, changes, encoding)
    assert doc.text == expected
    one_by_one = TextDocument("u", original, 1)
    for change in changes:
        one_by_one.apply_changes([change], encoding)
    assert one_by_one.text == expected
    fresh = TextDocument("u", expected, 1)
    assert doc.line_starts == fresh.line_starts
    assert doc.lf_starts == fresh.lf_starts


def test_a_cr_and_an_lf_that_an_edit_brings_together_are_one_line_break() -> None:
    doc = TextDocument("u", "a\rXb\n", 1)
    edit(doc, at(1, 0), at(1, 1), "\n")  # "a\r" + "\n" + "b\n": the CR and LF meet
    assert doc.text == "a\r\nb\n"
    assert doc.line_count() == 3
    edit(doc, at(1, 0), at(1, 0), "c")
    assert doc.text == "a\r\ncb\n"


def test_thousands_of_edits_in_one_change_cost_their_lines_not_the_document(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dnlint.lsp import text as module

    cfg = "[convolutional]\nfilters=16\nsize=3\n" * 4_000  # 12,000 lines, 132 KB
    doc = TextDocument("u", cfg, 1)
    changes = [{"range": {"start": at(n * 3 + 1, 8), "end": at(n * 3 + 1, 10)}, "text": "32"}
               for n in range(4_000)]
    split = module._split_keeping_breaks
    characters_split = 0

    def counting(text: str) -> list[str]:
        nonlocal characters_split
        characters_split += len(text)
        return split(text)

    monkeypatch.setattr(module, "_split_keeping_breaks", counting)
    doc.apply_changes(changes, UTF16)
    assert doc.text == cfg.replace("filters=16", "filters=32")
    # the text is split once; then each edit splits its line and the one on each side
    assert characters_split < len(cfg) + 4_000 * 40
