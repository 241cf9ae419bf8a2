"""``--target opencv`` against OpenCV itself: cv2.dnn.readNetFromDarknet on every stock cfg and
on mutated variants must load exactly those dnlint predicts it loads, and every shape dnlint
claims for OpenCV (DN611, DN614 and the model behind them) must be what getLayersShapes says.

OpenCV runs in a subprocess (tests/opencv_worker.py): some cfgs kill it (SIGFPE).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import SHARED
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult
from dnlint.rules import Rule, all_rules
from dnlint.targets import check_targets
from dnlint.targets.opencv_model import simulate
from test_rule_examples import example_bytes

WORKER = Path(__file__).with_name("opencv_worker.py")
CORPUS = SHARED / "corpus"


def _need_cv2() -> None:
    try:
        import cv2
    except ImportError:
        pytest.skip("cv2 is not importable: pip install 'opencv-python-headless<5'")
    major = int(str(cv2.__version__).split(".")[0])
    if major >= 5:
        pytest.skip(f"OpenCV {cv2.__version__} has no Darknet importer (removed in 5)")


def _stock_cfgs() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not found at {CORPUS}")
    return sorted(CORPUS.glob("*/cfg/*.cfg"))


def opencv_loads(paths: list[Path]) -> dict[str, bool]:
    """Whether readNetFromDarknet(cfg) returns, per path; a file that kills the worker counts
    as refused, and the worker goes on with the files after it."""
    verdicts: dict[str, bool] = {}
    remaining = [str(p) for p in paths]
    while remaining:
        done = subprocess.run([sys.executable, str(WORKER), "load", *remaining],
                              capture_output=True, text=True, timeout=600, check=False)
        for line in done.stdout.splitlines():
            record = json.loads(line)
            verdicts[record["path"]] = record["loads"]
        remaining = [p for p in remaining if p not in verdicts]
        if done.returncode == 0:
            assert not remaining, done.stderr
        elif remaining:
            verdicts[remaining.pop(0)] = False  # the file it died on
    return verdicts


def dnlint_result(path: Path) -> FileResult:
    result = lint_cfg_bytes(path.read_bytes(), str(path), None)
    check_targets(result, ("opencv",))
    return result


def dnlint_predicts_load(path: Path) -> bool:
    return not any(d.code.startswith("DN6") and d.severity.value == "error"
                   for d in dnlint_result(path).diagnostics)


# -- mutations: (name, function of the cfg text) -------------------------------------------

def _sub_first(pattern: str, replacement: str) -> Callable[[str], str]:
    def mutate(text: str) -> str:
        return re.sub(pattern, replacement, text, count=1, flags=re.MULTILINE)
    return mutate


def _in_first(section: str, line: str) -> Callable[[str], str]:
    """Add ``line`` right after the first ``[section]`` header."""
    return _sub_first(rf"^\[{section}\][^\n]*$", rf"[{section}]\n{line}")


def _anchors(delta: int) -> Callable[[str], str]:
    def mutate(text: str) -> str:
        def edit(match: re.Match[str]) -> str:
            values = [v.strip() for v in match.group(1).split(",") if v.strip()]
            values = values[:delta] if delta < 0 else values + ["42"] * delta
            return "anchors=" + ",".join(values)
        return re.sub(r"^anchors\s*=\s*([^\n#]*)", edit, text, count=1, flags=re.MULTILINE)
    return mutate


MUTATIONS: dict[str, Callable[[str], str]] = {
    "type-lstm": _sub_first(r"^\[convolutional\]", "[lstm]"),
    "type-conv-alias": _sub_first(r"^\[convolutional\]", "[conv]"),
    "type-reorg3d": _sub_first(r"^\[(maxpool|route)\]", "[reorg3d]"),
    "type-local-avgpool": _sub_first(r"^\[maxpool\]", "[local_avgpool]"),
    "type-network": _sub_first(r"^\[net\]", "[network]"),
    "activation-relu6": _sub_first(r"^activation\s*=\s*\w+", "activation=relu6"),
    "activation-elu": _sub_first(r"^activation\s*=\s*\w+", "activation=elu"),
    "activation-hard-mish": _sub_first(r"^activation\s*=\s*\w+", "activation=hard_mish"),
    "activation-tanh": _sub_first(r"^activation\s*=\s*\w+", "activation=tanh"),
    "activation-silu": _sub_first(r"^activation\s*=\s*\w+", "activation=silu"),
    "activation-on-route": _in_first("route", "activation=leaky"),
    "anchors-one-short": _anchors(-1),
    "anchors-one-long": _anchors(1),
    "classes-zero": _sub_first(r"^classes\s*=\s*\d+", "classes=0"),
    "num-missing": _sub_first(r"^num\s*=\s*\d+\s*$", ""),
    "mask-out-of-range": _sub_first(r"^mask\s*=\s*\d+", "mask=99"),
    "mask-missing": _sub_first(r"^mask\s*=[^\n]*$", ""),
    "conv-groups-zero": _in_first("convolutional", "groups=0"),
    "conv-groups-not-dividing": _sub_first(r"^\[convolutional\]\n((?:.*\n)*?)\[convolutional\]",
                                           "[convolutional]\n\\1[convolutional]\ngroups=7"),
    "conv-stride-zero": _in_first("convolutional", "stride=0"),
    "conv-size-zero": _in_first("convolutional", "size=0"),
    "conv-flipped": _in_first("convolutional", "flipped=1"),
    "maxpool-stride-zero": _in_first("maxpool", "stride=0"),
    "shortcut-beta": _in_first("shortcut", "beta=0.5"),
    "shortcut-forward": _sub_first(r"^from\s*=\s*-?\d+", "from=100000"),
    "route-out-of-range": _sub_first(r"^layers\s*=\s*-?\d+", "layers=-100000"),
    "route-self": _sub_first(r"^\[route\]\nlayers\s*=\s*-?\d+", "[route]\nlayers=0"),
    "net-width-zero": _sub_first(r"^width\s*=\s*\d+", "width=0"),
    "line-without-equals": _in_first("convolutional", "batch_normalize"),
    "header-without-bracket": _sub_first(r"^\[maxpool\]", "[maxpool"),
    "option-before-net": lambda text: "batch=1\n" + text,
    "softmax-groups": lambda text: text + "\n[softmax]\ngroups=2\n",
    "dropout-first": _sub_first(r"^\[convolutional\]", "[dropout]\n\n[convolutional]"),
    "crop-without-size": lambda text: text + "\n[crop]\n",
    "second-region": lambda text: text + "\n[region]\nclasses=1\nnum=1\nanchors=1,1\n"
                                         "\n[region]\nclasses=1\nnum=1\nanchors=1,1\n",
    "repeated-filters": _in_first("convolutional", "filters=3\nfilters=5"),
}
BASES = ("alexeyab/cfg/yolov4-tiny.cfg", "alexeyab/cfg/yolov3.cfg",
         "pjreddie/cfg/yolov2-tiny.cfg", "pjreddie/cfg/yolov3-tiny.cfg",
         "alexeyab/cfg/yolov4-csp.cfg", "alexeyab/cfg/enet-coco.cfg")


def _mutated_dir(tmp: Path) -> list[Path]:
    written = []
    for base in BASES:
        source = CORPUS / base
        if not source.is_file():
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        for name, mutate in MUTATIONS.items():
            changed = mutate(text)
            if changed == text:
                continue  # the base has nothing to mutate this way
            target = tmp / f"{source.parent.parent.name}-{source.stem}--{name}.cfg"
            target.write_text(changed, encoding="utf-8")
            written.append(target)
    return written


def _agreement(paths: list[Path]) -> tuple[dict[str, bool], list[str]]:
    verdicts = opencv_loads(paths)
    wrong = [f"{p.name}: OpenCV {'loads' if verdicts[str(p)] else 'refuses'}, dnlint predicts "
             f"{'load' if dnlint_predicts_load(p) else 'refusal'}"
             for p in paths if verdicts[str(p)] != dnlint_predicts_load(p)]
    return verdicts, wrong


def test_every_stock_cfg_loads_or_fails_as_predicted() -> None:
    _need_cv2()
    paths = _stock_cfgs()
    verdicts, wrong = _agreement(paths)
    assert len(verdicts) >= 100
    assert wrong == []
    refused = [p for p in paths if not dnlint_predicts_load(p)]
    assert len(refused) == 21  # the figure docs/usage.md states, for OpenCV 4.14


def test_every_mutated_cfg_loads_or_fails_as_predicted(tmp_path: Path) -> None:
    _need_cv2()
    _stock_cfgs()
    paths = _mutated_dir(tmp_path)
    assert len(paths) >= 150
    verdicts, wrong = _agreement(paths)
    assert wrong == []
    # the mutations both refuse and keep loading: the test can tell them apart
    assert 20 <= sum(verdicts.values()) <= len(paths) - 100


# -- shapes: what dnlint says OpenCV computes is what OpenCV computes ------------------------

def opencv_shapes(paths: list[Path], tmp_path: Path) -> dict[str, dict[str, object]]:
    """getLayersShapes per path, for the input size of its [net]: {"shapes": {layer: shape}}
    or {"error": message}. A header-only weights file: shape inference needs no values."""
    weights = tmp_path / "header-only.weights"
    weights.write_bytes(struct.pack("<iiiQ", 0, 2, 0, 0))
    specs = []
    for path in paths:
        net = simulate(path.read_text(encoding="utf-8", errors="replace").split("\n")).net
        size = (net.number("channels", 3), net.number("height", 416), net.number("width", 416))
        specs.append(",".join([*map(str, size), str(path)]))
    done = subprocess.run([sys.executable, str(WORKER), "shapes", str(weights), *specs],
                          capture_output=True, text=True, timeout=600, check=True)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    return {record.pop("path"): record for record in records}


def _modelled_shapes(path: Path) -> list[tuple[str, list[int]]]:
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    imported = simulate(lines)
    return [(name, [1, *shape]) for name, shape in zip(imported.outputs, imported.shapes,
                                                        strict=True)
            if name is not None and shape is not None]


def test_modelled_shapes_of_stock_cfgs_are_opencvs(tmp_path: Path) -> None:
    """Every layer shape the model gives (what DN611 compares) on every stock cfg OpenCV loads
    and can run shape inference on."""
    _need_cv2()
    loads = opencv_loads(_stock_cfgs())
    compared = 0
    # vgg-16's [connected] layers need the real weights for shape inference
    paths = [Path(p) for p, ok in loads.items() if ok and Path(p).stem != "vgg-16"]
    records = opencv_shapes(paths, tmp_path)
    for path in paths:
        record = records[str(path)]
        result = dnlint_result(path)
        failing = [d for d in result.diagnostics if d.code == "DN614"]
        if "error" in record:
            assert failing, f"{path.name}: OpenCV cannot infer shapes ({record['error']}), " \
                            "dnlint predicts no DN614"
            continue
        assert not failing, path.name
        shapes = record["shapes"]
        assert isinstance(shapes, dict)
        for name, shape in _modelled_shapes(path):
            assert shapes[name] == shape, f"{path.name}: {name}"
            compared += 1
    assert compared > 5000


NET = "[net]\nwidth={w}\nheight={h}\nchannels=3\n\n"
SHAPE_CASES = {
    # name: (cfg text, line of the expected DN611, OpenCV's (c, h, w), Darknet's (c, h, w))
    "upsample-default-stride": (
        NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=3\npad=1\n\n[upsample]\n",
        11, (8, 32, 32), (8, 64, 64)),
    "reorg-default-stride": (
        NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=3\npad=1\n\n[reorg]\n",
        11, (32, 16, 16), (8, 32, 32)),
    "conv-stride-x": (
        NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=3\npad=1\nstride_x=2\n",
        6, (8, 32, 32), (8, 32, 16)),
    "maxpool-stride-y": (
        NET.format(w=32, h=32) + "[maxpool]\nsize=2\nstride=2\nstride_y=1\n",
        6, (3, 16, 16), (3, 32, 16)),
    "maxpool-depth": (
        NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=1\n\n[maxpool]\nsize=1\n"
        "stride=1\nmaxpool_depth=1\nout_channels=2\n",
        10, (8, 32, 32), (2, 32, 32)),
    "route-groups-unequal": (
        NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=1\n\n[convolutional]\n"
        "filters=4\nsize=1\n\n[route]\nlayers=-1,-2\ngroups=2\ngroup_id=1\n",
        14, (4, 32, 32), (6, 32, 32)),
}


@pytest.mark.parametrize("name", sorted(SHAPE_CASES))
def test_dn611_claims_are_opencvs(name: str, tmp_path: Path) -> None:
    _need_cv2()
    text, line, ours, darknets = SHAPE_CASES[name]
    path = tmp_path / f"{name}.cfg"
    path.write_text(text, encoding="utf-8")
    result = lint_cfg_bytes(text.encode(), str(path), Dialect.AB)
    check_targets(result, ("opencv",))
    found = [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN6")]
    assert found == [("DN611", line)]
    fmt = "{2}x{1}x{0}"
    message = next(d.message for d in result.diagnostics if d.code == "DN611")
    assert f"outputs {fmt.format(*ours)}, Darknet's {fmt.format(*darknets)}" in message
    shapes = opencv_shapes([path], tmp_path)[str(path)]["shapes"]
    assert isinstance(shapes, dict)
    name_of = dict(_modelled_shapes(path))
    last = [n for n, _ in _modelled_shapes(path)][-1]
    assert shapes[last] == [1, *ours] == name_of[last]


FORWARD_CASES = {
    "shortcut-sizes": (NET.format(w=32, h=32) + "[convolutional]\nfilters=8\nsize=1\n\n"
                       "[maxpool]\nsize=2\nstride=2\n\n[shortcut]\nfrom=-2\n", 15),
    "region-tree": (NET.format(w=32, h=32) + "[convolutional]\nfilters=12\nsize=1\n\n"
                    "[region]\nclasses=1\nnum=2\nanchors=1,1,2,2\nsoftmax=1\ntree=x.tree\n",
                    15),
    "region-without-softmax": (NET.format(w=32, h=32) + "[convolutional]\nfilters=6\n"
                               "size=1\n\n[region]\nclasses=1\nnum=1\nanchors=1,1\n", 10),
    "region-coords": (NET.format(w=32, h=32) + "[convolutional]\nfilters=7\nsize=1\n\n"
                      "[region]\nclasses=1\nnum=1\nanchors=1,1\nsoftmax=1\ncoords=5\n", 15),
}


@pytest.mark.parametrize("name", sorted(FORWARD_CASES))
def test_dn614_networks_load_but_cannot_infer_shapes(name: str, tmp_path: Path) -> None:
    _need_cv2()
    text, line = FORWARD_CASES[name]
    path = tmp_path / f"{name}.cfg"
    path.write_text(text, encoding="utf-8")
    result = lint_cfg_bytes(text.encode(), str(path), Dialect.AB)
    check_targets(result, ("opencv",))
    assert [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN6")] == [
        ("DN614", line)]
    assert opencv_loads([path]) == {str(path): True}
    assert "error" in opencv_shapes([path], tmp_path)[str(path)]


# -- the DN6xx rules' own examples (tests/test_rule_examples.py lints them) -----------------

def _write_examples(tmp_path: Path) -> dict[str, tuple[Rule, Path, Path]]:
    """Each DN6xx rule's bad and good example as cfg files: {code: (rule, bad, good)}."""
    written = {}
    for rule in (r for r in all_rules() if r.target == "opencv"):
        bad, good = tmp_path / f"{rule.code}-bad.cfg", tmp_path / f"{rule.code}-good.cfg"
        bad.write_bytes(example_bytes(rule.bad))
        good.write_bytes(example_bytes(rule.good))
        written[rule.code] = (rule, bad, good)
    return written


