"""The memory prediction (dnlint.network.memory) against Darknet's own allocations, and the
DN120-DN122 checks and their reporting.

fixtures/oracle/memory.json holds what tools/memcount measured: the bytes each fork's CPU build
keeps allocated after parsing every stock cfg (at batch=1 subdivisions=1, as the oracle runs
them; AlexeyAB's inference build and training build), a few cfgs at batch=8 subdivisions=2
(mini-batch 4) for the scaling, and the project's own cfgs of fixtures/memory (``own``).
``files`` is the part a data file named by the cfg (softmax ``tree=``) took: dnlint reads no
such file, so it is left out of the comparison.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.conftest import FIXTURES, SHARED, codes, lint_text, need_shared

from dnlint.checks.memory import PLAUSIBLE_CARD, gib, parse_size
from dnlint.cli import main
from dnlint.dialects import Dialect
from dnlint.network import memory
from dnlint.network.layer_memory import read_ints
from dnlint.network.memory import memory_report
from dnlint.options.schema import Kind
from dnlint.rules import get_rule

RECORDED = FIXTURES / "oracle" / "memory.json"
DIALECTS = {"pjreddie": Dialect.PJ, "alexeyab": Dialect.AB}


@cache
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDED.read_text())
    return data


def cases(set_name: str) -> list[tuple[str, str, str]]:
    """(fork, cfg key, mode) of every successful measurement in one set of the fixture."""
    found = []
    for fork, measured in recorded()[set_name].items():
        for key, modes in measured["cfgs"].items():
            found += [(fork, key, mode) for mode, m in modes.items() if m["status"] == "ok"]
    return found


def predicted(fork: str, key: str, mode: str, set_name: str) -> tuple[int, int]:
    """(dnlint's bytes, Darknet's bytes without the data files) for one measurement."""
    need_shared()
    measured = recorded()[set_name][fork]
    m = measured["cfgs"][key][mode]
    text = (SHARED / "corpus" / fork / key).read_text(encoding="latin-1")
    # AlexeyAB refuses contrastive=1 below a [net] mini-batch of 2: measured at batch=2
    text = _with_batch(text, m.get("batch_forced", measured["batch"]), measured["subdivisions"])
    result = lint_text(text, DIALECTS[fork], key)
    assert result.network is not None
    mine = memory.predict(result.network, DIALECTS[fork], mode == "train", m["batch"])
    return mine.total, m["total"] - m["files"]


def _with_batch(text: str, batch: int, subdivisions: int) -> str:
    """The oracle's batch rewrite for the stock cfgs: the value of [net]'s batch= and
    subdivisions= lines (every stock cfg writes them plainly, before its second section)."""
    lines = text.split("\n")
    sections = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        sections += stripped.startswith("[")
        if sections > 1:
            break
        key = stripped.split("=", 1)[0].strip()
        if key in ("batch", "subdivisions") and "=" in stripped:
            lines[i] = f"{key}={batch if key == 'batch' else subdivisions}"
    return "\n".join(lines)


@pytest.mark.parametrize(("fork", "key", "mode"), cases("stock"))
def test_every_stock_cfg_allocates_what_dnlint_predicts(fork: str, key: str, mode: str) -> None:
    mine, darknet = predicted(fork, key, mode, "stock")
    assert mine == darknet


@pytest.mark.parametrize(("fork", "key", "mode"), cases("mini_batch_4"))
def test_the_prediction_scales_with_the_mini_batch(fork: str, key: str, mode: str) -> None:
    mine, darknet = predicted(fork, key, mode, "mini_batch_4")
    assert mine == darknet


# hank-ai's Darknet (C++) keeps a few KiB of its own bookkeeping besides the network (its
# settings object, strings): measured on AlexeyAB's stock cfgs, 5 to 14 KiB more than the arrays
HANK_BOOKKEEPING = 16 * 1024


@pytest.mark.parametrize(("key", "mode"), [(key, mode) for _, key, mode in cases("hank")])
def test_hank_allocates_the_arrays_dnlint_predicts(key: str, mode: str) -> None:
    need_shared()
    m = recorded()["hank"]["hank"]["cfgs"][key][mode]
    text = (SHARED / "corpus" / "alexeyab" / key).read_text(encoding="latin-1")
    result = lint_text(_with_batch(text, m.get("batch_forced", 1), 1), Dialect.HANK, key)
    assert result.network is not None
    mine = memory.predict(result.network, Dialect.HANK, mode == "train", m["batch"]).total
    assert 0 < m["total"] - m["files"] - mine < HANK_BOOKKEEPING


@pytest.mark.parametrize(("fork", "key", "mode"), cases("own"))
def test_every_layer_type_allocates_what_dnlint_predicts(fork: str, key: str, mode: str) -> None:
    """fixtures/memory: small cfgs of this project's own that use every layer type of both
    forks and their options that allocate (adam, antialiasing, share_index, binary, xnor,
    swish/mish, shortcut weights, counters_per_class, peephole, bottleneck ...), measured with
    tools/memcount at batch=4 subdivisions=2 as written; no ../shared needed."""
    m = recorded()["own"][fork]["cfgs"][key][mode]
    result = lint_text((FIXTURES / "memory" / key).read_text(), DIALECTS[fork], key)
    assert result.network is not None
    mine = memory.predict(result.network, DIALECTS[fork], mode == "train", m["batch"])
    assert mine.total == m["total"] - m["files"]
    # layer by layer (the --layers column), the workspace, and the network's own arrays
    assert mine.layers == m["layers"]
    assert mine.workspace == m["workspace"]
    assert mine.net == m["net"] - m["workspace"]


def test_every_layer_type_has_a_memory_rule() -> None:
    from dnlint.network.layers import all_types

    assert {t.name for t in all_types()} == set(memory.COSTS)


def test_the_recorded_counts_cover_the_corpus() -> None:
    """Every stock cfg of both forks was measured, and only those Darknet refuses failed."""
    shared = need_shared()
    for fork in DIALECTS:
        keys = {p.relative_to(shared / "corpus" / fork).as_posix()
                for p in (shared / "corpus" / fork / "cfg").rglob("*.cfg")}
        assert set(recorded()["stock"][fork]["cfgs"]) == keys
    oracle = json.loads((shared / "oracle" / "alexeyab.json").read_text())
    failed = {key for key, modes in recorded()["stock"]["alexeyab"]["cfgs"].items()
              if modes["train"]["status"] != "ok"}
    assert failed <= {key for key, entry in oracle.items() if entry["status"] != "ok"}
    assert len(cases("stock")) >= 170
    assert len(cases("hank")) >= 98  # hank-ai refuses many of AlexeyAB's cfgs (unused keys)


# ---------------------------------------------------------------------------------- by hand

def test_a_convolution_by_hand() -> None:
    """416x416x3 -> 16 filters 3x3, batch-normalized, mini-batch 2 (AlexeyAB): each array of
    the output is 416*416*16 floats."""
    text = ("[net]\nbatch=4\nsubdivisions=2\nwidth=416\nheight=416\nchannels=3\n\n"
            "[convolutional]\nfilters=16\nsize=3\npad=1\nbatch_normalize=1\n")
    network = lint_text(text, Dialect.AB).network
    assert network is not None
    outputs, nweights, n = 416 * 416 * 16, 3 * 16 * 9, 16
    train = memory.predict(network, Dialect.AB, True)
    # weights, biases and their updates and EMA copies; 9 BN vectors; output, delta, x, x_norm
    assert train.layers == [4 * (3 * (nweights + n) + 9 * n + 2 * 4 * outputs)]
    assert train.workspace == 416 * 416 * 9 * 3 * 4
    infer = memory.predict(network, Dialect.AB, False)
    assert infer.batch == 1
    assert infer.layers == [4 * (nweights + n + 3 * n + outputs)]
    pj_network = lint_text(text, Dialect.PJ).network
    assert pj_network is not None
    pj = memory.predict(pj_network, Dialect.PJ, True)
    assert pj.layers == [4 * (2 * (nweights + n) + 8 * n + 2 * 4 * outputs)]


def test_random_trains_at_the_largest_size_first() -> None:
    text = ("[net]\nbatch=8\nsubdivisions=2\nwidth=416\nheight=416\nchannels=3\n\n"
            "[convolutional]\nfilters=18\nsize=1\n\n[yolo]\nmask=0,1,2\nanchors=1,1,2,2,3,3\n"
            "classes=1\nnum=3\nrandom=1\n")
    network = lint_text(text, Dialect.AB).network
    assert network is not None
    report = memory_report(network, Dialect.AB)
    # roundl(1.4 * 416 / 32 + 1) * 32 = roundl(19.2) * 32
    assert report.resized == (608, 608)
    plain = report.gpu_total(True, resize=False)
    assert report.gpu_total(True) > plain
    assert memory_report(network, Dialect.PJ).resized == (608, 608)


@pytest.mark.parametrize(("random", "resize_step"), [
    ("nan", "32"), ("inf", "32"), ("-1", "32"), ("1e300", "32"), ("1", "nan"), ("1", "inf"),
    ("1", "-32"), ("1", "0")])
def test_random_values_that_are_not_a_size(random: str, resize_step: str) -> None:
    """No resize (and no exception) for a random or resize_step Darknet cannot resize by."""
    text = (f"[net]\nbatch=8\nsubdivisions=2\nwidth=416\nheight=416\nchannels=3\n"
            f"resize_step={resize_step}\n\n[convolutional]\nfilters=18\nsize=1\n\n[yolo]\n"
            f"mask=0,1,2\nanchors=1,1,2,2,3,3\nclasses=1\nnum=3\nrandom={random}\n")
    network = lint_text(text, Dialect.AB).network
    assert network is not None
    report = memory_report(network, Dialect.AB)
    assert report.resized is None
    assert report.gpu_total(True) == report.gpu_total(True, resize=False) > 0


def test_gpu_total_is_the_sum_of_the_layers_at_every_mini_batch() -> None:
    """gpu_total sums the layers' costs once per build and scales the sum: the same integer as
    the layers' own figures added up at each mini-batch (the input and truth on top), for every
    layer type of both forks, with the stock cfgs' stopbackward and random too."""
    paths = sorted((FIXTURES / "memory").glob("*.cfg"))
    need_shared()
    paths += [SHARED / "corpus" / "alexeyab" / "cfg" / name
              for name in ("yolov4-p6.cfg", "yolov4.cfg", "yolov3-tiny_3l.cfg")]
    checked = 0
    for path in paths:
        for dialect in (Dialect.PJ, Dialect.AB):
            network = lint_text(path.read_text(encoding="latin-1"), dialect).network
            assert network is not None
            report = memory_report(network, dialect)
            for train in (True, False):
                costs = report.gpu_train if train else report.gpu_infer
                workspace = max((cost.workspace for cost in costs), default=0)
                assert report.gpu_workspace(train) == workspace
                steps = report.steps(train)
                for mini in (0, 1, 3, 64):
                    batch = mini * steps
                    layers = [cost.at(batch, steps) for cost in costs]
                    assert report.gpu_layers(train, mini) == layers
                    inputs = 4 * batch * (max(network.net.inputs, 0)
                                          + (report._device_truths() if train else 0))
                    assert report.gpu_total(train, mini, resize=False) == (
                        sum(layers) + inputs + workspace), (path, dialect, train, mini)
                    checked += 1
    assert checked == 8 * len(paths) * 2


