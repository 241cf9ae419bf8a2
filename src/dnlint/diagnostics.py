"""Diagnostics: what every stage reports, and the sink that collects them."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dnlint.clean import printable
from dnlint.severity import Severity

__all__ = ["Diagnostic", "Severity", "Sink", "new_diagnostic"]

if TYPE_CHECKING:
    from dnlint.fixes.edits import Fix




@dataclass(frozen=True, order=True, slots=True)  # slots: no __dict__ per finding
class Diagnostic:
    """One finding. Sorts by position so reports are deterministic."""

    line: int | None
    column: int | None
    code: str
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    hint: str | None = field(default=None, compare=False)
    path: str = field(default="", compare=False)
    # a finding in a binary file (.weights): the bytes it is about, instead of line and column
    byte_offset: int | None = field(default=None, compare=False)
    byte_length: int | None = field(default=None, compare=False)
    # the edit that repairs it (dnlint.fixes), when the rule has one and it applies here
    fix: Fix | None = field(default=None, compare=False)

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line or 0, self.column or 0, self.code)


def new_diagnostic(
    code: str,
    line: int | None,
    column: int | None,
    message: str,
    hint: str | None = None,
    path: str = "",
    severity: Severity | None = None,
    region: tuple[int, int] | None = None,
) -> Diagnostic:
    """A diagnostic of rule ``code``: its severity from the registry unless overridden, and
    no control characters (cfg text or file names quoted in it must not drive a terminal).
    ``region`` is (byte offset, byte length) for a finding in a binary file."""
    from dnlint.rules import get_rule

    level = severity if severity is not None else get_rule(code).severity
    message = printable(message)
    if hint is not None:
        hint = printable(hint)
    if region is None:
        return Diagnostic(line, column, code, level, message, hint, path)
    return Diagnostic(line, column, code, level, message, hint, path, region[0], region[1])


class Sink:
    """Collects diagnostics for one file; severity comes from the rule registry, and ``path``
    is stamped on each as it is made (a copy per diagnostic afterwards doubled their memory)."""

    def __init__(self, path: str = "") -> None:
        self.items: list[Diagnostic] = []
        self.path = path

    def report(
        self,
        code: str,
        line: int | None,
        column: int | None,
        message: str,
        hint: str | None = None,
        severity: Severity | None = None,
    ) -> Diagnostic:
        # interned: a hostile file repeats one finding a million times, and each copy of its
        # text cost more than the bytes that caused it
        diag = new_diagnostic(code, line, column, sys.intern(message),
                              None if hint is None else sys.intern(hint), self.path, severity)
        self.items.append(diag)
        return diag

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)
