"""Optional mypyc compilation of dnlint's hot modules.

All project metadata lives in pyproject.toml; this file only decides on ``ext_modules``.

* A regular build (``pip install .``, ``pip wheel .``, ``python -m build``) compiles the modules
  in ``COMPILED`` with mypyc. The ``.py`` sources are installed beside the extension modules.
* Editable installs never compile: a stale extension module beside an edited ``.py`` would
  shadow it. setuptools.build_meta runs this file with ``editable_wheel`` in ``sys.argv`` for
  ``pip install -e .`` (``develop`` on the legacy path).
* ``DNLINT_PURE=1`` disables compilation for any build.
* If mypyc or the C compiler fails, the build goes on as pure Python, with every extension
  module removed (all compiled modules need mypyc's one shared helper module, so a partial set
  must never ship). ``DNLINT_REQUIRE_COMPILED=1`` makes such a failure fatal instead (CI, wheel
  builders).
"""

from __future__ import annotations

import importlib.machinery
import os
import platform
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Compiled with mypyc, relative to src/. An entry ending in "/" means every module in that
# package. Everything else stays interpreted.
COMPILED = [
    "dnlint/read/darknet_reader.py",
    "dnlint/read/document.py",
    "dnlint/read/headers.py",
    "dnlint/read/lines.py",
    "dnlint/read/notes.py",
    "dnlint/read/line_forms.py",
    "dnlint/read/line_split.py",
    "dnlint/read/section_text.py",
    "dnlint/read/storage.py",
    "dnlint/read/structure.py",
    "dnlint/options/convert.py",
    "dnlint/options/section_memo.py",
    "dnlint/options/list_items.py",
    "dnlint/options/inline_comments.py",
    "dnlint/cnumbers.py",
    "dnlint/close_match.py",
    "dnlint/options/value_checks.py",
    "dnlint/options/schema.py",
    "dnlint/network/dialect_guess.py",
    "dnlint/network/build.py",
    "dnlint/options/net_section.py",
    "dnlint/lint.py",
    "dnlint/diagnostics.py",
    "dnlint/network/layers/",
    "dnlint/checks/whole_network.py",
    "dnlint/checks/head_agreement.py",
    "dnlint/checks/net_values.py",
    "dnlint/checks/cascade.py",
    "dnlint/checks/input_size.py",
    "dnlint/checks/shifted.py",
    "dnlint/checks/memory.py",
    "dnlint/checks/net_surprises.py",
    "dnlint/checks/truth_slot.py",
    "dnlint/network/memory.py",
    "dnlint/network/layer_memory.py",
    "dnlint/read/sniff.py",
    "dnlint/read/hank_reader.py",
    "dnlint/reporters/json_.py",
]

# setup.py commands that produce build output; anything else (egg_info, dist_info, sdist, ...)
# only needs metadata, so mypyc is not run for it.
BUILD_COMMANDS = {"bdist_wheel", "build", "build_ext", "install", "bdist", "bdist_egg"}
EDITABLE_COMMANDS = {"editable_wheel", "develop"}
EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _warn(message: str) -> None:
    print(f"dnlint setup.py: {message}", file=sys.stderr, flush=True)


def _compiled_paths() -> list[str]:
    paths: list[str] = []
    for entry in COMPILED:
        path = Path("src", entry)
        if entry.endswith("/"):
            paths.extend(sorted(p.as_posix() for p in path.glob("*.py")))
        elif path.is_file():
            paths.append(path.as_posix())
        else:
            raise FileNotFoundError(f"setup.py COMPILED names a missing module: {entry}")
    return paths


def _should_compile() -> bool:
    commands = set(sys.argv[1:])
    if commands & EDITABLE_COMMANDS or not commands & BUILD_COMMANDS:
        return False
    if _flag("DNLINT_PURE"):
        _warn("DNLINT_PURE is set: building pure Python")
        return False
    if platform.python_implementation() != "CPython":
        _warn("mypyc compiles for CPython only: building pure Python")
        return False
    return True


def _mypyc_extensions() -> list[Any]:
    try:
        from mypyc.build import mypycify

        return list(mypycify(_compiled_paths(), opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc reports type errors with sys.exit
        if _flag("DNLINT_REQUIRE_COMPILED"):
            raise
        _warn(f"mypyc failed ({exc!r}): building pure Python")
        return []


def _remove_extension_modules(root: str, keep: set[str]) -> None:
    """Delete every extension module under ``root`` (a build_lib) not in ``keep``."""
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.endswith(EXT_SUFFIXES) and os.path.abspath(path) not in keep:
                os.remove(path)


class OptionalBuildExt(build_ext):
    """Builds all the mypyc extension modules or none: any failure leaves pure Python."""

    def run(self) -> None:
        if not self.extensions:
            super().run()
            return
        # A build_lib left over from an earlier build with another module list may hold
        # extension modules that would shadow today's .py sources.
        expected = {os.path.abspath(p) for p in self.get_outputs()}
        _remove_extension_modules(self.build_lib, expected)
        try:
            super().run()
        except Exception as exc:
            if _flag("DNLINT_REQUIRE_COMPILED"):
                raise
            _warn(f"compiling the mypyc extension modules failed ({exc!r}): building pure Python")
            _remove_extension_modules(self.build_lib, keep=set())
            self.extensions = []  # nothing for install_lib to record


setup(
    ext_modules=_mypyc_extensions() if _should_compile() else [],
    cmdclass={"build_ext": OptionalBuildExt},
)