def test_read_ints_reads_what_values_int_reads() -> None:
    """The GPU estimate reads a layer's integers in one call (read_ints): each as Values.int
    gives it, given or not, in every dialect (hank-ai reads them through a C float)."""
    odd = ("[net]\nwidth=64\nheight=64\nchannels=3\n\n[convolutional]\nfilters=16.7\n"
           "size=3e0\ngroups=-2\nxnor=1\nbinary=0x1\nbatch_normalize= 1\nantialiasing=1\n"
           "\n[convolutional]\nfilters=99999999999\n\n[convolutional]\n")
    texts = [path.read_text() for path in sorted((FIXTURES / "memory").glob("*.cfg"))] + [odd]
    checked = 0
    for text in texts:
        for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
            network = lint_text(text, dialect).network
            assert network is not None
            for layer in network.layers:
                values = layer.values
                if values is None:
                    continue
                names = tuple(name for name, spec in values.specs.items()
                              if spec.kind in (Kind.INT, Kind.REF))
                assert read_ints(values, names) == [values.int(name) for name in names]
                checked += len(names)
    assert checked > 1000


def test_sizes() -> None:
    assert parse_size("8G") == parse_size("8GiB") == parse_size("8 gb") == 8 * 2**30
    assert parse_size("6144M") == 6 * 2**30
    assert parse_size("1.5T") == 3 * 2**39
    for bad in ("", "G", "8X", "-1G", "nanG", "0", "1e300G"):
        assert parse_size(bad) is None, bad
    assert gib(int(9.7 * 2**30)) == "9.7 GiB"
    assert gib(8 * 2**30) == "8 GiB"
    assert gib(300 * 2**20) == "300 MiB"


