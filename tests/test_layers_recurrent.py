"""Recurrent layers and AlexeyAB's [history]/[implicit]: shapes, weight records per dialect
and the recurrent rules (DN370-DN374)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import codes, lint_text
from dnlint.dialects import Dialect
from dnlint.lint import FileResult
from dnlint.network.layers.base import Layer

FLAT = """\
[net]
inputs=10

"""  # the layer section starts at line 4


def layer(result: FileResult, index: int = 0) -> Layer:
    assert result.network is not None
    return result.network.layers[index]


def blocks(found: Layer) -> list[tuple[str, int]]:
    return [(b.name, b.floats) for b in found.saved]


def summary(found: Layer) -> tuple[str, tuple[int, int, int], int, int]:
    return found.type, found.output, found.outputs, found.params


# --- [rnn] -----------------------------------------------------------------------------------
def test_rnn_pj() -> None:
    result = lint_text(FLAT + "[rnn]\noutput=4\nbatch_normalize=1\n", Dialect.PJ)
    assert codes(result) == []
    rnn = layer(result)
    # F(10,4,bn) + 2 F(4,4,bn) = (4+40+12) + 2*(4+16+12)
    assert summary(rnn) == ("rnn", (0, 0, 0), 4, 120)
    assert blocks(rnn)[:5] == [
        ("input_layer.biases", 4),
        ("input_layer.weights", 40),
        ("input_layer.scales", 4),
        ("input_layer.rolling_mean", 4),
        ("input_layer.rolling_variance", 4),
    ]


def test_rnn_ab_hidden() -> None:
    result = lint_text(FLAT + "[rnn]\noutput=4\nhidden=3\n", Dialect.AB)
    rnn = layer(result)
    # F(10,3) + F(3,3) + F(3,4) = 33 + 12 + 16
    assert summary(rnn) == ("rnn", (1, 1, 4), 4, 61)
    assert (rnn.input, rnn.inputs) == ((0, 0, 0), 10)  # a flat input from [net] inputs=10
    assert rnn.dims_stored == (0, 0, 0)
    # a vector-only network: AlexeyAB's end-of-parse average divides by zero (S29)
    assert codes(result) == [("DN313", 1)]


def test_rnn_ab_without_hidden_gets_one() -> None:
    result = lint_text(FLAT + "[rnn]\noutput=4\n", Dialect.AB)
    assert ("DN373", 4) in codes(result)
    assert layer(result).params == 10 + 1 + 1 + 1 + 4 + 4  # F(10,1) + F(1,1) + F(1,4)
    assert ("DN373", 4) not in codes(lint_text(FLAT + "[rnn]\noutput=1\n", Dialect.AB))
    assert codes(lint_text(FLAT + "[rnn]\noutput=4\n", Dialect.PJ)) == []


def test_rnn_hidden_is_foreign_in_pj() -> None:
    assert codes(lint_text(FLAT + "[rnn]\noutput=4\nhidden=4\n", Dialect.PJ)) == [("DN202", 6)]


# --- [gru] and [lstm] ---------------------------------------------------------------------------
def test_gru_record_order_per_dialect() -> None:
    pj = layer(lint_text(FLAT + "[gru]\noutput=4\n", Dialect.PJ))
    ab = layer(lint_text(FLAT + "[gru]\noutput=4\n", Dialect.AB))
    assert summary(pj) == summary(ab) == ("gru", (0, 0, 0), 4, 3 * 20 + 3 * 44)
    assert [n for n, f in blocks(pj) if n.endswith("weights")] == [
        "wz.weights", "wr.weights", "wh.weights", "uz.weights", "ur.weights", "uh.weights"]
    assert [f for n, f in blocks(ab) if n.endswith("weights")] == [40, 40, 40, 16, 16, 16]
    assert [f for n, f in blocks(pj) if n.endswith("weights")] == [16, 16, 16, 40, 40, 40]


def test_gru_is_not_hank_and_tanh_is_pj() -> None:
    assert ("DN021", 4) in codes(lint_text(FLAT + "[gru]\noutput=4\n", Dialect.HANK))
    assert ("DN202", 6) in codes(lint_text(FLAT + "[gru]\noutput=4\ntanh=1\n", Dialect.AB))


def test_lstm_gate_order_per_dialect() -> None:
    text = FLAT + "[lstm]\noutput=4\nbatch_normalize=1\n"
    pj = layer(lint_text(text, Dialect.PJ))
    ab = layer(lint_text(text, Dialect.AB))
    # 4 F(4,4,bn) + 4 F(10,4,bn) = 4*32 + 4*56
    assert summary(pj) == ("lstm", (0, 0, 0), 4, 352)
    assert summary(ab) == ("lstm", (1, 1, 4), 4, 352)
    gates = [n.split(".")[0] for n, _ in blocks(pj) if n.endswith("biases")]
    assert gates == ["wi", "wf", "wo", "wg", "ui", "uf", "uo", "ug"]
    gates = [n.split(".")[0] for n, _ in blocks(ab) if n.endswith("biases")]
    assert gates == ["wf", "wi", "wg", "wo", "uf", "ui", "ug", "uo"]


# --- [crnn] ----------------------------------------------------------------------------------
IMAGE = """\
[net]
width=6
height=4
channels=2

