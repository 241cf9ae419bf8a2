"""What a layer type is made of: its options, its shape rule and its weight blocks.

Each module of :mod:`dnlint.network.layers` declares one or a few :class:`LayerType` objects.
The shape pass (:mod:`dnlint.network.build`) hands every layer section to its type's ``build``
function with a :class:`LayerContext`, which carries the input shape, the typed options, the
layers built so far and a way to report diagnostics at the right line.
"""

from __future__ import annotations

# collections.abc's own Sequence (a base class at run time) from the module the interpreter
# has already imported: importing collections.abc imports the collections package, a tenth
# of a one-file run's start-up (issue 35)
from _collections_abc import Sequence

from dnlint.diagnostics import MISREAD_CODES, Severity, Sink
from dnlint.dialects import Dialect
from dnlint.network.layers.facts import Block as Block  # re-exported: the layer modules' name
from dnlint.network.layers.facts import Geometry, HeadInfo, LayerFacts, RouteMismatch
from dnlint.network.layers.facts import total_floats as total_floats
from dnlint.options.convert import OptionTable, Values
from dnlint.options.net_section import NetInfo
from dnlint.options.schema import Opt
from dnlint.options.value_checks import remember
from dnlint.read.darknet_reader import Sections
from dnlint.records import overload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Final

# an Enum member is a slow class attribute on Python 3.11 (LayerContext runs once per layer)
_PJ: Final = Dialect.PJ