# ---------------------------------------------------------------------------------- the rules

DN121_BAD = get_rule("DN121").bad  # its examples are linted with --gpu-memory 8G here


def test_dn120_a_digit_too_many_in_filters() -> None:
    text = ("[net]\nwidth=1024\nheight=1024\nchannels=3\n\n[convolutional]\nfilters=2000\n"
            "batch_normalize=1\n")
    result = lint_text(text, Dialect.AB)
    # at the value to edit, filters=2000 (line 7, column 9), not the section header
    assert codes(result) == [("DN120", 7)]
    assert result.diagnostics[0].column == 9
    message = result.diagnostics[0].message
    assert message.startswith("this convolutional layer alone needs ≈23.4 GiB of GPU memory "
                              "to train at mini-batch 1 (output 1024 x 1024 x 2000")
    assert PLAUSIBLE_CARD == 16 * 2**30


def test_dn122_names_the_mini_batch_that_fits() -> None:
    text = ("[net]\nbatch=64\nsubdivisions=1\nwidth=1024\nheight=1024\nchannels=3\n\n"
            "[convolutional]\nfilters=64\n\n[convolutional]\nfilters=64\n")
    result = lint_text(text, Dialect.AB)
    assert codes(result) == [("DN122", 8)]
    found = result.diagnostics[0]
    assert found.message == (
        "at mini-batch 64 this layer's 67,108,864 outputs make 4,294,967,296 floats per array "
        "(and 1 more layers): more than a 32-bit C int holds, and Darknet computes the size of "
        "its output and delta arrays in int")
    assert found.hint == ("a mini-batch of at most 31 (batch / subdivisions) keeps it in range "
                          "(batch=64, subdivisions=1)")


