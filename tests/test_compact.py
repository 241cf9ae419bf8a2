"""The compact representations that keep memory per input byte low must read exactly as the
plain ones they replace: lines cut on demand, rebuilt raw text, shared strings, packed lists."""

from __future__ import annotations

from array import array
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dnlint.cnumbers import LONG_LIST
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.network.layers.base import Block, Layer
from dnlint.read.darknet_reader import Lines, read_cfg, split_lines, text_of
from dnlint.read.document import Comments, Malformed, malformed_section
from dnlint.read.line_split import line_chunks

NET = b"[net]\nwidth=8\nheight=8\nchannels=3\n"

texts = st.lists(st.sampled_from(["", "a", "b=1", "\r", " x \r", "é", "\r\r"]), max_size=8).map(
    "\n".join)


@settings(max_examples=300, deadline=None)
@given(texts, st.booleans(), st.booleans())
def test_lines_are_the_split_lines(text: str, strip_cr: bool, trailing: bool) -> None:
    """What the reader kept before: split on '\\n', the last empty piece dropped, CRs
    stripped at the end of each line when the file has them."""
    text += "\n" if trailing else ""
    expected = text.split("\n")
    if expected and expected[-1] == "":
        expected.pop()
    if strip_cr:
        expected = [line.rstrip("\r") for line in expected]
    lines = Lines(text, strip_cr)
    assert len(lines) == len(expected)
    assert list(lines) == expected
    assert [lines[i] for i in range(len(lines))] == expected
    assert [lines[-i] for i in range(1, len(lines) + 1)] == expected[::-1]
    assert lines[1:3] == expected[1:3]
    assert lines == expected
    assert text_of(lines) in ("\n".join(expected), "\n".join(expected) + "\n")
    if text.isascii() and not strip_cr:  # what the reader keeps of an ASCII file: its bytes
        as_bytes = Lines(text.encode(), False)
        assert list(as_bytes) == expected and len(as_bytes) == len(expected)
        assert as_bytes[1:3] == expected[1:3] and as_bytes.text == text


def test_lines_scan_again_once_before_they_index_every_line() -> None:
    """The lint ends its findings in file order, then a report quotes them in file order
    again: the first lookup that goes back scans from the top, and only a second one builds
    the index of every line (random access). The lines are the same either way."""
    for source in ("l0\nl1\nl2\nl3\nl4\n", b"l0\nl1\nl2\nl3\nl4\n"):
        lines = Lines(source, False)
        assert [lines[3], lines[4]] == ["l3", "l4"]
        assert [lines[1], lines[2], lines[4]] == ["l1", "l2", "l4"]  # back once: scanned
        assert lines._starts is None
        assert [lines[0], lines[3]] == ["l0", "l3"]  # back again: indexed
        assert lines._starts is not None and list(lines._starts)[:5] == [0, 3, 6, 9, 12]
        assert [lines[i] for i in (4, 0, 2, 1, 3)] == ["l4", "l0", "l2", "l1", "l3"]


def test_lines_index_out_of_range() -> None:
    lines = Lines("a\nb\n", False)
    with pytest.raises(IndexError):
        lines[2]
    with pytest.raises(IndexError):
        lines[-3]


def test_document_lines_strip_cr_and_keep_raw() -> None:
    doc = read_cfg(b"[net]\r\nwidth=8\r\n  height = 8 \r\n")
    assert list(doc.lines) == ["[net]", "width=8", "  height = 8 "]
    width, height = doc.sections[0].options
    assert width.raw == "width=8\r"  # the careful path keeps the line as read
    assert height.raw == "  height = 8 \r"


def test_plain_option_rebuilds_its_raw_text() -> None:
    doc = read_cfg(NET + b"[convolutional]\nfilters=2\nactivation=leaky#x\n  size = 3\n")
    conv = doc.sections[1]
    assert [o.raw for o in conv.options] == ["filters=2", "activation=leaky#x", "  size = 3"]
    assert [o.plain for o in conv.options] == [True, False, False]  # '#x' is kept aside
    assert [o.comment_at for o in conv.options] == [-1, 5, -1]
    assert [(o.column, o.value_column) for o in conv.options] == [(1, 9), (1, 12), (3, 10)]


