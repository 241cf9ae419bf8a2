"""``dnlint --fix``: the edits that repair a finding with one right answer.

After the lint, before the pipeline: a fixer reads a linted file (a ``FileResult``); the
pipeline attaches the fixes and runs the passes (:func:`dnlint.pipeline.fix_document`).

Each fixable rule says so in its registry entry (``fix="safe"`` or ``"unsafe"``); its fixer,
registered here under the rule's code, turns one diagnostic into byte edits of the original
file (:class:`~dnlint.edits.Fix`), or into nothing when this occurrence has no single
right answer. :func:`attach_fixes` hangs the fixes on the diagnostics of a result, so every
reporter can mark what ``--fix`` repairs; :mod:`dnlint.fixes.run` applies them.
"""

from __future__ import annotations

from bisect import bisect_right

from dnlint.diagnostics import Diagnostic, Severity, replace
from dnlint.edits import Edit, Fix, Source
from dnlint.result import FileResult
from dnlint.rules import get_rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    from dnlint.network.layers.base import Layer
    from dnlint.read.darknet_reader import Section


class FixContext:
    """What a fixer reads: the original bytes and the lint of them, with look-ups built once
    per file (a fixer runs once per finding, and a file may have thousands)."""

    def __init__(self, source: Source, result: FileResult) -> None:
        self.source = source
        self.result = result
        self._section_lines: list[int] | None = None
        self._layers: dict[int, tuple[Layer, int]] | None = None

    def section_at(self, line: int) -> Section | None:
        """The section that holds line ``line``."""
        document = self.result.document
        if document is None:
            return None
        if self._section_lines is None:
            self._section_lines = [section.line for section in document.sections]
        index = bisect_right(self._section_lines, line) - 1
        return document.sections[index] if index >= 0 else None

    def layer_of(self, section: Section) -> tuple[Layer, int] | None:
        """The layer built from ``section``, and its position in the network."""
        if self._layers is None:
            network = self.result.network
            layers = network.layers if network is not None else []
            self._layers = {id(layer.values.section): (layer, position)
                            for position, layer in enumerate(layers) if layer.values is not None}
        return self._layers.get(id(section))


Fixer: TypeAlias = "Callable[[Diagnostic, FixContext], list[Edit] | None]"
# fixes that change a shape or which option is read (see Fix.structural)
STRUCTURAL = frozenset({"DN201", "DN401", "DN404"})
FIXERS: dict[str, Fixer] = {}


def fixer(*codes: str) -> Callable[[Fixer], Fixer]:
    """Register a fixer for ``codes`` (each must be declared with ``fix=`` in the registry)."""
    def register(function: Fixer) -> Fixer:
        for code in codes:
            FIXERS[code] = function
        return function

    return register


def _load() -> None:
    # a registry's load: the fixer modules import fixer() from this package, so they load on
    # first use, not at its import
    from dnlint.fixes import head_fixers, text  # noqa: F401 - they register their fixers


# A fatal reading problem that is itself the thing to fix (hank-ai stops at a BOM). Every
# other fatal one (binary, HTML, LFS pointer, UTF-16) leaves the file untouched.
FIXABLE_WHEN_FATAL = frozenset({"DN014"})


def attach_fixes(result: FileResult, data: bytes) -> None:
    """Give each diagnostic of ``result`` about this file the fix its rule's fixer finds.

    A file with a fatal reading problem (binary, HTML, LFS pointer, UTF-16) or a NUL byte
    (Darknet glues lines there: no line edit could be trusted) gets none, except the BOM's.
    """
    wanted = [d for d in result.diagnostics if d.path == result.path and get_rule(d.code).fix]
    if result.document is not None and result.document.fatal:
        wanted = [d for d in wanted if d.code in FIXABLE_WHEN_FATAL]  # hank stops at a BOM
    if not wanted or result.document is None or b"\0" in data:
        return
    _load()
    context = FixContext(Source(data), result)
    fixed: dict[int, Diagnostic] = {}
    for diagnostic in wanted:
        function = FIXERS.get(diagnostic.code)
        edits = function(diagnostic, context) if function is not None else None
        if edits:
            safe = get_rule(diagnostic.code).fix == "safe"
            structural = diagnostic.code in STRUCTURAL
            is_error = diagnostic.severity is Severity.ERROR
            fixed[id(diagnostic)] = replace(diagnostic, fix=Fix(tuple(edits), safe, structural,
                                                                is_error))
    if fixed:
        result.diagnostics = [fixed.get(id(d), d) for d in result.diagnostics]
