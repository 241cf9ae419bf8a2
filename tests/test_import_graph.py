"""The shape of ``src/dnlint``'s imports, read from the sources (every import, at the top, in a
function or under ``TYPE_CHECKING``): no circle between modules, no stage importing a later
one, no module importing another package's private name, and no source file over the size
one sitting reads.

The one kind of circle allowed is a registry's: a package whose ``__init__`` imports its member
modules inside a function, on first use, so that each registers itself with the package
(``dnlint.rules``, ``dnlint.network.layers``, ``dnlint.fixes``, ``dnlint.reporters``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from conftest import ROOT

SRC = ROOT / "src"

# The stages in the order data flows (CONTRIBUTING.md): a unit (a top-level module or package
# of dnlint) may import its own group and the groups before it, never a later one. The faces
# come last. The package root (``dnlint/__init__.py``: the version and the API's names, loaded
# on first use) is no stage.
STAGES: list[tuple[str, ...]] = [
    ("strenum", "severity", "dialects", "clean", "cnumbers", "close_match", "edits",
     "records"),  # plain values
    ("rules",),  # the rule registry
    ("diagnostics",),  # the finding record
    ("read",),  # bytes -> sections
    ("options",),  # sections -> typed options
    ("network",),  # typed sections -> layers with shapes
    ("weights",),  # the byte layout and the file
    ("checks",),  # across options and layers
    ("dataset",),  # a training job's images and labels
    ("result",),  # one file's result
    ("lint",),  # the stages for one cfg
    ("targets",),  # deployment targets read a lint
    ("settings",),  # configuration, selectors, directives, policy
    ("fixes",),  # --fix reads a lint
    ("collector", "pipeline"),  # one document, complete
    ("run",),  # a command line's files
    ("reporters",),  # output formats
    ("api_types", "api"),  # the Python API
    ("console",),  # the command's output and exit status
    ("cli", "command", "argv", "about", "script", "__main__", "lsp", "web_face",
     "docgen"),  # the faces
]
MAX_LINES = 600

# Nothing is known to break these rules: a new exception needs a reason written here.
KNOWN_CIRCLES: list[list[str]] = []
KNOWN_LATER: set[tuple[str, str]] = set()
KNOWN_LONG: set[str] = set()


class Import(NamedTuple):
    source: str  # the importing module
    target: str  # the module imported (or the module a name is imported from)
    name: str | None  # the name imported from ``target``, if not a module
    line: int
    in_function: bool


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / "dnlint").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, path: Path) -> Iterator[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(module, alias.name, None, child.lineno, in_function)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    if full in MODULES:
                        yield Import(module, full, None, child.lineno, in_function)
                    else:
                        yield Import(module, base, alias.name, child.lineno, in_function)
            yield from walk(child, inner)

    yield from walk(ast.parse(path.read_text()), False)


IMPORTS = [i for module, path in MODULES.items() for i in _imports(module, path)
           if i.target == "dnlint" or i.target.startswith("dnlint.")]


def _registry_load(imported: Import) -> bool:
    """A package's ``__init__`` importing its own member inside a function."""
    return (imported.in_function and MODULES[imported.source].name == "__init__.py"
            and imported.target.startswith(imported.source + "."))


def _unit(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _edges(imports: list[Import]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {module: set() for module in MODULES}
    for imported in imports:
        if imported.target in MODULES and imported.target != imported.source \
                and not _registry_load(imported):
            edges[imported.source].add(imported.target)
    return edges


def test_the_sources_are_read() -> None:
    assert {"dnlint.pipeline", "dnlint.run.engine", "dnlint.lsp.server"} <= MODULES.keys()
    assert any(i.source == "dnlint.run.engine" and i.target == "dnlint.pipeline"
               for i in IMPORTS)


def test_no_import_circle() -> None:
    assert _circles(_edges(IMPORTS)) == KNOWN_CIRCLES


def test_a_circle_is_found() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(edges) == [["a", "b", "c"]]


def test_no_stage_imports_a_later_one() -> None:
    rank = {unit: at for at, group in enumerate(STAGES) for unit in group}
    units = {_unit(module) for module in MODULES} - {""}
    assert units <= rank.keys(), "a new top-level module or package needs its place in STAGES"
    later = [f"{i.source}:{i.line} imports {i.target}" for i in IMPORTS
             if _unit(i.source) and _unit(i.target)
             and rank[_unit(i.target)] > rank[_unit(i.source)]
             and (i.source, i.target) not in KNOWN_LATER]
    assert later == []


def test_no_private_name_of_another_package() -> None:
    def package(module: str) -> str:
        return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    private = [f"{i.source}:{i.line} imports {i.target}.{i.name}" for i in IMPORTS
               if i.name is not None and i.name.startswith("_") and not i.name.startswith("__")
               and i.target in MODULES and package(i.target) != package(i.source)]
    assert private == []


def test_no_source_file_is_over_600_lines() -> None:
    """Each stage readable in one sitting: a file that grows past it splits along its seam."""
    sizes = {module: len(path.read_text().splitlines()) for module, path in MODULES.items()}
    assert {module: lines for module, lines in sizes.items()
            if lines > MAX_LINES and module not in KNOWN_LONG} == {}