def test_a_bare_key_without_blanks_keeps_no_unplain() -> None:
    """A file of bare 'key' lines kept 64 bytes more per line for positions its key gives."""
    doc = read_cfg(NET + b"[convolutional]\nfilters\n  size \nstride\t\n")
    conv = doc.sections[1]
    assert [o.plain for o in conv.options] == [True, False, False]
    assert [(o.key, o.value, o.raw) for o in conv.options] == [
        ("filters", None, "filters"), ("size", None, "  size "), ("stride", None, "stride\t")]
    assert [(o.column, o.value_column) for o in conv.options] == [(1, 1), (3, 3), (1, 1)]
    header = conv.line
    assert [(d.code, d.line, d.column) for d in doc.findings if d.code == "DN006"] == [
        ("DN006", header + 1, 1), ("DN006", header + 2, 3), ("DN006", header + 3, 1)]


def test_repeated_keys_values_and_names_share_one_string() -> None:
    doc = read_cfg(NET + b"[convolutional]\nfilters=16\nactivation=leaky\n" * 3)
    convs = doc.sections[1:]
    assert len({id(s.name) for s in convs}) == 1
    assert len({id(s.options[0].key) for s in convs}) == 1
    assert len({id(s.options[1].value) for s in convs}) == 1


def test_repeated_lines_that_strip_glues_share_their_text_and_value() -> None:
    # 'a=1 2': Darknet's strip() reads a=12; the line's text stays for its positions
    doc = read_cfg(NET + b"[convolutional]\nfilters=16\n" + b"a=1 2\n" * 3)
    glued = doc.sections[1].options[1:]
    assert [(o.key, o.value, o.raw, o.line, o.column, o.value_column) for o in glued] == [
        ("a", "12", "a=1 2", line, 1, 3) for line in (7, 8, 9)]
    assert len({id(o.value) for o in glued}) == 1
    assert len({id(o.raw) for o in glued}) == 1


def _route_layers(count: int) -> tuple[object, object]:
    body = NET + b"[convolutional]\nfilters=2\n[route]\nlayers=" + b"-1," * (count - 1) + b"-1\n"
    result = lint_cfg_bytes(body, "r.cfg", Dialect.AB)
    assert result.network is not None
    route = result.network.layers[1]
    assert route.values is not None
    return route.values.get("layers"), route.refs


def test_short_list_is_a_list() -> None:
    refs, layers = _route_layers(3)
    assert refs == [-1, -1, -1]
    assert layers == [0, 0, 0]


def test_long_list_is_packed_with_the_same_numbers() -> None:
    count = LONG_LIST  # 3 bytes per item: well past the long-list length
    refs, layers = _route_layers(count)
    assert isinstance(refs, array) and refs.typecode == "i"
    assert list(refs) == [-1] * count
    assert isinstance(layers, array) and list(layers) == [0] * count


def test_long_float_list_keeps_doubles() -> None:
    anchors = b",".join(b"%d.25" % i for i in range(2000))
    body = NET + b"[convolutional]\nfilters=2\n[yolo]\nmask=0\nanchors=" + anchors + b"\n"
    result = lint_cfg_bytes(body, "y.cfg", Dialect.AB)
    assert result.network is not None
    values = result.network.layers[1].values
    assert values is not None
    got = values.get("anchors")
    assert isinstance(got, array) and got.typecode == "d"
    assert list(got) == [i + 0.25 for i in range(2000)]


def test_layer_facts_are_allocated_on_the_first_one() -> None:
    first, second = (Layer(i, "x", 1, "x", (1, 1, 1), 1) for i in range(2))
    assert first.facts is None and first.head is None and first.refs is None
    assert not first.size_root and first.shares is None and first.route_mismatch is None
    first.shares = 0
    first.size_root = True
    assert first.facts is not None and (first.shares, first.size_root) == (0, True)
    assert second.facts is None


