"""Every setting the command honours, the editor honours the same way: both resolve a
document's settings in one place (:func:`dnlint.pipeline.resolve`), from the same record
(:class:`dnlint.pipeline.Choices`: the flags, or the editor's settings) and the same
configuration file.

Each configuration key is set in a ``.dnlint.toml`` beside one cfg; the command's findings
(a run, as ``dnlint m.cfg`` makes it) and the language server's (its lint of the same text)
must be the same, and different from the findings without that key (so that each case tests
something). Each editor setting must make the record its flag makes.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from tests.test_gpu_card import calls, fake_smi

from dnlint.api import new_run
from dnlint.lsp import rpc
from dnlint.lsp.pipeline import lint_text
from dnlint.lsp.server import Server
from dnlint.pipeline import Choices
from dnlint.result import FileResult
from dnlint.settings import config as config_module
from dnlint.settings.config import ConfigFinder

CFG = """\
[net]
batch=64
subdivisions=24
width=416
height=416
channels=3
learning_rate=0.001
max_batches=100
steps=80,90
scales=.1,.1

[convolutional]
filters=16
size=3
activation=mish

[maxpool]
size=2
stride=2

[convolutional]
filters=18
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,14,23,27,37,58
classes=1
num=3
"""

# configuration key -> its TOML, and the (code, line) it adds (+) or removes (-) from the
# findings without a configuration: DN103:3 DN112:9 DN112:10
CONFIG_CASES: dict[str, tuple[str, list[str]]] = {
    "dialect": ('dialect = "pjreddie"', ["+DN207:15"]),
    "select": ('select = ["DN103"]', ["-DN112:9", "-DN112:10"]),
    "extend-select": ('extend-select = ["DN7"]', ["+DN701:8"]),
    "ignore": ('ignore = ["DN112"]', ["-DN112:9", "-DN112:10"]),
    "extend-ignore": ('extend-ignore = ["DN103"]', ["-DN103:3"]),
    "per-file-ignores": ('[per-file-ignores]\n"m.cfg" = ["DN103"]', ["-DN103:3"]),
    "severity-override": ('[severity-override]\nDN103 = "error"', ["~DN103:3"]),
    "target": ('target = ["tensorrt-demos", "hank-onnx"]', ["+DN640:9", "+DN630:26"]),
    "recipe": ("recipe = true", ["+DN701:8"]),
    "gpu-memory": ('gpu-memory = "100M"', ["+DN121:3"]),
}
# keys about which files a directory walk lints (an editor lints the file it has open) and
# where a --data file's paths resolve (an editor has no --data): nothing to compare
NOT_FOR_ONE_DOCUMENT = {"exclude", "extend-exclude", "respect-gitignore", "force-exclude",
                        "data-root"}


def _found(result: FileResult) -> list[tuple[str, int | None, int | None, str, str, str]]:
    return [(d.code, d.line, d.column, d.severity.value, d.message, d.hint or "")
            for d in result.diagnostics]


def _cli(path: Path, **flags: object) -> FileResult:
    results = list(new_run((str(path),), **flags).results())  # type: ignore[arg-type]
    assert len(results) == 1
    return results[0]


def _editor(path: Path, settings: Choices | None = None) -> FileResult:
    return lint_text(path.read_text(), str(path), ConfigFinder(), settings or Choices()).result


def _changes(before: FileResult, after: FileResult) -> list[str]:
    old = {(d.code, d.line): d.severity for d in before.diagnostics}
    new = {(d.code, d.line): d.severity for d in after.diagnostics}
    changes = [f"+{c}:{n}" for c, n in new.keys() - old.keys()]
    changes += [f"-{c}:{n}" for c, n in old.keys() - new.keys()]
    changes += [f"~{c}:{n}" for (c, n) in old.keys() & new.keys() if old[c, n] != new[c, n]]
    return sorted(changes)


def test_every_configuration_key_is_compared() -> None:
    assert set(CONFIG_CASES) | NOT_FOR_ONE_DOCUMENT == set(config_module._KEYS)


@pytest.mark.parametrize("key", sorted(CONFIG_CASES))
def test_the_editor_honours_the_configuration_as_the_command_does(tmp_path: Path,
                                                                  key: str) -> None:
    toml, expected = CONFIG_CASES[key]
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    without = _cli(path)
    (tmp_path / ".dnlint.toml").write_text(toml + "\n")
    cli, editor = _cli(path), _editor(path)
    assert _changes(without, cli) == sorted(expected)
    assert _found(editor) == _found(cli)
    assert (editor.dialect, editor.dialect_reason) == (cli.dialect, cli.dialect_reason)


# editor setting -> (its value, the new_run argument of the flag of the same name)
EDITOR_CASES: dict[str, tuple[object, dict[str, object]]] = {
    "dialect": ("pjreddie", {"dialect": "pjreddie"}),
    "select": (["DN103"], {"select": ["DN103"]}),
    "extendSelect": (["DN7"], {"extend_select": ["DN7"]}),
    "ignore": (["DN112"], {"ignore": ["DN112"]}),
    "target": (["tensorrt-demos"], {"target": ["tensorrt-demos"]}),
    "gpuMemory": ("100M", {"gpu_memory": "100M"}),
}


@pytest.mark.parametrize("key", sorted(EDITOR_CASES))
def test_an_editor_setting_makes_the_record_its_flag_makes(tmp_path: Path, key: str) -> None:
    value, flags = EDITOR_CASES[key]
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    server = Server(rpc.Writer(io.BytesIO()))
    server.apply_settings({"dnlint": {key: value}})
    run = new_run((str(path),), **flags)  # type: ignore[arg-type]
    # the machine's card (gpu-memory "auto", a training job) is asked once per run, and once
    # per settings of the editor: each face keeps its own (test_gpu_memory_auto_* below)
    assert server.settings.machine_card is not None
    assert (server.settings._replace(machine_card=None)
            == run.choices()._replace(machine_card=None))
    cli, editor = _cli(path, **flags), _editor(path, server.settings)
    assert _found(editor) == _found(cli)
    assert _found(cli) != _found(_cli(path))


def test_dialect_auto_in_the_editor_beats_the_configuration_as_the_flag_does(
        tmp_path: Path) -> None:
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    (tmp_path / ".dnlint.toml").write_text('dialect = "pjreddie"\n')
    server = Server(rpc.Writer(io.BytesIO()))
    server.apply_settings({"dnlint": {"dialect": "auto"}})
    cli, editor = _cli(path, dialect="auto"), _editor(path, server.settings)
    assert cli.dialect_reason == editor.dialect_reason == (
        "only AlexeyAB's Darknet has activation=mish")
    assert _found(editor) == _found(cli)


POSIX = pytest.mark.skipif(os.name != "posix", reason="the fake nvidia-smi is a sh script")


def _logged(stream: io.BytesIO) -> list[tuple[int, str]]:
    """(type, message) of each window/logMessage the server wrote."""
    stream.seek(0)
    found = []
    while (message := rpc.read_message(stream)) is not None:
        if message.get("method") == "window/logMessage":
            found.append((message["params"]["type"], message["params"]["message"]))
    return found


@POSIX
def test_gpu_memory_auto_in_the_editor_asks_the_card_as_the_flag_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    smi = fake_smi(tmp_path / "bin", 'echo "Tiny Card, 100"')  # 100 MiB: DN121 on CFG
    monkeypatch.setenv("PATH", str(smi))
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    cli = _cli(path, gpu_memory="auto")
    assert len(calls(smi)) == 1
    assert _changes(_cli(path), cli) == ["+DN121:3"]
    [card] = [d.message for d in cli.diagnostics if d.code == "DN121"]
    assert "more than this machine's GPU (Tiny Card, 100 MiB)" in card
    server = Server(rpc.Writer(io.BytesIO()))
    server.apply_settings({"dnlint": {"gpuMemory": "auto"}})
    assert len(calls(smi)) == 1  # settings alone start no process
    editor = _editor(path, server.settings)
    assert _found(editor) == _found(cli)
    _editor(path, server.settings)  # the next keystroke: the same answer, no second process
    assert len(calls(smi)) == 2
    server.apply_settings({"dnlint": {"gpuMemory": "auto"}})  # new settings: asked again
    assert _found(_editor(path, server.settings)) == _found(cli)
    assert len(calls(smi)) == 3
    server.apply_settings({"dnlint": {"gpuMemory": "8G"}})
    _editor(path, server.settings)
    assert len(calls(smi)) == 3


@POSIX
def test_gpu_memory_auto_of_the_configuration_in_the_editor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    smi = fake_smi(tmp_path / "bin", 'echo "Tiny Card, 100"')
    monkeypatch.setenv("PATH", str(smi))
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    (tmp_path / ".dnlint.toml").write_text('gpu-memory = "auto"\n')
    server = Server(rpc.Writer(io.BytesIO()))
    server.apply_settings({})
    cli, editor = _cli(path), _editor(path, server.settings)
    assert [(d.code, d.line) for d in cli.diagnostics if d.code == "DN121"] == [("DN121", 3)]
    assert _found(editor) == _found(cli)
    assert len(calls(smi)) == 2  # one for the run, one for the editor's settings


@POSIX
def test_gpu_memory_auto_without_nvidia_smi_in_the_editor_as_the_flag_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    run = new_run((str(path),), gpu_memory="auto")
    cli = list(run.results())
    stream = io.BytesIO()
    server = Server(rpc.Writer(stream))
    server.apply_settings({"dnlint": {"gpuMemory": "auto"}})
    editor = _editor(path, server.settings)
    _editor(path, server.settings)
    assert _found(editor) == _found(cli[0]) == _found(_cli(path))  # the common card, DN123
    why = ("nvidia-smi was not found on PATH (no NVIDIA driver here?); training memory is "
           "checked against the largest common training card (80 GiB, DN123) instead")
    assert run.messages == [f"--gpu-memory auto: {why}"]
    assert _logged(stream) == [(2, f'gpuMemory "auto": {why}')]  # once, as a warning


def test_an_editor_setting_of_the_wrong_type_is_said_as_a_bad_value_is(tmp_path: Path) -> None:
    """A flag's value of a type it cannot take is a warning in the log, the setting left at
    its default (a dialect of 5, or fixAll "false", was ignored without a word)."""
    stream = io.BytesIO()
    server = Server(rpc.Writer(stream))
    server.apply_settings({"dnlint": {"dialect": 5, "fixAll": "false",
                                      "disableRuleComment": 0, "target": None}})
    assert _logged(stream) == [(2, "settings: dialect must be a name, not 5"),
                               (2, "settings: fixAll must be true or false, not 'false'"),
                               (2, "settings: disableRuleComment must be true or false, not 0")]
    assert (server.fix_all, server.disable_comment) == (True, True)
    path = tmp_path / "m.cfg"
    path.write_text(CFG)
    assert _found(_editor(path, server.settings)) == _found(_cli(path))