def test_dn121_with_a_budget(tmp_path: Path) -> None:
    cfg = tmp_path / "big.cfg"
    cfg.write_text(DN121_BAD)
    run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "8G", "--format", "concise"])
    assert run.exit_code == 0, run.output
    # 64 images of output, delta and BN's x (3 x 608*608*64 floats) and, on the device, of
    # input and truth (the last layer's outputs: 608*608*(3 + 64) floats)
    assert f"{cfg}:3:14: DN121 warning: training needs ≈22.8 GiB of GPU memory at mini-batch 64 " \
           "(batch=64, subdivisions=1), more than --gpu-memory 8 GiB" in run.output
    json_run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "8G", "--format", "json"])
    hint = json.loads(json_run.output)["files"][0]["diagnostics"][0]["hint"]
    assert hint == "subdivisions=4 gives ≈5.7 GiB (mini-batch 16)"
    cfg.write_text(get_rule("DN121").good)
    run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "8G", "--format", "concise"])
    assert "DN121" not in run.output
    # without a budget, nothing
    cfg.write_text(DN121_BAD)
    assert "DN121" not in CliRunner().invoke(main, [str(cfg)]).output


def test_dn121_when_nothing_fits(tmp_path: Path) -> None:
    cfg = tmp_path / "big.cfg"
    cfg.write_text(DN121_BAD)
    run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "100M", "--format", "json"])
    found = json.loads(run.output)["files"][0]["diagnostics"][0]
    assert found["code"] == "DN121"
    # 608*608*64 floats of output, delta and BN's x: 283,901,952 bytes; the weights, biases,
    # their updates and 7 BN vectors: 3,840; the workspace (im2col of 608*608*3): 4,435,968;
    # the input and the truth (the last layer's outputs) on the device: 99,067,904
    assert found["hint"] == "even mini-batch 1 needs ≈369 MiB: lower width and height"


