"""Repeats of one finding print once in the text formats; machine formats keep every record."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dnlint.cli import main
from dnlint.diagnostics import Severity, new_diagnostic
from dnlint.reporters.grouping import MAX_LINES_SHOWN, group_repeats

# four [convolutional] with activation=mish: one DN207 under --dialect pjreddie, three repeats
MISH = "[net]\nwidth=32\nheight=32\nchannels=3\n\n" + (
    "[convolutional]\nfilters=4\nsize=1\nactivation=mish\n\n" * 4)


def run(tmp_path: Path, *args: str) -> str:
    (tmp_path / "m.cfg").write_text(MISH)
    result = CliRunner().invoke(main, [*args, "--dialect", "pjreddie", "--no-color",
                                       str(tmp_path / "m.cfg")])
    return result.output


def test_group_repeats_folds_same_rule_and_message() -> None:
    one = new_diagnostic("DN207", 3, 1, "activation=mish is unknown", path="a.cfg")
    other = new_diagnostic("DN207", 4, 1, "activation=swish is unknown", path="a.cfg")
    again = [new_diagnostic("DN207", line, 1, "activation=mish is unknown", path="a.cfg")
             for line in (8, 12)]
    shown = group_repeats([one, other, *again])
    assert [(s.diagnostic.line, s.repeats) for s in shown] == [(3, (8, 12)), (4, ())]
    assert shown[0].more == "and 2 more: lines 8, 12"
    assert shown[1].more is None


def test_another_severity_or_file_is_not_a_repeat() -> None:
    first = new_diagnostic("DN205", 3, 1, "same", path="a.cfg")
    warned = new_diagnostic("DN205", 4, 1, "same", path="a.cfg", severity=Severity.WARNING)
    elsewhere = new_diagnostic("DN205", 5, 1, "same", path="b.cfg")
    assert [s.repeats for s in group_repeats([first, warned, elsewhere])] == [(), (), ()]


def test_long_repeat_lists_are_cut() -> None:
    many = [new_diagnostic("DN012", line, 1, "same", path="a.cfg") for line in range(1, 40)]
    (shown,) = group_repeats(many)
    assert shown.more == ("and 38 more: lines "
                          + ", ".join(str(n) for n in range(2, 2 + MAX_LINES_SHOWN)) + ", ...")


def test_text_and_concise_print_repeats_once(tmp_path: Path) -> None:
    concise = run(tmp_path, "--format", "concise").splitlines()
    assert len(concise) == 2  # one grouped finding and the summary
    assert concise[0].startswith(f"{tmp_path / 'm.cfg'}:9:12: DN207 error: activation=mish")
    assert concise[0].endswith("(and 3 more: lines 14, 19, 24)")
    assert concise[1] == "Found 4 problems (4 errors) in 1 file."
    text = run(tmp_path)
    assert text.count("DN207") == 1
    assert "  = and 3 more: lines 14, 19, 24\n" in text


def test_json_keeps_one_record_per_line(tmp_path: Path) -> None:
    (file,) = json.loads(run(tmp_path, "--format", "json"))["files"]
    found = file["diagnostics"]
    assert [d["line"] for d in found if d["code"] == "DN207"] == [9, 14, 19, 24]
