"""Spatial and structural layer types: shapes, weight records and their checks."""

from __future__ import annotations

from typing import Any

from conftest import codes, lint_text
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer

PJ, AB, HANK = Dialect.PJ, Dialect.AB, Dialect.HANK


def net(w: int = 16, h: int = 16, c: int = 4) -> str:
    return f"[net]\nwidth={w}\nheight={h}\nchannels={c}\n\n"


def build(body: str, dialect: Dialect = AB, **size: int) -> tuple[list[Layer], list[Any]]:
    result = lint_text(net(**size) + body, dialect)
    assert result.network is not None
    return result.network.layers, codes(result)


def shape(layer: Layer) -> tuple[int, int, int, int]:
    return (*layer.output, layer.outputs)


def blocks(layer: Layer, loaded: bool = False) -> list[tuple[str, int]]:
    return [(b.name, b.floats) for b in (layer.loaded if loaded else layer.saved)]


# --- pooling ----------------------------------------------------------------------------------

def test_maxpool_default_padding_is_size_minus_one() -> None:
    layers, found = build("[maxpool]\nsize=2\nstride=2\n\n[maxpool]\nsize=2\nstride=1\n",
                          w=13, h=13)
    assert found == []
    assert shape(layers[0]) == (7, 7, 4, 196)
    assert shape(layers[1]) == (7, 7, 4, 196)
    assert layers[0].type == "maxpool"
    assert layers[0].bflops == 2 * 2 * 4 * 7 * 7 / 1e9


def test_maxpool_stride_xy_and_size_default() -> None:
    layers, found = build("[max]\nstride=2\nstride_x=1\n", w=16, h=16)
    # size defaults to stride (2), padding to size-1 (1): width (16+1-2)/1+1, height /2
    assert found == []
    assert shape(layers[0]) == (16, 8, 4, 16 * 8 * 4)


def test_maxpool_stride_x_is_ab_only() -> None:
    _, found = build("[maxpool]\nstride=2\nstride_x=1\n", PJ)
    assert found == [("DN202", 8)]


def test_maxpool_depth() -> None:
    layers, _ = build("[maxpool]\nmaxpool_depth=1\nout_channels=2\nsize=3\nstride=2\n")
    assert shape(layers[0]) == (16, 16, 2, 512)


def test_maxpool_antialiasing_hands_on_the_blurred_shape() -> None:
    body = ("[maxpool]\nsize=2\nstride=2\nantialiasing=1\n\n[maxpool]\nsize=2\nstride=2\n"
            "antialiasing=2\n\n[avgpool]\n")
    layers, found = build(body)
    assert found == []
    # the host pools with stride 1: (16+1-2)/1+1 = 16; blur 3x3 pad 1 stride 2: 8
    assert shape(layers[0]) == (16, 16, 4, 1024)
    assert layers[0].next_shape == (8, 8, 4, 256)
    assert layers[1].input == (8, 8, 4)
    # [ab] maxpool's 2x2 blur keeps padding 1 (unlike the conv blur): (8+2-2)/2+1 = 5
    assert layers[1].next_shape == (5, 5, 4, 100)
    assert layers[2].input == (5, 5, 4)


def test_maxpool_stride_zero_divides_by_zero() -> None:
    layers, found = build("[maxpool]\nsize=2\nstride=0\n")
    assert found == [("DN305", 8)]
    assert layers[0].broken
    _, found = build("[maxpool]\nsize=2\nstride=2\nstride_y=0\n")
    assert found == [("DN305", 9)]


def test_maxpool_too_small_input() -> None:
    _, found = build("[maxpool]\nsize=5\nstride=1\npadding=0\n", w=3, h=3)
    assert found == [("DN307", 7), ("DN307", 7)]