def test_conv_layers_share_their_geometry() -> None:
    body = NET + b"[convolutional]\nfilters=4\nsize=3\npad=1\n" * 3
    result = lint_cfg_bytes(body, "c.cfg", Dialect.AB)
    assert result.network is not None
    first, second, third = result.network.layers
    assert first.geometry is second.geometry is third.geometry
    assert (first.filters, first.size, first.stride) == (4, 3, (1, 1))
    assert first.facts is second.facts is third.facts is None
    assert second.saved is third.saved  # one cached weights record (both read 4 channels)
    assert first.saved is not second.saved
    second.size_root = True
    assert second.size_root and not first.size_root


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "bc", "\n", "\n\n", "xyz"]), max_size=12).map("".join),
       st.integers(min_value=1, max_value=6))
def test_line_chunks_hold_split_lines(text: str, chunk: int) -> None:
    expected = text.split("\n")
    if expected[-1] == "":
        expected.pop()  # a final newline starts no line
    assert split_lines(text) == expected
    assert [line for lines in line_chunks(text, chunk) for line in lines] == expected
    # ASCII bytes, decoded
    assert [line for lines in line_chunks(text.encode(), chunk) for line in lines] == expected


def test_section_first_from_none_to_one_option_to_dict() -> None:
    doc = read_cfg(NET + b"[x]\n[upsample]\nstride=2\n[route]\nlayers=-1\nlayers=-2\n"
                   b"[shortcut]\nfrom=-1\nactivation=linear\n")
    empty, single, repeated, double = doc.sections[1:]
    assert empty._first is None and empty.first == {} and empty.options == []
    assert empty.find("stride") is None
    stride = single.options[0]
    assert single._first is stride and single.first == {"stride": stride}
    assert single.find("stride") is stride and single.find("x") is None
    first_layers, second_layers = repeated.options
    assert second_layers.line == first_layers.line + 1
    assert repeated._first is first_layers and repeated.find("layers") is first_layers
    assert repeated.odd and [o.value for o in repeated.listed or ()] == ["-1", "-2"]
    assert type(double._first) is dict and list(double.first) == ["from", "activation"]
    assert [f.code for f in doc.findings] == ["DN009"]  # the repeated 'layers'


def test_loaded_is_saved_unless_a_flag_changes_it() -> None:
    layer = Layer(0, "x", 1, "x", (1, 1, 1), 1)
    biases, weights = Block("biases", 2), Block("weights", 8)
    layer.saved = (biases, weights)
    assert layer.loaded is layer.saved and layer.facts is None
    layer.loaded = (biases,)
    assert layer.loaded == (biases,) and layer.saved == (biases, weights)
    layer.loaded = layer.saved  # back to the default: kept exactly
    assert layer.loaded is layer.saved
    layer.next_shape = (1, 2, 3, 6)
    layer.stored_input = (0, 0, 0)
    assert (layer.next_shape, layer.stored_input) == ((1, 2, 3, 6), (0, 0, 0))


def test_section_column_and_header_ok_share_a_slot() -> None:
    doc = read_cfg(NET + b"  [route\nlayers=-1\n[conv]\n")
    broken, fine = doc.sections[1:]
    assert (broken.column, broken.header_ok) == (3, False)
    assert (fine.column, fine.header_ok) == (1, True)
    made = malformed_section("route", 9, 3)  # what Sections keeps of a malformed header
    assert (made.name, made.line, made.column, made.header_ok) == ("route", 9, 3, False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "bc", "\n", "\n\n", "xyz\r"]), max_size=12).map("".join))
