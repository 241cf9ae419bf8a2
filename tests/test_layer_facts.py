"""The typed facts builders record on a layer for later stages (geometry, references, heads,
route mismatches): exact values for small cfgs, so a builder that stops recording one fails."""

from __future__ import annotations

from conftest import codes, lint_text
from dnlint.dialects import Dialect
from dnlint.network.layers.base import Layer
from dnlint.network.layers.facts import HeadInfo, RouteMismatch

NET = """\
[net]
width=32
height=32
channels=3

"""


def layers(body: str, dialect: Dialect = Dialect.AB) -> list[Layer]:
    result = lint_text(NET + body, dialect)
    assert result.network is not None
    return result.network.layers


def test_layer_has_no_free_form_info() -> None:
    # (no __slots__ check: a class compiled with mypyc has none)
    assert not hasattr(layers("[maxpool]\nsize=2\nstride=2\n")[0], "info")
    assert not hasattr(Layer, "info")


def test_convolution_and_pooling_geometry() -> None:
    conv, pool, upsample = layers(
        "[convolutional]\nfilters=16\nsize=3\nstride_x=2\nstride_y=1\npad=1\n\n"
        "[maxpool]\nsize=2\nstride=2\n\n[upsample]\nstride=2\n"
    )
    assert (conv.filters, conv.size, conv.stride) == (16, 3, (2, 1))
    assert (pool.filters, pool.size, pool.stride) == (None, 2, (2, 2))
    assert (upsample.filters, upsample.size, upsample.stride) == (None, None, (2, 2))


def test_references_and_route_mismatch() -> None:
    built = layers(
        "[convolutional]\nfilters=8\nsize=1\n\n[maxpool]\nsize=2\nstride=2\n\n"
        "[route]\nlayers=-1,-2\n\n[shortcut]\nfrom=-3\n"
    )
    route, shortcut = built[2], built[3]
    assert route.refs == [1, 0]
    assert route.route_mismatch == RouteMismatch(layer=0, w=32, h=32, first=1, first_w=16,
                                                 first_h=16)
    assert shortcut.refs == [0]
    assert built[0].refs is None and built[0].route_mismatch is None


def test_yolo_head_info() -> None:
    result = lint_text(
        NET + "[convolutional]\nfilters=21\nsize=1\nactivation=linear\n\n"
        "[yolo]\nmask=3,4,5\nanchors=10,14,23,27,37,58,81,82,135,169,344,319\nclasses=2\n"
        "num=6\n"
    )
    assert codes(result) == [("DN410", 13)]  # anchors 0-2 are in no mask: nothing else
    assert result.network is not None
    conv, yolo = result.network.layers
    assert yolo.head == HeadInfo(classes=2, num=6, mask=[3, 4, 5],
                                 anchors=[10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319],
                                 per_anchor=(3, 5))
    assert conv.head is None


def test_region_and_detection_head_info() -> None:
    region = layers("[convolutional]\nfilters=35\nsize=1\n\n[region]\nclasses=2\nnum=5\n"
                    "coords=4\nanchors=1,1,2,2\n")[1]
    assert region.head == HeadInfo(2, 5, range(5), [1, 1, 2, 2], (5, 5))
    detection = layers("[connected]\noutput=1470\n\n[detection]\nclasses=20\nside=7\nnum=2\n"
                       "coords=4\n", Dialect.PJ)[1]
    assert detection.head == HeadInfo(20, 2)
