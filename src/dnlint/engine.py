"""Turning command-line paths into linted files: discovery, safe reading, and the run itself.

Reading is defensive: only regular files are read (a FIFO or a device would hang or never end),
and a cfg is read up to :data:`MAX_CFG_BYTES` so a multi-GB file passed by mistake cannot exhaust
memory. A path that cannot be read at all raises :class:`InputError` (exit 2).
"""

from __future__ import annotations

import gc
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from dnlint.diagnostics import Diagnostic, Severity, new_diagnostic
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.result import FileResult

MAX_CFG_BYTES = 256 * 1024 * 1024
WEIGHTS_SUFFIXES = (".weights",)
_CONV_PREFIX = re.compile(r"\.conv\.\d+\Z")  # darknet partial's output: yolov4.conv.137


class InputError(Exception):
    """A path that cannot be read at all: reported on one line, exit status 2."""


@dataclass(frozen=True)
class Input:
    path: str
    kind: str  # "cfg", "weights" or "stdin"
    explicit: bool = True


@dataclass
class RunOptions:
    dialect: Dialect | None = None
    weights: tuple[str, ...] = ()
    cfg: str | None = None
    scan: bool = False
    data: str | None = None
    verbose: bool = False
    targets: tuple[str, ...] = ()  # --target: deployment targets checked (dnlint.targets)


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)


def is_weights_path(path: str) -> bool:
    name = os.path.basename(path)
    return name.endswith(WEIGHTS_SUFFIXES) or _CONV_PREFIX.search(name) is not None


def collect_inputs(paths: tuple[str, ...], notes: list[str]) -> list[Input]:
    """Expand directories to the Darknet cfgs below them; classify every path by its suffix."""
    inputs: list[Input] = []
    if paths.count("-") > 1:
        raise InputError("-: standard input can be read only once")
    for path in paths:
        if path == "-":
            inputs.append(Input("-", "stdin"))
        elif os.path.isdir(path):
            inputs += _walk(path, notes)
        else:
            inputs.append(Input(path, "weights" if is_weights_path(path) else "cfg"))
    return inputs


def _walk(root: str, notes: list[str]) -> Iterator[Input]:
    found = sorted(Path(root).rglob("*.cfg"))
    for path in found:
        if not path.is_file():
            notes.append(f"{path}: skipped, not a regular file")
            continue
        if not looks_like_darknet(path):
            notes.append(f"{path}: skipped, not a Darknet cfg (no [net] or [network] section)")
            continue
        yield Input(str(path), "cfg", explicit=False)


def looks_like_darknet(path: Path) -> bool:
    """An INI ``setup.cfg`` is not a Darknet cfg: look for [net]/[network] near the top."""
    try:
        with path.open("rb") as handle:
            head = handle.read(65536)
    except OSError:
        return True  # let the real read report it
    for raw in head.splitlines():
        line = raw.strip().lstrip(b"\xef\xbb\xbf").replace(b" ", b"").replace(b"\t", b"")
        if not line or line[:1] in (b"#", b";"):
            continue
        return line.startswith((b"[net]", b"[network]"))
    return False


def require_regular_file(path: str) -> os.stat_result:
    """stat() ``path``, refusing what cannot be read as a file (a FIFO would hang the read)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file or directory") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: not a regular file")
    return info


def read_input(path: str, limit: int = MAX_CFG_BYTES) -> bytes:
    """Read a regular file (or stdin), refusing what cannot be read; at most ``limit`` bytes."""
    if path == "-":
        return sys.stdin.buffer.read(limit + 1)
    info = require_regular_file(path)
    try:
        with open(path, "rb") as handle:
            # Ask for the size stat() saw: read(limit + 1) allocates the whole limit up front,
            # which cost more than linting a small cfg.
            data = handle.read(min(info.st_size, limit) + 1)
            while info.st_size < len(data) <= limit:  # it grew since stat(), or is /proc
                more = handle.read(min(1 << 20, limit + 1 - len(data)))
                if not more:
                    break
                data += more
            return data
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def lint_input(item: Input, options: RunOptions) -> FileResult:
    data = read_input(item.path)
    display = "<stdin>" if item.kind == "stdin" else item.path
    if len(data) > MAX_CFG_BYTES:
        return _too_large(display)
    try:
        with cycle_gc_paused():
            return lint_cfg_bytes(data, display, options.dialect)
    except RecursionError:
        return _failed(display, "the file nests too deeply to analyse")
    except Exception as exc:  # a bug in dnlint must not hide the other files' results
        return _failed(display, f"dnlint failed on this file ({type(exc).__name__}: {exc})")


@contextmanager
def cycle_gc_paused() -> Iterator[None]:
    """Pause the cycle collector while files are linted (nested uses are free).

    A lint builds many small acyclic objects (options, layers, blocks) that reference counting
    frees; the cycle collector only rescans them, which doubled the time of a 100k-layer cfg.
    A run pauses it for all its files: the results stay alive until they are reported, and
    re-enabling it after every file made it rescan all of them again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_data(result: FileResult, data_path: str) -> None:
    """``--data obj.data``: its classes and names file against every detection head."""
    require_regular_file(data_path)
    if result.network is None:
        return
    from dnlint.checks.data import check_data_file
    from dnlint.diagnostics import Sink

    sink = Sink()
    check_data_file(result.network, Path(data_path), sink)
    result.add([replace(d, path=d.path or result.path) for d in sink.items])


def _failed(path: str, message: str) -> FileResult:
    diagnostic = new_diagnostic("DN000", 1, 1, message + "; please report it with the file",
                                None, path)
    return FileResult(path, None, "", [diagnostic])


def _too_large(path: str) -> FileResult:
    message = (
        f"file is larger than {MAX_CFG_BYTES // (1024 * 1024)} MiB: not a cfg (a weights file "
        "passed as the cfg?)"
    )
    diagnostic = new_diagnostic("DN023", 1, 1, message, None, path)
    return FileResult(path, None, "", [diagnostic])