def test_pooling_needs_image() -> None:
    _, found = build("[connected]\noutput=4\n\n[softmax]\n\n[avgpool]\n")
    assert found == [("DN306", 11)]
    # a connected layer is 1x1xoutput: an image as far as Darknet is concerned
    layers, found = build("[connected]\noutput=4\n\n[avgpool]\n")
    assert found == [("DN313", 1)]  # but no layer is wider than 1: AlexeyAB's SIGFPE
    assert shape(layers[1]) == (1, 1, 4, 4)


def test_avgpool_and_local_avgpool() -> None:
    layers, found = build("[local_avgpool]\nsize=2\nstride=2\n\n[avg]\n")
    assert found == []
    assert layers[0].type == "local_avgpool"
    assert shape(layers[0]) == (8, 8, 4, 256)
    assert shape(layers[1]) == (1, 1, 4, 4)


def test_local_avgpool_is_not_pj() -> None:
    _, found = build("[local_avgpool]\n", PJ)
    assert found == [("DN021", 6)]


# --- connected, normalization -----------------------------------------------------------------

def test_connected_record_and_dontloadscales() -> None:
    layers, found = build("[connected]\noutput=10\nbatch_normalize=1\ndontloadscales=1\n",
                          w=2, h=2, c=3)
    # the weights layout warns that later reads shift; and a connected layer stores l.w = 1,
    # so AlexeyAB's average over layers wider than 1 divides by zero
    assert found == [("DN313", 1), ("DN504", 6)]
    layer = layers[0]
    assert shape(layer) == (1, 1, 10, 10)
    assert blocks(layer) == [("biases", 10), ("weights", 120), ("scales", 10),
                             ("rolling_mean", 10), ("rolling_variance", 10)]
    assert blocks(layer, loaded=True) == [("biases", 10), ("weights", 120)]


def test_batchnorm_record_per_dialect() -> None:
    pj, _ = build("[batchnorm]\n", PJ)
    ab, _ = build("[batchnorm]\n", AB)
    assert shape(pj[0]) == (16, 16, 4, 1024)
    assert blocks(pj[0]) == [("scales", 4), ("rolling_mean", 4), ("rolling_variance", 4)]
    assert blocks(ab[0]) == [("biases", 4), ("scales", 4), ("rolling_mean", 4),
                             ("rolling_variance", 4)]


def test_batchnorm_is_not_hank() -> None:
    _, found = build("[batchnorm]\n", HANK)
    assert found == [("DN021", 6)]


def test_lrn_and_l2norm() -> None:
    layers, found = build("[lrn]\nsize=3\n\n[l2norm]\n", PJ)
    assert found == []
    assert layers[0].type == "normalization"
    assert shape(layers[0]) == (16, 16, 4, 1024)
    assert layers[1].type == "l2norm"
    assert shape(layers[1]) == (16, 16, 4, 1024)


# --- upsample, reorg, crop --------------------------------------------------------------------

def test_upsample_and_downsample() -> None:
    layers, found = build("[upsample]\n\n[upsample]\nstride=-4\n", w=6, h=6)
    assert shape(layers[0]) == (12, 12, 4, 576)
    assert shape(layers[1]) == (3, 3, 4, 36)
    assert found == []


def test_downsample_not_divisible() -> None:
    layers, found = build("[upsample]\nstride=-4\n", w=6, h=8)
    assert shape(layers[0]) == (1, 2, 4, 8)
    assert found == [("DN328", 7)]


def test_downsample_below_one_pixel() -> None:
    layers, found = build("[upsample]\nstride=-8\n", w=4, h=8)
    assert shape(layers[0]) == (0, 1, 4, 0)
    assert found == [("DN307", 7), ("DN328", 7)]


def test_upsample_stride_zero() -> None:
    layers, found = build("[upsample]\nstride=0\n")
    assert shape(layers[0]) == (0, 0, 4, 0)
    assert found == [("DN307", 7)]


