"""The small arithmetic under the input-size check and the cascade: the compiled gcd/lcm
against the standard library's, and the references a layer reads, each once."""

from __future__ import annotations

import math

import pytest

from dnlint.checks.cascade import NET, layer_inputs
from dnlint.checks.input_size import _gcd, _lcm
from dnlint.network.layers.base import Layer
from dnlint.read.lines import Lines, may_hold_directives

VALUES = [0, 1, 2, 3, 4, 6, 7, 8, 12, 32, 96, -4, -6, 2**40, 2**62 - 1, 3 * 2**61, -(2**62),
          2**200, 6 * 3**150]


@pytest.mark.parametrize("a", VALUES)
@pytest.mark.parametrize("b", VALUES)
def test_gcd_and_lcm_match_the_standard_library(a: int, b: int) -> None:
    assert _gcd(a, b) == math.gcd(a, b)
    assert _lcm(a, b) == math.lcm(a, b)


def _layer(index: int, kind: str, refs: list[int] | None) -> Layer:
    layer = Layer(index, kind, 1, kind, (8, 8, 3), 192)
    layer.refs = refs
    return layer


@pytest.mark.parametrize(("kind", "refs", "expected"), [
    ("route", [3, 1, 3, -2, 9, 5, 1], [3, 1]),  # once each, in order; only built layers
    ("route", None, []),
    ("shortcut", [2, 2], [4, 2]),  # the layer before, then what it adds
    ("sam", [0], [4, 0]),
    ("convolutional", None, [4]),
])
def test_layer_inputs(kind: str, refs: list[int] | None, expected: list[int]) -> None:
    assert layer_inputs(_layer(5, kind, refs)) == expected


def test_layer_inputs_of_a_long_list_keeps_first_mentions() -> None:
    refs = [7, 3, 7, 100, 0, 3, -1, 5, 0, 6, 2, 2, 4]  # longer than the short-list path
    assert layer_inputs(_layer(8, "route", refs)) == [7, 3, 0, 5, 6, 2, 4]
    assert layer_inputs(_layer(0, "shortcut", refs)) == [NET]


@pytest.mark.parametrize(("text", "expected"), [
    ("[net]\n# dnlint disable DN201\nwidth=416\n", False),  # no colon anywhere
    ("[net]\n# DNLint : disable=DN201\n", True),
    ("[net]\n# see https://example.org\n", False),
])
def test_directive_search(text: str, expected: bool) -> None:
    assert may_hold_directives(Lines(text.encode(), False)) is expected
    assert may_hold_directives(Lines(text, False)) is expected
