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
from pathlib import Path

import pytest

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
    # the run's nvidia-smi query (--gpu-memory auto, a training job) is the run's own, asked
    # once per run: an editor starts no process
    assert server.settings == run.choices()._replace(machine_card=None)
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
