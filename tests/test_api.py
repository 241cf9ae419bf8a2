"""The Python API: dnlint.lint_text, lint_path, lint_paths; typed results with ranges, fixes,
the layer table and the weights prediction; the same findings as the command."""

from __future__ import annotations

import doctest
import json
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import dnlint
from dnlint.cli import main

ROOT = Path(__file__).resolve().parents[1]
CFG = "[net]\nwidth=32\nheight=32\nchannels=3\nsteps=10,20,\n\n[convolutional]\nfilters=16\n" \
      "filter=3\nsize=3\n"
FLOATS = 16 + 16 * 3 * 3 * 3  # the convolution's biases and weights


def test_lint_text_findings_with_ranges_and_fixes() -> None:
    result = dnlint.lint_text(CFG, dialect="ab")
    assert [(f.code, f.name, f.severity, f.path, f.line, f.column, f.end_line, f.end_column)
            for f in result.findings] == [
        ("DN112", "option-ignored-by-settings", dnlint.Severity.WARNING, "<stdin>", 5, 7, 5,
         13),
        ("DN209", "list-trailing-comma", dnlint.Severity.ERROR, "<stdin>", 5, 12, 5, 13),
        ("DN201", "unknown-option", dnlint.Severity.ERROR, "<stdin>", 9, 1, 9, 7),
    ]
    fix = result.findings[1].fix
    assert fix == dnlint.Fix("safe", (dnlint.Edit(42, 48, "10,20"),))
    assert CFG.encode()[42:48] == b"10,20,"
    assert not result.ok and len(result.errors) == 2 and len(result.warnings) == 1
    assert (result.dialect, result.dialect_reason) == ("alexeyab", "chosen with --dialect")


def test_layer_table_and_weights_prediction() -> None:
    result = dnlint.lint_text(CFG, "m.cfg", dialect="pjreddie")
    assert result.layers == (dnlint.LayerRow(0, "convolutional", 7, (32, 32, 3), (30, 30, 16),
                                             14400, 448, 0.0007776, 16, 3, (1, 1)),)
    assert result.weights is not None and result.weights.expected_bytes == 20 + 4 * FLOATS