def test_line_lookup_across_chunk_boundaries(text: str) -> None:
    """Line starts are found a chunk at a time: a line cut by a chunk's end reads whole."""
    import dnlint.read.lines as reader

    expected = text.split("\n")
    if expected[-1] == "":
        expected.pop()
    saved = reader._LINES_CHUNK
    reader._LINES_CHUNK = 3
    try:
        for source in (text, text.encode()):
            lines = Lines(source, False)
            assert [lines[i] for i in range(len(lines))] == expected
    finally:
        reader._LINES_CHUNK = saved


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "bc", "\n", "\n\n", "xyz"]), max_size=12).map("".join),
       st.randoms(use_true_random=False))
def test_line_lookup_in_any_order(text: str, random: Any) -> None:
    """Lines are found by scanning forward until a lookup goes back, then from an index."""
    expected = text.split("\n")
    if expected[-1] == "":
        expected.pop()
    order = list(range(len(expected)))
    random.shuffle(order)
    for source in (text, text.encode()):
        lines = Lines(source, False)
        assert [lines[i] for i in order] == [expected[i] for i in order]
        assert [lines[-1 - i] for i in range(len(expected))] == expected[::-1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "filters=16", "x" * 600, "\n" * 40]), min_size=40,
                max_size=400),
       st.lists(st.integers(min_value=0, max_value=5000), max_size=20))
def test_forward_lookups_far_apart(pieces: list[str], wanted: list[int]) -> None:
    """A lookup far past the last one skips whole spans of text (a count per span), landing
    on the very line a find per line reaches: empty lines, lines longer than a span, runs of
    newlines."""
    text = "\n".join(pieces) + "\n"
    expected = text.split("\n")[:-1]
    order = sorted({i % len(expected) for i in wanted})
    for source in (text, text.encode()):
        lines = Lines(source, False)
        assert [lines[i] for i in order] == [expected[i] for i in order]
        assert lines._starts is None  # found by scanning forward only
        # each line as the first lookup: the skips that land exactly on it included
        assert [Lines(source, False)[i] for i in range(len(expected))] == expected


def test_bare_sections_are_built_when_asked_for() -> None:
    """A '[name]' with no option is kept as a name and a line; it reads as the Section the
    reader built before, and one that gains an option is kept from then on."""
    doc = read_cfg(NET + b"[x]\n[maxpool]\nsize=2\n  [y]\n[z]\n")
    sections = doc.sections
    assert [(s.name, s.line, s.column, s.header_ok) for s in sections] == [
        ("net", 1, 1, True), ("x", 5, 1, True), ("maxpool", 6, 1, True), ("y", 8, 3, True),
        ("z", 9, 1, True)]
    assert [s.name for s in sections.built()] == ["net", "maxpool", "y"]
    assert [s.name for s in sections[1:3]] == ["x", "maxpool"]
    assert sections[-1].options == [] and sections[-1].first == {}
    assert list(sections.lines) == [1, 5, 6, 8, 9]
    assert sections.live(1) is sections[1]  # kept from now on
    assert len(sections) == 5


def test_a_file_of_bare_unknown_sections_keeps_no_object_per_section() -> None:
    result = lint_cfg_bytes(NET + b"[conv]\nfilters=2\n" + b"[x]\n" * 1000, "f.cfg", Dialect.AB)
    assert result.document is not None and result.network is not None
    assert [s.name for s in result.document.sections.built()] == ["net", "conv"]
    layers = result.network.layers
    assert len(layers) == 1001
    assert sum(item is not None for item in layers._items) == 2  # [conv] and the first [x]
    first, later, last = layers[1], layers[2], layers[-1]
    assert (first.index, first.line, first.section_name, first.input, first.inputs) == (
        1, 7, "x", (8, 8, 2), 128)  # the first zeroed layer receives [conv]'s output
    assert (later.index, later.line, later.type, later.input, later.output, later.broken) == (
        2, 8, "convolutional", (0, 0, 0), (0, 0, 0), True)
    assert (last.index, last.line, last.unknown) == (1000, 1006, True)
    assert [layer.index for layer in layers][-3:] == [998, 999, 1000]


