"""Finding the cfg of a weights file, and the weights stage of the command line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from dnlint.cli import main
from dnlint.weights.pairing import cfg_stems, find_cfg
from test_weights import L0, L1, TINY, TINY_BYTES, write_weights


def _cfg(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(TINY).lstrip("\n"))
    return path


@pytest.mark.parametrize(
    ("name", "stems"),
    [
        ("yolov3.weights", ["yolov3"]),
        ("yolov4.conv.137", ["yolov4.conv.137", "yolov4"]),
        ("darknet53.conv.74", ["darknet53.conv.74", "darknet53"]),
        ("yolo-obj_final.weights", ["yolo-obj_final", "yolo-obj"]),
        ("yolo-obj_10000.weights", ["yolo-obj_10000", "yolo-obj"]),
        ("yolo-obj_best.weights", ["yolo-obj_best", "yolo-obj"]),
    ],
)
def test_cfg_stems(name: str, stems: list[str]) -> None:
    assert cfg_stems(name) == stems


def test_same_stem(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "model.cfg")
    _cfg(tmp_path, "other.cfg")
    assert find_cfg(str(tmp_path / "model.weights")).cfg == str(cfg)


def test_backbone_cut(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "yolov4.cfg")
    _cfg(tmp_path, "yolov4-tiny-custom.cfg")
    assert find_cfg(str(tmp_path / "yolov4.conv.137")).cfg == str(cfg)


def test_backbone_cut_with_one_derived_cfg(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "yolov4-custom.cfg")
    assert find_cfg(str(tmp_path / "yolov4.conv.137")).cfg == str(cfg)


def test_backbone_cut_ambiguous(tmp_path: Path) -> None:
    _cfg(tmp_path, "yolov4-custom.cfg")
    _cfg(tmp_path, "yolov4-tiny.cfg")
    match = find_cfg(str(tmp_path / "yolov4.conv.137"))
    assert match.cfg is None
    assert match.reason == "several cfgs start with 'yolov4'"
    assert len(match.candidates) == 2


def test_training_output(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "yolo-obj.cfg")
    assert find_cfg(str(tmp_path / "yolo-obj_last.weights")).cfg == str(cfg)


def test_nothing_beside(tmp_path: Path) -> None:
    match = find_cfg(str(tmp_path / "model.weights"))
    assert match.cfg is None and match.reason.startswith("no model.cfg in ")


# --- the command line ------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_cfg_and_weights_json(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "m.cfg")
    weights = write_weights(tmp_path / "m.weights", L0 + L1)
    code, out, _ = run(str(cfg), "--weights", str(weights), "--format", "json")
    assert code == 0
    (entry,) = json.loads(out)["files"]
    assert entry["weights"] == {
        "expected_bytes": TINY_BYTES, "saved_bytes": TINY_BYTES, "header_bytes": 20,
        "path": str(weights), "actual_bytes": TINY_BYTES,
        "header": {"major": 0, "minor": 2, "revision": 5, "seen": 64000},
        "loadable": True, "differences": []}


def test_cli_weights_alone_finds_its_cfg(tmp_path: Path) -> None:
    _cfg(tmp_path, "m.cfg")
    weights = write_weights(tmp_path / "m.weights", L0 + 5)
    code, out, _ = run(str(weights))
    assert code == 1
    assert f"{weights}: DN514 error: the file ends at byte" in out


def test_cli_backbone_is_a_warning(tmp_path: Path) -> None:
    _cfg(tmp_path, "yolov4.cfg")
    weights = write_weights(tmp_path / "yolov4.conv.137", L0)
    code, out, _ = run(str(weights))
    assert code == 0
    assert f"{weights}: DN515 warning: " in out


def test_cli_weights_without_cfg(tmp_path: Path) -> None:
    weights = write_weights(tmp_path / "m.weights", 4)
    code, out, err = run(str(weights))
    assert (code, err) == (2, "")
    assert out == (f"{weights}: DN519 error: which cfg does it belong to? no m.cfg in "
                   f"{tmp_path}; name it with --cfg FILE (or give the cfg too)\n"
                   "Found 1 problem (1 error) in 1 file.\n")


def test_cli_explicit_cfg(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "net.cfg")
    weights = write_weights(tmp_path / "m.weights", L0 + L1)
    code, out, _ = run("--weights", str(weights), "--cfg", str(cfg), "--format", "json")
    assert code == 0
    assert json.loads(out)["files"][0]["weights"]["actual_bytes"] == TINY_BYTES


def test_cli_two_weights_for_one_cfg(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "m.cfg")
    good = write_weights(tmp_path / "m.weights", L0 + L1)
    long = write_weights(tmp_path / "m_final.weights", L0 + L1 + 1)
    code, out, _ = run(str(cfg), str(good), str(long), "--format", "json")
    assert code == 1
    files = json.loads(out)["files"]
    assert [(f["path"], f["weights"]["path"]) for f in files] == [
        (str(cfg), str(good)), (str(long), str(long))]
    assert [d["code"] for d in files[1]["diagnostics"]] == ["DN516"]


def test_cli_scan(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, "m.cfg")
    values = np.ones(L0 + L1, "<f4")
    values[L0 + 30] = np.nan
    weights = write_weights(tmp_path / "m.weights", values)
    code, out, _ = run(str(cfg), "--weights", str(weights), "--scan")
    assert f"{cfg}:14:1: DN520 error: layer 1 [convolutional] in m.weights: 1 NaN" in out
    assert code == 1  # a NaN weight poisons every output that depends on it


def test_cfg_that_does_not_build(tmp_path: Path) -> None:
    cfg = tmp_path / "m.cfg"
    cfg.write_text("# nothing here\n")
    weights = write_weights(tmp_path / "m.weights", 4)
    code, out, _ = run(str(cfg), "--weights", str(weights), "--format", "json")
    (entry,) = json.loads(out)["files"]
    assert "weights" not in entry
    assert [d["code"] for d in entry["diagnostics"] if d["code"].startswith("DN5")] == ["DN518"]
    assert code == 1  # the empty cfg is an error of its own; DN518 is info


def test_training_output_in_backup_finds_the_cfg_folder(tmp_path: Path) -> None:
    """darknet's layout: cfg/yolo-obj.cfg, and detector train writes backup/yolo-obj_1000."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "backup").mkdir()
    cfg = _cfg(tmp_path / "cfg", "yolo-obj.cfg")
    assert find_cfg(str(tmp_path / "backup" / "yolo-obj_1000.weights")).cfg == str(cfg)
    assert find_cfg(str(tmp_path / "other" / "yolo-obj_1000.weights")).cfg is None


