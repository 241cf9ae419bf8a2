"""--graph: the layer graph as DOT, with routes and shortcuts as edges and errors highlighted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main

CFG = """\
[net]
width=32
height=32
channels=3

[convolutional]
filters=16
size=3
pad=1
activation=leaky

[convolutional]
filters=16
size=3
stride=2
pad=1
activation=leaky

[route]
layers=-2

[shortcut]
from=-2
activation=linear
"""
EXPECTED = """\
digraph dnlint {
  rankdir=TB;
  node [shape=box, style="rounded,filled", fillcolor="white", fontname="monospace", \
fontsize=10];
  edge [fontname="monospace", fontsize=9];
  subgraph cluster_0 {
    label="g.cfg (alexeyab)";
    f0_input [label="input\\n32 x 32 x 3", shape=ellipse];
    f0_0 [label="0 convolutional 16 3x3 /1\\n32 x 32 x 16\\nline 6"];
    f0_1 [label="1 convolutional 16 3x3 /2\\n16 x 16 x 16\\nline 12"];
    f0_2 [label="2 route 0\\n32 x 32 x 16\\nline 19"];
    f0_3 [label="3 shortcut 1\\n32 x 32 x 16\\nline 22", fillcolor="#f8d7da", color="#c0392b", \
penwidth=2];
    f0_input -> f0_0;
    f0_0 -> f0_1;
    f0_0 -> f0_2 [color="#2471a3", label="route"];
    f0_2 -> f0_3;
    f0_1 -> f0_3 [style=dashed, color="#7d3c98", label="shortcut"];
  }
}
"""


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.cfg").write_text(CFG)
    return tmp_path


def test_dot_graph(cwd: Path) -> None:
    result = CliRunner().invoke(main, ["-q", "--dialect", "ab", "--graph", "g.dot", "g.cfg"])
    assert result.exit_code == 1  # the shortcut's sizes differ (DN318): highlighted in red
    assert (cwd / "g.dot").read_text() == EXPECTED


def test_unbuildable_file_gets_a_placeholder(cwd: Path) -> None:
    (cwd / "empty.cfg").write_text("")
    CliRunner().invoke(main, ["-q", "--graph", "e.dot", "empty.cfg"])
    assert 'f0_none [label="no network: see the errors", fillcolor="#f8d7da"];' in (
        cwd / "e.dot").read_text()


def test_svg_or_fallback_to_dot(cwd: Path) -> None:
    result = CliRunner().invoke(main, ["-q", "--dialect", "ab", "--graph", "g.svg", "g.cfg"])
    if shutil.which("dot"):
        assert (cwd / "g.svg").read_text().lstrip().startswith("<?xml")
    else:
        assert result.stderr == ("dnlint: Graphviz 'dot' not found: wrote the DOT source to "
                                 "g.dot instead of g.svg\n")
        assert (cwd / "g.dot").read_text() == EXPECTED


def test_a_dot_that_does_not_finish_is_stopped_and_the_dot_source_written(
        cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Graphviz layout that would take minutes: stopped at the limit, and the run ends with
    the DOT source and a note."""
    import time

    import dnlint.reporters.graph

    (cwd / "bin").mkdir()
    (cwd / "bin" / "dot").write_text(f"#!/bin/sh\nexec {shutil.which('sleep')} 60\n")
    (cwd / "bin" / "dot").chmod(0o755)
    monkeypatch.setenv("PATH", str(cwd / "bin"))
    monkeypatch.setattr(dnlint.reporters.graph, "DOT_SECONDS", 0.5)
    start = time.monotonic()
    result = CliRunner().invoke(main, ["-q", "--dialect", "ab", "--graph", "g.svg", "g.cfg"])
    assert time.monotonic() - start < 30
    assert (result.exit_code, result.stderr) == (
        1, "dnlint: 'dot' did not finish in 0.5 s (a long network with far-reaching shortcuts): "
           "wrote the DOT source to g.dot instead of g.svg\n")
    assert (cwd / "g.dot").read_text() == EXPECTED
    assert sorted(p.name for p in cwd.iterdir()) == ["bin", "g.cfg", "g.dot"]


def test_a_read_only_graph_is_not_replaced(cwd: Path) -> None:
    """The graph goes through the careful writer: no write permission, nothing written."""
    (cwd / "g.dot").write_text("mine\n")
    (cwd / "g.dot").chmod(0o444)
    result = CliRunner().invoke(main, ["-q", "--dialect", "ab", "--graph", "g.dot", "g.cfg"])
    assert (result.exit_code, result.stderr) == (
        2, "dnlint: g.dot: no write permission: the graph not written\n")
    assert (cwd / "g.dot").read_text() == "mine\n"
    assert sorted(p.name for p in cwd.iterdir()) == ["g.cfg", "g.dot"]


def test_unwritable_graph_exits_2(cwd: Path) -> None:
    result = CliRunner().invoke(main, ["--graph", "missing/dir/g.dot", "g.cfg"])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_out_of_range_references_draw_no_edge() -> None:
    from dnlint.dialects import Dialect
    from dnlint.lint import lint_cfg_bytes
    from dnlint.reporters.graph import to_dot

    text = CFG.replace("layers=-2", "layers=-9").replace("from=-2", "from=7")
    result = lint_cfg_bytes(text.encode(), "g.cfg", Dialect.AB)
    dot = to_dot([result])
    assert "-> f0_2" not in dot  # the route has no valid input
    assert "-> f0_3 [style=dashed" not in dot and "f0_2 -> f0_3;" in dot
    assert 'f0_2 [label="2 route' in dot and 'color="#c0392b"' in dot.split("f0_2 [", 1)[1]
