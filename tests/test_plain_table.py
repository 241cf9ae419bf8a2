"""The --layers tables written as text without colour (dnlint.reporters.plain_table) are byte
for byte what rich draws for them, and rich still draws what the text writer leaves to it."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from conftest import lint_text
from dnlint.reporters import ReportContext
from dnlint.reporters import table as layer_table
from dnlint.reporters.plain_table import WIDTH, boxed, centred, unboxed

WORDS = st.text(alphabet=st.sampled_from("ab1,.() x≈-"), min_size=0, max_size=60)
CELLS = st.text(alphabet=st.sampled_from("ab1,./ x"), min_size=0, max_size=24)


def rich_text(draw: Table | Text, width: int = WIDTH) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=False, no_color=True, highlight=False,
            width=width).print(draw)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS.filter(str.strip), min_size=1, max_size=3), WORDS.filter(str.strip),
       st.integers(min_value=1, max_value=60))
def test_a_wrapped_caption_and_title_are_richs(paragraphs: list[str], title: str,
                                               width: int) -> None:
    """Title and caption are wrapped at the table's width and centred, as rich does."""
    caption = "\n".join(paragraphs)
    rows = [["x" * width]]
    text = boxed(title, ["h"], [False], rows, caption)
    if text is not None:  # None: a word longer than the table, which rich folds
        assert centred(title, width + 4) is not None
        assert text == rich_boxed(title, ["h"], [False], rows, caption)


def rich_boxed(title: str, header: list[str], right: list[bool], rows: list[list[str]],
               caption: str) -> str:
    table = Table(title=Text(title), caption=Text(caption))
    for name, flush in zip(header, right, strict=True):
        table.add_column(name, justify="right" if flush else "left")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return rich_text(table)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=6).flatmap(lambda n: st.tuples(
    st.lists(CELLS.filter(bool), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1, max_size=5))),
    WORDS, WORDS)
def test_a_boxed_table_is_richs(shape: tuple[list[str], list[bool], list[list[str]]],
                                title: str, caption: str) -> None:
    header, right, rows = shape
    text = boxed(title, header, right, rows, caption)
    if text is not None:
        assert text == rich_boxed(title, header, right, rows, caption)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=7).flatmap(lambda n: st.tuples(
    st.lists(CELLS.filter(bool), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1, max_size=5))))
def test_an_unboxed_table_is_richs(shape: tuple[list[str], list[bool], list[list[str]]]
                                   ) -> None:
    header, right, rows = shape
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name, flush in zip(header, right, strict=True):
        table.add_column(name, justify="right" if flush else "left")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    text = unboxed(header, right, rows)
    assert text == rich_text(table) or (text is None and any(
        cell != cell.strip() for row in (header, *rows) for cell in row))


def test_what_rich_must_draw_is_left_to_it() -> None:
    assert boxed("t", ["a"], [False], [], "c") is None  # no rows
    assert boxed("t", ["a"], [False], [["é"]], "c") is None  # not one cell a character
    assert boxed("t", ["a"], [False], [["x" * WIDTH]], "c") is None  # wider than the console
    assert boxed("t", ["a"], [False], [["x"]], "y" * 10) is None  # a word rich would fold
    assert unboxed(["a", "b"], [True, False], [["1", "x" * (WIDTH - 2)]]) is None


def test_the_widest_tables_written_are_richs() -> None:
    """Exactly as wide as the console: written, as rich draws them."""
    rows = [["1", "x" * (WIDTH - 3)]]
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("a", justify="right")
    table.add_column("b")
    table.add_row(*rows[0])
    assert unboxed(["a", "b"], [True, False], rows) == rich_text(table)
    wide = [["x" * (WIDTH - 4)]]
    assert boxed("t", ["a"], [False], wide, "c") == rich_boxed("t", ["a"], [False], wide, "c")


ROUTED = """[net]
batch=2
width=64
height=64
channels=3

[convolutional]
filters=16
size=3
stride=2
activation=leaky

[maxpool]
size=2
stride=2

[route]
layers=-1,-2

[convolutional]
filters=-4
size=1
"""


def test_a_layer_table_with_a_route_and_a_broken_layer_is_richs() -> None:
    result = lint_text(ROUTED)
    assert result.network is not None and result.network.layers[-1].broken
    plain, drawn = io.StringIO(), io.StringIO()
    layer_table.print_layer_table(result, ReportContext(plain, False, False, False, True, False))
    ctx = ReportContext(drawn, False, False, False, True, False)
    memory = layer_table.memory_of(result)
    per_layer = memory.train.layers if memory is not None else []
    rows = [layer_table._cells(layer, result, per_layer) for layer in result.network.layers]
    title = "t.cfg (alexeyab)"
    caption = plain.getvalue().split("┘\n", 1)[1]
    assert "4 layers" in caption and "memory (CPU" in caption
    layer_table._print_rich(result, ctx, title, rows, " ".join(caption.split()).replace(
        " memory (CPU", "\nmemory (CPU"))
    assert plain.getvalue() == drawn.getvalue()
    assert ("│ 2 │ route         │ 1 0                 │ 16 x 16 x 16 + 31 x 31 x 16 │ "
            "0 x 0 x 0 (19472) │      0 │        │ 304.3 KiB │   17 │\n") in plain.getvalue()
