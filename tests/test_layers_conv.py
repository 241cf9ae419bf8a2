"""[convolutional]: shapes, weight records (saved and loaded) and the conv checks."""

from __future__ import annotations

from typing import Any

from conftest import codes, lint_text
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.run.engine import Input, RunOptions, lint_input

PJ, AB = Dialect.PJ, Dialect.AB


def build(body: str, dialect: Dialect = AB, w: int = 16, h: int = 16, c: int = 4
          ) -> tuple[list[Layer], list[Any]]:
    # [net] takes lines 1-4, a blank line 5: the first layer section is on line 6
    result = lint_text(f"[net]\nwidth={w}\nheight={h}\nchannels={c}\n\n" + body, dialect)
    assert result.network is not None
    return result.network.layers, codes(result)


def blocks(layer: Layer, loaded: bool = False) -> list[tuple[str, int]]:
    return [(b.name, b.floats) for b in (layer.loaded if loaded else layer.saved)]


def test_conv_shape_and_record_with_batch_norm() -> None:
    layers, found = build("[convolutional]\nbatch_normalize=1\nfilters=8\nsize=3\nstride=2\n"
                          "pad=1\nactivation=leaky\n")
    assert found == []
    assert (layers[0].output, layers[0].outputs) == ((8, 8, 8), 512)
    assert blocks(layers[0]) == [("biases", 8), ("scales", 8), ("rolling_mean", 8),
                                 ("rolling_variance", 8), ("weights", 4 * 8 * 9)]
    assert layers[0].params == 8 * 4 + 288
    # 2 * nweights * out_h * out_w, as make_convolutional_layer prints it
    assert layers[0].bflops == 2.0 * 288 * 64 / 1e9


def test_conv_padding_truncates_toward_zero() -> None:
    layers, found = build("[convolutional]\nfilters=2\nsize=3\nstride=4\n", w=5, h=5)
    assert found == []
    assert layers[0].output == (1, 1, 2)  # (5 - 3)/4 + 1 = 1


def test_conv_output_collapses() -> None:
    layers, found = build("[convolutional]\nfilters=2\nsize=7\n", w=4, h=4)
    assert found == [("DN307", 8), ("DN307", 8)]
    assert layers[0].broken


