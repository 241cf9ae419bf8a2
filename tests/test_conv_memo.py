"""A convolution is built once per shared section text, dialect and input
(``dnlint.network.layers.convolutional.build``).

The memo exists only for speed: every finding, shape, parameter count, BFLOPs figure and
weight block must be what building each convolution afresh gives, for any mix of repeated
sections, findings, rarer facts (antialiasing, share_index, numload, dontloadscales) and
dialects.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dnlint.network.layers.convolutional as convolutional
from conftest import SOURCES_ONLY
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes

NET = "[net]\nwidth=64\nheight=64\nchannels=3\n"
# the reader shares a section's text up to the next '[' line: the last section's is its own
END = "[avgpool]\n"
CONV = "[convolutional]\nbatch_normalize=1\nfilters=16\nsize=3\nstride=1\npad=1\nactivation=leaky\n"
OPTIONS = ["filters=16", "filters=8", "size=3", "size=1", "size=2", "stride=2", "stride=0",
           "pad=1", "batch_normalize=1", "groups=2", "groups=3", "stride_x=2", "dilation=2",
           "antialiasing=1", "share_index=-2", "numload=4", "dontloadscales=1", "sway=1",
           "xnor=1", "activation=mish"]
SECTIONS = [CONV, "[maxpool]\nsize=2\nstride=2\n", "[route]\nlayers=-1\n",
            "[shortcut]\nfrom=-2\nactivation=linear\n"]
section = st.one_of(
    st.sampled_from(SECTIONS),
    st.lists(st.sampled_from(OPTIONS), min_size=1, max_size=5).map(
        lambda lines: "[convolutional]\n" + "\n".join(lines) + "\n"))


class _NeverKept(dict[Any, Any]):
    """A memo that keeps nothing: every convolution is built afresh."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def _outcome(text: str, dialect: Dialect | None) -> Any:
    result = lint_cfg_bytes(text.encode(), "m.cfg", dialect)
    layers = ([] if result.network is None else
              [(layer.type, layer.line, layer.input, layer.output, layer.outputs, layer.params,
                layer.bflops, layer.saved, layer.loaded, layer.filters, layer.size,
                layer.stride, layer.broken, layer.next_shape, layer.shares)
               for layer in result.network.layers])
    return [(d.code, d.line, d.column, d.message, d.hint) for d in result.diagnostics], layers


@SOURCES_ONLY
@settings(max_examples=300, deadline=None)
@given(st.lists(section, min_size=1, max_size=8),
       st.sampled_from([None, Dialect.PJ, Dialect.AB, Dialect.HANK]))
def test_kept_builds_equal_builds_afresh(sections: list[str], dialect: Dialect | None) -> None:
    text = NET + "".join(sections * 3)  # every section three times: later ones may be hits
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convolutional, "_BUILT", _NeverKept())
        afresh = _outcome(text, dialect)
    convolutional._BUILT.clear()
    assert _outcome(text, dialect) == afresh  # filled as it goes
    assert _outcome(text, dialect) == afresh  # every build known before


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lines of the convolutions built afresh, the memo emptied first."""
    built: list[int] = []
    build = convolutional._build

    def counted(ctx: Any) -> None:
        built.append(ctx.v.section.line)
        build(ctx)

    monkeypatch.setattr(convolutional, "_build", counted)
    convolutional._BUILT.clear()
    return built


@SOURCES_ONLY
def test_a_repeated_block_is_built_once_per_input(builds: list[int]) -> None:
    # lines 5, 12, 19: the first reads 3 channels, the second and third 16
    result = lint_cfg_bytes((NET + CONV * 3 + END).encode(), "m.cfg", Dialect.AB)
    assert result.network is not None
    layers = result.network.layers[:3]
    assert [(layer.input, layer.output, layer.params) for layer in layers] == [
        ((64, 64, 3), (64, 64, 16), 16 * 3 * 9 + 4 * 16),
        ((64, 64, 16), (64, 64, 16), 16 * 16 * 9 + 4 * 16),
        ((64, 64, 16), (64, 64, 16), 16 * 16 * 9 + 4 * 16),
    ]
    assert [layer.line for layer in layers] == [5, 12, 19]
    assert builds == [5, 12]
    assert layers[2].saved == layers[1].saved
    assert layers[2].bflops == layers[1].bflops == 2 * 2304 * 64 * 64 / 1e9


@SOURCES_ONLY
def test_a_new_input_builds_again(builds: list[int]) -> None:
    pool = "[maxpool]\nsize=2\nstride=2\n"
    text = NET + CONV + CONV + pool + CONV + CONV + END
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    assert result.network is not None
    assert [layer.output for layer in result.network.layers[:5]] == [
        (64, 64, 16), (64, 64, 16), (32, 32, 16), (32, 32, 16), (32, 32, 16)]
    # the third reads 32x32x16, not the second's 64x64x16; the fourth is the third's
    assert builds == [5, 12, 22]


@SOURCES_ONLY
def test_a_build_that_reports_is_not_kept(builds: list[int]) -> None:
    even = "[convolutional]\nfilters=16\nsize=2\npad=1\n"
    result = lint_cfg_bytes((NET + even * 3 + END).encode(), "m.cfg", Dialect.AB)
    assert [(d.code, d.line) for d in result.diagnostics if d.code == "DN310"] == [
        ("DN310", 7), ("DN310", 11), ("DN310", 15)]
    assert builds == [5, 9, 13]


@SOURCES_ONLY
def test_a_rarer_fact_is_not_kept(builds: list[int]) -> None:
    blurred = "[convolutional]\nfilters=16\nsize=3\nstride=2\npad=1\nantialiasing=1\n"
    result = lint_cfg_bytes((NET + CONV + blurred + CONV + blurred + END).encode(), "m.cfg",
                            Dialect.AB)
    assert result.network is not None
    assert [layer.next_shape for layer in result.network.layers[:4]] == [
        None, (32, 32, 16, 32 * 32 * 16), None, (16, 16, 16, 16 * 16 * 16)]
    assert builds == [5, 12, 18, 25]
