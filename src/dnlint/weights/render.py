"""The text summary of a :class:`WeightsReport`: header, expected vs actual, offsets table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dnlint.clean import shown_path
from dnlint.weights.layout import WeightsReport

if TYPE_CHECKING:
    from rich.console import Console


def verdict(report: WeightsReport) -> str:
    """One phrase: how the actual file's size compares with what the loader reads."""
    if report.actual_bytes is None or report.header is None:
        return "not checked"
    expected = report.expected_payload + report.header.size
    delta = report.actual_bytes - expected
    if not report.loadable:
        return "cannot load with this cfg"
    if delta == 0:
        return "exact"
    return f"{abs(delta):,} bytes {'short' if delta < 0 else 'too long'}"


def summary_lines(report: WeightsReport) -> list[str]:
    """The summary as plain lines (what render_weights prints, without styling)."""
    lines = [
        f"weights ({report.dialect.value}): load_weights reads {report.expected_bytes:,} bytes, "
        f"save_weights writes {report.saved_bytes:,} (with the {report.header_bytes}-byte "
        "header)"
    ]
    lines += [f"  differs: {why}" for why in report.differences()]
    crash = report.crash
    if crash is not None:
        lines.append(f"  cannot load: layer {crash.index} (line {crash.line}): {crash.crash}")
    if report.path is not None:
        header = report.header
        shown = (f"version {header.version}, seen {header.seen:,} ({header.seen_bytes}-byte), "
                 f"{header.size}-byte header" if header else "no header")
        actual = f"{report.actual_bytes:,}" if report.actual_bytes is not None else "?"
        lines.append(f"  file {shown_path(report.path)}: {actual} bytes, {shown}: "
                     f"{verdict(report)}")
    return lines


OFFSET_COLUMNS = ("layer", "type", "line", "load offset", "floats loaded", "floats saved", "notes")
OFFSET_RIGHT = tuple(column not in ("type", "notes") for column in OFFSET_COLUMNS)


def offset_rows(report: WeightsReport) -> list[tuple[str, ...]]:
    """The offsets table's rows: every layer that loads, saves or says something."""
    return [(str(lay.index), lay.section, str(lay.line), f"{lay.load_offset:,}",
             f"{lay.loaded_floats:,}", f"{lay.saved_floats:,}",
             "; ".join(lay.notes) + (f"crash: {lay.crash}" if lay.crash else ""))
            for lay in report.layers if lay.saved or lay.loaded or lay.notes or lay.crash]


def render_weights(report: WeightsReport, console: Console, show_layers: bool) -> None:
    """Print the weights summary, and with ``show_layers`` the per-layer offsets table."""
    from rich.table import Table
    from rich.text import Text

    lines = summary_lines(report)
    console.print(Text(lines[0], style="bold"))
    for line in lines[1:]:
        style = "red" if "cannot load" in line or line.endswith(("short", "too long")) else ""
        console.print(Text(line, style=style))
    if not show_layers:
        return
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column, right in zip(OFFSET_COLUMNS, OFFSET_RIGHT, strict=True):
        table.add_column(column, justify="right" if right else "left")
    for cells in offset_rows(report):
        table.add_row(*(Text(cell) for cell in cells))  # a section name is never markup
    console.print(table)