def test_reorg_types_per_dialect() -> None:
    pj, pj_found = build("[reorg]\nstride=2\n", PJ)
    ab, ab_found = build("[reorg]\nstride=2\n\n[reorg3d]\nstride=2\nreverse=1\n", AB)
    assert pj_found == ab_found == []
    assert pj[0].type == "reorg"
    assert shape(pj[0]) == (8, 8, 16, 1024)
    assert ab[0].type == "reorg_old"
    assert ab[1].type == "reorg"
    assert shape(ab[1]) == (16, 16, 4, 1024)


def test_reorg_extra_makes_it_flat_in_pj_only() -> None:
    pj, pj_found = build("[reorg]\nstride=2\nextra=3\n", PJ)
    ab, ab_found = build("[reorg]\nstride=2\nextra=3\n", AB)
    assert pj_found == []
    assert shape(pj[0]) == (0, 0, 0, 1024 + 3)
    assert ab_found == [("DN202", 8)]
    assert shape(ab[0]) == (8, 8, 16, 1024)


def test_reorg_not_divisible_and_stride_zero() -> None:
    _, found = build("[reorg]\nstride=2\n", w=13, h=13)
    assert found == [("DN328", 7)]
    _, found = build("[reorg3d]\nstride=0\n")
    assert ("DN305", 7) in found


def test_reorg3d_is_not_pj() -> None:
    _, found = build("[reorg3d]\n", PJ)
    assert found == [("DN021", 6)]


def test_crop() -> None:
    layers, found = build("[crop]\ncrop_width=8\ncrop_height=20\n")
    assert shape(layers[0]) == (8, 20, 4, 640)
    assert found == [("DN327", 8)]


# --- route ------------------------------------------------------------------------------------

CONV = "[convolutional]\nfilters={f}\nsize=3\nstride={s}\npad=1\n\n"


def test_route_concatenates_channels() -> None:
    body = CONV.format(f=4, s=1) + CONV.format(f=6, s=1) + "[route]\nlayers=-1,0\n"
    layers, found = build(body)
    assert found == []
    assert shape(layers[2]) == (16, 16, 10, 2560)
    assert layers[2].params == 0


def test_route_size_mismatch_before_image_layer() -> None:
    body = (CONV.format(f=4, s=2) + CONV.format(f=2, s=1) + "[route]\nlayers=0,-1\n\n"
            "[route]\nlayers=-2,-1\n\n[upsample]\n")
    # layer 1 reads layer 0 (8x8); layer 2 joins 8x8 and 8x8; layer 3 joins 8x8 and 8x8 too
    layers, found = build(body)
    assert found == []
    assert shape(layers[3]) == (8, 8, 8, 512)
    body = (CONV.format(f=4, s=2) + "[maxpool]\nsize=2\nstride=2\n\n"
            "[route]\nlayers=-1,-2\n\n" + CONV.format(f=2, s=1))
    layers, found = build(body)
    # Darknet's numbers: 0x0x0 with the summed outputs (4x4x4 + 8x8x4)
    assert shape(layers[2]) == (0, 0, 0, 64 + 256)
    # the route is the root; the convolution after it is not checked (one note, DN390)
    assert found == [("DN390", 16), ("DN315", 17)]
    error = next(d for d in lint_text(net() + body).diagnostics if d.code == "DN315")
    assert error.severity.value == "error"


def test_route_size_mismatch_into_flat_layer_is_a_warning() -> None:
    result = lint_text(net() + CONV.format(f=4, s=1) + "[maxpool]\nsize=2\nstride=2\n\n"
                       "[route]\nlayers=0,-1\n\n[connected]\noutput=2\n")
    assert codes(result) == [("DN315", 17)]
    assert result.diagnostics[0].severity.value == "warning"
    assert result.network is not None
    assert shape(result.network.layers[2]) == (0, 0, 0, 1024 + 256)
    assert result.network.layers[3].params == 2 + 1280 * 2


def test_route_bad_reference_is_not_also_a_mismatch() -> None:
    _, found = build(CONV.format(f=4, s=2) + "[route]\nlayers=-1,-2\n")
    assert found == [("DN302", 13)]