def test_malformed_headers_without_options_keep_one_shared_name() -> None:
    """A malformed header at column 1 is kept as its name (one object per name) and a line,
    and reads as the Section it stands for; one after blanks, or given an option, is kept."""
    doc = read_cfg(NET + b"[\n[]\n[a\n  [y\n[\nsize=2\n")
    sections = doc.sections
    assert [(s.name, s.line, s.column, s.header_ok) for s in sections] == [
        ("net", 1, 1, True), ("", 5, 1, False), ("", 6, 1, False), ("a", 7, 1, False),
        ("y", 8, 3, False), ("", 9, 1, False)]
    assert [s.name for s in sections.built()] == ["net", "y", ""]
    assert sections._items[1] is sections._items[2] is not sections._items[3]
    assert type(sections._items[1]) is Malformed and sections._bare == 3
    assert [o.key for o in sections[5].options] == ["size"]
    assert [(f.code, f.line, f.column) for f in doc.findings] == [
        ("DN019", 5, 1), ("DN019", 6, 1), ("DN019", 7, 1), ("DN019", 8, 3), ("DN019", 9, 1)]


def test_comments_are_lines_and_shared_texts() -> None:
    """Comment lines read as the Comments they were; short texts are one string each."""
    doc = read_cfg(NET + b"#\n[x]\n  # a\n#\n" + b"#\n" * 5000)  # the last on line 5008
    comments = doc.comments
    assert [(c.line, c.text) for c in comments][:3] == [(5, "#"), (7, "# a"), (8, "#")]
    assert len(comments) == 5003 and comments[-1].line == 5008
    assert isinstance(comments, Comments) and comments._texts[0] is comments._texts[-1]
    assert comments.since(1, 6) == ((1, "# a"), (2, "#"), *((i, "#") for i in range(3, 5003)))
    assert [(c.line, c.text) for c in comments[1:3]] == [(7, "# a"), (8, "#")]
    assert comments.within(5, 8) == [(7, "# a")]  # after line 5, before line 8
    assert comments.within(0, 6) == [(5, "#")]
    assert comments.within(5006, None) == [(5007, "#"), (5008, "#")]


@pytest.mark.parametrize("count", [5000, 70_000])  # read whole (one chunk), and in chunks
def test_header_lines_are_packed_past_pack_after(count: int) -> None:
    """The reader's inlined appends pack the header lines too: 8 bytes a line, not an int."""
    doc = read_cfg(NET + b"[x]\n" * count)
    lines = doc.sections.lines
    assert isinstance(lines, array) and lines.typecode == "L"
    assert len(lines) == count + 1 and lines[-1] == count + 4


def test_an_ascii_file_is_kept_as_the_bytes_it_was_read_as() -> None:
    """No decoded copy: the document's lines are cut from the caller's bytes."""
    data = NET + b"[convolutional]\nfilters=2\n\tsize=1 # k\n"
    doc = read_cfg(data)
    assert doc.lines._source is data
    assert list(doc.lines) == ["[net]", "width=8", "height=8", "channels=3", "[convolutional]",
                               "filters=2", "\tsize=1 # k"]
    assert [o.raw for o in doc.sections[1].options] == ["filters=2", "\tsize=1 # k"]
    for other in (data + "# é\n".encode(), data.replace(b"\n", b"\r\n")):
        assert isinstance(read_cfg(other).lines._source, str)  # not ASCII, or CRs to strip


def test_built_layers_skip_only_the_compact_zeroed_ones() -> None:
    """Layers.built() is what the checks that look for a type, a head or a reference walk: every
    layer but the all-zero ones of unknown sections kept as a name and a line."""
    data = NET + b"[convolutional]\nfilters=2\nsize=1\n[x]\n[x]\n[x]\n[cost]\n[x]\n"
    network = lint_cfg_bytes(data, "f.cfg", Dialect.AB).network
    assert network is not None
    # the first [x] receives the convolution's 8x8x2: kept whole; the others receive nothing
    assert [(layer.index, layer.type, layer.input) for layer in network.layers.built()] == [
        (0, "convolutional", (8, 8, 3)), (1, "convolutional", (8, 8, 2)),
        (4, "cost", (0, 0, 0))]
    assert [layer.index for layer in network.layers] == [0, 1, 2, 3, 4, 5]
    assert network.layers[3].unknown and network.layers[5].line == 12


