"""The card training runs on: --gpu-memory auto (nvidia-smi), the largest common card when no
size is known (DN123), and the '# Testing' block's batch (DN124).

nvidia-smi is faked by a script on PATH that records each call, so that a test can also show
that a plain lint never starts a process."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.conftest import FIXTURES, SHARED, lint_text, need_shared

from dnlint.checks.memory import COMMON_CARD, _training_bound, train_test_layout
from dnlint.cli import main
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.network.memory import memory_report
from dnlint.rules import get_rule
from dnlint.settings import gpu
from dnlint.settings.gpu import Card, parse_cards, query_cards

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the fake nvidia-smi is a sh script")

# needs ≈91.3 GiB at mini-batch 256: DN123 with no card known
BEYOND = get_rule("DN123").bad
# the stock layout with a training batch typed into the testing block (mini-batch 64)
TESTING = ("[net]\n# Testing\nbatch=64\nsubdivisions=1\n# Training\n#batch=64\n"
           "#subdivisions=16\nwidth=416\nheight=416\nchannels=3\n\n[convolutional]\n"
           "filters=16\nsize=3\npad=1\nbatch_normalize=1\n")
# the stock layout as shipped for detector test: batch=1 active
SHIPPED = TESTING.replace("batch=64\nsubdivisions=1\n", "batch=1\nsubdivisions=1\n", 1)


def fake_smi(folder: Path, body: str) -> Path:
    """An nvidia-smi in ``folder`` that appends its arguments to ``folder/calls``, then runs
    ``body`` (sh)."""
    folder.mkdir(exist_ok=True)
    script = folder / "nvidia-smi"
    script.write_text(f'#!/bin/sh\necho "$@" >> "{folder}/calls"\n{body}\n')
    script.chmod(0o755)
    return folder


def calls(folder: Path) -> list[str]:
    path = folder / "calls"
    return path.read_text().splitlines() if path.exists() else []


@pytest.fixture
def card_12g(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH holds only a fake nvidia-smi that reports one 12 GiB card."""
    folder = fake_smi(tmp_path / "bin", 'echo "NVIDIA GeForce RTX 3060, 12288"')
    monkeypatch.setenv("PATH", str(folder))
    return folder


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A detector training folder: obj.data with its names, train list and backup folder."""
    folder = tmp_path / "job"
    (folder / "data").mkdir(parents=True)
    (folder / "backup").mkdir()
    (folder / "data" / "obj.names").write_text("cat\n")
    (folder / "data" / "train.txt").write_text("a.jpg\n")
    (folder / "obj.data").write_text("classes=1\ntrain=data/train.txt\nnames=data/obj.names\n"
                                     "backup=backup/\n")
    monkeypatch.chdir(folder)
    return folder


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["--no-config", "--format", "concise", "-q", *args])


def found(result: Result) -> list[str]:
    """'path:line:column CODE' of each finding on standard output."""
    found = []
    for line in result.stdout.splitlines():
        where, _, rest = line.partition(": ")
        found.append(f"{where} {rest.split(' ')[0]}")
    return found


# --- reading nvidia-smi ---------------------------------------------------------------------

def test_parse_one_card_and_several() -> None:
    assert parse_cards("NVIDIA GeForce RTX 3090, 24576\n").cards == (
        Card("NVIDIA GeForce RTX 3090", 24 * 2**30),)
    query = parse_cards("NVIDIA A100-SXM4-80GB, 81920\nTesla T4, 15360\n")
    assert query.smallest() == Card("Tesla T4", 15360 * 2**20)
    assert gpu.describe(query) == "the smallest of this machine's 2 GPUs (Tesla T4, 15 GiB)"


@pytest.mark.parametrize(("text", "problem"), [
    ("", "nvidia-smi listed no card"),
    ("NVIDIA GeForce GTX 1650, [N/A]\n", "nvidia-smi printed what dnlint does not understand "
     "(line 1: 'NVIDIA GeForce GTX 1650, [N/A]'; expected 'name, MiB')"),
    ("No devices were found\n", "nvidia-smi printed what dnlint does not understand (line 1: "
     "'No devices were found'; expected 'name, MiB')"),
    ("Tesla T4, 0\n", "nvidia-smi printed what dnlint does not understand (line 1: "
     "'Tesla T4, 0'; expected 'name, MiB')"),
    ("Tesla T4, ١٢\n", "nvidia-smi printed what dnlint does not understand (line 1: "
     "'Tesla T4, ١٢'; expected 'name, MiB')"),
])
def test_odd_output_is_said_not_guessed(text: str, problem: str) -> None:
    assert parse_cards(text) == gpu.CardQuery((), problem)


def test_no_nvidia_smi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert query_cards() == gpu.CardQuery(
        (), "nvidia-smi was not found on PATH (no NVIDIA driver here?)", found=False)


def test_a_failing_nvidia_smi_says_its_first_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fake_smi(tmp_path, "echo; echo \"NVIDIA-SMI has failed because it couldn't "
                      "communicate with the NVIDIA driver.\"; exit 9")
    monkeypatch.setenv("PATH", str(folder))
    assert query_cards().problem == ("nvidia-smi failed (exit status 9): NVIDIA-SMI has failed "
                                     "because it couldn't communicate with the NVIDIA driver.")


def test_a_hanging_nvidia_smi_is_killed_with_what_it_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wedged driver: the script and the sleep it starts are killed at the timeout."""
    folder = fake_smi(tmp_path, f'sleep 60 & echo $! > "{tmp_path}/child"; wait')
    monkeypatch.setenv("PATH", str(folder) + os.pathsep + "/bin" + os.pathsep + "/usr/bin")
    start = time.monotonic()
    assert query_cards(timeout=0.5).problem == "nvidia-smi did not answer within 0.5 seconds"
    assert time.monotonic() - start < 5
    child = int((tmp_path / "child").read_text())
    assert _gone(child)  # the sleep went with its session


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended within a second: no such process, or a zombie that an init
    without a reaper (a container's) has not collected."""
    for _ in range(50):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


def test_endless_output_is_read_in_bounded_memory(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fake_smi(tmp_path, "yes 'Tesla T4, 15360'")
    monkeypatch.setenv("PATH", str(folder) + os.pathsep + "/bin" + os.pathsep + "/usr/bin")
    query = query_cards(timeout=0.5)
    assert query.problem == "nvidia-smi did not answer within 0.5 seconds"


# --- when dnlint asks -----------------------------------------------------------------------

def test_a_plain_lint_never_starts_a_process(card_12g: Path, tmp_path: Path) -> None:
    """Not for a clean cfg, not for one that needs more than any common card (DN123), not
    with a size given."""
    cfg = tmp_path / "big.cfg"
    cfg.write_text(BEYOND)
    result = run(str(cfg))
    assert found(result) == [f"{cfg}:3:14 DN123"]
    assert run("--gpu-memory", "8G", str(cfg)).exit_code == 0
    assert calls(card_12g) == []


def test_auto_reads_the_card_once_and_compares_with_it(card_12g: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.cfg", tmp_path / "b.cfg"
    first.write_text(BEYOND)
    second.write_text(BEYOND)
    result = run("--gpu-memory", "auto", str(first), str(second))
    assert calls(card_12g) == ["--query-gpu=name,memory.total --format=csv,noheader,nounits"]
    assert found(result) == [f"{first}:3:14 DN121", f"{second}:3:14 DN121"]
    assert ("training needs ≈91.3 GiB of GPU memory at mini-batch 256 (batch=256, "
            "subdivisions=1), more than this machine's GPU (NVIDIA GeForce RTX 3060, 12 GiB)"
            ) in result.stdout
    assert result.stderr == ""


def test_auto_from_the_configuration(card_12g: Path, tmp_path: Path) -> None:
    (tmp_path / "big.cfg").write_text(BEYOND)
    (tmp_path / ".dnlint.toml").write_text('gpu-memory = "auto"\n')
    result = CliRunner().invoke(main, ["--format", "concise", str(tmp_path / "big.cfg")])
    assert len(calls(card_12g)) == 1
    assert "DN121 warning" in result.stdout


def test_a_training_job_reads_the_card_unasked(card_12g: Path, job: Path) -> None:
    (job / "model.cfg").write_text(BEYOND)
    result = run("obj.data", "model.cfg")
    assert len(calls(card_12g)) == 1
    assert found(result) == ["model.cfg:3:14 DN121"]


def test_auto_without_nvidia_smi_says_so_and_keeps_the_common_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    cfg = tmp_path / "big.cfg"
    cfg.write_text(BEYOND)
    result = run("--gpu-memory", "auto", str(cfg))
    assert found(result) == [f"{cfg}:3:14 DN123"]
    assert result.stderr == (
        "dnlint: --gpu-memory auto: nvidia-smi was not found on PATH (no NVIDIA driver here?); "
        "training memory is checked against the largest common training card (80 GiB, DN123) "
        "instead\n")
    assert result.exit_code == 0


def test_a_training_job_without_nvidia_smi_is_quiet(tmp_path: Path, job: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking a job on a machine without NVIDIA's driver (it trains elsewhere)."""
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    (job / "model.cfg").write_text(BEYOND)
    result = run("obj.data", "model.cfg")
    assert (found(result), result.stderr) == (["model.cfg:3:14 DN123"], "")


def test_a_training_job_with_a_broken_driver_says_so(tmp_path: Path, job: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = fake_smi(tmp_path / "bin", "echo 'No devices were found'; exit 6")
    monkeypatch.setenv("PATH", str(folder))
    (job / "model.cfg").write_text(BEYOND)
    result = run("obj.data", "model.cfg")
    assert found(result) == ["model.cfg:3:14 DN123"]
    assert result.stderr == (
        "dnlint: the GPU of this machine (read for the training job): nvidia-smi failed (exit "
        "status 6): No devices were found; training memory is checked against the largest "
        "common training card (80 GiB, DN123) instead\n")


def test_bad_gpu_memory_values(tmp_path: Path) -> None:
    result = run("--gpu-memory", "lots", str(tmp_path))
    assert result.exit_code == 2
    assert "--gpu-memory: 'lots' is not a size (try 8G, 11GiB, 6144M, or auto)" in result.output
    (tmp_path / ".dnlint.toml").write_text('gpu-memory = "huge"\n')
    (tmp_path / "model.cfg").write_text(SHIPPED)  # the configuration is read for a cfg
    result = CliRunner().invoke(main, [str(tmp_path)])
    assert result.exit_code == 2
    assert 'gpu-memory must be a size such as "8G", or "auto", not \'huge\'' in result.output


# --- DN123 and DN124 --------------------------------------------------------------------------

def test_dn123_message_and_hint() -> None:
    result = lint_text(BEYOND)
    [finding] = result.diagnostics
    assert (finding.code, finding.line, finding.column) == ("DN123", 3, 14)
    assert finding.message == (
        "training needs ≈91.3 GiB of GPU memory at mini-batch 256 (batch=256, "
        "subdivisions=1), more than the 80 GiB of the largest common training card (no "
        "--gpu-memory given)")
    assert finding.hint == "subdivisions=2 gives ≈45.7 GiB (mini-batch 128)"
    assert COMMON_CARD == 80 * 2**30


def test_a_training_batch_in_the_testing_block() -> None:
    """The issue's case: batch=64 typed over the testing batch=1. The finding is at the value
    to edit (subdivisions=1, line 4, column 14), and no DN123 for the same cause."""
    for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
        result = lint_text(TESTING.replace("416", "1024"), dialect)
        [finding] = result.diagnostics
        assert (finding.code, finding.line, finding.column) == ("DN124", 4, 14)
    assert finding.message == (
        "batch=64, subdivisions=1 are written under '# Testing' (line 2) and the '# Training' "
        "values are commented out (#batch=64, #subdivisions=16, lines 6-7): training runs a "
        "mini-batch of 64 images (≈16.9 GiB of GPU memory)")
    assert finding.hint == ("comment out the '# Testing' values and uncomment the '# Training' "
                            "ones (batch=64, subdivisions=16)")


def test_a_testing_batch_beyond_every_common_card() -> None:
    text = TESTING.replace("416", "1024") + ("\n[convolutional]\nfilters=16\nsize=3\npad=1\n"
                                             "batch_normalize=1\n") * 6
    [finding] = lint_text(text).diagnostics
    assert finding.code == "DN124"
    assert finding.message.endswith("training runs a mini-batch of 64 images (≈89.3 GiB of GPU "
                                    "memory, more than the 80 GiB of the largest common "
                                    "training card)")


def test_the_other_forks_lint_leaves_out_what_can_only_warn() -> None:
    """The other fork's lint of a guessed dialect only asks which lines fail there: DN123 and
    DN124, warnings whatever the file, are not worked out (the memory estimate of a large
    network was the costliest part of it); every other check runs as in a lint."""
    from dnlint.diagnostics import Sink
    from dnlint.lint import lint_document
    from dnlint.read.darknet_reader import read_cfg

    for text, code in ((TESTING.replace("416", "1024"), "DN124"), (BEYOND, "DN123")):
        doc = read_cfg(text.encode())
        whole, errors_only = Sink(), Sink(fold=True, detail=False)
        assert lint_document(doc, Dialect.PJ, whole) is not None
        assert lint_document(doc, Dialect.PJ, errors_only, errors_only=True) is not None
        assert [d.code for d in whole.items] == [code]
        assert errors_only.items == []


def test_the_testing_block_of_only_a_batch() -> None:
    """subdivisions written under '# Training' (active): the batch line is the place."""
    text = ("[net]\n# Testing\nbatch=64\n# Training\n#batch=16\nsubdivisions=4\nwidth=32\n"
            "height=32\nchannels=3\n\n[convolutional]\nfilters=4\n")
    result = lint_text(text)
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("DN124", 3, 7)]
    assert result.diagnostics[0].message.startswith(
        "batch=64 is written under '# Testing' (line 2) and the '# Training' values are "
        "commented out (#batch=16, line 5): training runs a mini-batch of 16 images (≈")


def test_no_subdivisions_at_all_is_dn113_alone() -> None:
    """One cause, one finding: DN113 says the training subdivisions is commented out."""
    text = TESTING.replace("subdivisions=1\n", "", 1)
    assert [(d.code, d.line) for d in lint_text(text).diagnostics] == [("DN113", 3)]


@pytest.mark.parametrize("text", [
    SHIPPED,  # batch=1 active: right for detector test
    TESTING.replace("# Training\n#batch=64\n#subdivisions=16\n", ""),  # no training block
    TESTING.replace("#batch=64\n#subdivisions=16\n", "batch=64\nsubdivisions=16\n")
    .replace("# Testing\nbatch=64\nsubdivisions=1\n", "# Testing\n#batch=1\n#subdivisions=1\n"),
    # the training values moved up unchanged: the mini-batch meant
    TESTING.replace("subdivisions=1\n", "subdivisions=16\n", 1),
    # a smaller mini-batch than the training block's: nothing grows
    TESTING.replace("batch=64\nsubdivisions=1\n", "batch=32\nsubdivisions=16\n", 1),
])
def test_what_is_not_a_training_batch_in_the_testing_block(text: str) -> None:
    assert lint_text(text).diagnostics == []


def test_a_training_job_with_batch_1_left_active(card_12g: Path, job: Path) -> None:
    (job / "model.cfg").write_text(SHIPPED + "\n[convolutional]\nfilters=18\nsize=1\n"
                                   "activation=linear\n\n[yolo]\nmask=0,1,2\n"
                                   "anchors=10,13, 16,30, 33,23\nnum=3\nclasses=1\n")
    assert found(run("model.cfg")) == []  # detector test's layout: nothing to say
    result = run("obj.data", "model.cfg")
    assert found(result) == ["model.cfg:4:14 DN124"]
    assert ("batch=1, subdivisions=1 are written under '# Testing' (line 2) and the '# Training' "
            "values are commented out (#batch=64, #subdivisions=16, lines 6-7): training runs "
            "at batch=1, the testing value (AlexeyAB's train_detector stops: 'You set incorrect "
            "value batch=1 for Training!'; the original trains one image at a time)"
            ) in result.stdout


def test_a_classifier_training_job_with_batch_1_left_active(card_12g: Path, job: Path) -> None:
    """pjreddie's classifier layout: '# Training' first, commented out, then '# Testing'."""
    (job / "model.cfg").write_text(
        "[net]\n# Training\n# batch=128\n# subdivisions=4\n\n# Testing\nbatch=1\n"
        "subdivisions=1\n\nheight=32\nwidth=32\nchannels=3\n\n[convolutional]\nfilters=2\n"
        "size=1\n\n[avgpool]\n\n[softmax]\n")
    (job / "obj.data").write_text("classes=2\ntrain=data/train.txt\nlabels=data/obj.names\n"
                                  "backup=backup/\n")
    result = run("obj.data", "model.cfg")
    assert found(result) == ["model.cfg:8:14 DN124"]
    assert ("batch=1, subdivisions=1 are written under '# Testing' (line 6) and the '# Training' "
            "values are commented out (#batch=128, #subdivisions=4, lines 3-4): training runs "
            "at batch=1, the testing value, one image at a time") in result.stdout


def test_a_known_card_replaces_the_common_card_and_not_the_testing_block(
        card_12g: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "t.cfg"
    cfg.write_text(TESTING.replace("416", "1024"))
    assert found(run("--gpu-memory", "8G", str(cfg))) == [f"{cfg}:4:14 DN124"]
    assert found(run("--gpu-memory", "auto", str(cfg))) == [f"{cfg}:4:14 DN124"]


def test_the_layout_as_read() -> None:
    result = lint_text(TESTING)
    assert result.network is not None and result.document is not None
    layout = train_test_layout(result.network, result.document)
    assert layout is not None
    assert (layout.testing, layout.active, layout.commented) == (
        2, {"batch": 3, "subdivisions": 4}, {"batch": (6, "64"), "subdivisions": (7, "16")})


# --- the bound that spares a plain lint the exact estimate ----------------------------------

def _bound_holds(paths: list[Path]) -> int:
    checked = 0
    for path in paths:
        for dialect in (Dialect.PJ, Dialect.AB, Dialect.HANK):
            result = lint_cfg_bytes(path.read_bytes(), str(path), dialect)
            network = result.network
            if network is None or network.overflowed or any(
                    layer.broken for layer in network.layers):
                continue
            for mini in (1, 4, 64):
                need = memory_report(network, dialect).gpu_total(True, mini)
                assert need <= _training_bound(network, dialect, mini), (path, dialect, mini)
                checked += 1
    return checked


def test_the_bound_is_above_the_estimate_for_every_layer_type() -> None:
    """fixtures/memory/ uses every layer type of both forks and each option that allocates."""
    assert _bound_holds(sorted((FIXTURES / "memory").glob("*.cfg"))) >= 21


def test_the_bound_is_above_the_estimate_for_the_stock_cfgs() -> None:
    need_shared()
    assert _bound_holds(sorted((SHARED / "corpus").glob("*/cfg/*.cfg"))) > 500


def _markers(count: int) -> str:
    return ("[net]\n" + "# Testing\n#batch=1\n# Training\n" * count + "batch=64\n"
            "subdivisions=1\nwidth=32\nheight=32\nchannels=3\n\n[convolutional]\nfilters=4\n")


def _layout_seconds(count: int) -> float:
    """The least time train_test_layout takes over ``count`` markers of each kind (of 3)."""
    result = lint_cfg_bytes(_markers(count).encode(), "many.cfg", Dialect.AB)
    assert result.network is not None and result.document is not None
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        layout = train_test_layout(result.network, result.document)
        best = min(best, time.perf_counter() - start)
    assert layout is None  # the active batch is under the last '# Training'
    return best


def test_a_million_markers_take_linear_time() -> None:
    """Each commented-out batch= is placed under its marker by bisection, not by a scan of
    every marker (quadratic, 100,000 of each took hours): ten times the markers cost about
    ten times the time, far from the hundred a quadratic placement costs. (A ratio of two
    sizes, not a time limit or a race with the lint, which a busy machine decides.)"""
    small, large = _layout_seconds(5_000), _layout_seconds(50_000)
    assert large < 40 * small
