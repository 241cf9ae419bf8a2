"""A section header line as Darknet's readers take it: its name, and why it is malformed (DN019)
or spaced (DN024). For the reader (:mod:`.darknet_reader`).
"""

from __future__ import annotations

from dnlint.diagnostics import Severity
from dnlint.dialects import Dialect
from dnlint.read.document import LexFinding


def header_name(stripped: str) -> str:
    """The name of a stripped header line: the text between '[' and the first ']' (or the rest
    of the line when there is no ']')."""
    close = stripped.find("]")
    return stripped[1:close] if close > 0 else stripped[1:]


def header_problem(stripped: str) -> tuple[str, str | None] | None:
    """Why a stripped header line is malformed (DN019), as (message, hint), or None when it is
    a well-formed ``[name]``. Darknet's read_cfg keeps such a line as a section whose name
    matches no layer type."""
    close = stripped.find("]")
    if close < 0:
        return f"section header '{stripped}' has no closing ']'", None
    name = stripped[1:close]
    if not name:
        return "section header '[]' names no section", None
    if close != len(stripped) - 1:
        trailing = stripped[close + 1 :]
        return (f"text '{trailing}' after ']': Darknet takes the whole line '{stripped}' as the "
                "section name, which matches no layer type (hank-ai's Darknet ignores the text)",
                f"put comments on a line of their own above [{name}]")
    return None


def spaced_header(name: str, number: int, column: int) -> LexFinding:
    """DN024: blanks inside a well-formed header, which Darknet's strip deletes."""
    return LexFinding(
        "DN024", number, column,
        f"whitespace inside the section header; Darknet deletes it and reads [{name}] "
        "(hank-ai's Darknet keeps it and rejects the name)",
        f"write [{name}]",
        by_dialect={Dialect.HANK: Severity.ERROR},
    )