def _traced_peak(action: Any) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_dialect_detection_builds_no_list_of_the_sections() -> None:
    """A slice of the sections built every bare '[x]' as an object at once (22 bytes of
    memory per byte of input): detection walks them one at a time."""
    from dnlint.network.dialect_guess import detect_dialect

    data = NET + b"[x]\n" * 100_000
    doc = read_cfg(data)
    assert detect_dialect(doc).guessed
    assert _traced_peak(lambda: detect_dialect(doc)) < len(data) // 10


def test_the_empty_item_fix_builds_no_list_of_the_pieces() -> None:
    """The text report works out every fixable finding's edit (to mark it [*]): a long line of
    commas was split into a list of every piece, 8 bytes per comma."""
    from dnlint.edits import Source
    from dnlint.fixes import FixContext
    from dnlint.fixes.text import drop_empty_items

    data = NET + b"[route]\nlayers=" + b"," * 400_000 + b"-1\n"
    result = lint_cfg_bytes(data, "f.cfg", Dialect.AB)
    finding = next(d for d in result.diagnostics if d.code == "DN208")
    ctx = FixContext(Source(data), result)
    edits = drop_empty_items(finding, ctx)
    assert edits is not None and len(edits) == 1
    # a few copies of the line itself (4 bytes per comma); the list of pieces added 8 more
    assert _traced_peak(lambda: drop_empty_items(finding, ctx)) < 400_000 * 6


def test_the_fix_source_keeps_its_line_starts_packed() -> None:
    """The text report makes a fix Source of every file with a fixable finding (to mark it
    [*]): a list of int objects cost 36 bytes per line, four times a file of short lines."""
    from dnlint.edits import Source

    data = b"\xef\xbb\xbf" + b"x1=1\n" * 100_000
    assert _traced_peak(lambda: Source(data)) < 100_000 * 12
    source = Source(data)
    assert source.span(1) == (3, 7) and source.span(100_000) == (499_998, 500_002)
    assert source.text(2) == "x1=1" and source.span(100_002) is None


@pytest.mark.parametrize("data", [b"", b"a", b"\n", b"a\nb", b"a\r\nb\n", b"\xef\xbb\xbfa\nb",
                                  b"\n" * 16383 + b"x\n", b"y" * 16383 + b"\n\n",
                                  b"z" * 16384 + b"\nw", b"ab\n" * 70_000])
def test_line_starts_are_found_across_slices(data: bytes) -> None:
    """Source finds line starts a 16 KiB slice at a time: a line that crosses a slice, or a
    newline at either edge of one, starts where a scan of the whole file says."""
    from dnlint.edits import BOM, Source

    expected = [0] + [at + 1 for at in range(len(data)) if data[at:at + 1] == b"\n"]
    if data.startswith(BOM):
        expected[0] = len(BOM)
    assert list(Source(data).starts) == expected


def test_a_file_longer_than_a_chunk_reads_as_one() -> None:
    """The lexer takes a large file's lines a chunk (LINES_CHUNK characters) at a time; a
    section cut by a chunk's end keeps every option, at its line."""
    from dnlint.read.line_split import LINES_CHUNK

    layer = "[convolutional]\nfilters=16\nsize=3\nactivation=leaky\n"
    count = LINES_CHUNK // len(layer) + 50
    doc = read_cfg(("[net]\nwidth=8\n" + layer * count).encode())
    assert len(doc.sections) == count + 1
    assert [[(o.key, o.value, o.line) for o in s.options] for s in doc.sections[1:]] == [
        [("filters", "16", 4 + 4 * i), ("size", "3", 5 + 4 * i), ("activation", "leaky", 6 + 4 * i)]
        for i in range(count)]