"""  # the layer section starts at line 6

# K(2,5,3) + K(5,5,3) + K(5,3,3) = (5+90) + (5+225) + (3+135)
CRNN_PARAMS = 463


def test_crnn_pj_swaps_width_and_height() -> None:
    text = IMAGE + "[crnn]\noutput_filters=3\nhidden_filters=5\n"
    result = lint_text(text, Dialect.PJ)
    assert codes(result) == [("DN370", 6)]
    assert summary(layer(result)) == ("crnn", (4, 6, 3), 72, CRNN_PARAMS)
    square = lint_text(text.replace("height=4", "height=6"), Dialect.PJ)
    assert codes(square) == []


def test_crnn_ab_keeps_size_with_pad() -> None:
    result = lint_text(IMAGE + "[crnn]\noutput=3\nhidden=5\npad=1\n", Dialect.AB)
    assert codes(result) == []
    assert summary(layer(result)) == ("crnn", (6, 4, 3), 72, CRNN_PARAMS)
    assert layer(result).bflops == pytest.approx(2 * (90 + 225 + 135) * 6 * 4 / 1e9)


def test_crnn_ab_default_padding_fails_the_assert() -> None:
    result = lint_text(IMAGE + "[crnn]\noutput=3\nhidden=5\n", Dialect.AB)
    assert codes(result) == [("DN371", 6)]
    assert summary(layer(result)) == ("crnn", (4, 2, 3), 24, CRNN_PARAMS)
    assert layer(result).broken
    strided = lint_text(IMAGE + "[crnn]\noutput=3\nhidden=5\npad=1\nstride=2\n", Dialect.AB)
    assert codes(strided) == [("DN371", 9)]


def test_crnn_ab_xnor_forces_one_group() -> None:
    text = IMAGE.replace("channels=2", "channels=4") + (
        "[crnn]\noutput=4\nhidden=4\npad=1\nsize=1\ngroups=2\n"
    )
    grouped = layer(lint_text(text, Dialect.AB))
    xnor = layer(lint_text(text + "xnor=1\n", Dialect.AB))
    assert grouped.params == 3 * (4 + 2 * 4)  # K(4,4,1,groups 2) three times
    assert xnor.params == 3 * (4 + 4 * 4)


def test_crnn_pj_keys_are_foreign_in_ab() -> None:
    result = lint_text(IMAGE + "[crnn]\noutput_filters=3\npad=1\n", Dialect.AB)
    assert codes(result) == [("DN202", 7)]
    assert layer(result).output == (6, 4, 1)


def test_crnn_flat_input() -> None:
    result = lint_text(FLAT + "[crnn]\noutput_filters=3\nhidden_filters=5\n", Dialect.PJ)
    assert codes(result) == [("DN374", 4)]


# --- [conv_lstm] -----------------------------------------------------------------------------
SQUARE = """\
[net]
width=8
height=8
channels=2

