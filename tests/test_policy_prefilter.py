"""The policy's quick look for "dnlint:" before parsing directives: it must never skip one.

A file whose text does not spell "dnlint", optional whitespace and ":" in any case skips the
directive parse; ASCII text is lowered and searched, other text goes through an IGNORECASE regex
as the directives' own, which also folds non-ASCII letters such as the dotless ``ı``.
"""

from __future__ import annotations

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.read.lines import _LOWER_CHUNK, Lines, may_hold_directives
from dnlint.settings.policy import Policy, apply_policy, selection_for

NET = "[net]\nbatch=64\nsubdivisions=24\nwidth=32\nheight=32\nchannels=3\n"
CONV = "\n[convolutional]\nfilters=16\nsize=3\nactivation=leaky\n"


def found(text: str) -> list[tuple[int | None, str]]:
    result = lint_cfg_bytes(text.encode(), "t.cfg", Dialect.AB)
    apply_policy(result, selection_for("t.cfg", Policy(), None))
    return [(d.line, d.code) for d in result.diagnostics]


def test_no_directive_keeps_the_finding() -> None:
    assert found(NET + CONV) == [(3, "DN103")]


@pytest.mark.parametrize("spelling", ["dnlint", "DNLINT", "DnLiNt", "dnlınt", "DNLİNT"])
@pytest.mark.parametrize("other_text", ["", "# café\n"])
def test_every_spelling_the_directive_regex_accepts_still_suppresses(spelling: str,
                                                                    other_text: str) -> None:
    cfg = other_text + NET.replace("subdivisions", f"# {spelling}: disable-next-line=DN103\n"
                                   "subdivisions") + CONV
    assert found(cfg) == []


def test_a_trailing_directive_in_non_ascii_text_is_still_reported() -> None:
    cfg = "# café\n" + NET.replace("subdivisions=24", "subdivisions=24 # dnlint: disable=DN103")
    assert (4, "DN904") in found(cfg + CONV)


@pytest.mark.parametrize("spacing", ["", " ", "\t \x0b\x0c", " " * 100])
def test_whitespace_before_the_colon_still_suppresses(spacing: str) -> None:
    cfg = NET.replace("subdivisions", f"# dnlint{spacing}: disable-next-line=DN103\n"
                      "subdivisions") + CONV
    assert found(cfg) == []
    assert found(cfg.replace("dnlint", "dnlınt")) == []


@pytest.mark.parametrize("text", ["# written for dnlint's examples", "# dnlint dnlint",
                                  "# dnlınt and café", "# see dnlint.toml: x=1"])
def test_naming_dnlint_without_a_colon_skips_the_directive_parse(text: str) -> None:
    assert not may_hold_directives([text, "[net]"])
    assert may_hold_directives([text, "# dnlint: disable=DN1"])


@pytest.mark.parametrize("shift", range(-8, 3))
def test_a_mention_across_the_lowering_chunks_is_found(shift: int) -> None:
    """ASCII text is lowered a chunk at a time: 'DNLINT' and its colon may straddle chunks."""
    pad = "#" * (_LOWER_CHUNK + shift)
    assert may_hold_directives([pad + "DNLINT  :"])
    assert may_hold_directives([pad + "x", "#" * (_LOWER_CHUNK - 4) + "DnLint" + " " * 9 + ":"])
    assert not may_hold_directives([pad + "DNLINT  ;"])
    # an ASCII file is searched in its bytes, as the reader keeps it
    assert may_hold_directives(Lines((pad + "DNLINT  :").encode(), False))
    assert not may_hold_directives(Lines((pad + "DNLINT  ;").encode(), False))


def test_the_bytes_of_an_ascii_file_take_the_whitespace_the_directive_regex_takes() -> None:
    """str's \\s also matches the separators \\x1c-\\x1f, bytes' does not."""
    for spacing in ("\x1c", "\x1f\x0b", "\t"):
        text = f"# dnlint{spacing}: disable-next-line=DN103"
        assert may_hold_directives(Lines(text.encode(), False))
        assert may_hold_directives([text])
    cfg = NET.replace("subdivisions", "# dnlint\x1c: disable-next-line=DN103\nsubdivisions")
    assert found(cfg + CONV) == []