def test_no_budget_warning_for_a_network_with_errors(tmp_path: Path) -> None:
    """One root cause, one error: a layer that overflows int (DN312) makes every size
    meaningless, so DN121 says nothing about it."""
    cfg = tmp_path / "huge.cfg"
    cfg.write_text("[net]\nbatch=64\nsubdivisions=1\nwidth=100000\nheight=100000\nchannels=3\n"
                   "\n[convolutional]\nfilters=1000\n")
    run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "8G", "--format", "concise"])
    assert "DN312" in run.output
    assert "DN121" not in run.output
    assert "DN120" not in run.output


def test_the_budget_from_the_configuration(tmp_path: Path) -> None:
    cfg = tmp_path / "big.cfg"
    cfg.write_text(DN121_BAD)
    (tmp_path / ".dnlint.toml").write_text('gpu-memory = "8G"\n')
    run = CliRunner().invoke(main, [str(cfg), "--format", "concise"])
    assert "DN121 warning: training needs ≈22.8 GiB" in run.output
    # the command line wins
    run = CliRunner().invoke(main, [str(cfg), "--format", "concise", "--gpu-memory", "32G"])
    assert "DN121" not in run.output
    (tmp_path / ".dnlint.toml").write_text('gpu-memory = "lots"\n')
    run = CliRunner().invoke(main, [str(cfg)])
    assert run.exit_code == 2
    assert 'gpu-memory must be a size such as "8G", or "auto", not \'lots\'' in run.output


def test_a_bad_budget_is_a_usage_error(tmp_path: Path) -> None:
    cfg = tmp_path / "a.cfg"
    cfg.write_text(DN121_BAD)
    run = CliRunner().invoke(main, [str(cfg), "--gpu-memory", "lots"])
    assert run.exit_code == 2
    assert "--gpu-memory: 'lots' is not a size" in run.output


# ---------------------------------------------------------------------------------- reports

def test_layers_json_has_memory_per_layer_and_in_total(tmp_path: Path) -> None:
    cfg = tmp_path / "a.cfg"
    cfg.write_text("[net]\nbatch=4\nsubdivisions=2\nwidth=416\nheight=416\nchannels=3\n\n"
                   "[convolutional]\nfilters=16\nsize=3\npad=1\nbatch_normalize=1\n\n"
                   "[maxpool]\nsize=2\nstride=2\n")
    run = CliRunner().invoke(main, [str(cfg), "--layers", "--format", "json",
                                    "--dialect", "alexeyab"])
    entry = json.loads(run.output)["files"][0]
    outputs = 416 * 416 * 16
    pooled = outputs // 4
    assert entry["layers"][1]["memory"] == {
        "cpu_train": 4 * 2 * 3 * pooled, "cpu_infer": 4 * pooled,
        "gpu_train": 4 * 2 * 3 * pooled, "gpu_infer": 4 * pooled}
    total = entry["memory"]
    assert total["mini_batch"] == 2
    assert total["cpu"]["train"] == sum(layer["memory"]["cpu_train"]
                                        for layer in entry["layers"]) \
        + total["cpu"]["workspace"] + 2 * 2616 + 40
    assert total["gpu"]["estimate"] is True


def test_layers_table_has_a_memory_column(tmp_path: Path) -> None:
    cfg = tmp_path / "a.cfg"
    cfg.write_text(DN121_BAD)
    run = CliRunner().invoke(main, [str(cfg), "--layers", "--dialect", "alexeyab"])
    assert "memory" in run.output
    assert "memory (CPU, training at mini-batch 64)" in run.output
    assert "GPU ≈" in run.output
