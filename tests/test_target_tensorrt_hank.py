"""``--target tensorrt-demos`` and ``--target hank-onnx`` without the tools: exact diagnostics
of small cfgs, the CLI option and configuration key, and the model of tensorrt_demos' parser.
(tests/test_target_oracles.py compares the predictions with the real tools' verdicts.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dnlint.cli import main
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.rules import get_rule
from dnlint.rules.hank_onnx import GOOD as HANK_GOOD
from dnlint.rules.tensorrt import GOOD as TRT_GOOD
from dnlint.targets import check_targets, parse_targets
from dnlint.targets.tensorrt_model import convert, parse
from test_robustness import SEED_TEXTS, _mutate


def codes(text: str, target: str, dialect: Dialect = Dialect.AB) -> list[tuple[str, int | None]]:
    result = lint_cfg_bytes(text.encode(), "m.cfg", dialect)
    check_targets(result, (target,))
    prefix = ("DN62", "DN63") if target == "tensorrt-demos" else ("DN64", "DN65")
    return [(d.code, d.line) for d in result.diagnostics if d.code.startswith(prefix)]


def messages(text: str, target: str) -> list[str]:
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    check_targets(result, (target,))
    return [d.message for d in result.diagnostics if d.code.startswith("DN6")]


def trt(old: str, new: str) -> str:
    assert old in TRT_GOOD
    return TRT_GOOD.replace(old, new, 1)


def test_the_good_networks_convert_cleanly() -> None:
    assert codes(TRT_GOOD, "tensorrt-demos") == []
    assert codes(HANK_GOOD, "hank-onnx") == []
    assert convert(TRT_GOOD).accepted


@pytest.mark.parametrize(("text", "expected"), [
    ("# see [1]\n" + TRT_GOOD, [("DN620", 1)]),
    ("#[old]\n" + TRT_GOOD, []),  # '#[' is skipped as a commented-out section
    (trt("[maxpool]\nsize=16", "[local_avgpool]\nsize=16"), [("DN620", 13)]),
    (trt("pad=1\n", "pad=1\n; note\n"), [("DN621", 11)]),
    (trt("pad=1\n", "pad=1=1\n"), [("DN621", 10)]),
    (trt("activation=leaky", "activation=hard_mish"), [("DN622", 11)]),
    (trt("activation=leaky", "activation=elu"), [("DN624", 11)]),
    (trt("[maxpool]\nsize=16\nstride=16", "[maxpool]\nsize=16"), [("DN623", 13)]),
    (trt("layers=-4\n", "layers=-4,-5\ngroups=2\ngroup_id=0\n"), [("DN626", 41)]),
    (trt("layers=-4\n", "layers=-4\n\n[shortcut]\nfrom=-5\nactivation=leaky\n"),
     [("DN625", 44)]),
    (trt("filters=18\nsize=1\nstride=1\nactivation=linear",
         "filters=18\nsize=1\nstride=1\nactivation=leaky"), [("DN627", 31)]),
    (TRT_GOOD.split("\n[route]")[0], [("DN630", 33)]),
    (TRT_GOOD.replace("classes=1", "classes=1 "), []),  # stripped: still equal
    (trt("classes=1", "classes=2"), [("DN628", 51)]),
    (trt("mask=3,4,5", "  mask=3,4,5"), [("DN629", 33)]),
    (trt("num=6\n", "num=6\nscale_x_y=1.05\n"), [("DN631", 38)]),
    (trt("width=64", "width=80"), [("DN631", 33)]),
    (trt("[maxpool]\nsize=2\nstride=2", "[maxpool]\nsize=2\nstride=1"), [("DN632", 33)]),
    (trt("size=1\nstride=1\nactivation=leaky", "size=1\nstride=1\ngroups=2\nactivation=leaky"),
     [("DN633", 21)]),
    (trt("size=3\nstride=1\npad=1", "size=3\nstride=1\npad=1\ndilation=2"), [("DN638", 11)]),
    (trt("size=3\nstride=1\npad=1", "size=3\nstride=1\npad=0"), [("DN638", 10)]),
    (trt("channels=3\n", "channels=3\nletter_box=1\n"), [("DN636", 5)]),
])
def test_tensorrt_demos_diagnostics(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text, "tensorrt-demos") == expected



@pytest.mark.parametrize(("text", "expected"), [
    (trt("width=64", "width=-64"), [("DN206", 2), ("DN306", 6), ("DN390", 6)]),
    (trt("size=3\nstride=1", "size=3\nstride=-1"), [("DN390", 6), ("DN307", 8), ("DN307", 8)]),
    (trt("size=16\nstride=16", "size=16\nstride=-16"),
     [("DN390", 13), ("DN307", 14), ("DN307", 14)]),
])
def test_a_cfg_darknet_cannot_build_has_no_weights_count_to_compare(
        text: str, expected: list[tuple[str, int]]) -> None:
    """A typo that stops Darknet's build (a negative size or stride) is the one cause: the
    weights tensorrt_demos reads are not compared with the count up to the broken layer (a
    DN633 blamed grouped convolutions, in a cfg with none)."""
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.AB)
    check_targets(result, ("tensorrt-demos",))
    assert [(d.code, d.line) for d in result.diagnostics] == expected

def test_tensorrt_messages_say_what_the_tool_does() -> None:
    assert messages(trt("classes=1", "classes=2"), "tensorrt-demos") == [
        "tensorrt_demos: 'classes=1' differs from line 36 ('classes=2'): the tool asserts that "
        "every 'classes=' line is the same"]
    text = trt("mask=0,1,2\nanchors=10,14", "mask=0,1,2\nanchors=11,14")
    assert codes(text, "tensorrt-demos") == [("DN635", 50)]


def test_the_parser_model_types_values_as_the_tool_does() -> None:
    sections = parse("[net]\nwidth=416\nscales=.1,.1\n\n[route]\nlayers = -1, 8\n\n"
                     "[convolutional]\nscale=0.5\nactivation=leaky # x\n")
    assert [s.type for s in sections] == ["net", "route", "convolutional"]
    assert sections[0].values == {"width": 416}  # steps/scales of [net] are skipped
    assert sections[1].values == {"layers": [-1, 8]}
    assert sections[2].values == {"scale": 0.5, "activation": "leaky"}
    assert codes(TRT_GOOD + "#", "tensorrt-demos") == []  # a comment in the last block


H_NET = "[net]\nwidth=64\nheight=64\nchannels=3\n"


def hank(old: str, new: str) -> str:
    assert old in HANK_GOOD
    return HANK_GOOD.replace(old, new, 1)


@pytest.mark.parametrize(("text", "expected"), [
    (hank("channels=3\n", "channels=3\nmax_crop=256\n"), [("DN640", 5)]),
    (hank("[maxpool]", "[local_avgpool]"), [("DN641", 13)]),
    (hank("activation=leaky", "activation=elu"), [("DN642", 11)]),
    (hank("[maxpool]\nsize=2\nstride=2", "[maxpool]\nsize=2\nstride=1"), [("DN645", 13)]),
    (hank("[maxpool]\nsize=2\nstride=2", "[maxpool]\nsize=2"), [("DN645", 13)]),
    (hank("filters=18\nsize=1\nstride=1", "filters=18\nstride=1"), [("DN645", 17)]),
    (hank("pad=1\n", "pad=1\ndilation=2\n"), [("DN651", 11)]),
    (get_rule("DN643").bad, [("DN643", 23)]),
    (get_rule("DN650").bad, [("DN650", 29)]),
    (hank("channels=3\n", "channels=3\nletter_box=1\n"), [("DN653", 5)]),
    (get_rule("DN652").bad, [("DN652", 25)]),
    (hank("num=3\n", "num=3\nnew_coords=1\n"), [("DN651", 28)]),
])
def test_hank_onnx_diagnostics(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text, "hank-onnx") == expected


def test_hank_onnx_names_the_root_cause_of_an_invalid_model() -> None:
    text = hank("[maxpool]\nsize=2\nstride=2", "[maxpool]\nsize=2\nstride=1")
    assert messages(text, "hank-onnx") == [
        "hank's ONNX export: the exported [maxpool] outputs 63x63x8, Darknet's 64x64x8 (the tool "
        "pads (size-1)/2 = 0 on each side; Darknet pads size-1 = 1 in all); the model breaks at "
        "line 23 (the head's input is 63x63x18 in the exported model; the box decoding is "
        "written for Darknet's 64x64x18): the export prints 'done!', but onnxruntime refuses "
        "the model"]


def test_an_ignored_route_groups_is_the_named_cause() -> None:
    text = hank("[maxpool]\nsize=2\nstride=2\n", "[maxpool]\nsize=2\nstride=2\n\n[route]\n"
                "layers=-1,-1\ngroups=2\ngroup_id=0\n")
    assert codes(text, "hank-onnx") == [("DN645", 17)]
    assert "a plain Concat" in messages(text, "hank-onnx")[0]


def test_under_the_hank_dialect_its_own_errors_are_not_repeated() -> None:
    text = hank("channels=3\n", "channels=3\nmax_crop=256\n")
    assert codes(text, "hank-onnx", Dialect.HANK) == []
    result = lint_cfg_bytes(text.encode(), "m.cfg", Dialect.HANK)
    check_targets(result, ("hank-onnx",))
    assert [(d.code, d.line) for d in result.diagnostics if d.severity.value == "error"] == [
        ("DN202", 5)]


def test_parse_targets_knows_all_three() -> None:
    assert parse_targets(["opencv,tensorrt-demos", "hank-onnx"], "x") == (
        "opencv", "tensorrt-demos", "hank-onnx")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--format", "concise", "-q", *args])
    return result.exit_code, result.output


def test_cli_and_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(trt("activation=leaky", "activation=elu"))
    assert _run("--no-config", "m.cfg")[0] == 0
    code, out = _run("--no-config", "--target", "tensorrt-demos", "--target", "hank-onnx",
                     "m.cfg")
    assert code == 1
    assert [line.split(" ")[1] for line in out.splitlines()] == ["DN624", "DN642"]
    (tmp_path / ".dnlint.toml").write_text('target = ["tensorrt-demos"]\n')
    code, out = _run("m.cfg")
    assert code == 1 and out.startswith(
        "m.cfg:11:1: DN624 error: tensorrt_demos: 'elu activation not supported'")


# -- hostile input: the targets never raise, and stay linear ------------------------------------

ALL_TARGETS = ("opencv", "tensorrt-demos", "hank-onnx")


def _check_all(data: bytes, dialect: Dialect | None) -> None:
    result = lint_cfg_bytes(data, "fuzz.cfg", dialect)
    check_targets(result, ALL_TARGETS)
    for d in result.diagnostics:
        assert d.code != "DN000", d.message
        if d.severity.value == "error":
            assert d.line is not None and d.line >= 1, d


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(range(len(SEED_TEXTS))),
       st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10**6), st.integers(0, 10**6)),
                max_size=12),
       st.sampled_from([Dialect.AB, Dialect.HANK, Dialect.PJ]))
def test_mutated_cfgs_never_raise_under_the_targets(
        seed: int, ops: list[tuple[int, int, int]], dialect: Dialect) -> None:
    _check_all(b"\n".join(_mutate(SEED_TEXTS[seed].split(b"\n"), ops)), dialect)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=1024))
def test_arbitrary_bytes_never_raise_under_the_targets(data: bytes) -> None:
    _check_all(data, None)


@pytest.mark.parametrize("text", [
    TRT_GOOD.replace("anchors=10,14", "anchors=" + "[" * 5000 + "1"),  # eval()'s nesting limit
    TRT_GOOD.replace("mask=3,4,5", "mask=3,4,5,99"),
    TRT_GOOD.replace("mask=3,4,5", "mask=a,b"),
    "[net]\nwidth=64\n" + "[yolo]\nmask=0\n" * 3 + "classes=1\nanchors=1,1\n",
    TRT_GOOD.replace("layers=-4", "layers=-400"),
    TRT_GOOD.replace("layers=-4", "layers=7"),
])
def test_odd_cfgs_give_a_tensorrt_error_not_a_crash(text: str) -> None:
    assert [code for code, _ in codes(text, "tensorrt-demos")
            if code in ("DN620", "DN621", "DN622", "DN623", "DN625", "DN626", "DN627", "DN629",
                        "DN630")]


def test_hundred_thousand_sections_under_the_targets() -> None:
    body = b"[net]\nwidth=8\nheight=8\nchannels=3\n" + b"[maxpool]\nsize=1\nstride=1\n" * 100_000
    result = lint_cfg_bytes(body, "big.cfg", Dialect.AB)
    check_targets(result, ("tensorrt-demos", "hank-onnx"))
    assert [(d.code, d.line) for d in result.diagnostics if d.code.startswith("DN6")] == [
        ("DN628", 1), ("DN640", 1)] or result.diagnostics


# -- every target reads any text the reader accepts, broken or not ------------------------------

HOSTILE_VALUES = ["sixty", "", "1.5", "64.0", "-1", "0", "4294967296", "-2147483649",
                  "9" * 30, "1e309", "-1e309", "nan", "1" + "0" * 400, ",", "-1,", ",,3",
                  "3,,", "0x40", " 7 "]
INSERTED_KEYS = ["group_id", "groups", "layers", "stride", "size", "width", "height", "classes",
                 "anchors", "mask", "from", "scale_x_y", "letter_box", "dilation", "padding",
                 "filters", "pad", "new_coords", "channels"]
TARGET_SEEDS = [TRT_GOOD, HANK_GOOD,
                (Path(__file__).parents[1] / "fixtures/examples/tiny-detector.cfg").read_text()]


def _hostile(text: str, ops: list[tuple[int, int, int]]) -> str:
    """``text`` with values replaced by hostile ones and options inserted anywhere."""
    lines = text.split("\n")
    for op, a, b in ops:
        i, value = a % len(lines), HOSTILE_VALUES[b % len(HOSTILE_VALUES)]
        if op == 0 and "=" in lines[i]:
            lines[i] = lines[i].split("=", 1)[0] + "=" + value
        elif op == 1:
            lines.insert(i + 1, f"{INSERTED_KEYS[b % len(INSERTED_KEYS)]}={value}")
        elif op == 2 and "=" in lines[i]:
            del lines[i]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(range(len(TARGET_SEEDS))),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.integers(0, 10**6)),
                min_size=1, max_size=4),
       st.sampled_from([Dialect.AB, Dialect.HANK, Dialect.PJ]))
def test_every_target_runs_on_hostile_values(seed: int, ops: list[tuple[int, int, int]],
                                             dialect: Dialect) -> None:
    """Seeds every target converts, with the typos a user makes: no target check raises
    (DN000, exit 3), and every code it reports is a declared rule."""
    result = lint_cfg_bytes(_hostile(TARGET_SEEDS[seed], ops).encode(), "m.cfg", dialect)
    check_targets(result, ALL_TARGETS)
    for d in result.diagnostics:
        assert d.code != "DN000", d.message
        assert get_rule(d.code).code == d.code


def test_every_rule_code_in_the_sources_is_declared() -> None:
    """A code reported anywhere (a sink, a target's refusal) is one ``rule()`` declares: an
    undeclared one is a crash the moment it is reported."""
    import ast
    import re

    source = Path(__file__).parents[1] / "src" / "dnlint"
    undeclared = []
    for path in sorted(source.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"DN\d{3}", node.value):
                try:
                    get_rule(node.value)
                except ValueError:
                    undeclared.append(f"{path.name}:{node.lineno} {node.value}")
    assert undeclared == []


@pytest.mark.parametrize(("text", "target", "dialect", "expected"), [
    (trt("width=64", "width=sixty"), "tensorrt-demos", Dialect.AB,
     [("DN622", 2, "tensorrt_demos: width=sixty: the tool builds the graph with it and needs "
                   "an integer")]),
    (trt("height=64", "height=4294967296"), "tensorrt-demos", Dialect.AB,
     [("DN622", 3, "tensorrt_demos: height=4294967296 is outside the 32-bit integers TensorRT "
                   "builds the network with")]),
    (trt("height=64", "height=1e309"), "tensorrt-demos", Dialect.AB,
     [("DN622", 3, "tensorrt_demos: height=inf: the tool builds the graph with it and needs "
                   "an integer")]),
    (trt("anchors=10,14", "anchors=1" + "0" * 400 + ",14"), "tensorrt-demos", Dialect.AB,
     [("DN629", 35, "tensorrt_demos: mask value 0 picks an anchor that is not a finite 32-bit "
                    "float, as the YOLO plugin stores anchors")]),
    (HANK_GOOD.replace("\n[maxpool]", "\n[route]\nlayers=-1\ngroup_id=3\n\n[maxpool]"),
     "hank-onnx", Dialect.AB,
     [("DN644", 15, "hank's ONNX export: groups=1 group_id=3: the export tool needs groups >= 1 "
                    "and 0 <= group_id < groups ('invalid number of groups' / 'invalid group "
                    "number')")]),
    # hank's Darknet skips the empty item and builds no route: no shape to export from it
    (HANK_GOOD.replace("\n[maxpool]", "\n[route]\nlayers=,\n\n[maxpool]"), "hank-onnx",
     Dialect.HANK, []),
])
def test_broken_values_give_the_targets_diagnostic(
        text: str, target: str, dialect: Dialect, expected: list[tuple[str, int, str]]) -> None:
    result = lint_cfg_bytes(text.encode(), "m.cfg", dialect)
    check_targets(result, (target,))
    assert [(d.code, d.line, d.message) for d in result.diagnostics
            if d.code.startswith("DN6") or d.code == "DN000"] == expected


def test_a_typo_under_every_target_exits_1_not_3(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(trt("width=64", "width=6x4"))
    code, out = _run("--no-config", "--target", "opencv,tensorrt-demos,hank-onnx", "m.cfg")
    assert code == 1 and "DN000" not in out and " DN622 " in out