"""
# U: 4 K(2,4,3) = 4*76; W: 4 K(4,4,3) = 4*148; V: 3 K(4,4,3) = 3*148; bottleneck W: K(8,4,3) = 292
U, W, V, WB = 4 * 76, 4 * 148, 3 * 148, 292


@pytest.mark.parametrize(
    ("extra", "params", "first"),
    [
        ("", U + W, "wf"),
        ("peephole=1\n", V + U + W, "vf"),
        ("bottleneck=1\n", WB + U, "wf"),
        ("peephole=1\nbottleneck=1\n", V + WB + U, "vf"),
    ],
)
def test_conv_lstm_records(extra: str, params: int, first: str) -> None:
    result = lint_text(SQUARE + "[conv_lstm]\noutput=4\npad=1\n" + extra, Dialect.AB)
    assert codes(result) == []
    found = layer(result)
    assert summary(found) == ("conv_lstm", (8, 8, 4), 256, params)
    assert found.saved[0].name == f"{first}.biases"
    assert found.saved[-1].name == "uo.weights"


def test_conv_lstm_default_padding() -> None:
    result = lint_text(SQUARE + "[conv_lstm]\noutput=4\n", Dialect.AB)
    assert codes(result) == [("DN372", 6)]
    assert layer(result).output == (6, 6, 4)


def test_conv_lstm_only_in_ab() -> None:
    for dialect in (Dialect.PJ, Dialect.HANK):
        assert ("DN021", 6) in codes(lint_text(SQUARE + "[conv_lstm]\noutput=4\n", dialect))


# --- [history] and [implicit] ----------------------------------------------------------------
def test_history() -> None:
    result = lint_text(SQUARE + "[history]\nhistory_size=3\n", Dialect.AB)
    assert codes(result) == []
    assert summary(layer(result)) == ("history", (8, 8, 6), 384, 0)
    flat = lint_text(FLAT + "[history]\n", Dialect.AB)
    assert ("DN374", 4) in codes(flat)


def test_implicit_ignores_its_input() -> None:
    result = lint_text(SQUARE + "[implicit]\nfilters=8\natoms=2\n", Dialect.AB)
    found = layer(result)
    assert summary(found) == ("implicit", (1, 2, 8), 16, 16)
    assert blocks(found) == [("weights", 16)]
    assert found.dims_stored == (1, 1, 1)  # make_implicit_layer stores w = h = c = 1
    # its stored input is 1x1, so AlexeyAB's end-of-parse average has nothing to divide by
    assert codes(result) == [("DN313", 1)]
    assert ("DN021", 6) in codes(lint_text(SQUARE + "[implicit]\n", Dialect.PJ))


@given(
    inputs=st.integers(min_value=1, max_value=300),
    output=st.integers(min_value=1, max_value=300),
    bn=st.booleans(),
)
@settings(max_examples=40, deadline=None)
def test_gru_lstm_totals_agree_across_forks(inputs: int, output: int, bn: bool) -> None:
    """The forks order the sub-records differently but write the same number of floats."""
    def f(i: int, o: int) -> int:
        return o + i * o + (3 * o if bn else 0)

    net = f"[net]\ninputs={inputs}\n\n"
    for kind, gates in (("gru", 3), ("lstm", 4)):
        text = net + f"[{kind}]\noutput={output}\nbatch_normalize={int(bn)}\n"
        pj, ab = layer(lint_text(text, Dialect.PJ)), layer(lint_text(text, Dialect.AB))
        assert pj.params == ab.params == gates * (f(output, output) + f(inputs, output))
        assert sorted(blocks(pj)) == sorted(blocks(ab))