def cdiv(a: int, b: int) -> int:
    """C integer division: truncates toward zero. ``b`` must not be 0."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _without_empty(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """``blocks`` without those of 0 floats."""
    for block in blocks:
        if not block.floats:
            return tuple([b for b in blocks if b.floats])
    return blocks  # the common case: nothing to drop, no copy


class LayerType:  # a plain class, not a dataclass: start-up (dataclasses imports inspect)
    """A Darknet layer type: its section names per dialect, its options, and its builder.
    Treat it as frozen."""

    __slots__ = ("build", "doc", "name", "options", "sections", "tables")

    def __init__(self, name: str, sections: Mapping[Dialect, tuple[str, ...]],
                 options: tuple[Opt, ...], build: Callable[[LayerContext], None],
                 doc: str = "", tables: dict[Dialect, OptionTable] | None = None) -> None:
        self.name = name
        self.sections = sections
        self.options = options
        self.build = build
        self.doc = doc
        # the option table per dialect, filled on first use by table()
        self.tables: dict[Dialect, OptionTable] = {} if tables is None else tables

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, LayerType)
        return (self.name, self.sections, self.options, self.build, self.doc) == (
            other.name, other.sections, other.options, other.build, other.doc)

    def __hash__(self) -> int:
        return hash((self.name, self.sections, self.options, self.build, self.doc))

    def __repr__(self) -> str:
        return (f"LayerType(name={self.name!r}, sections={self.sections!r}, "
                f"options={self.options!r}, build={self.build!r}, doc={self.doc!r})")

    def table(self, dialect: Dialect) -> OptionTable:
        """The option table of this type in ``dialect`` (computed once per type and dialect)."""
        table = self.tables.get(dialect)
        if table is None:
            inside = {o.name: o for o in self.options if dialect in o.dialects}
            outside = {o.name: o for o in self.options if dialect not in o.dialects}
            table = self.tables[dialect] = OptionTable(inside, outside, dialect)
        return table


_GEOMETRIES: Final[dict[tuple[int | None, int | None, tuple[int, int] | None], Geometry]] = {}


def shared_geometry(filters: int | None, size: int | None,
                    stride: tuple[int, int] | None) -> Geometry:
    """One :class:`Geometry` for every layer that has the same (a network repeats a few; up
    to MEMO_SIZE kept)."""
    key = (filters, size, stride)
    found = _GEOMETRIES.get(key)
    if found is None:
        found = remember(_GEOMETRIES, key, Geometry(filters, size, stride))
    return found


# the options that set a layer's output channels or outputs (Layer.size_at)
SIZE_OPTIONS = ("filters", "output", "output_filters")


class Layer:
    """A built layer: the shapes and weight blocks Darknet would give it."""

    __slots__ = ("bflops", "broken", "facts", "geometry", "index", "input", "inputs", "line",
                 "output", "outputs", "saved", "section_name", "type", "values")

    def __init__(
        self,
        index: int,
        type: str,
        line: int,
        section_name: str,
        input: tuple[int, int, int],
        inputs: int,
        output: tuple[int, int, int] = (0, 0, 0),
        outputs: int = 0,
        values: Values | None = None,
    ) -> None:
        self.index = index
        self.type = type
        self.line = line
        self.section_name = section_name
        self.input = input
        self.inputs = inputs
        self.output = output
        self.outputs = outputs
        self.saved: tuple[Block, ...] = ()
        # kernel geometry (convolution-like and pooling layers), shared by the layers that
        # have the same: a slot per field, or an object per layer, cost more than the section
        self.geometry: Geometry | None = None
        # the rarer facts (a head, the layers a route reads, ...): allocated on the first one
        self.facts: LayerFacts | None = None
        self.bflops = 0.0
        self.values = values
        self.broken = False

    # What the builder found that later stages read, typed. Geometry comes from one shared
    # object; every other fact lives in ``facts``, which most layers never allocate.
    @property
    def filters(self) -> int | None:
        return self.geometry.filters if self.geometry is not None else None

    @property
    def size(self) -> int | None:
        return self.geometry.size if self.geometry is not None else None

    @property
    def stride(self) -> tuple[int, int] | None:
        return self.geometry.stride if self.geometry is not None else None

    def size_at(self) -> tuple[int, int]:
        """(line, column) of the option that sets this layer's output size as written
        (``filters=``, ``output=``, the original's crnn ``output_filters=``): the value to
        edit when the layer is too large. The section header when none is given."""
        values = self.values
        if values is None:
            return self.line, 1
        for key in SIZE_OPTIONS:
            if values.given(key):
                return values.line_of(key)
        return values.line_of(None)

    def _facts(self) -> LayerFacts:
        if self.facts is None:
            self.facts = LayerFacts()
        return self.facts

    @property
    def refs(self) -> Sequence[int] | None:
        """The layers a route, shortcut, scale_channels or sam reads, as its builder resolved
        them (an array of C ints for a very long [route] line)."""
        return self.facts.refs if self.facts is not None else None

    @refs.setter
    def refs(self, refs: Sequence[int] | None) -> None:
        self._facts().refs = refs

    @property
    def group(self) -> tuple[int, int] | None:
        """[ab] the channel group a route takes, (group_id, groups), when groups > 1 (Darknet
        prints it as ``group_id/groups``)."""
        return self.facts.group if self.facts is not None else None

    @group.setter
    def group(self, group: tuple[int, int] | None) -> None:
        self._facts().group = group

    @property
    def shares(self) -> int | None:
        """[ab] share_index: the layer whose weights this convolution uses (it stores none)."""
        return self.facts.shares if self.facts is not None else None

    @shares.setter
    def shares(self, index: int | None) -> None:
        self._facts().shares = index

    @property
    def head(self) -> HeadInfo | None:
        """What a detection head predicts (None for every other layer, and a head not built)."""
        return self.facts.head if self.facts is not None else None

    @head.setter
    def head(self, head: HeadInfo | None) -> None:
        self._facts().head = head

    @property
    def route_mismatch(self) -> RouteMismatch | None:
        """[route] its first input whose size differs from the first one's (DN315)."""
        return self.facts.route_mismatch if self.facts is not None else None

    @route_mismatch.setter
    def route_mismatch(self, mismatch: RouteMismatch | None) -> None:
        self._facts().route_mismatch = mismatch

    @property
    def size_root(self) -> bool:
        """Set by the input-size check: this merge breaks only because of [net]'s size."""
        return self.facts is not None and self.facts.size_root

    @size_root.setter
    def size_root(self, root: bool) -> None:
        self._facts().size_root = root

    @property
    def loaded(self) -> tuple[Block, ...]:
        """The blocks Darknet's loader reads: ``saved`` unless a flag (numload,
        dontloadscales) changes what is read."""
        facts = self.facts
        return facts.loaded if facts is not None and facts.loaded is not None else self.saved

    @loaded.setter
    def loaded(self, blocks: tuple[Block, ...]) -> None:
        if blocks is not self.saved or (self.facts is not None and self.facts.loaded is not None):
            self._facts().loaded = blocks

    @property
    def next_shape(self) -> tuple[int, int, int, int] | None:
        """[ab] antialiasing hands the next layer the blurred shape, not out_w/out_h
        (parse_network_cfg)."""
        return self.facts.next_shape if self.facts is not None else None

    @next_shape.setter
    def next_shape(self, shape: tuple[int, int, int, int] | None) -> None:
        self._facts().next_shape = shape

    @property
    def stored_input(self) -> tuple[int, int, int] | None:
        """l.w, l.h, l.c as the constructor stores them, where that is not the input received
        (make_rnn_layer stores 0s, make_detection_layer side x side x 0, ...)."""
        return self.facts.stored_input if self.facts is not None else None

    @stored_input.setter
    def stored_input(self, shape: tuple[int, int, int] | None) -> None:
        self._facts().stored_input = shape

    def __repr__(self) -> str:
        return (f"Layer({self.index}, {self.type!r}, line={self.line}, input={self.input}, "
                f"output={self.output})")

    @property
    def unknown(self) -> bool:
        """The zeroed convolutional layer Darknet builds for an unknown section: the one kind
        of layer built without typed values (a property, not a slot per layer)."""
        return self.values is None

    @property
    def dims_stored(self) -> tuple[int, int, int]:
        """l.w, l.h, l.c as the layer's make_*_layer stores them (all 0 in the zeroed layer of
        an unknown section, whatever it receives)."""
        if self.values is None:
            return _ZERO_SHAPE
        return self.stored_input if self.stored_input is not None else self.input

    @property
    def params(self) -> int:
        return total_floats(self.saved)

    @property
    def is_image(self) -> bool:
        w, h, c = self.output
        return w > 0 and h > 0 and c > 0


_ZERO_SHAPE: Final = (0, 0, 0)


def zero_layer(index: int, line: int, name: str, carried: tuple[int, int, int, int]) -> Layer:
    """parse_network_cfg's fallback for an unknown type: a zeroed convolutional layer."""
    w, h, c, inputs = carried
    layer = Layer(index, "convolutional", line, name, (w, h, c), inputs)
    layer.broken = True  # and unknown: it has no typed values
    return layer


class Layers(Sequence[Layer]):
    """The network's layers, in order. An unknown section's zeroed layer fed by nothing (all
    zero shapes: the layer before is zeroed too) is all zero but for its section's name and
    line, and is built again from the section each time it is asked for: an object per
    ``[x]`` line cost fifty times the line. Layers are not changed after they are built."""

    __slots__ = ("_heads", "_items", "_sections", "_zeroed")

    def __init__(self, sections: Sections) -> None:
        self._sections = sections  # the file's sections: layer i is section i + 1
        self._items: list[Layer | None] = []
        self._zeroed = 0  # how many items are None
        self._heads: tuple[Layer, ...] | None = None  # heads(), once asked

    def heads(self) -> tuple[Layer, ...]:
        """The detection heads the builder completed, in order: the layers it gave a
        :class:`HeadInfo` ([yolo], [Gaussian_yolo], [region], [detection]). Worked out once:
        half a dozen checks ask."""
        found = self._heads
        if found is None:
            found = self._heads = tuple(layer for layer in self.built() if layer.head is not None)
        return found

    def append(self, layer: Layer) -> None:
        self._heads = None
        if layer.values is None and layer.input == _ZERO_SHAPE and layer.inputs == 0 \
                and layer.broken and not layer.saved and layer.facts is None:
            self._items.append(None)
            self._zeroed += 1
        else:
            self._items.append(layer)

    def last(self) -> Layer | None:
        """The last layer, or None before the first."""
        return self._at(len(self._items) - 1) if self._items else None

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Layer: ...

    @overload
    def __getitem__(self, index: slice) -> list[Layer]: ...

    def __getitem__(self, index: int | slice) -> Layer | list[Layer]:
        if isinstance(index, int):
            return self._at(index if index >= 0 else index + len(self._items))
        return [self._at(i) for i in range(*index.indices(len(self._items)))]

    def _at(self, index: int) -> Layer:
        item = self._items[index]
        if item is not None:
            return item
        section = self._sections[index + 1]
        return zero_layer(index, section.line, section.name, (0, 0, 0, 0))

    def __iter__(self) -> Iterator[Layer]:
        if not self._zeroed:
            return iter(self._items)  # type: ignore[arg-type]  # every item is a Layer
        return map(self._at, range(len(self._items)))

    def built(self) -> Iterator[Layer]:
        """Every layer but the all-zero ones kept compact (see the class): those have no type
        of their own, no values, no references, no head and no weights, so a check that looks
        for any of these finds the same here as over all the layers, without building a
        million of them again."""
        if not self._zeroed:
            return iter(self._items)  # type: ignore[arg-type]  # every item is a Layer
        return (item for item in self._items if item is not None)

    def __repr__(self) -> str:
        return f"Layers({len(self._items)} layers)"


class LayerContext:
    """Everything a builder may read, and the slots it fills."""

    __slots__ = (
        "c", "dialect", "h", "index", "inputs", "layer", "layers", "net", "pj", "sink", "v",
        "values", "w",
    )

    def __init__(
        self,
        index: int,
        type_name: str,
        values: Values,
        dialect: Dialect,
        net: NetInfo,
        previous: Layers,
        carried: tuple[int, int, int, int],
        sink: Sink,
    ) -> None:
        self.index = index
        self.values = self.v = values
        self.dialect = dialect
        self.pj = dialect is _PJ
        self.net = net
        self.layers = previous
        self.w, self.h, self.c, self.inputs = carried
        self.sink = sink
        shape = (self.w, self.h, self.c)
        items = previous._items  # Layers.last, inlined for a kept layer (the common case)
        before = items[-1] if items else None
        if before is None and items:
            before = previous.last()
        if before is not None and before.output == shape:
            shape = before.output  # one tuple for a shape handed on (memory per layer)
        self.layer = Layer(
            index,
            type_name,
            values.section.line,
            values.section.name,
            shape,
            self.inputs,
            values=values,
        )

    # --- reporting -------------------------------------------------------------------------
    def report(
        self,
        code: str,
        message: str,
        key: str | None = None,
        hint: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        line, column = self.values.line_of(key)
        self.sink.report(code, line, column, message, hint, severity)

    def report_item(self, code: str, message: str, key: str, item: int,
                    hint: str | None = None, last: int | None = None,
                    severity: Severity | None = None) -> None:
        """:meth:`report` about item ``item`` (0-based) of the list ``key`` (through item
        ``last`` when given): the finding points at that item (``40`` of ``layers = -1, 40``),
        else at the value."""
        span = self.values.item_span(key, item, last)
        if span is None:
            self.report(code, message, key, hint, severity)
            return
        line, column, end = span
        self.sink.report(code, line, column, message, hint, severity, (line, end))

    def div(self, a: int, b: int, what: str, key: str | None = None) -> int:
        """C division; a zero divisor is reported (Darknet dies of SIGFPE there) and gives 0."""
        if b == 0:
            self.report(
                "DN305",
                f"{what} divides by zero: Darknet crashes here (SIGFPE)",
                key,
            )
            self.layer.broken = True
            return 0
        return cdiv(a, b)

    # --- references ------------------------------------------------------------------------
    def resolve(self, raw: int, key: str, single: bool = True, quiet: bool = False,
                item: int | None = None) -> int | None:
        """Make a layer reference absolute (negative = relative) and check its range.

        ``single``: the option holds this one reference, so its text is what the file says
        for it; an item of a list is not quoted (the whole list, once per bad item, made a
        long line of commas cost memory and time quadratic in its length).
        ``quiet``: the caller counts bad references itself and reports them once.
        ``item``: the reference's position in the list, where a finding points."""
        target = self.index + raw if raw < 0 else raw
        if quiet:
            return target if 0 <= target < self.index else None
        if target < 0:
            written = self._as_written(raw, key) if single else ""
            self._report_at("DN302", f"{key}={raw}{written} points before layer 0 (resolves "
                             f"to {target}); Darknet reads outside its layer array", key, item)
            return None
        if target >= self.index:
            where = "itself" if target == self.index else f"layer {target}, which comes later"
            written = self._as_written(raw, key) if single else ""
            self._report_at("DN302", f"{key}={raw}{written} in layer {self.index} points at "
                             f"{where}; Darknet reads a layer that is not built yet (all "
                             "shapes 0)", key, item)
            return None
        return target

    def _report_at(self, code: str, message: str, key: str, item: int | None) -> None:
        if item is None:
            self.report(code, message, key)
        else:
            self.report_item(code, message, key, item)

    def rejected(self, *names: str) -> bool:
        """Whether the option stage already reported a value of one of ``names`` (so checks
        that compute with it would only repeat that finding with absurd numbers)."""
        lines = {opt.line for name in names if (opt := self.values.option(name)) is not None}
        return bool(lines) and (any(
            d.line in lines and (d.code.startswith("DN2") or d.code in MISREAD_CODES)
            for d in self.sink.items
        ) or any(self.sink.counted_at(code, lines) for code in MISREAD_CODES))

    def _as_written(self, raw: int, key: str) -> str:
        """When atoi changed the number (it does not fit an int), what the file says."""
        option = self.values.option(key)
        written = option.value if option is not None else None
        if written and str(raw) not in written:
            return f" (written '{written}'; atoi wraps it to {raw})"
        return ""

    def target(self, index: int) -> Layer:
        return self.layers[index]

    # --- results ---------------------------------------------------------------------------
    def output(self, w: int, h: int, c: int, outputs: int | None = None) -> None:
        shape = (w, h, c)
        self.layer.output = self.layer.input if shape == self.layer.input else shape
        self.layer.outputs = w * h * c if outputs is None else outputs

    def weights(self, *blocks: Block, loaded: tuple[Block, ...] | None = None) -> None:
        self.record(blocks, loaded)

    def record(self, blocks: tuple[Block, ...], loaded: tuple[Block, ...] | None = None) -> None:
        """:meth:`weights` for a record already in a tuple, which the layer keeps (a shared,
        cached record costs nothing per layer)."""
        saved = _without_empty(blocks)
        layer = self.layer
        layer.saved = saved
        if loaded is not None:
            layer.loaded = _without_empty(loaded)
        elif layer.facts is not None and layer.facts.loaded is not None:
            layer.facts.loaded = saved  # the ``loaded`` setter's one case for saved itself

    def geometry(self, filters: int | None = None, size: int | None = None,
                 stride: int | tuple[int, int] | None = None) -> None:
        """The kernel geometry later stages read: the layer table, share_index, input sizes."""
        pair = (stride, stride) if isinstance(stride, int) else stride
        self.layer.geometry = shared_geometry(filters, size, pair)

    def need_image(self) -> bool:
        """'Layer before X must output image' (parse_convolutional and friends)."""
        if self.w > 0 and self.h > 0 and self.c > 0:
            return True
        self.layer.broken = True
        if self.layers and self.layers[-1].broken:
            return False  # the layer before is already reported: one finding, not a cascade
        self.report(
            "DN306",
            f"[{self.values.section.name}] needs an image input but receives "
            f"{self.w}x{self.h}x{self.c} (flat {self.inputs}); Darknet stops with 'Layer before "
            f"{self.layer.type} layer must output image.'",
        )
        self.layer.broken = True
        return False
