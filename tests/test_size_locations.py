"""A finding about a layer's size points at the value to edit (filters=, output=), not at the
section header: the absurd filters= typo is reported on its own line and column."""

from __future__ import annotations

from tests.conftest import lint_text

from dnlint.dialects import Dialect
from dnlint.result import FileResult

NET = "[net]\nbatch=64\nsubdivisions=16\nwidth=416\nheight=416\nchannels=3\n\n"


def where(result: FileResult) -> list[tuple[str, int | None, int | None]]:
    return [(d.code, d.line, d.column) for d in result.diagnostics]


def test_an_absurd_filters_typo_overflows_at_its_own_line() -> None:
    """filters=200000 for 200: 416 x 416 x 200000 outputs overflow a C int (DN312). The error
    is on filters= (line 10, column 9); the layer after it is not checked (DN390, at its
    root's header)."""
    text = (NET + "[convolutional]\nbatch_normalize=1\nfilters=200000\nsize=3\nstride=1\npad=1\n"
            "activation=leaky\n\n[convolutional]\nfilters=16\nsize=1\n")
    for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
        assert where(lint_text(text, dialect)) == [("DN390", 8, 1), ("DN312", 10, 9)]


def test_the_value_column_follows_spaces_around_the_equals_sign() -> None:
    text = NET + "[convolutional]\nsize=1\nfilters = 70000\n"
    assert where(lint_text(text)) == [("DN312", 10, 11)]


def test_a_connected_layer_points_at_output() -> None:
    text = NET.replace("416", "64") + "[connected]\noutput=900000\n"
    assert where(lint_text(text)) == [("DN312", 9, 8)]


def test_without_a_size_option_the_header_is_the_place() -> None:
    """An upsample whose stride makes the width overflow: nothing like filters= to point at."""
    text = NET + "[upsample]\nstride=100000\n"
    assert where(lint_text(text)) == [("DN312", 8, 1)]


def test_dn120_points_at_filters_when_the_layer_alone_is_too_large() -> None:
    """filters=2000 at 1024 x 1024 builds (no int overflow) but needs more memory than any
    card at mini-batch 1: DN120 at filters=."""
    text = ("[net]\nwidth=1024\nheight=1024\nchannels=3\n\n[convolutional]\nsize=1\n"
            "batch_normalize=1\nfilters=2000\n")
    assert where(lint_text(text)) == [("DN120", 9, 9)]