def test_dn6xx_examples_load_or_fail_as_their_rules_say(tmp_path: Path) -> None:
    """OpenCV refuses the bad example of every error, loads that of every warning, and loads
    every good example."""
    _need_cv2()
    examples = _write_examples(tmp_path)
    assert len(examples) == 12
    loads = opencv_loads([p for _, bad, good in examples.values() for p in (bad, good)])
    wrong = [f"{code} {path.stem}" for code, (rule, bad, good) in examples.items()
             for path, expected in ((bad, rule.severity.value != "error"), (good, True))
             if loads[str(path)] != expected]
    assert wrong == []


def test_dn6xx_examples_that_load_infer_shapes_as_their_rules_say(tmp_path: Path) -> None:
    """Only DN614's bad example fails OpenCV's shape inference, and DN611's bad example has
    the shape the model claims (Darknet's differs: dnlint's own network says so)."""
    _need_cv2()
    examples = _write_examples(tmp_path)
    paths = [p for code, (rule, bad, good) in examples.items()
             for p in ((bad, good) if rule.severity.value != "error" else (good,))]
    records = opencv_shapes(paths, tmp_path)
    failing = sorted(Path(p).stem for p, record in records.items() if "error" in record)
    assert failing == ["DN614-bad"]
    _, bad, good = examples["DN611"]
    for path in (bad, good):
        shapes = records[str(path)]["shapes"]
        assert isinstance(shapes, dict)
        assert all(shapes[name] == shape for name, shape in _modelled_shapes(path))
    darknet = dnlint_result(bad).network
    assert darknet is not None
    assert darknet.layers[-1].output == (64, 64, 16)  # w, h, c: Darknet's stride 2
    assert _modelled_shapes(bad)[-1][1] == [1, 16, 32, 32]  # OpenCV's stride 1