@pytest.mark.parametrize("kind", ["missing", "directory", "device"])
def test_cli_cfg_that_cannot_be_read_is_dn029(tmp_path: Path, kind: str) -> None:
    """--cfg nope.cfg is an unreadable input like any other (DN029, exit 2), not a quiet
    DN518 about a cfg that "does not build a network"."""
    weights = write_weights(tmp_path / "m.weights", L0 + L1)
    cfg, reason = {"missing": (str(tmp_path / "nope.cfg"), "no such file or directory"),
                   "directory": (str(tmp_path), "is a directory"),
                   "device": ("/dev/null", "not a regular file")}[kind]
    code, out, err = run("--weights", str(weights), "--cfg", cfg)
    assert (code, err) == (2, "")
    assert out == (f"{cfg}: DN029 error: {reason}\n"
                   f"{weights}: DN518 info: not checked: its cfg {cfg} cannot be read\n"
                   "Found 2 problems (1 error, 1 info) in 0 files.\n")


def test_cli_failure_on_a_companion_cfg_is_exit_3(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A cfg linted only for its weights file keeps its DN000: the run must not exit 0."""
    import dnlint.pipeline as engine

    def broken(*args: object) -> None:
        raise ValueError("bad")

    _cfg(tmp_path, "m.cfg")
    weights = write_weights(tmp_path / "m.weights", L0 + L1)
    monkeypatch.setattr(engine, "lint_cfg_bytes", broken)
    code, out, _ = run(str(weights))
    assert code == 3
    assert out == (f"{weights}: DN518 info: not checked: the cfg does not build a network, so "
                   "there is nothing to compare the file with\n"
                   f"{tmp_path / 'm.cfg'}:1:1: DN000 error: dnlint failed on this file "
                   "(ValueError: bad); please report it with the file\n"
                   "Found 2 problems (1 error, 1 info) in 0 files.\n")


def test_weights_beside_an_unreadable_entry_hides_none(tmp_path: Path) -> None:
    """A symbolic link loop beside the cfg failed the whole listing: every weights file there
    went unchecked and the run passed. A loop named after the cfg is reported; one that is
    not is none of the run's business."""
    cfg = _cfg(tmp_path, "m.cfg")
    write_weights(tmp_path / "m.weights", L0 + 5)
    (tmp_path / "m_best.weights").symlink_to("m_best.weights")
    (tmp_path / "other.weights").symlink_to("other.weights")
    code, out, _ = run("--no-config", "--format", "concise", "--weights-beside", str(cfg))
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith(f"{tmp_path}/m.weights: DN514 error: the file ends at byte ")
    assert lines[1:] == [f"{tmp_path}/m_best.weights: DN029 error: cannot read: Too many "
                         "levels of symbolic links",
                         "Found 2 problems (2 errors) in 2 files."]
