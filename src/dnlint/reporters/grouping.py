"""Repeats of one finding, shown once: the text formats' view of a file's diagnostics.

The same rule with the same message on many lines (72 times 'mish' under --dialect pjreddie)
is one mistake made many times: the text and concise formats print the first in full and then
"and 71 more: lines ...". Machine formats (JSON, SARIF, GitHub, JUnit) keep one record per line.
"""

from __future__ import annotations

from dnlint.diagnostics import Diagnostic
from dnlint.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_LINES_SHOWN = 20


class Shown(NamedTuple):  # not a frozen dataclass: start-up
    """One diagnostic to print, and the lines of its repeats (none for a single finding)."""

    diagnostic: Diagnostic
    repeats: tuple[int | None, ...] = ()

    @property
    def more(self) -> str | None:
        """'and 71 more: lines 12, 40, ...', or None without repeats."""
        if not self.repeats:
            return None
        lines = [str(line) for line in self.repeats[:MAX_LINES_SHOWN] if line is not None]
        listed = ", ".join(lines) + (", ..." if len(self.repeats) > MAX_LINES_SHOWN else "")
        where = f": line{'s' if len(self.repeats) > 1 else ''} {listed}" if lines else ""
        return f"and {len(self.repeats)} more{where}"


def group_repeats(diagnostics: Sequence[Diagnostic]) -> list[Shown]:
    """``diagnostics`` in order, each repeat (same file, rule, severity and message) folded
    into the first one."""
    first: dict[tuple[str, str, str, str], int] = {}
    shown: list[Diagnostic] = []
    repeats: list[list[int | None]] = []
    for diag in diagnostics:
        key = (diag.path, diag.code, diag.severity.value, diag.message)
        at = first.get(key)
        if at is None:
            first[key] = len(shown)
            shown.append(diag)
            repeats.append([])
        else:
            repeats[at].append(diag.line)
    return [Shown(diag, tuple(more)) for diag, more in zip(shown, repeats, strict=True)]