def test_layers_and_weights_are_built_when_first_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A result predicts its weights layout and builds its layer rows only when they are read
    (most callers read only the findings); it then equals, prints and pickles as a
    record given them, and keeps nothing of the lint."""
    import dataclasses
    import pickle

    import dnlint.weights.layout

    predicted: list[str] = []
    real = dnlint.weights.layout.predict

    def counting(*args: Any) -> Any:
        predicted.append(args[2])
        return real(*args)

    monkeypatch.setattr(dnlint.weights.layout, "predict", counting)
    result = dnlint.lint_text(CFG, "m.cfg", dialect="pjreddie")
    assert predicted == []
    assert result.weights is not None and result.weights.expected_bytes == 20 + 4 * FLOATS
    assert predicted == ["m.cfg"]
    assert result.weights is result.weights and predicted == ["m.cfg"]
    row = dnlint.LayerRow(0, "convolutional", 7, (32, 32, 3), (30, 30, 16), 14400, 448,
                          0.0007776, 16, 3, (1, 1))
    assert result.layers == (row,)
    assert sorted(vars(result)) == ["dialect", "dialect_reason", "findings", "layers", "path",
                                    "weights"]
    given = dnlint.LintResult(result.path, result.findings, result.dialect,
                              result.dialect_reason, (row,), result.weights)
    assert given == result and repr(given) == repr(result)

    unread = dnlint.lint_text(CFG, "m.cfg", dialect="pjreddie")
    assert unread == result and predicted == ["m.cfg", "m.cfg"]
    copies = [dataclasses.replace(dnlint.lint_text(CFG, "m.cfg", dialect="ab"))]
    if not dnlint.lint.__file__.endswith((".so", ".pyd")):
        # a weights layout holds the cfg's compiled option values (mypyc classes pickle
        # only as interpreted ones): a compiled result pickles without its weights only
        copies.append(pickle.loads(pickle.dumps(dnlint.lint_text(CFG, "m.cfg", dialect="ab"))))
    for copied in copies:
        assert copied.layers is not None and copied.layers[0].output == (30, 30, 16)
        assert "_pending" not in vars(copied)
    assert dnlint.LintResult.layers is None and dnlint.LintResult("x", ()).weights is None
    assert dnlint.lint_text("garbage\n").layers is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        unread.layers = ()  # type: ignore[misc]


def test_lint_text_uses_the_configuration_of_its_path(tmp_path: Path) -> None:
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / ".dnlint.toml").write_text('ignore = ["DN2"]\n')
    result = dnlint.lint_text(CFG, tmp_path / "legacy" / "m.cfg", dialect="ab")
    assert [f.code for f in result.findings] == ["DN112"]
    assert result.findings[0].path == str(tmp_path / "legacy" / "m.cfg")
    assert [f.code for f in dnlint.lint_text(CFG, tmp_path / "legacy" / "m.cfg",
                                             dialect="ab", config=False).findings] == [
        "DN112", "DN209", "DN201"]
    assert [f.code for f in dnlint.lint_text(CFG, dialect="ab", select=["DN1"],
                                             ignore=["DN112"]).findings] == []


def test_lint_path_with_a_truncated_weights_file(tmp_path: Path) -> None:
    (tmp_path / "m.cfg").write_text(CFG.replace("steps=10,20,\n", "").replace("filter=3\n", ""))
    header = struct.pack("<iiiq", 0, 2, 5, 0)
    (tmp_path / "m.weights").write_bytes(header + bytes(4 * (FLOATS - 3)))
    result = dnlint.lint_path(tmp_path / "m.cfg", weights=[tmp_path / "m.weights"],
                              dialect="ab")
    assert [(f.code, f.path, f.line, f.byte_offset) for f in result.findings] == [
        ("DN514", str(tmp_path / "m.weights"), None, 20)]
    assert result.weights is not None and result.weights.actual_bytes == 20 + 4 * (FLOATS - 3)


def test_lint_paths_walks_as_the_command_does(tmp_path: Path) -> None:
    (tmp_path / "a.cfg").write_text(CFG)
    (tmp_path / "b.cfg").write_text(CFG.replace("filter=3\n", ""))
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n")
    found = [(Path(r.path).name, [f.code for f in r.findings])
             for r in dnlint.lint_paths([tmp_path], dialect="ab")]
    assert found == [("a.cfg", ["DN112", "DN209", "DN201"]), ("b.cfg", ["DN112", "DN209"])]


def test_an_unreadable_path_is_a_finding_and_bad_arguments_raise(tmp_path: Path) -> None:
    missing = dnlint.lint_path(tmp_path / "nope.cfg")
    assert [(f.code, f.message) for f in missing.findings] == [
        ("DN029", "no such file or directory")]
    with pytest.raises(ValueError, match="unknown dialect 'darknet'"):
        dnlint.lint_text(CFG, dialect="darknet")
    with pytest.raises(ValueError, match="DN999"):
        dnlint.lint_text(CFG, select=["DN999"])
    with pytest.raises(ValueError, match=r"is a directory: use dnlint\.lint_paths"):
        dnlint.lint_path(tmp_path)


def test_target_and_data(tmp_path: Path) -> None:
    from dnlint.rules import get_rule

    rule = get_rule("DN601")
    assert "DN601" in [f.code for f in dnlint.lint_text(rule.bad, target=["opencv"]).findings]
    assert "DN601" not in [f.code for f in dnlint.lint_text(rule.bad).findings]
    cfg = ROOT / "fixtures" / "examples" / "tiny-detector.cfg"
    (tmp_path / "obj.names").write_text("a\nb\n")
    (tmp_path / "obj.data").write_text(f"classes=2\nnames={tmp_path / 'obj.names'}\n")
    found = dnlint.lint_path(cfg, data=tmp_path / "obj.data").findings
    assert [(f.code, f.line) for f in found] == [("DN412", 95), ("DN413", 95), ("DN412", 137),
                                                 ("DN413", 137)]


@pytest.mark.parametrize("name", ["broken.cfg", "tiny-detector.cfg"])
def test_the_same_findings_as_the_commands_json(name: str) -> None:
    path = str(ROOT / "fixtures" / "examples" / name)
    shown = json.loads(CliRunner().invoke(main, ["--format", "json", "--no-config",
                                                 path]).stdout)["files"][0]["diagnostics"]
    found = dnlint.lint_path(path, config=False).findings
    assert [(d["code"], d["line"], d["column"], d["end_line"], d["end_column"], d["message"])
            for d in shown] == [(f.code, f.line, f.column, f.end_line, f.end_column, f.message)
                                for f in found]


def test_import_dnlint_does_not_load_the_api() -> None:
    probe = ("import sys, dnlint; print(sorted(m for m in ('dnlint.api', 'dnlint.api_types', "
             "'dnlint.lint') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[]\n"
    assert (ROOT / "src" / "dnlint" / "py.typed").is_file()


def test_the_api_page_and_docstring_run_as_written(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    page = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert page.attempted >= 10 and page.failed == 0
    import dnlint.api

    module = doctest.testmod(dnlint.api)
    assert module.attempted >= 3 and module.failed == 0
