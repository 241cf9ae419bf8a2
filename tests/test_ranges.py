"""Exact ranges: every finding at a line has an end; a list finding points at its item; the
formats carry the end (JSON end_line/end_column, SARIF and GitHub endColumn, the text caret)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dnlint.cli import main
from dnlint.diagnostics import token_end

CFG = """\
[net]
width=416
height=416
channels=3

[convolutional]
filters=16
size=3
activation=leaky

[route]
layers = -1, 40

[convolutional]
filters=18
size=1
activation=linear

[yolo]
mask = 3,4,9
anchors=10,14, 23,27, 37,58, 81,82, 135,169, 344,319
classes=1
num=6
"""


@pytest.fixture()
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.cfg").write_text(CFG)
    return tmp_path


def run(*args: str) -> str:
    return CliRunner().invoke(main, ["--dialect", "ab", "--select", "DN302,DN402,DN403",
                                     *args]).stdout


@pytest.mark.parametrize(("line", "column", "end"), [
    ("[route]", 1, 8), ("layers = -1, 40", 1, 7), ("layers = -1, 40", 10, 16),
    ("anchors=10,14, 23,27 #", 9, 21),
    ("layers = -1, 40", 14, 16), ("mask=3,4,9 # x", 10, 11), ("[net", 1, 5),
    ("", 1, 1), ("a=b", 9, 9),
])
def test_token_end(line: str, column: int, end: int) -> None:
    assert token_end(line, column) == end


def test_json_points_at_the_list_item(cwd: Path) -> None:
    found = json.loads(run("--format", "json", "r.cfg"))["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["column"], d["end_line"], d["end_column"])
            for d in found] == [("DN302", 12, 14, 12, 16), ("DN402", 20, 12, 20, 13)]


def test_text_caret_underlines_the_item(cwd: Path) -> None:
    out = run("r.cfg")
    assert "12 | layers = -1, 40\n   |              ^^\n" in out
    assert "20 | mask = 3,4,9\n   |            ^\n" in out


def test_github_and_sarif_carry_the_end_column(cwd: Path) -> None:
    lines = run("--format", "github", "r.cfg").splitlines()
    assert lines[0].startswith("::error file=r.cfg,line=12,endLine=12,col=14,endColumn=16,")
    assert lines[1].startswith("::error file=r.cfg,line=20,endLine=20,col=12,endColumn=13,")
    results = json.loads(run("--format", "sarif", "r.cfg"))["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"] for r in results] == [
        {"startLine": 12, "startColumn": 14, "endColumn": 16},
        {"startLine": 20, "startColumn": 12, "endColumn": 13},
    ]


def test_a_repeated_mask_item_points_at_the_repeat(cwd: Path) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 3, 4,3"))
    found = json.loads(run("--format", "json", "r.cfg"))["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["column"], d["end_column"]) for d in found] == [
        ("DN302", 12, 14, 16), ("DN403", 20, 13, 14)]


def test_a_directives_finding_has_a_range_too(cwd: Path) -> None:
    (cwd / "d.cfg").write_text("[net]\nwidth=32\nheight=32\nchannels=3\n"
                               "# dnlint: disable-next-line=DN103\n[convolutional]\nfilters=4\n"
                               "size=1\n")
    out = CliRunner().invoke(main, ["--format", "json", "d.cfg"]).stdout
    found = json.loads(out)["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["column"], d["end_line"], d["end_column"])
            for d in found] == [("DN901", 5, 29, 5, 34)]


def test_an_extra_comma_is_where_the_finding_points(cwd: Path) -> None:
    (cwd / "c.cfg").write_text("[net]\nwidth=32\nheight=32\nchannels=3\nsteps = 10, 20,\n"
                               "scales=.1,,.1\npolicy=steps\n\n[convolutional]\nfilters=4\n")
    out = CliRunner().invoke(main, ["--format", "json", "--select", "DN208,DN209",
                                    "c.cfg"]).stdout
    found = json.loads(out)["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["column"], d["end_column"]) for d in found] == [
        ("DN209", 5, 15, 16), ("DN208", 6, 10, 11)]


def found_in(path: str, dialect: str, select: str) -> list[tuple[str, int, int, int]]:
    out = CliRunner().invoke(main, ["--format", "json", "--dialect", dialect, "--select",
                                    select, path]).stdout
    return [(d["code"], d["line"], d["column"], d["end_column"])
            for d in json.loads(out)["files"][0]["diagnostics"]]


def test_the_hank_reader_points_at_the_extra_comma(cwd: Path) -> None:
    (cwd / "c.cfg").write_text("[net]\nwidth=32\nheight=32\nchannels=3\nsteps = 10, 20,\n"
                               "scales=.1,, .1\npolicy=steps\n\n[convolutional]\nfilters=4\n")
    assert found_in("c.cfg", "hank", "DN208,DN209") == [("DN209", 5, 15, 16),
                                                        ("DN208", 6, 10, 11)]


@pytest.mark.parametrize("dialect", ["ab", "pj", "hank"])
def test_surplus_anchors_are_underlined_from_the_first_to_the_last(cwd: Path,
                                                                    dialect: str) -> None:
    # anchors=10,14, 23,27, 37,58, 81,82 with num=3: the surplus pair 81,82 at columns 30-34
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 0,1,2")
                               .replace(", 135,169, 344,319", "").replace("num=6", "num=3"))
    assert found_in("r.cfg", dialect, "DN404") == [("DN404", 21, 30, 35)]


def test_too_few_anchors_stay_on_the_value(cwd: Path) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 0,1,2")
                               .replace(", 135,169, 344,319", "").replace("num=6", "num=5"))
    assert found_in("r.cfg", "ab", "DN404") == [("DN404", 21, 9, 35)]


@pytest.mark.parametrize(("dialect", "code"), [("ab", "DN203"), ("pj", "DN203"),
                                               ("hank", "DN214")])
def test_one_unreadable_item_is_underlined(cwd: Path, dialect: str, code: str) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("layers = -1, 40", "layers = -1,  7x # c"))
    assert found_in("r.cfg", dialect, f"{code},DN302") == [(code, 12, 15, 17),
                                                           ("DN302", 12, 15, 17)]


def test_several_bad_items_span_from_the_first_to_the_last(cwd: Path) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 1x, 2, 3y, 4"))
    assert found_in("r.cfg", "ab", "DN203") == [("DN203", 20, 8, 17)]


def test_an_integer_written_with_a_fraction_is_underlined(cwd: Path) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 3, 4.0, 5"))
    assert found_in("r.cfg", "ab", "DN205") == [("DN205", 20, 11, 14)]


def test_hank_items_with_a_space_point_at_the_item(cwd: Path) -> None:
    (cwd / "r.cfg").write_text(CFG.replace("mask = 3,4,9", "mask = 3,4 5"))
    assert found_in("r.cfg", "hank", "DN028") == [("DN028", 20, 10, 13)]


STEPS = ("[net]\nwidth=32\nheight=32\nchannels=3\npolicy=steps\nmax_batches=1000\n"
         "steps = {}\nscales = .1, .1, .1\n\n[convolutional]\nfilters=4\n")


@pytest.mark.parametrize(("steps", "dialect", "code", "column", "end"), [
    ("400, 300, 900", "ab", "DN110", 14, 17),  # 300 follows 400
    ("400, 500, 2000", "ab", "DN110", 19, 23),  # the last step, after max_batches
    ("400, 500, 2000", "hank", "DN110", 19, 23),
    ("100, -5, 900", "pj", "DN114", 14, 16),  # the first negative step
])
def test_a_step_finding_points_at_its_step(cwd: Path, steps: str, dialect: str, code: str,
                                           column: int, end: int) -> None:
    (cwd / "s.cfg").write_text(STEPS.format(steps))
    assert found_in("s.cfg", dialect, code) == [(code, 7, column, end)]


@pytest.mark.parametrize(("scales", "column", "end"), [
    (".1, .1, .1, .5 ,.7", 22, 28),  # the two extra scales
    (".1, .1", 10, 16),  # too few: the value
])
def test_a_scales_count_finding_points_at_the_extra_scales(cwd: Path, scales: str, column: int,
                                                           end: int) -> None:
    (cwd / "s.cfg").write_text(STEPS.format("100, 200, 300").replace("scales = .1, .1, .1",
                                                                     f"scales = {scales}"))
    assert found_in("s.cfg", "ab", "DN109") == [("DN109", 8, column, end)]
