"""The policy's quick look for "dnlint" before parsing directives: it must never skip one.

A file whose text does not spell "dnlint" in any case skips the directive parse; ASCII text is
lowered and searched, other text goes through the same IGNORECASE regex the directives use, which
also folds non-ASCII letters such as the dotless ``ı``.
"""

from __future__ import annotations

import pytest

from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.run.policy import Policy, apply_policy, selection_for

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