def test_route_groups() -> None:
    body = CONV.format(f=8, s=1) + "[route]\nlayers=-1\ngroups=2\ngroup_id=1\n"
    layers, found = build(body)
    assert found == []
    assert shape(layers[1]) == (16, 16, 4, 1024)


def test_route_groups_checks() -> None:
    body = CONV.format(f=6, s=1) + "[route]\nlayers=-1\ngroups=4\ngroup_id=4\n"
    _, found = build(body)
    assert found == [("DN316", 14), ("DN316", 15)]
    _, found = build(CONV.format(f=6, s=1) + "[route]\nlayers=-1\ngroups=0\n")
    assert found == [("DN305", 14)]


def test_route_groups_are_ab_only() -> None:
    _, found = build(CONV.format(f=8, s=1) + "[route]\nlayers=-1\ngroups=2\n", PJ)
    assert found == [("DN202", 14)]


def test_route_needs_layers() -> None:
    layers, found = build(CONV.format(f=8, s=1) + "[route]\n")
    assert found == [("DN211", 12)]
    assert layers[1].broken


# --- shortcut, scale_channels, sam ------------------------------------------------------------

RESNET_STEP = CONV.format(f=8, s=1) + CONV.format(f=8, s=2) + "[shortcut]\nfrom=-2\n"


def test_pj_shortcut_across_a_stride_is_allowed() -> None:
    layers, found = build(RESNET_STEP, PJ)
    assert found == []
    assert shape(layers[2]) == (8, 8, 8, 512)
    assert layers[2].params == 0


def test_ab_shortcut_across_a_stride_is_an_error() -> None:
    layers, found = build(RESNET_STEP, AB)
    assert found == [("DN318", 19)]
    assert shape(layers[2]) == (8, 8, 8, 512)


def test_pj_shortcut_ratio() -> None:
    body = (CONV.format(f=8, s=1) + "[maxpool]\nsize=1\nstride=1\nstride_x=2\n\n"
            "[shortcut]\nfrom=-2\n")
    _, found = build(body, HANK)
    assert found == [("DN318", 18)]
    body = (CONV.format(f=8, s=1) + "[reorg]\nstride=2\nreverse=1\n\n"
            "[shortcut]\nfrom=0\n")
    # 16x16 onto 32x32: an integer scale, fine for the original Darknet
    _, found = build(body, PJ)
    assert found == []
    body = CONV.format(f=8, s=1) + "[crop]\ncrop_width=16\ncrop_height=8\n\n[shortcut]\nfrom=0\n"
    _, found = build(body, PJ)
    assert found == [("DN317", 17)]


def test_ab_shortcut_channel_mismatch_is_a_warning() -> None:
    body = CONV.format(f=8, s=1) + CONV.format(f=4, s=1) + "[shortcut]\nfrom=-2\n"
    _, found = build(body)
    assert found == [("DN319", 19)]


def test_ab_shortcut_weights() -> None:
    base = CONV.format(f=8, s=1) + CONV.format(f=8, s=1) + CONV.format(f=8, s=1)
    layers, found = build(base + "[shortcut]\nfrom=-2,-3\nweights_type=per_feature\n"
                          "weights_normalization=softmax\n")
    assert found == []
    assert blocks(layers[3]) == [("weights", 3)]
    assert layers[3].bflops == 2 * 16 * 16 * 8 * 2 / 1e9
    layers, found = build(base + "[shortcut]\nfrom=-3\nweights_type=per_channel\n"
                          "weights_normalization=relu\n")
    assert blocks(layers[3]) == [("weights", 16)]


def test_ab_shortcut_weights_normalization_bug() -> None:
    base = CONV.format(f=8, s=1) + CONV.format(f=8, s=1)
    _, found = build(base + "[shortcut]\nfrom=-2\nweights_type=per_feature\n")
    assert found == [("DN320", 20)]
    _, found = build(base + "[shortcut]\nfrom=-2\nweights_type=per_feature\n"
                     "weights_normalization=none\n", HANK)
    assert found == []
    _, found = build(base + "[shortcut]\nfrom=-2\nweights_type=per_layer\n"
                     "weights_normalization=relu\n", HANK)
    assert found == [("DN207", 20)]


