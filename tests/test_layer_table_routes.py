"""The --layers table: a route's input column shows the outputs it joins, and a grouped route
its group as Darknet prints it (``route 0 1/2``)."""

from __future__ import annotations

from pathlib import Path

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
activation=leaky

[convolutional]
filters=8
size=1
activation=leaky

[route]
layers=-1,-2

[route]
layers=0
groups=2
group_id=1
"""


def rows(tmp_path: Path, *args: str) -> list[list[str]]:
    (tmp_path / "r.cfg").write_text(CFG)
    out = CliRunner().invoke(main, ["--layers", "--no-color", *args,
                                    str(tmp_path / "r.cfg")]).stdout
    return [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in out.splitlines() if line.startswith("│")]


def test_a_routes_input_is_what_it_joins_and_its_group_is_shown(tmp_path: Path) -> None:
    table = rows(tmp_path, "--dialect", "ab")
    assert table == [
        # memory: training at mini-batch 1, output and delta (2 x 4 bytes a value) plus a
        # convolution's weights and biases three times (values, updates, EMA copies)
        ["0", "convolutional", "16 3x3 /1", "32 x 32 x 3", "30 x 30 x 16", "448", "0.001",
         "117.8 KiB", "6"],
        ["1", "convolutional", "8 1x1 /1", "30 x 30 x 16", "30 x 30 x 8", "136", "0.000",
         "57.8 KiB", "11"],
        ["2", "route", "1 0", "30 x 30 x 8 + 30 x 30 x 16", "30 x 30 x 24", "0", "",
         "168.8 KiB", "16"],
        ["3", "route", "0 1/2", "30 x 30 x 16", "30 x 30 x 8", "0", "", "56.3 KiB", "19"],
    ]


def test_the_original_darknet_has_no_groups(tmp_path: Path) -> None:
    table = rows(tmp_path, "--dialect", "pj", "--ignore", "DN202")
    assert table[3][2:5] == ["0", "30 x 30 x 16", "30 x 30 x 16"]
