"""Check a built sdist or wheel of dnlint before anyone installs it (run by .ci/run and the
release workflow).

    python .ci/check_dist.py sdist dist/dnlint-0.1.0.tar.gz
    python .ci/check_dist.py wheel dist/dnlint-0.1.0-py3-none-any.whl --pure
    python .ci/check_dist.py wheel wheelhouse/dnlint-0.1.0-cp310-...manylinux...whl --compiled
    python .ci/check_dist.py version        # prints the version the sources say

Every distribution: the version written in src/dnlint/__init__.py, the SPDX licence and the
LICENSE file. The sdist: every file git tracks (but the forge's and editors' own), so that an
extracted sdist runs the README's commands and the whole suite. A wheel: the platform tag
matches the build (``py3-none-any`` for ``--pure``, a ``manylinux``/``macosx``/``win`` tag and
the mypyc modules for ``--compiled``), and nothing of the tests or the build machine in it.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tarfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# tracked files an sdist has no use for: the forge's settings only
NOT_IN_SDIST = (".github/",)


def source_version() -> str:
    tree = ast.parse((ROOT / "src" / "dnlint" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__version__":
            return str(ast.literal_eval(node.value))
    raise SystemExit("src/dnlint/__init__.py sets no __version__")


def check_metadata(text: str, where: str) -> list[str]:
    meta = HeaderParser().parsestr(text)
    problems = []
    if meta["Version"] != source_version():
        problems.append(f"{where}: version {meta['Version']}, the sources say {source_version()}")
    if meta["License-Expression"] != "MIT":
        problems.append(f"{where}: License-Expression is {meta['License-Expression']!r}, not MIT")
    if "LICENSE" not in (meta.get_all("License-File") or []):
        problems.append(f"{where}: no License-File: LICENSE")
    return problems


def tracked_files() -> list[str] | None:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None  # not a clone (an extracted sdist): nothing to compare with
    return [name for name in out.decode().split("\0") if name]


def check_sdist(path: Path) -> list[str]:
    with tarfile.open(path) as archive:
        names = {member.name.split("/", 1)[1] for member in archive.getmembers()
                 if member.isfile() and "/" in member.name}
        prefix = archive.getmembers()[0].name.split("/", 1)[0]
        pkg_info = archive.extractfile(f"{prefix}/PKG-INFO")
        assert pkg_info is not None
        problems = check_metadata(pkg_info.read().decode(), path.name)
    tracked = tracked_files()
    if tracked is not None:
        missing = [name for name in tracked
                   if name not in names and not name.startswith(NOT_IN_SDIST)]
        problems += [f"{path.name}: lacks {name} (MANIFEST.in)" for name in missing]
    return problems


def check_wheel(path: Path, compiled: bool) -> list[str]:
    tag = path.name.removesuffix(".whl").split("-", 2)[2]
    problems = []
    unrepaired = tag.endswith("linux_x86_64") and "manylinux" not in tag
    if compiled and (tag.endswith("none-any") or unrepaired):
        problems.append(f"{path.name}: tag {tag} is not one a package index takes for a "
                        "compiled wheel (repair it with auditwheel)")
    if not compiled and tag != "py3-none-any":
        problems.append(f"{path.name}: the pure wheel is tagged {tag}, not py3-none-any")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        problems += check_metadata(archive.read(f"{info}/METADATA").decode(), path.name)
    if f"{info}/licenses/LICENSE" not in names:
        problems.append(f"{path.name}: no {info}/licenses/LICENSE")
    extensions = [name for name in names if name.endswith((".so", ".pyd"))]
    if compiled and not any(name.startswith("dnlint/lint.") for name in extensions):
        problems.append(f"{path.name}: the mypyc modules are missing (dnlint/lint is not compiled)")
    if not compiled and extensions:
        problems.append(f"{path.name}: a pure wheel holds extension modules: {extensions[:3]}")
    strays = [name for name in names if name.startswith(("tests/", "fixtures/", "build/"))]
    if strays:
        problems.append(f"{path.name}: holds what is not the package: {strays[:3]}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["sdist", "wheel", "version"])
    parser.add_argument("path", type=Path, nargs="?")
    build = parser.add_mutually_exclusive_group()
    build.add_argument("--compiled", action="store_true")
    build.add_argument("--pure", action="store_true")
    args = parser.parse_args()
    if args.kind == "version":
        print(source_version())
        return
    if args.path is None or not args.path.is_file():
        parser.error(f"no {args.kind} at {args.path}")
    if args.kind == "wheel" and not (args.compiled or args.pure):
        parser.error("a wheel is checked as --compiled or --pure")
    problems = check_sdist(args.path) if args.kind == "sdist" else check_wheel(args.path,
                                                                                args.compiled)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        raise SystemExit(1)
    print(f"{args.path.name}: ok")


if __name__ == "__main__":
    main()