def test_shortcut_needs_from() -> None:
    layers, found = build(CONV.format(f=8, s=1) + "[shortcut]\n", PJ)
    assert found == [("DN211", 12)]
    assert layers[1].broken


def test_scale_channels_and_sam() -> None:
    body = (CONV.format(f=8, s=1) + "[avgpool]\n\n[scale_channels]\nfrom=0\n\n"
            "[sam]\nfrom=0\n")
    layers, found = build(body)
    # scale_channels takes layer 0's shape, so the sam's input already matches layer 0
    assert found == []
    assert shape(layers[1]) == (1, 1, 8, 8)
    assert shape(layers[2]) == (16, 16, 8, 2048)
    assert shape(layers[3]) == (16, 16, 8, 2048)


def test_scale_channels_checks() -> None:
    body = CONV.format(f=8, s=1) + CONV.format(f=8, s=1) + "[scale_channels]\nfrom=0\n"
    _, found = build(body)
    assert found == [("DN321", 19)]
    body = (CONV.format(f=8, s=1) + CONV.format(f=1, s=1)
            + "[scale_channels]\nfrom=0\nscale_wh=1\nactivation=mish\n")
    layers, found = build(body)
    assert found == [("DN322", 21)]
    assert shape(layers[2]) == (16, 16, 8, 2048)


def test_sam_ok_and_pj_unknown() -> None:
    body = CONV.format(f=8, s=1) + CONV.format(f=8, s=1) + "[sam]\nfrom=0\n"
    layers, found = build(body)
    assert found == []
    assert shape(layers[2]) == (16, 16, 8, 2048)
    _, found = build(body, PJ)
    assert found == [("DN021", 18)]


def test_reference_to_an_antialiased_layer() -> None:
    body = ("[convolutional]\nfilters=4\nsize=3\nstride=2\npad=1\nantialiasing=1\n\n"
            "[route]\nlayers=-1\n")
    layers, found = build(body)
    assert found == [("DN329", 14)]
    assert layers[1].input == (8, 8, 4)
    assert shape(layers[1]) == (16, 16, 4, 1024)  # Darknet's (unblurred) numbers


# --- pass-through layers ----------------------------------------------------------------------

def test_dropout_keeps_the_carried_shape() -> None:
    layers, found = build(CONV.format(f=8, s=1) + "[dropout]\n")
    assert found == []
    assert shape(layers[1]) == (16, 16, 8, 2048)


def test_dropout_checks() -> None:
    _, found = build("[dropout]\nprobability=1\n")
    assert found == [("DN324", 6), ("DN325", 7)]
    _, found = build("[connected]\noutput=4\n\n[softmax]\n\n[dropout]\ndropblock=1\n")
    assert found == [("DN326", 12)]
    _, found = build("[connected]\noutput=4\n\n[dropout]\ndropblock=1\n", PJ)
    assert found == [("DN202", 10)]


def test_empty_and_activation() -> None:
    layers, found = build("[empty]\n\n[activation]\nactivation=leaky\n")
    assert found == [("DN324", 6), ("DN390", 6)]
    assert layers[0].type == "empty"
    assert layers[1].type == "active"
    assert shape(layers[1]) == (16, 16, 4, 1024)
    _, found = build("[empty]\n", HANK)
    assert found == [("DN021", 6)]
    layers, found = build("[logistic]\n", PJ)
    assert layers[0].type == "logxent"


def test_softmax_and_cost_are_flat() -> None:
    layers, found = build("[connected]\noutput=10\n\n[softmax]\ngroups=2\n\n[cost]\n", PJ)
    assert found == []
    assert shape(layers[1]) == (0, 0, 0, 10)
    assert shape(layers[2]) == (0, 0, 0, 10)