def test_stride_xy_and_groups_in_alexeyab() -> None:
    layers, found = build("[convolutional]\nfilters=8\nsize=3\nstride_x=2\nstride_y=1\npad=1\n"
                          "groups=4\n")
    assert found == []
    assert layers[0].output == (8, 16, 8)
    assert blocks(layers[0]) == [("biases", 8), ("weights", (4 // 4) * 8 * 9)]


def test_xnor_forces_one_group_in_alexeyab_only() -> None:
    body = "[convolutional]\nfilters=4\nsize=1\ngroups=2\nxnor=1\n"
    ab, _ = build(body, AB)
    pj, _ = build(body, PJ)
    assert ab[0].params == 4 + 4 * 4
    assert pj[0].params == 4 + 2 * 4


def test_groups_zero_divides_by_zero_in_the_original() -> None:
    _, found = build("[convolutional]\nfilters=4\nsize=1\ngroups=0\n", PJ)
    assert ("DN308", 9) in found
    ab, ab_found = build("[convolutional]\nfilters=4\nsize=1\ngroups=0\n", AB)
    assert ("DN308", 9) not in ab_found and ab[0].params == 4 + 16


def test_groups_that_do_not_divide() -> None:
    _, found = build("[convolutional]\nfilters=6\nsize=1\ngroups=3\n")
    assert found == [("DN309", 9)]


def test_even_size_with_pad_grows_the_map() -> None:
    layers, found = build("[convolutional]\nfilters=2\nsize=2\npad=1\n")
    assert found == [("DN310", 8)]
    assert layers[0].output == (17, 17, 2)


def test_dilation_that_does_not_keep_the_size() -> None:
    # Darknet computes with padding pad*dilation and extent dilation*(size-1)+1: the declared
    # shape matches only when size == 2*pad + 1
    _, found = build("[convolutional]\nfilters=2\nsize=3\npadding=2\ndilation=2\n")
    assert found == [("DN311", 10)]
    _, fine = build("[convolutional]\nfilters=2\nsize=3\npad=1\ndilation=2\n")
    assert fine == []


def test_int_overflow_is_reported() -> None:
    layers, found = build("[convolutional]\nfilters=70000\nsize=1\n", w=256, h=256)
    assert found == [("DN312", 7)]  # at filters=70000, the value to edit
    assert layers[0].outputs == 256 * 256 * 70000


def test_deform_options_conflict() -> None:
    _, found = build("[convolutional]\nfilters=2\nsize=3\nsway=1\nrotate=1\n")
    assert found == [("DN314", 10)]
    _, found = build("[convolutional]\nfilters=2\nsize=1\nstretch=1\n")
    assert found == [("DN314", 9)]


def test_antialiasing_hands_the_blurred_shape_on() -> None:
    layers, found = build("[convolutional]\nfilters=4\nsize=3\nstride=2\npad=1\n"
                          "antialiasing=1\n\n[convolutional]\nfilters=4\nsize=1\n")
    assert found == []
    assert layers[0].output == (16, 16, 4)  # the host layer runs with stride 1
    assert layers[0].next_shape == (8, 8, 4, 256)  # blur 3x3, pad 1, stride 2
    assert layers[1].input == (8, 8, 4)


def test_share_index_stores_nothing_and_must_match() -> None:
    body = ("[convolutional]\nfilters=4\nsize=3\npad=1\n\n"
            "[convolutional]\nfilters=4\nsize=3\npad=1\nshare_index=0\n\n"
            "[convolutional]\nfilters=4\nsize=1\nshare_index=-2\n")
    layers, found = build(body)
    assert layers[1].params == 0 and layers[2].params == 0
    assert found == [("DN304", 20)]


def test_numload_and_dontloadscales_change_what_is_loaded() -> None:
    layers, found = build("[convolutional]\nbatch_normalize=1\nfilters=8\nsize=1\nnumload=4\n", PJ)
    assert found == []
    assert blocks(layers[0], loaded=True) == [("biases", 4), ("scales", 4), ("rolling_mean", 4),
                                              ("rolling_variance", 4), ("weights", 16)]
    layers, _ = build("[convolutional]\nbatch_normalize=1\nfilters=8\nsize=1\ndontloadscales=1\n")
    assert blocks(layers[0], loaded=True) == [("biases", 8), ("weights", 32)]
    assert layers[0].params == 8 * 4 + 32


def test_numload_larger_than_filters() -> None:
    _, found = build("[convolutional]\nfilters=8\nsize=1\nnumload=9\n", PJ)
    assert found == [("DN501", 9)]


def test_an_internal_failure_is_a_diagnostic_not_a_traceback(tmp_path: Any,
                                                             monkeypatch: Any) -> None:
    import dnlint.pipeline

    def explode(*args: Any) -> Any:
        raise KeyError("boom")

    monkeypatch.setattr(dnlint.pipeline, "lint_cfg_bytes", explode)
    path = tmp_path / "x.cfg"
    path.write_text("[net]\n")
    result = lint_input(Input(str(path), "cfg"), RunOptions())
    assert [(d.code, d.line) for d in result.diagnostics] == [("DN000", 1)]


def test_a_layer_after_cost() -> None:
    result = lint_text("""
        [net]
        inputs=16
        [connected]
        output=4
        [cost]
        type=sse
        [softmax]
    """, PJ)
    assert codes(result) == [("DN375", 7)]
    last = lint_text("[net]\ninputs=16\n[connected]\noutput=4\n[softmax]\n[cost]\n", PJ)
    assert codes(last) == []


def test_one_unknown_section_is_one_finding_not_a_cascade() -> None:
    body = ("[convolution]\nfilters=4\n\n" + "[convolutional]\nfilters=4\nsize=3\npad=1\n\n" * 3)
    layers, found = build(body)
    # Darknet stops at the first convolution (its input is the zero layer's 0x0x0): the cause
    # is the misspelled section, reported once; the layers after it are marked broken
    assert found == [("DN020", 6), ("DN390", 6)]
    assert [layer.broken for layer in layers] == [True, True, True, True]
