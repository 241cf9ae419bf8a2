"""The Python API against careless callers: the cfg's result with ``data=`` attached, one
path given as a ``str`` is one path, arguments of the wrong type raise TypeError before
anything is read, and the caller's cycle collector is the caller's whenever it has control."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import dnlint
from dnlint.api import new_run

CFG = """\
[net]
width=64
height=64
channels=3

[convolutional]
filters=21
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23
classes=2
num=3
"""  # builds (64x64x21 into the head): no finding of its own


@pytest.fixture
def job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cfg, and a .data file whose names file holds 3 classes, not 2, and whose train
    list is missing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.cfg").write_text(CFG)
    (tmp_path / "obj.names").write_text("a\nb\nc\n")
    (tmp_path / "obj.data").write_text("classes=2\nnames=obj.names\ntrain=nope.txt\n")
    return tmp_path


def summary(result: dnlint.LintResult) -> tuple[Any, ...]:
    return (result.path, None if result.layers is None else len(result.layers),
            [(f.code, f.path, f.line) for f in result.findings])


# --- data= -----------------------------------------------------------------------------------
def test_data_gives_the_cfgs_result_with_the_data_findings_attached(job: Path) -> None:
    assert dnlint.lint_path("m.cfg").findings == ()
    # DN413 (the names file's 3 classes against the head's 2) is the cfg's; DN421 and DN418
    # the .data file's own
    expected = ("m.cfg", 2, [("DN413", "m.cfg", 14), ("DN421", "obj.data", None),
                             ("DN418", "obj.data", 3)])
    assert summary(dnlint.lint_path("m.cfg", data="obj.data")) == expected
    assert summary(dnlint.lint_text(CFG, "m.cfg", data=job / "obj.data")) == (
        "m.cfg", 2, [("DN413", "m.cfg", 14), ("DN421", str(job / "obj.data"), None),
                     ("DN418", str(job / "obj.data"), 3)])
    # a .data file that cannot be read: still the cfg's result, with the DN029 of the data
    missing = dnlint.lint_path("m.cfg", data="gone.data")
    assert summary(missing) == ("m.cfg", 2, [("DN029", "gone.data", None)])
    # lint_paths: one result per file, the .data file's first (as the command reports them)
    assert [summary(r) for r in dnlint.lint_paths(["m.cfg"], data="obj.data")] == [
        ("obj.data", None, [("DN421", "obj.data", None), ("DN418", "obj.data", 3)]),
        ("m.cfg", 2, [("DN413", "m.cfg", 14)])]


# --- one path as a str ---------------------------------------------------------------------------
def test_one_path_given_as_a_str_or_pathlike_is_one_path(job: Path) -> None:
    (job / "models").mkdir()
    (job / "models" / "a.cfg").write_text(CFG)
    (job / "models" / "b.cfg").write_text(CFG.replace("classes=2", "classes=1"))
    listed = [summary(r) for r in dnlint.lint_paths(["models"])]
    assert [(p, n, [c for c, _, _ in f]) for p, n, f in listed] == [
        ("models/a.cfg", 2, []), ("models/b.cfg", 2, ["DN401"])]
    assert [summary(r) for r in dnlint.lint_paths("models")] == listed
    assert [summary(r) for r in dnlint.lint_paths(Path("models"))] == listed
    # weights= takes one path as a str too: not its characters
    assert dnlint.lint_path("m.cfg", weights="m.weights").findings[0].path == "m.weights"


@pytest.mark.parametrize(("call", "message"), [
    (lambda: dnlint.lint_paths(b"models"),
     "lint_paths: paths must be a path or an iterable of paths, not bytes"),
    (lambda: dnlint.lint_paths(7), "lint_paths: paths must be a path or an iterable of "
                                   "paths, not int"),
    (lambda: dnlint.lint_paths(["m.cfg", 7]),
     r"lint_paths: paths item must be a path \(str or os.PathLike\), not int"),
    (lambda: dnlint.lint_paths([b"m.cfg"]),
     r"lint_paths: paths item must be a path \(str or os.PathLike\), not bytes"),
])
def test_lint_paths_refuses_what_is_not_paths(job: Path, call: Any, message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}$"):
        list(call())


# --- wrong types ------------------------------------------------------------------------------
@pytest.mark.parametrize(("call", "message"), [
    (lambda: dnlint.lint_text(Path("m.cfg")),
     "lint_text: text must be the cfg's content as str or bytes, not PosixPath; to lint a "
     "file, use dnlint.lint_path"),
    (lambda: dnlint.lint_text(7), "lint_text: text must be the cfg's content as str or "
                                  "bytes, not int"),
    (lambda: dnlint.lint_text(None), "lint_text: text must be the cfg's content as str or "
                                     "bytes, not NoneType"),
    (lambda: dnlint.lint_text(["[net]"]), "lint_text: text must be the cfg's content as str "
                                          "or bytes, not list"),
    (lambda: dnlint.lint_text(CFG, 7), r"lint_text: path must be a path \(str or "
                                       r"os.PathLike\), not int"),
    (lambda: dnlint.lint_path(7), r"lint_path: path must be a path \(str or os.PathLike\), "
                                  "not int"),
    (lambda: dnlint.lint_path(None), r"lint_path: path must be a path \(str or "
                                     r"os.PathLike\), not NoneType"),
    (lambda: dnlint.lint_path(b"m.cfg"), r"lint_path: path must be a path \(str or "
                                         r"os.PathLike\), not bytes"),
    (lambda: dnlint.lint_text(CFG, weights=7), "weights must be a path or an iterable of "
                                               "paths, not int"),
    (lambda: dnlint.lint_text(CFG, data=["obj.data"]), r"data must be a path \(str or "
                                                       r"os.PathLike\), not list"),
    (lambda: dnlint.lint_text(CFG, target=7), "target must be a str or an iterable of str, "
                                              "not int"),
    (lambda: dnlint.lint_text(CFG, select=[1]), "select must hold str items, not int"),
    (lambda: dnlint.lint_text(CFG, ignore=b"DN1"), "ignore must be a str or an iterable of "
                                                   "str, not bytes"),
    (lambda: dnlint.lint_text(CFG, dialect=3), "dialect must be a str or None, not int"),
    (lambda: dnlint.lint_text(CFG, config=3.5), "config must be a path, True, False or "
                                                "None, not float"),
    (lambda: new_run(("m.cfg",), gpu_memory=True), r"gpu_memory must be a size \(bytes as "
                                                   r"int, or str\), not bool"),
])
def test_wrong_argument_types_raise_type_error(job: Path, call: Any, message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}$"):
        call()


def test_bytes_like_text_is_linted_as_its_bytes() -> None:
    expected = summary(dnlint.lint_text(CFG, "m.cfg"))
    for text in (CFG.encode(), bytearray(CFG.encode()), memoryview(CFG.encode())):
        assert summary(dnlint.lint_text(text, "m.cfg")) == expected


def test_a_size_that_is_no_size_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"^--gpu-memory: 0 is not a size \(bytes, more than "
                                         r"0\)$"):
        new_run(("m.cfg",), gpu_memory=0)



@pytest.mark.parametrize(("call", "message"), [
    (lambda: dnlint.lint_path("m\0.cfg"), r"lint_path: path 'm\\x00.cfg'"),
    (lambda: list(dnlint.lint_paths(["m.cfg", "a\0b"])), r"lint_paths: paths item 'a\\x00b'"),
    (lambda: dnlint.lint_path("m.cfg", data="obj\0.data"), r"data 'obj\\x00.data'"),
    (lambda: dnlint.lint_path("m.cfg", weights=["m\0.weights"]), r"weights item "
                                                                    r"'m\\x00.weights'"),
    (lambda: dnlint.lint_text(CFG, "x/\0.cfg"), r"lint_text: path 'x/\\x00.cfg'"),
    (lambda: dnlint.lint_text(CFG, config=Path("\0.toml")), r"config '\\x00.toml'"),
])
def test_a_path_holding_a_nul_is_a_value_error(job: Path, call: Any, message: str) -> None:
    """No file name holds a NUL: the argument is refused by name (it was a DN000 'dnlint
    failed on this file', or os.stat's bare 'embedded null byte' from inside the run)."""
    with pytest.raises(ValueError, match=f"^{message} holds a NUL character, which no path "
                                         "can$"):
        call()


def test_a_lone_surrogate_in_str_text_is_linted_as_the_byte_it_escapes() -> None:
    """A str read with errors="surrogateescape" is linted as the bytes it was read from (it
    raised UnicodeEncodeError); a surrogate that escapes no byte as dnlint-lsp lints it."""
    raw = CFG.encode() + b"# caf\xe9\n"
    escaped = raw.decode("utf-8", "surrogateescape")
    assert summary(dnlint.lint_text(escaped, "m.cfg")) == summary(
        dnlint.lint_text(raw, "m.cfg"))
    assert [(f.code, f.line) for f in dnlint.lint_text(escaped).findings] == [("DN016", 16)]
    assert [(f.code, f.line) for f in dnlint.lint_text(CFG + "# \ud800\n").findings] == [
        ("DN016", 16)]


# --- the cycle collector -----------------------------------------------------------------------
@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_lint_paths_leaves_the_callers_collector_as_it_was(job: Path, collector: None,
                                                           enabled: bool) -> None:
    (job / "more.cfg").write_text(CFG)
    (gc.enable if enabled else gc.disable)()
    results = dnlint.lint_paths(["m.cfg", "more.cfg", "m.cfg"])
    first = next(results)
    assert first.path == "m.cfg"
    assert gc.isenabled() is enabled  # the caller has control: its collector
    gc.disable() if enabled else gc.enable()  # the caller changes its mind between results
    assert next(results).path == "more.cfg"
    assert gc.isenabled() is not enabled
    (gc.enable if enabled else gc.disable)()
    results.close()  # unfinished
    assert gc.isenabled() is enabled
    abandoned = dnlint.lint_paths(["m.cfg", "more.cfg"])
    next(abandoned)
    del abandoned  # dropped without close
    assert gc.isenabled() is enabled
    assert [r.path for r in dnlint.lint_paths("m.cfg")] == ["m.cfg"]  # run to the end
    assert gc.isenabled() is enabled


def test_a_run_that_fails_gives_the_collector_back(job: Path, collector: None) -> None:
    from dnlint.settings.config import ConfigError

    (job / "bad.toml").write_text("select = [\n")
    gc.enable()
    with pytest.raises(ConfigError):
        dnlint.lint_path("m.cfg", config="bad.toml")
    with pytest.raises(ConfigError):
        next(dnlint.lint_paths("m.cfg", config="bad.toml"))
    assert gc.isenabled()
