"""Which rule catches each silently accepted input (the rows of §silent in
docs/darknet-format.md), generated from the rule registry: ``python -m dnlint.docgen.coverage``.

A row is covered when a rule names it in its ``reference``; rows deliberately left unchecked are
listed in :data:`NOT_CHECKED` with the reason.
"""

from __future__ import annotations

import re

from dnlint.rules import Rule, all_rules

SECTIONS = {
    "L": ("Lexing and file structure", 16),
    "N": ("[net] values", 12),
    "R": ("Layer references", 8),
    "S": ("Shapes and arithmetic", 35),
    "W": ("Weights", 10),
}

# Reference rows dnlint deliberately does not check, with the reason.
NOT_CHECKED: dict[str, str] = {}

_ROW = re.compile(r"\b([LNRSW]\d+)\b")


def row_ids() -> list[str]:
    return [f"{prefix}{i}" for prefix, (_, count) in SECTIONS.items() for i in range(1, count + 1)]


def rules_by_row() -> dict[str, list[Rule]]:
    table: dict[str, list[Rule]] = {row: [] for row in row_ids()}
    for declared in all_rules():
        for row in _ROW.findall(declared.reference):
            if row in table:
                table[row].append(declared)
    return table


def render() -> str:
    table = rules_by_row()
    lines = [
        "# Coverage of Darknet's silent acceptances",
        "",
        "Every row of [what Darknet accepts without a word](darknet-format.md#silent) and the",
        "dnlint rules that catch it. Generated from the rule registry by",
        "`python -m dnlint.docgen.coverage`; a test fails when this page is stale or a row has",
        "neither a rule nor a reason.",
    ]
    for prefix, (title, _) in SECTIONS.items():
        lines += ["", f"## {title}", "", "| row | rules |", "|---|---|"]
        for row in (r for r in row_ids() if r.startswith(prefix)):
            found = table[row]
            cell = ", ".join(f"`{r.code}` {r.name}" for r in found) or (
                f"not checked: {NOT_CHECKED.get(row, '(missing)')}"
            )
            lines.append(f"| [{row}](darknet-format.md#{row}) | {cell} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