def test_softmax_groups() -> None:
    _, found = build("[connected]\noutput=10\n\n[softmax]\ngroups=3\n")
    assert found == [("DN323", 10)]
    _, found = build("[connected]\noutput=10\n\n[softmax]\ngroups=0\n")
    assert found == [("DN305", 10)]


def test_cost_types_per_dialect() -> None:
    _, found = build("[connected]\noutput=10\n\n[cost]\ntype=L1\n", PJ)
    assert found == []
    _, found = build("[connected]\noutput=10\n\n[cost]\ntype=L1\n", AB)
    assert found == [("DN313", 1), ("DN207", 10)]  # no layer wider than 1: SIGFPE


# --- deconvolutional, local -------------------------------------------------------------------

def test_deconvolutional() -> None:
    layers, found = build("[deconvolutional]\nfilters=2\nsize=4\nstride=2\npadding=1\n"
                          "batch_normalize=1\n", PJ)
    assert shape(layers[0]) == (32, 32, 2, 2048)
    assert blocks(layers[0]) == [("biases", 2), ("scales", 2), ("rolling_mean", 2),
                                 ("rolling_variance", 2), ("weights", 4 * 2 * 16)]
    assert found == [("DN502", 6)]  # the original's loader divides by groups=0
    _, found = build("[deconv]\nfilters=2\nsize=4\nstride=2\npad=1\ndontload=1\n", PJ)
    assert found == [("DN310", 8)]
    _, found = build("[deconvolutional]\n", AB)
    assert found == [("DN021", 6)]


def test_local() -> None:
    layers, found = build("[local]\nfilters=3\nsize=3\nstride=1\npad=1\n", w=5, h=5, c=2)
    assert found == []
    assert shape(layers[0]) == (5, 5, 3, 75)
    assert blocks(layers[0]) == [("biases", 75), ("weights", 2 * 3 * 9 * 25)]
    layers, found = build("[local]\nfilters=3\nsize=3\n", w=5, h=5, c=2)
    assert shape(layers[0]) == (3, 3, 3, 27)
    _, found = build("[local]\nfilters=3\nsize=3\npad=2\n", w=5, h=5, c=2)
    assert found == [("DN330", 9)]


def test_route_mismatch_quirk_keeps_adding_channels() -> None:
    body = (CONV.format(f=4, s=1) + "[maxpool]\nsize=2\nstride=2\n\n" + CONV.format(f=2, s=1)
            + "[route]\nlayers=0,1,0\n\n[connected]\noutput=1\n")
    layers, found = build(body)
    # 16x16x4, then 8x8 resets everything, then 16x16x4 again adds its 4 channels
    assert shape(layers[3]) == (0, 0, 4, 1024 + 256 + 1024)
    assert found == [("DN315", 23)]


def test_pj_shortcut_reads_one_from() -> None:
    body = CONV.format(f=8, s=1) + CONV.format(f=8, s=1) + "[shortcut]\nfrom=-2,-1\n"
    layers, found = build(body, PJ)
    assert found == [("DN204", 19)]
    assert layers[2].refs == [0]


def test_dropblock_sizes() -> None:
    body = CONV.format(f=8, s=1) + "[dropout]\ndropblock=1\ndropblock_size_abs=32\n"
    _, found = build(body)
    assert found == [("DN332", 14)]
    body = (CONV.format(f=8, s=1) + "[dropout]\ndropblock=1\ndropblock_size_rel=0.5\n"
            "dropblock_size_abs=3\n")
    _, found = build(body)
    assert found == [("DN332", 14)]
    body = CONV.format(f=8, s=1) + "[dropout]\ndropblock=1\ndropblock_size_abs=7\n"
    _, found = build(body)
    assert found == []


