"""``--target opencv`` without OpenCV: the exact DN6xx diagnostics of small cfgs, the CLI option,
the configuration key, and that nothing of it is imported or run without the target.
(tests/test_opencv_oracle.py checks the same predictions against cv2 itself.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import lint_text
from dnlint.cli import main
from dnlint.targets import check_targets, parse_targets
from dnlint.targets.opencv_model import cpp_fields, cpp_float, cpp_int, simulate

NET = "[net]\nwidth=32\nheight=32\nchannels=3\n\n"
CONV = "[convolutional]\nfilters=8\nsize=3\npad=1\nactivation=leaky\n\n"


REGION_INPUT = "[convolutional]\nfilters=6\nsize=1\n\n"  # num=1 * (4 coords + 1 + 1 class)


def opencv_codes(text: str) -> list[tuple[str, int | None]]:
    result = lint_text(text)
    check_targets(result, ("opencv",))
    return [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN6")]


def opencv_messages(text: str) -> list[str]:
    result = lint_text(text)
    check_targets(result, ("opencv",))
    return [d.message for d in result.diagnostics if d.code.startswith("DN6")]


def test_a_plain_run_reports_nothing_of_the_family() -> None:
    result = lint_text(NET + "[lstm]\noutput=8\n")
    assert not [d for d in result.diagnostics if d.code.startswith("DN6")]


def test_a_network_opencv_loads_gets_nothing() -> None:
    assert opencv_codes(NET + CONV + "[maxpool]\nsize=2\nstride=2\n\n[upsample]\nstride=2\n") == []


@pytest.mark.parametrize(("text", "expected"), [
    (NET + "[conv]\nfilters=8\nsize=1\n", [("DN601", 6)]),
    (NET + CONV + "[Gaussian_yolo]\nmask=0\nanchors=1,1\nnum=1\n", [("DN601", 12)]),
    (NET + CONV.replace("leaky", "relu6"), [("DN602", 10)]),
    (NET + CONV + "[yolo]\nmask=0,1\nnum=2\nclasses=1\nanchors=1,1,2\n", [("DN603", 16)]),
    (NET + CONV + "[yolo]\nmask=0,5\nnum=2\nclasses=1\nanchors=1,1,2,2\n", [("DN603", 13)]),
    (NET + CONV + "[yolo]\nnum=1\nclasses=1\nanchors=1,1\n", [("DN603", 12)]),
    (NET + CONV + "[region]\nnum=1\nanchors=1,1\n", [("DN603", 12)]),
    (NET + "[convolutional]\nfilters=8\nsize=1\ngroups=0\n", [("DN604", 9)]),
    (NET + CONV + "[convolutional]\nfilters=8\nsize=1\ngroups=3\n", [("DN604", 15)]),
    (NET + "[convolutional]\nfilters=8\nsize=1\nflipped=1\n", [("DN604", 9)]),
    (NET + CONV + "[softmax]\ngroups=2\n", [("DN604", 13)]),
    (NET + CONV + "[shortcut]\nfrom=-1\nbeta=0.5\n", [("DN604", 14)]),
    (NET + CONV + "[crop]\ncrop_height=8\n", [("DN604", 12)]),
    ("[net]\nwidth=0\n\n" + CONV, [("DN604", 2)]),
    (NET + CONV + "[shortcut]\nfrom=1\n", [("DN605", 13)]),
    (NET + CONV + "[route]\nlayers=7\n", [("DN605", 13)]),
    (NET + "[dropout]\n\n" + CONV, [("DN605", 6)]),
    (NET + CONV + "[route]\n", [("DN605", 12)]),
    (NET + "[convolutional]\nbatch_normalize\nfilters=8\nsize=1\n", [("DN606", 7)]),
    (NET + "[maxpool\nsize=2\n", [("DN606", 6)]),
    ("batch=1\n" + NET + CONV, [("DN606", 1)]),
    (NET, [("DN606", 1)]),
    (NET + CONV + "[region]\nclasses=1\nnum=1\nanchors=1,1\n\n"
     "[region]\nclasses=1\nnum=1\nanchors=1,1\n", [("DN607", 17)]),
])
def test_what_opencv_stops_at_is_an_error_at_its_line(
        text: str, expected: list[tuple[str, int]]) -> None:
    assert opencv_codes(text) == expected


def test_an_unknown_type_is_reported_once_with_its_count() -> None:
    text = NET + "[rnn]\noutput=8\n\n[rnn]\noutput=8\n\n[rnn]\noutput=8\n"
    assert opencv_codes(text) == [("DN601", 6)]
    assert opencv_messages(text) == [
        "OpenCV cannot import [rnn]: 'Unknown layer type: rnn' (and 2 more sections below)"]


def test_the_reader_drops_spaces_and_keeps_inline_comments_in_values() -> None:
    # OpenCV removes every blank, so '[ convolutional ]' is a convolutional section, but the
    # comment after leaky stays in the value: 'leaky#x' is no activation it knows
    assert opencv_codes(NET + "[ convolutional ]\nfilters = 8\nsize=1\n") == []
    assert opencv_codes(NET + "[convolutional]\nfilters=8\nsize=1\nactivation=leaky # x\n") == [
        ("DN602", 9)]
    # and '[net] # input' is not '[net]': a layer named 'net'
    assert opencv_codes("[net] # input\nwidth=32\n\n" + CONV) == [("DN601", 1)]


@pytest.mark.parametrize(("text", "expected"), [
    (NET + "[convolutional]\nfilters=8\nsize=3\npad=1\ndilation=2\n", [("DN610", 10)]),
    (NET + CONV + "[upsample]\nstride=2\nscale=0.5\n", [("DN610", 14)]),
    (NET + CONV + "[upsample]\n", [("DN611", 12)]),
    ("[net]\nwidth=32\nheight=32\nletter_box=1\n\n" + CONV, [("DN610", 4)]),
    ("[net]\nwidth=32\nheight=32\nletter_box=0\n\n" + CONV, []),
    (NET + CONV + "[reorg]\n", [("DN611", 12)]),
    (NET + "[maxpool]\nsize=2\nstride=2\nstride_x=1\n", [("DN611", 6)]),
    (NET + CONV + "[maxpool]\nsize=2\nstride=2\nactivation=leaky\n", [("DN612", 15)]),
    (NET + "[convolutional]\nfilters=8\nfilters=4\nsize=1\n", [("DN613", 8)]),
    (NET + CONV + "[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n", [("DN614", 17)]),
    (NET + REGION_INPUT + "[region]\nclasses=1\nnum=1\nanchors=1,1\n", [("DN614", 10)]),
    (NET + REGION_INPUT + "[region]\nclasses=1\nnum=1\nanchors=1,1\nsoftmax=2\n",
     [("DN614", 14)]),
    (NET + REGION_INPUT.replace("6", "7") + "[region]\nclasses=1\nnum=1\nanchors=1,1\n"
     "softmax=1\ncoords=5\n", [("DN614", 15)]),
    (NET + REGION_INPUT + "[region]\nclasses=1\nnum=1\nanchors=1,1\nsoftmax=1\ntree=x\n",
     [("DN614", 15)]),
    (NET + REGION_INPUT + "[region]\nclasses=1\nnum=1\nanchors=1,1\nsoftmax=1\n", []),
])
def test_what_opencv_computes_differently_is_a_warning(
        text: str, expected: list[tuple[str, int]]) -> None:
    assert opencv_codes(text) == expected


def test_a_network_opencv_refuses_has_no_forward_pass_to_fail() -> None:
    shortcut = NET + CONV + "[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n"
    assert opencv_codes(shortcut) == [("DN614", 17)]
    assert opencv_codes(shortcut + "\n[lstm]\noutput=8\n") == [("DN601", 19)]
    # a [region] OpenCV refuses is not also one whose Region layer fails
    assert opencv_codes(NET + REGION_INPUT + "[region]\nclasses=1\nnum=1\n") == [("DN603", 10)]


def test_a_shape_difference_is_reported_where_it_starts_not_after() -> None:
    text = NET + CONV + "[upsample]\n\n" + CONV + CONV
    assert opencv_codes(text) == [("DN611", 12)]
    assert opencv_messages(text) == [
        "OpenCV's [upsample] outputs 32x32x8, Darknet's 64x64x8 (Darknet's default stride is "
        "2, OpenCV's 1; stride is not given)"]


def test_cpp_stream_conversions() -> None:
    assert [cpp_int(t) for t in ("416", "3.5", "-2x", "abc", "99999999999")] == [
        416, 3, -2, 0, 2**31 - 1]
    # more digits than Python's int() reads: saturated, not an internal error
    assert [cpp_int("1" + "0" * 4400), cpp_int("-" + "9" * 4400)] == [2**31 - 1, -(2**31)]
    assert [cpp_float(t) for t in ("0.5", "1e2", "x", "-.5")] == [0.5, 100.0, 0.0, -0.5]
    assert cpp_fields("1,2,3,") == ["1", "2", "3"]
    assert cpp_fields("1,,3") == ["1", "", "3"]


def test_the_model_names_the_layers_as_opencv_does() -> None:
    imported = simulate((NET + CONV + "[maxpool]\nsize=2\nstride=2\n\n[route]\nlayers=-1,-2\n"
                         "\n[yolo]\nmask=0\nnum=1\nclasses=1\nanchors=1,1\n").split("\n"))
    assert imported.outputs == ["leaky_1", "pool_1", "concat_2", "yolo_3"]
    assert imported.shapes == [(8, 32, 32), (8, 16, 16), None, None]  # sizes differ: no concat
    assert imported.loads


def test_parse_targets() -> None:
    assert parse_targets(["opencv", "OpenCV"], "x") == ("opencv",)
    assert parse_targets("opencv", "x") == ("opencv",)
    with pytest.raises(ValueError, match="unknown target 'tensorrt'"):
        parse_targets(["tensorrt"], "x")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args])
    return result.exit_code, result.output


def test_cli_target_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(NET + "[convolutional]\nfilters=8\nsize=1\n"
                                    "activation=relu6\n")
    assert _run("--no-config", "m.cfg")[0] == 0
    code, out = _run("--no-config", "--target", "opencv", "m.cfg")
    assert code == 1
    assert out.startswith("m.cfg:9:1: DN602 error: activation=relu6: 'Unsupported activation'")
    code, out = _run("--no-config", "--target", "tflite", "m.cfg")
    assert code == 2 and "unknown target 'tflite'" in out


def test_config_target_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(NET + "[lstm]\noutput=8\n")
    (tmp_path / ".dnlint.toml").write_text('target = ["opencv"]\n')
    code, out = _run("m.cfg")
    assert code == 1 and "m.cfg:6:1: DN601 error: OpenCV cannot import [lstm]" in out
    (tmp_path / ".dnlint.toml").write_text('target = ["opencv", "onnx"]\n')
    code, out = _run("m.cfg")
    assert code == 2 and "unknown target 'onnx'" in out


PROBE = """
import json, sys
sys.argv = ["dnlint", *json.loads(sys.argv[1])]
try:
    from dnlint.cli import main
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(m for m in sys.modules
                                                   if m.startswith("dnlint.targets"))))
"""


@pytest.mark.parametrize(("args", "expected"), [
    ([], []),
    (["--target", "opencv"], ["dnlint.targets", "dnlint.targets.opencv",
                              "dnlint.targets.opencv_model"]),
])
def test_the_target_stage_loads_only_when_selected(
        tmp_path: Path, args: list[str], expected: list[str]) -> None:
    (tmp_path / "m.cfg").write_text(NET + CONV)
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps([*args, "m.cfg"])],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert json.loads(done.stderr.rsplit("MODULES ", 1)[1]) == expected
