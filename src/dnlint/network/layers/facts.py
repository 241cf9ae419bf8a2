"""Typed facts a builder records on a layer for the stages after it (checks, fixes, weights,
reporters): a detection head's classes, anchors and mask; a route's first size mismatch.

They replace a free-form dict, so that strict mypy checks every reader. The plainer facts
(kernel geometry, the layers a route reads, ``share_index``) are fields of
:class:`dnlint.network.layers.base.Layer` itself. (Plain immutable-by-convention classes, like
``Block``: cheaper to import and to build than dataclasses or named tuples.) A layer's weight
blocks are facts too: :class:`Block`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence



class Block:
    """One contiguous run of float32 values in a .weights file, e.g. ``biases`` of 64 floats.

    (A plain immutable-by-convention class rather than a dataclass, like Layer: several are
    built per layer, and a dataclass's generated ``__init__`` stays interpreted when compiled.)
    """

    __slots__ = ("floats", "name")

    def __init__(self, name: str, floats: int) -> None:
        self.name = name
        self.floats = floats

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Block):
            return NotImplemented
        return self.name == other.name and self.floats == other.floats

    def __hash__(self) -> int:
        return hash((self.name, self.floats))

    def __repr__(self) -> str:
        return f"Block(name={self.name!r}, floats={self.floats})"


def total_floats(blocks: tuple[Block, ...]) -> int:
    """The floats of ``blocks`` together (a tuple, as every record is: compiled, the loop
    indexes it directly, where an iterable went through the iterator protocol: a fifth of the
    cost of the checks that read every layer's parameter count)."""
    total = 0  # a plain loop: sum() over a generator costs twice as much for a few blocks
    for block in blocks:
        total += block.floats
    return total


class Geometry:
    """A convolution-like or pooling layer's kernel: what the layer table, share_index and the
    input-size check read. Shared by the layers that have the same (``shared_geometry``)."""

    __slots__ = ("filters", "size", "stride")

    def __init__(self, filters: int | None, size: int | None,
                 stride: tuple[int, int] | None) -> None:
        self.filters = filters
        self.size = size
        self.stride = stride  # (x, y)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return (self.filters == other.filters and self.size == other.size
                and self.stride == other.stride)

    def __hash__(self) -> int:
        return hash((self.filters, self.size, self.stride))

    def __repr__(self) -> str:
        return f"Geometry(filters={self.filters}, size={self.size}, stride={self.stride})"


class LayerFacts:
    """The facts only some layers have, in one object a layer allocates on its first one
    (a slot each on every layer cost more than a one-line section's bytes)."""

    __slots__ = ("group", "head", "loaded", "next_shape", "refs", "route_mismatch", "shares",
                 "size_root", "stored_input")

    def __init__(self) -> None:
        self.group: tuple[int, int] | None = None  # [ab] a route's (group_id, groups), groups > 1
        self.head: HeadInfo | None = None
        self.loaded: tuple[Block, ...] | None = None  # None: the blocks saved
        self.next_shape: tuple[int, int, int, int] | None = None
        self.refs: Sequence[int] | None = None
        self.route_mismatch: RouteMismatch | None = None
        self.shares: int | None = None
        self.size_root = False
        self.stored_input: tuple[int, int, int] | None = None


class HeadInfo:
    """What a ``[yolo]``, ``[Gaussian_yolo]``, ``[region]`` or ``[detection]`` layer predicts,
    as its builder read it (parse_yolo, parse_region, parse_detection)."""

    __slots__ = ("anchors", "classes", "embedding_size", "mask", "num", "per_anchor")

    def __init__(
        self,
        classes: int,
        num: int,
        mask: Sequence[int] = (),
        anchors: Sequence[float] = (),
        per_anchor: tuple[int, int] | None = None,
        embedding_size: int = 0,
    ) -> None:
        self.classes = classes
        self.num = num
        # the anchor indices this head predicts: yolo's mask (0..num-1 when none is given),
        # every anchor for region (a range: num may be absurd), none for detection
        self.mask = mask
        # the anchor values given (the 2*num slots beyond them hold 0.5); none for detection
        self.anchors = anchors
        # (anchors this head predicts, values per anchor besides the classes): the channels it
        # needs per cell are n * (classes + extra); None for detection
        self.per_anchor = per_anchor
        # [ab] the embedding size embedding_layer gives a yolo head (0 when it has none)
        self.embedding_size = embedding_size

    def _key(self) -> tuple[object, ...]:
        return (self.classes, self.num, list(self.mask), list(self.anchors), self.per_anchor,
                self.embedding_size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HeadInfo):
            return NotImplemented
        return self._key() == other._key()

    def __repr__(self) -> str:
        return (f"HeadInfo(classes={self.classes}, num={self.num}, mask={self.mask!r}, "
                f"anchors={self.anchors!r}, per_anchor={self.per_anchor}, "
                f"embedding_size={self.embedding_size})")


class RouteMismatch:
    """The first input of a ``[route]`` whose size differs from its first input's (parse_route
    then makes the route 0x0x0): that layer and its size, the first layer and its size."""

    __slots__ = ("first", "first_h", "first_w", "h", "layer", "w")

    def __init__(self, layer: int, w: int, h: int, first: int, first_w: int, first_h: int
                 ) -> None:
        self.layer, self.w, self.h = layer, w, h
        self.first, self.first_w, self.first_h = first, first_w, first_h

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RouteMismatch):
            return NotImplemented
        return (self.layer, self.w, self.h, self.first, self.first_w, self.first_h) == (
            other.layer, other.w, other.h, other.first, other.first_w, other.first_h)

    def __repr__(self) -> str:
        return (f"RouteMismatch(layer={self.layer}, {self.w}x{self.h}, first={self.first}, "
                f"{self.first_w}x{self.first_h})")