def test_no_cascade_after_a_bad_reference_or_broken_layer() -> None:
    _, found = build(CONV.format(f=8, s=1) + "[shortcut]\nfrom=5\n")
    assert found == [("DN302", 13)]
    _, found = build(CONV.format(f=8, s=1) + "[scale_channels]\nfrom=-3\n")
    assert found == [("DN302", 13)]
    _, found = build("[reorg3d]\nstride=0\n\n[dropout]\ndropblock=1\n")
    assert found == [("DN390", 6), ("DN305", 7)]


# --- hostile route lines: one finding per root cause, memory linear in the line ---------------

def _route_findings(layers: bytes) -> list[tuple[str, int | None, str]]:
    from dnlint.dialects import Dialect
    from dnlint.lint import lint_cfg_bytes

    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\n[route]\nlayers="
    result = lint_cfg_bytes(body + layers + b"\n", "r.cfg", Dialect.AB)
    return [(d.code, d.line, d.message) for d in result.diagnostics]


def test_many_bad_references_in_one_route_are_one_finding_and_a_count() -> None:
    items = b",".join(b"%d" % i for i in range(5, 20_005, 2)) + b",-1,5,-99"
    assert _route_findings(items) == [
        ("DN302", 8, "layers=5 in layer 1 points at layer 5, which comes later; Darknet reads a "
                     "layer that is not built yet (all shapes 0)"),
        ("DN302", 8, "layers has 10,000 more distinct item(s) that point before layer 0 or at a "
                     "layer not built yet (the next: 7)"),
    ]



def test_past_the_distinct_bad_references_remembered_each_occurrence_counts() -> None:
    """A line of a million distinct bad items kept a map entry and an int object for each (18x
    the line compiled, 23x the whole command): past MAX_DISTINCT_BAD remembered, a further
    bad item is counted each time it occurs, and the count no longer says 'distinct'."""
    from dnlint.network.layers.route import MAX_DISTINCT_BAD

    count = MAX_DISTINCT_BAD + 10  # 5, 6, ...: 5 reported, the next 65,536 remembered
    last = 5 + count - 1  # not remembered: its repeat counts again
    items = b",".join(b"%d" % i for i in range(5, 5 + count)) + b",5,6,%d" % last
    assert _route_findings(items) == [
        ("DN302", 8, "layers=5 in layer 1 points at layer 5, which comes later; Darknet reads a "
                     "layer that is not built yet (all shapes 0)"),
        ("DN302", 8, f"layers has {count - 1 + 1:,} more item(s) that point before layer 0 or "
                     "at a layer not built yet (the next: 6)"),
    ]

def test_a_wrapped_single_reference_quotes_the_file_a_list_item_does_not() -> None:
    single = _route_findings(b"4294967297")
    assert single == [("DN302", 8, "layers=1 (written '4294967297'; atoi wraps it to 1) in "
                                   "layer 1 points at itself; Darknet reads a layer that is not "
                                   "built yet (all shapes 0)")]
    assert _route_findings(b",," + b"," * 100_000 + b"2") == [
        # the value quoted is clipped in the middle (clean.clipped): 100,010 characters long
        ("DN208", 8, "layers=" + "," * 73 + "...(99,850 characters)..." + "," * 79 + "2 has an "
                     "empty item; Darknet reads the empty item as 0 (as a layer reference: "
                     "absolute layer 0)"),
        ("DN302", 8, "layers=2 in layer 1 points at layer 2, which comes later; Darknet reads a "
                     "layer that is not built yet (all shapes 0)"),
    ]


def test_a_line_of_commas_costs_memory_linear_in_its_length() -> None:
    """Each of 200 000 empty items became a tuple, a shape and a message quoting the whole
    line (10 GB for 100 kB); now a few pointers per item. tracemalloc counts allocations, so
    the bound does not depend on the machine."""
    import tracemalloc

    line = b"," * 200_000 + b"-1"
    tracemalloc.start()
    try:
        findings = _route_findings(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [code for code, _, _ in findings] == ["DN208"]
    assert peak < 60 * len(line)
